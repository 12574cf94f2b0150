package core

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"feedback/store"
	"feedback/wire"
)

// The UI protocol: newline-delimited JSON messages (UIMsg) in both
// directions over the private channel between the core and its UI process.
// The core sends the UI* commands and the UI process answers with the
// UIEvent* events. The channel is inherited by the UI process at its start
// (a socketpair on Unix, its standard input and output on Windows): no
// other process can reach it.
const (
	// Commands, core → UI process.
	UIShow        = "show"         // open a window: Question, Draft, Countdown; Quiet: without taking the focus
	UIWithdraw    = "withdraw"     // close window ID without an answer (its draft is reported first)
	UIFocus       = "focus"        // raise window ID
	UIConfirmQuit = "confirm_quit" // ask the user whether to quit with Open questions open
	UIOpenWindow  = "open_window"  // open an app window: Window names it ("history", "settings", …)
	UINotify      = "notify"       // show a desktop notification through the toolkit: Title, Body
	UIPing        = "ping"         // answer UIEventPong at once (the core's heartbeat)

	// Events, UI process → core.
	UIEventReady      = "ready"       // the UI process runs and takes commands
	UIEventShown      = "shown"       // window ID is on screen (Unfocused: it did not take the focus)
	UIEventDraft      = "draft"       // the user's draft in window ID
	UIEventCountdown  = "countdown"   // window ID's countdown changed
	UIEventDone       = "done"        // window ID ended with Answer
	UIEventClosed     = "closed"      // window ID, withdrawn, is closed: nothing more comes for it
	UIEventQuit       = "quit"        // the answer to UIConfirmQuit: Confirmed
	UIEventAppWindows = "app_windows" // Open of the app's own windows (history, settings…) are open
	UIEventFound      = "found"       // window ID was found: the user first typed in it, edited it or came to it
	UIEventNote       = "note"        // the user sent Note from the note window (notes.go)
	UIEventPong       = "pong"        // the answer to UIPing: the UI process runs and reads its commands
)

// MaxUIMsgBytes bounds one message of the UI protocol: a question (at most
// ipc.MaxBodyBytes) or a draft or answer with its images.
const MaxUIMsgBytes = 96 << 20

// UIMsg is one message of the UI protocol; Type says which fields are set.
type UIMsg struct {
	Type      string         `json:"type"`
	ID        string         `json:"id,omitempty"`
	Question  *wire.Question `json:"question,omitempty"`
	Draft     *store.Draft   `json:"draft,omitempty"`
	Countdown *Countdown     `json:"countdown,omitempty"`
	Answer    *wire.Answer   `json:"answer,omitempty"`
	Open      int            `json:"open,omitempty"`      // UIConfirmQuit
	Confirmed bool           `json:"confirmed,omitempty"` // UIEventQuit
	Unfocused bool           `json:"unfocused,omitempty"` // UIEventShown
	Quiet     bool           `json:"quiet,omitempty"`     // UIShow: a window shown again after a restart
	Window    string         `json:"window,omitempty"`    // UIOpenWindow
	Title     string         `json:"title,omitempty"`     // UINotify
	Body      string         `json:"body,omitempty"`      // UINotify
	// NoteChoices are the note window's choices (UIOpenWindow "note").
	NoteChoices *NoteChoices `json:"note_choices,omitempty"`
	Note        *UINote      `json:"note,omitempty"` // UIEventNote
}

// Countdown is the state of a window's countdown as the UI process reports
// it, so that a window shown again after the UI process restarted goes on
// where it was: running to Deadline, held by the user's edit, pinned, or
// none (all zero).
type Countdown struct {
	Deadline time.Time `json:"deadline,omitzero"`
	Held     bool      `json:"held,omitempty"`
	Pinned   bool      `json:"pinned,omitempty"`
	// Left is, while Pinned, the time that was left when the user pinned.
	Left time.Duration `json:"left,omitempty"`
}

// Running reports whether the countdown runs to a deadline.
func (c Countdown) Running() bool { return !c.Deadline.IsZero() && !c.Held && !c.Pinned }

// UIConn is one end of the UI protocol's channel. Send is safe for
// concurrent use; Receive is for one reader.
type UIConn struct {
	rw  io.ReadWriteCloser
	r   *bufio.Reader
	wmu sync.Mutex
}

// NewUIConn speaks the UI protocol over rw.
func NewUIConn(rw io.ReadWriteCloser) *UIConn {
	return &UIConn{rw: rw, r: bufio.NewReaderSize(rw, 64<<10)}
}

// Send writes m as one line.
func (c *UIConn) Send(m UIMsg) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encoding the %s message: %w", m.Type, err)
	}
	if len(b) >= MaxUIMsgBytes {
		return fmt.Errorf("the %s message is %d bytes, over the UI protocol's %d", m.Type, len(b), MaxUIMsgBytes)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.rw.Write(append(b, '\n'))
	return err
}

// errUIMsgTooLong is returned by Receive for a line over MaxUIMsgBytes.
var errUIMsgTooLong = errors.New("a UI protocol message is over MaxUIMsgBytes")

// Receive reads the next message; io.EOF when the other end closed.
func (c *UIConn) Receive() (UIMsg, error) {
	var line []byte
	for {
		chunk, err := c.r.ReadSlice('\n')
		if len(line)+len(chunk) > MaxUIMsgBytes {
			return UIMsg{}, errUIMsgTooLong
		}
		line = append(line, chunk...)
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) && len(bytes.TrimSpace(line)) > 0 {
			return UIMsg{}, io.ErrUnexpectedEOF
		}
		return UIMsg{}, err
	}
	var m UIMsg
	if err := json.Unmarshal(line, &m); err != nil {
		return UIMsg{}, fmt.Errorf("a malformed UI protocol message: %w", err)
	}
	return m, nil
}

// Close closes the channel: the other end's Receive returns io.EOF.
func (c *UIConn) Close() error { return c.rw.Close() }
