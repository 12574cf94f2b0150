package core

import (
	"errors"
	"io"
	"log/slog"
	"sort"
	"sync"
	"time"

	"feedback/store"
	"feedback/wire"
)

// UIExit is the command that ends the UI process: it closes every window
// (each reports its unreported draft first), then its end of the channel.
const UIExit = "exit"

// DefaultLinger is how long the UI process stays after its last window
// closed, so that a burst of questions finds it warm.
const DefaultLinger = 2 * time.Minute

// UIStarter starts a UI process and returns the core's end of its channel
// and a function that waits for the process to exit (and reaps it).
type UIStarter func() (ch io.ReadWriteCloser, wait func() error, err error)

// UIProcessOptions configure a UIProcess.
type UIProcessOptions struct {
	// Start starts a UI process (app: `feedback ui` with an inherited
	// socket).
	Start UIStarter
	// Linger is how long the UI process stays after its last window
	// closed: zero means DefaultLinger, less than zero that it exits at
	// once.
	Linger time.Duration
	// OnUnfocused, if set, is called when a window opened without taking
	// the focus (the user was typing in another one): the app notifies.
	OnUnfocused func(q wire.Question)
	// OnUnseenEnd, if set, is called when a window ends before the user
	// typed in it or edited it (UIEventFound, UIEventDraft), whether or
	// not it opened with the focus: its agent withdrew it, or it timed out
	// (timedOut). The app leaves a notification, so that nothing
	// disappears silently. A window shown with a restored draft was seen.
	OnUnseenEnd func(q wire.Question, timedOut bool)
	// OnIdle, if set, is called when the UI process exited as asked (its
	// linger time passed) and none runs: the app is idle from then on.
	OnIdle func()
	Log    *slog.Logger
	// OnNote, if set, is called with a note the user sent from the note
	// window (the app keeps it: Inbox.AddNote).
	OnNote func(UINote)
}

// UIProcess is the resident app's Presenter: the windows live in a UI
// process that it starts when a question needs one, and lets go Linger
// after the last one closed. If the UI process dies while windows are open
// it is started again (after 0, 1, 2, 4 … 30 s when it keeps dying) and
// every open window is shown again with its latest draft and its countdown
// where it was.
type UIProcess struct {
	opts UIProcessOptions
	log  *slog.Logger

	mu       sync.Mutex
	wins     map[string]*uiWin // open windows by question id
	proc     *uiProc           // the running UI process, or nil
	linger   *time.Timer       // ends the UI process once no window is open
	restart  *time.Timer       // starts it again after a crash
	failures int               // consecutive crashes or failed starts: the backoff
	quitAsk  chan bool         // the pending UIConfirmQuit's answer
	appWins  int               // the app's own windows open in the UI process (history, settings…)
	stopped  bool
	seq      uint64 // orders windows for a restart
}

// uiWin is an open window as the core remembers it, enough to show it
// again in a new UI process.
type uiWin struct {
	q     wire.Question
	h     Hooks
	draft *store.Draft // the latest draft, or the one restored at first
	cd    *Countdown   // as the UI last reported it
	seq   uint64
	// unseen: the user has not typed in it nor edited it yet (found,
	// a draft); see UIProcessOptions.OnUnseenEnd.
	unseen bool
}

// uiProc is one run of the UI process.
type uiProc struct {
	conn    *UIConn
	out     chan UIMsg    // commands, sent in order by the writer goroutine
	ended   chan struct{} // closed when the reader saw the channel close
	exiting bool          // the core asked it to exit: no restart; guarded by UIProcess.mu
	// closing are its withdrawn windows whose last draft may still come;
	// guarded by UIProcess.mu.
	closing map[string]Hooks
}

var _ DraftPresenter = (*UIProcess)(nil)

