package uiproto

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// MaxMsgBytes bounds one message: a question (at most ipc.MaxBodyBytes) or
// a draft or answer with its images.
const MaxMsgBytes = 96 << 20

// ErrTooLong is returned by Receive for a line over MaxMsgBytes.
var ErrTooLong = errors.New("a UI protocol message is over MaxMsgBytes")

// UnknownTypeError is returned by Receive for a message whose type this
// side does not know (or that goes the other way).
type UnknownTypeError struct{ Type string }

func (e *UnknownTypeError) Error() string {
	return fmt.Sprintf("an unknown UI protocol message %q", e.Type)
}

// envelope is a message on the wire.
type envelope struct {
	Type string          `json:"type"`
	Body json.RawMessage `json:"body,omitempty"`
}

// message is a Command or an Event.
type message interface{ Type() string }

// The decoders of each side's messages by type.
var (
	commands = table(as[Settings, Command], as[Show, Command], as[Withdraw, Command], as[Focus, Command], as[ConfirmQuit, Command],
		as[OpenWindow, Command], as[Notify, Command], as[Ping, Command], as[Warm, Command], as[Sleep, Command], as[Exit, Command],
		as[HistoryPage, Command], as[HistoryImages, Command], as[SettingsFile, Command], as[SettingsSaved, Command])
	events = table(as[Hello, Event], as[Shown, Event], as[DraftChanged, Event], as[CountdownChanged, Event],
		as[Done, Event], as[Closed, Event], as[Found, Event], as[Snooze, Event], as[QuitAnswer, Event], as[AppWindows, Event],
		as[Note, Event], as[Pong, Event], as[Sleeping, Event],
		as[HistoryQuery, Event], as[HistoryImagesQuery, Event], as[SettingsQuery, Event], as[SaveSettings, Event])
)

// decoder decodes a message's body (nil: its zero value).
type decoder[M message] func(body json.RawMessage) (M, error)

// table maps each decoder's message type to it.
func table[M message](decs ...decoder[M]) map[string]decoder[M] {
	t := make(map[string]decoder[M], len(decs))
	for _, dec := range decs {
		zero, _ := dec(nil)
		t[zero.Type()] = dec
	}
	return t
}

// as decodes a body into a T, returned as an M (Command or Event).
func as[T message, M message](body json.RawMessage) (M, error) {
	var v T
	if len(body) > 0 {
		if err := json.Unmarshal(body, &v); err != nil {
			var zero M
			return zero, err
		}
	}
	return any(v).(M), nil
}

// conn is the line framing of both sides.
type conn struct {
	rw  io.ReadWriteCloser
	r   *bufio.Reader
	wmu sync.Mutex
}

func newConn(rw io.ReadWriteCloser) conn {
	return conn{rw: rw, r: bufio.NewReaderSize(rw, 64<<10)}
}

// send writes msg in its envelope as one line; safe for concurrent use.
func (c *conn) send(msg message) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encoding the %s message: %w", msg.Type(), err)
	}
	if string(body) == "{}" {
		body = nil
	}
	b, err := json.Marshal(envelope{Type: msg.Type(), Body: body})
	if err != nil {
		return fmt.Errorf("encoding the %s message: %w", msg.Type(), err)
	}
	if len(b) >= MaxMsgBytes {
		return fmt.Errorf("the %s message is %d bytes, over the UI protocol's %d", msg.Type(), len(b), MaxMsgBytes)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.rw.Write(append(b, '\n'))
	return err
}

// receive reads the next line's envelope; io.EOF when the other end closed.
func (c *conn) receive() (envelope, error) {
	var line []byte
	for {
		chunk, err := c.r.ReadSlice('\n')
		if len(line)+len(chunk) > MaxMsgBytes {
			return envelope{}, ErrTooLong
		}
		line = append(line, chunk...)
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) && len(bytes.TrimSpace(line)) > 0 {
			return envelope{}, io.ErrUnexpectedEOF
		}
		return envelope{}, err
	}
	var e envelope
	if err := json.Unmarshal(line, &e); err != nil {
		return envelope{}, fmt.Errorf("a malformed UI protocol message: %w", err)
	}
	return e, nil
}

// decode reads the next message of one side's table.
func decode[M message](c *conn, table map[string]decoder[M]) (M, error) {
	var zero M
	e, err := c.receive()
	if err != nil {
		return zero, err
	}
	dec, ok := table[e.Type]
	if !ok {
		return zero, &UnknownTypeError{Type: e.Type}
	}
	m, err := dec(e.Body)
	if err != nil {
		return zero, fmt.Errorf("a malformed UI protocol %s message: %w", e.Type, err)
	}
	return m, nil
}

// AppConn is the app's end of the channel: it sends commands and receives
// events. Send is safe for concurrent use; Receive is for one reader.
type AppConn struct{ c conn }

// NewAppConn speaks the protocol over rw as the app.
func NewAppConn(rw io.ReadWriteCloser) *AppConn { return &AppConn{c: newConn(rw)} }

// Send writes cmd as one line.
func (a *AppConn) Send(cmd Command) error { return a.c.send(cmd) }

// Receive reads the next event; io.EOF when the UI process closed its
// end, ErrTooLong, an *UnknownTypeError or a decoding error for a bad one.
func (a *AppConn) Receive() (Event, error) { return decode(&a.c, events) }

// Close closes the channel: the other end's Receive returns io.EOF.
func (a *AppConn) Close() error { return a.c.rw.Close() }

// UIConn is the UI process's end of the channel: it sends events and
// receives commands. Send is safe for concurrent use; Receive is for one
// reader.
type UIConn struct{ c conn }

// NewUIConn speaks the protocol over rw as the UI process.
func NewUIConn(rw io.ReadWriteCloser) *UIConn { return &UIConn{c: newConn(rw)} }

// Send writes ev as one line.
func (u *UIConn) Send(ev Event) error { return u.c.send(ev) }

// Receive reads the next command; io.EOF when the app closed its end,
// ErrTooLong, an *UnknownTypeError or a decoding error for a bad one.
func (u *UIConn) Receive() (Command, error) { return decode(&u.c, commands) }

// Close closes the channel: the other end's Receive returns io.EOF.
func (u *UIConn) Close() error { return u.c.rw.Close() }