// NewUIProcess returns a Presenter that shows windows in UI processes that
// opts.Start starts.
func NewUIProcess(opts UIProcessOptions) *UIProcess {
	if opts.Linger == 0 {
		opts.Linger = DefaultLinger
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &UIProcess{opts: opts, log: log, wins: make(map[string]*uiWin)}
}

// Show implements Presenter.
func (u *UIProcess) Show(q wire.Question, shown func(), done func(wire.Answer)) {
	u.ShowDraft(q, nil, Hooks{Shown: shown, Draft: func(store.Draft) {}, Done: done})
}

// ShowDraft implements DraftPresenter.
func (u *UIProcess) ShowDraft(q wire.Question, draft *store.Draft, h Hooks) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stopped {
		return
	}
	u.seq++
	w := &uiWin{q: q, h: h, draft: draft, seq: u.seq, unseen: draft == nil}
	u.wins[q.ID] = w
	u.stopLingerLocked()
	if p := u.ensureLocked(); p != nil {
		u.sendLocked(p, showMsg(w))
	}
}

func showMsg(w *uiWin) UIMsg {
	q := w.q
	return UIMsg{Type: UIShow, ID: q.ID, Question: &q, Draft: w.draft, Countdown: w.cd}
}

// Withdraw implements Presenter.
func (u *UIProcess) Withdraw(id string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	w, ok := u.wins[id]
	if !ok {
		return
	}
	delete(u.wins, id)
	if w.unseen && u.opts.OnUnseenEnd != nil {
		go u.opts.OnUnseenEnd(w.q, false)
	}
	if u.proc != nil {
		u.proc.closing[id] = w.h
		u.sendLocked(u.proc, UIMsg{Type: UIWithdraw, ID: id})
	}
	u.lingerLocked()
}

// Focus implements Presenter.
func (u *UIProcess) Focus(id string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if _, ok := u.wins[id]; ok && u.proc != nil {
		u.sendLocked(u.proc, UIMsg{Type: UIFocus, ID: id})
	}
}

// SetLinger changes the linger time (the settings changed): zero means
// DefaultLinger, less than zero that the UI process exits with its last
// window. It applies from the next time the last window closes.
func (u *UIProcess) SetLinger(d time.Duration) {
	if d == 0 {
		d = DefaultLinger
	}
	u.mu.Lock()
	u.opts.Linger = d
	u.mu.Unlock()
}

// Open reports how many windows are open.
func (u *UIProcess) Open() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.wins)
}

// Running reports whether a UI process runs.
func (u *UIProcess) Running() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.proc != nil
}

// Prewarm starts the UI process if none runs, so that the next window
// opens warm; with no window it ends after the linger time as usual.
func (u *UIProcess) Prewarm() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stopped || u.proc != nil {
		return
	}
	if u.ensureLocked() != nil {
		u.log.Info("UI process started in advance (ui_prewarm)")
		u.lingerLocked()
	}
}

// OpenWindow has the UI process open one of the app's own windows
// ("history", "settings"), starting it if needed.
func (u *UIProcess) OpenWindow(name string) {
	u.openWindow(UIMsg{Type: UIOpenWindow, Window: name})
}

// openWindow sends m, an UIOpenWindow command, starting the UI process if
// needed.
func (u *UIProcess) openWindow(m UIMsg) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stopped {
		return
	}
	u.stopLingerLocked()
	if p := u.ensureLocked(); p != nil {
		u.sendLocked(p, m)
		// Until the UI process reports the window open, a linger timer
		// must not end it: count it now.
		u.appWins = max(u.appWins, 1)
	}
}

// Notify has the UI process show a desktop notification through its
// toolkit (where the app has no notifier of its own: Windows, macOS),
// starting it if needed; with no window it lingers and exits as usual.
func (u *UIProcess) Notify(title, body string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stopped {
		return
	}
	if p := u.ensureLocked(); p != nil {
		u.sendLocked(p, UIMsg{Type: UINotify, Title: title, Body: body})
		u.lingerLocked()
	}
}

// ErrNoUI is returned by ConfirmQuit when the UI process could not ask.
var ErrNoUI = errors.New("the UI process is not running")

// ConfirmQuit asks the user, in a dialog of the UI process, whether to quit
// with open questions open; it waits for the answer. It returns ErrNoUI if
// the UI process could not be started or died before the user answered.
func (u *UIProcess) ConfirmQuit(open int) (bool, error) {
	u.mu.Lock()
	if u.stopped {
		u.mu.Unlock()
		return false, ErrNoUI
	}
	if u.quitAsk != nil { // already asking: the first dialog answers
		u.mu.Unlock()
		return false, nil
	}
	u.stopLingerLocked()
	p := u.ensureLocked()
	if p == nil {
		u.mu.Unlock()
		return false, ErrNoUI
	}
	ask := make(chan bool, 1)
	u.quitAsk = ask
	u.sendLocked(p, UIMsg{Type: UIConfirmQuit, Open: open})
	u.mu.Unlock()

	var yes, ok bool
	select {
	case yes = <-ask:
		ok = true
	case <-p.ended:
	}
	u.mu.Lock()
	if u.quitAsk == ask {
		u.quitAsk = nil
	}
	u.lingerLocked()
	u.mu.Unlock()
	if !ok {
		return false, ErrNoUI
	}
	return yes, nil
}

// Close ends the UI process: its windows close, each reporting its
// unreported draft first (through the Hooks, so the inbox records it), and
// Close waits up to wait for that. Nothing is shown afterwards.
func (u *UIProcess) Close(wait time.Duration) {
	u.mu.Lock()
	u.stopped = true
	u.stopLingerLocked()
	if u.restart != nil {
		u.restart.Stop()
	}
	p := u.proc
	if p != nil {
		u.exitLocked(p)
	}
	u.mu.Unlock()
	if p == nil {
		return
	}
	select {
	case <-p.ended:
	case <-time.After(wait):
		u.log.Warn("the UI process did not exit in time; closing its channel", "wait", wait)
		p.conn.Close()
	}
}

// ensureLocked returns the running UI process, starting one if needed; nil
// if it cannot be started now (a restart is scheduled).
func (u *UIProcess) ensureLocked() *uiProc {
	if u.proc != nil {
		return u.proc
	}
	if u.restart != nil { // backing off after a crash: the timer starts it
		return nil
	}
	ch, wait, err := u.opts.Start()
	if err != nil {
		u.log.Error("starting the UI process", "err", err)
		u.scheduleRestartLocked()
		return nil
	}
	p := &uiProc{conn: NewUIConn(ch), out: make(chan UIMsg, 1024), ended: make(chan struct{}), closing: make(map[string]Hooks)}
	u.proc = p
	go u.write(p)
	go u.read(p, wait)
	u.log.Info("UI process started")
	return p
}

// sendLocked queues m for p. A UI process that does not take its commands
// (1024 queued) is taken for hung: its channel is closed and it is
// restarted like a crashed one.
func (u *UIProcess) sendLocked(p *uiProc, m UIMsg) {
	select {
	case p.out <- m:
	default:
		u.log.Error("the UI process does not read its commands; restarting it")
		p.conn.Close()
	}
}

func (u *UIProcess) write(p *uiProc) {
	for {
		select {
		case m := <-p.out:
			if err := p.conn.Send(m); err != nil {
				u.log.Warn("sending to the UI process", "type", m.Type, "err", err)
				p.conn.Close()
				return
			}
		case <-p.ended:
			return
		}
	}
}

// read handles p's events until its channel closes, then reaps it and,
// unless it was asked to exit, shows the open windows in a new one.
func (u *UIProcess) read(p *uiProc, wait func() error) {
	var err error
	for {
		var m UIMsg
		if m, err = p.conn.Receive(); err != nil {
			break
		}
		u.handle(p, m)
	}
	p.conn.Close()
	close(p.ended)
	werr := wait()

	u.mu.Lock()
	defer u.mu.Unlock()
	if u.proc == p {
		u.proc = nil
		u.appWins = 0 // gone with it
	}
	if p.exiting || u.stopped {
		u.log.Info("UI process exited")
		if u.proc == nil && !u.stopped && u.opts.OnIdle != nil {
			go u.opts.OnIdle()
		}
		return
	}
	u.log.Error("the UI process ended unexpectedly", "read", err, "exit", werr, "open_windows", len(u.wins))
	if len(u.wins) == 0 {
		return
	}
	u.scheduleRestartLocked()
}

// scheduleRestartLocked starts the UI process again after a backoff and
// shows every open window in it.
func (u *UIProcess) scheduleRestartLocked() {
	if u.restart != nil || u.stopped {
		return
	}
	delay := time.Duration(0)
	if u.failures > 0 {
		delay = min(time.Second<<(u.failures-1), 30*time.Second)
	}
	u.failures++
	u.restart = time.AfterFunc(delay, func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		u.restart = nil
		if u.stopped || u.proc != nil || len(u.wins) == 0 {
			return
		}
		p := u.ensureLocked()
		if p == nil {
			return
		}
		wins := make([]*uiWin, 0, len(u.wins))
		for _, w := range u.wins {
			wins = append(wins, w)
		}
		sort.Slice(wins, func(i, j int) bool { return wins[i].seq < wins[j].seq })
		u.log.Info("showing the open windows again in a new UI process", "windows", len(wins))
		for _, w := range wins {
			u.sendLocked(p, showMsg(w))
		}
	})
}

// handle applies one event of p.
func (u *UIProcess) handle(p *uiProc, m UIMsg) {
	u.mu.Lock()
	w := u.wins[m.ID]
	switch m.Type {
	case UIEventReady:
		u.mu.Unlock()
	case UIEventShown:
		u.failures = 0 // a window made it to the screen: the process works
		u.mu.Unlock()
		if w != nil {
			w.h.Shown()
			if m.Unfocused && u.opts.OnUnfocused != nil {
				u.opts.OnUnfocused(w.q)
			}
		}
	case UIEventFound:
		if w != nil {
			w.unseen = false
		}
		u.mu.Unlock()
	case UIEventDraft:
		var h *Hooks
		if w != nil {
			if m.Draft != nil {
				w.draft = m.Draft
			}
			w.unseen = false // an edit: the user was there
			h = &w.h
		} else if c, ok := p.closing[m.ID]; ok {
			h = &c
		}
		u.mu.Unlock()
		if h != nil && m.Draft != nil {
			h.Draft(*m.Draft)
		}
	case UIEventCountdown:
		if w != nil && m.Countdown != nil {
			w.cd = m.Countdown
		}
		u.mu.Unlock()
	case UIEventDone:
		if w == nil || m.Answer == nil {
			u.mu.Unlock()
			return
		}
		delete(u.wins, m.ID)
		u.lingerLocked()
		u.mu.Unlock()
		a := *m.Answer
		a.QuestionID = m.ID
		w.h.Done(a)
		if w.unseen && a.Status == wire.StatusTimeout && u.opts.OnUnseenEnd != nil {
			u.opts.OnUnseenEnd(w.q, true)
		}
	case UIEventClosed:
		delete(p.closing, m.ID)
		u.mu.Unlock()
	case UIEventNote:
		u.mu.Unlock()
		if m.Note != nil && u.opts.OnNote != nil {
			u.opts.OnNote(*m.Note)
		}
	case UIEventAppWindows:
		if u.proc == p || u.proc == nil {
			u.appWins = max(m.Open, 0)
		}
		if u.appWins == 0 {
			u.lingerLocked()
		} else {
			u.stopLingerLocked()
		}
		u.mu.Unlock()
	case UIEventQuit:
		ask := u.quitAsk
		u.mu.Unlock()
		if ask != nil {
			select {
			case ask <- m.Confirmed:
			default:
			}
		}
	default:
		u.mu.Unlock()
		u.log.Warn("unknown event from the UI process", "type", m.Type)
	}
}

// lingerLocked ends the UI process Linger from now if no window is open and
// nothing is being asked.
func (u *UIProcess) lingerLocked() {
	if len(u.wins) > 0 || u.quitAsk != nil || u.appWins > 0 || u.proc == nil || u.linger != nil {
		return
	}
	p := u.proc
	end := func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		u.linger = nil
		if u.proc != p || len(u.wins) > 0 || u.quitAsk != nil || u.appWins > 0 {
			return
		}
		u.log.Info("no window open: the UI process exits", "linger", u.opts.Linger)
		u.exitLocked(p)
	}
	if u.opts.Linger < 0 {
		u.linger = time.AfterFunc(0, end)
		return
	}
	u.linger = time.AfterFunc(u.opts.Linger, end)
}

// exitLocked asks p, the running UI process, to exit. It is no longer the
// running one: a window shown from now on starts another.
func (u *UIProcess) exitLocked(p *uiProc) {
	p.exiting = true
	u.sendLocked(p, UIMsg{Type: UIExit})
	if u.proc == p {
		u.proc = nil
	}
}

func (u *UIProcess) stopLingerLocked() {
	if u.linger != nil {
		u.linger.Stop()
		u.linger = nil
	}
}
