package core

import (
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// DefaultLinger is how long the UI process stays after its last window
// closed, so that a burst of questions finds it warm.
const DefaultLinger = 2 * time.Minute

// UIChild is a started UI process as the core holds it.
type UIChild struct {
	// Channel is the core's end of the UI protocol's channel.
	Channel io.ReadWriteCloser
	// Wait waits for the process to exit (and reaps it).
	Wait func() error
	// Kill ends the process at once, even a stopped one (SIGKILL); nil
	// when it cannot be killed (the channel is closed instead).
	Kill func() error
	// Stop and Continue stop the process (SIGSTOP) and let it go on
	// (SIGCONT); nil where it cannot sleep: a stopped process must die
	// with the app (Linux's parent-death signal), or it would stay behind
	// when the app is killed.
	Stop, Continue func() error
}

// UIStarter starts a UI process.
type UIStarter func() (UIChild, error)

// DefaultHeartbeat is how often the core pings a running UI process, and
// DefaultHeartbeatMisses how many pings in a row it may leave unanswered
// before it is taken for hung: killed, and restarted with its windows.
const (
	DefaultHeartbeat       = 5 * time.Second
	DefaultHeartbeatMisses = 3
)

// UIProcessOptions configure a UIProcess.
type UIProcessOptions struct {
	// Start starts a UI process (app: `feedback ui` with an inherited
	// socket).
	Start UIStarter
	// Linger is how long the UI process stays after its last window
	// closed: zero means DefaultLinger, less than zero that it exits at
	// once.
	Linger time.Duration
	// OnIdle, if set, is called when the UI process exited as asked (its
	// linger time passed) and none runs, or went to sleep (Sleep): the
	// app is idle from then on.
	OnIdle func()
	// Sleep: once the linger time has passed, the UI process is stopped
	// (no CPU; it keeps its memory) instead of ended, where it can be
	// (UIChild.Stop) and says it may be (uiproto.Sleeping), and let go on
	// by the next command: the next window opens as fast as in a running
	// one. Where it cannot sleep it ends as without Sleep.
	Sleep bool
	Log   *slog.Logger
	// Heartbeat is how often a running UI process is pinged (zero:
	// DefaultHeartbeat) and HeartbeatMisses how many pings in a row it may
	// leave unanswered (zero: DefaultHeartbeatMisses) before it is killed
	// and restarted.
	Heartbeat       time.Duration
	HeartbeatMisses int
	// OnNote, if set, is called with a note the user sent from the note
	// window (the app keeps it: Inbox.AddNote).
	OnNote func(uiproto.Note)
	// Build is the app's build (what `feedback version` prints): a UI
	// process must say the same, and uiproto.Version, in its Hello.
	Build string
	// OnMismatch, if set, is called once when a UI process is of another
	// build or protocol than the app (its binary was replaced under the
	// running app): that process is ended and no other is started, so the
	// user is told to restart the app (questions stay open and persisted).
	OnMismatch func(error)
	// Requests answers the app windows' requests (uiproto.Request: the
	// History window's pages, the Settings window's values and saves):
	// the UI process opens neither the database nor the settings file.
	Requests UIRequests
	// Settings, if set, are sent first to each UI process (SetSettings
	// changes them): the app alone reads, watches and writes the settings
	// file (the Settings window's edits come as uiproto.SaveSettings).
	Settings *uiproto.Settings
}

// WindowOwner is who owns the question windows a UIProcess shows: the
// inbox. The UIProcess reports their events to it and, after a restart,
// asks it what to show again; it keeps no window, draft or deadline of
// its own. Its methods are called from any goroutine, WindowsOpen, Claim
// and Reshow holding the UIProcess's lock: they must not call back into
// it.
type WindowOwner interface {
	// WindowEvent hands over an event of a question window: uiproto.Shown,
	// Found, Snooze, CountdownChanged, Done or Closed.
	WindowEvent(ev uiproto.Event)
	// WindowDraft hands over a draft of a window, open or closing, as
	// the UI process reports it (its images by reference once they have
	// crossed: the owner rebuilds the whole draft, uiproto.DraftImages).
	WindowDraft(e uiproto.DraftChanged)
	// WindowsOpen is how many question windows are shown: while there
	// is one, the UI process does not linger, and one that dies is
	// restarted.
	WindowsOpen() int
	// Claim reports whether window id, shown, has not been sent to UI
	// process ui yet, and records that it is.
	Claim(id string, ui uint64) bool
	// Reshow lists, oldest first, the shown windows not sent to UI
	// process ui yet (a new one, after a crash), as ui is to show them
	// (quiet), and records that they are.
	Reshow(ui uint64) []uiproto.Show
}

// UIProcess is the resident app's WindowPresenter: it owns the UI process
// and nothing else. It starts one when a window needs it (fork/exec
// outside its lock: the commands queue meanwhile), checks its Hello, pings
// it, lets it sleep or end Linger after the last window closed, and
// restarts it if it dies while windows are open (after 0, 1, 2, 4 … 30 s
// when it keeps dying), asking the WindowOwner (the inbox) what to show
// again. A running UI process is pinged every Heartbeat; one that leaves
// HeartbeatMisses pings in a row unanswered (stopped, hung) is logged,
// killed and restarted like a crashed one.
//
// Each window's state — whether it is shown, its latest draft, its
// deadline, whether the user saw it — is the inbox's (windows.go).
type UIProcess struct {
	opts  UIProcessOptions
	log   *slog.Logger
	clock uiClock // realClock; a test sets its own before the first call

	mu       sync.Mutex
	owner    WindowOwner // Bind
	proc     *uiProc     // the running UI process (or the one starting), or nil
	gen      uint64      // numbers the UI processes (uiProc.gen)
	linger   uiTimer     // ends the UI process once no window is open
	restart  uiTimer     // starts it again after a crash
	failures int         // consecutive crashes or failed starts: the backoff
	quitAsk  chan bool   // the pending ConfirmQuit's answer
	appWins  int         // the app's own windows open in the UI process (history, settings…)
	stopped  bool
	// mismatch, once set, is why no UI process is started any more: one
	// was of another build (see UIProcessOptions.OnMismatch).
	mismatch error
}

// uiProc is one run of the UI process.
type uiProc struct {
	gen     uint64        // its number: WindowOwner.Claim, Reshow
	out     chan outItem  // commands and signals, carried out in order by the writer goroutine once greeted
	greeted chan struct{} // closed when its Hello matched the app's: commands flow
	ended   chan struct{} // closed when its channel closed, or it could not be started
	exiting bool          // the core asked it to exit: no restart; guarded by UIProcess.mu
	// sleepAsked: Sleep was sent and no command since, so its Sleeping may
	// stop it; asleep: it is stopped (or about to be: the writer signals
	// it). Guarded by UIProcess.mu.
	sleepAsked, asleep bool
	// missed counts the pings in a row not answered yet; guarded by
	// UIProcess.mu.
	missed int

	// Set once it has started (start), before its goroutines run; mu
	// guards them against end, which may come first.
	mu   sync.Mutex
	dead bool             // end was called
	conn *uiproto.AppConn // nil until started
	kill func() error     // ends the process at once; nil: closing conn is all there is
	stop func() error     // UIChild.Stop and Continue: nil where it cannot sleep
	cont func() error
}

// outItem is what the writer carries out: a command to send, or a signal
// (SIGSTOP, SIGCONT) to give, in the order they were queued.
type outItem struct {
	m      uiproto.Command
	signal func(*uiProc)
}

var _ WindowPresenter = (*UIProcess)(nil)

// NewUIProcess returns a WindowPresenter that shows windows in UI
// processes that opts.Start starts.
func NewUIProcess(opts UIProcessOptions) *UIProcess {
	if opts.Linger == 0 {
		opts.Linger = DefaultLinger
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultHeartbeat
	}
	if opts.HeartbeatMisses <= 0 {
		opts.HeartbeatMisses = DefaultHeartbeatMisses
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &UIProcess{opts: opts, log: log, clock: realClock{}}
}

// Bind implements WindowPresenter.
func (u *UIProcess) Bind(o WindowOwner) {
	u.mu.Lock()
	u.owner = o
	u.mu.Unlock()
}

// Show implements Presenter; the inbox calls ShowWindow instead.
func (u *UIProcess) Show(q wire.Question, shown func(), done func(wire.Answer)) {
	u.ShowWindow(uiproto.Show{Question: q})
}

// ShowWindow implements WindowPresenter: m goes to the UI process,
// started if none runs, unless it is backing off after a crash (the
// restart shows the window: Reshow).
func (u *UIProcess) ShowWindow(m uiproto.Show) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stopped {
		return
	}
	u.stopLingerLocked()
	if p := u.ensureLocked(); p != nil && u.owner != nil && u.owner.Claim(m.Question.ID, p.gen) {
		u.sendLocked(p, m)
	}
}

// Withdraw implements Presenter: the UI process closes window id (which
// reports its last draft first).
func (u *UIProcess) Withdraw(id string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.proc != nil {
		u.sendLocked(u.proc, uiproto.Withdraw{ID: id})
	}
	u.lingerLocked()
}

// Focus implements Presenter.
func (u *UIProcess) Focus(id string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.proc != nil {
		u.sendLocked(u.proc, uiproto.Focus{ID: id})
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

// SetSleep changes whether the UI process sleeps once the linger time
// has passed (the settings changed); one asleep now ends when it is
// turned off.
func (u *UIProcess) SetSleep(on bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.opts.Sleep = on
	if p := u.proc; !on && p != nil && (p.asleep || p.sleepAsked) {
		u.log.Info("sleeping turned off: the UI process exits")
		u.exitLocked(p)
	}
}

// SetSettings changes the settings the UI process applies to its words
// and to the windows opened from now on (the settings changed): sent to
// the running UI process, and first to each one started from now on.
func (u *UIProcess) SetSettings(s uiproto.Settings) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.opts.Settings = &s
	if u.proc != nil {
		u.sendLocked(u.proc, s)
	}
}

// Running reports whether a UI process runs (or is starting).
func (u *UIProcess) Running() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.proc != nil
}

// Prewarm starts the UI process if none runs and has it prepare its first
// window without showing it (uiproto.Warm), so that the next window opens
// warm; with no window it lingers, then sleeps or ends, as usual.
func (u *UIProcess) Prewarm() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stopped || u.proc != nil {
		return
	}
	if p := u.ensureLocked(); p != nil {
		u.log.Info("UI process started in advance (ui_prewarm)")
		u.sendLocked(p, uiproto.Warm{})
		u.lingerLocked()
	}
}

// OpenWindow has the UI process open one of the app's own windows
// (uiproto.WindowHistory, uiproto.WindowSettings), starting it if needed.
func (u *UIProcess) OpenWindow(name uiproto.WindowName) {
	u.openWindow(uiproto.OpenWindow{Window: name})
}

// openWindow sends m, starting the UI process if needed.
func (u *UIProcess) openWindow(m uiproto.OpenWindow) {
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
		u.sendLocked(p, uiproto.Notify{Title: title, Body: body})
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
	u.sendLocked(p, uiproto.ConfirmQuit{Open: open})
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
// unreported draft first (to the WindowOwner, which records it), and Close
// waits up to wait for that, then kills it. Nothing is shown afterwards.
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
		u.log.Warn("the UI process did not exit in time; killing it", "wait", wait)
		p.end() // a stopped one too: nothing is left behind
	}
}

// windowsOpenLocked reports whether a question window is shown.
func (u *UIProcess) windowsOpenLocked() bool {
	return u.owner != nil && u.owner.WindowsOpen() > 0
}

// ensureLocked returns the running UI process, starting one if needed; nil
// if it cannot be started now (a restart is scheduled). A new one starts
// on its own goroutine (start), outside the lock: what is sent to it
// queues until its Hello, and no caller or event waits for the fork.
func (u *UIProcess) ensureLocked() *uiProc {
	if u.proc != nil {
		return u.proc
	}
	// Backing off after a crash (the timer starts it), or of another
	// build than the app (no point in starting it again).
	if u.restart != nil || u.mismatch != nil {
		return nil
	}
	u.gen++
	p := &uiProc{gen: u.gen, out: make(chan outItem, 1024), greeted: make(chan struct{}), ended: make(chan struct{})}
	u.proc = p
	if u.opts.Settings != nil { // before any window
		u.sendLocked(p, *u.opts.Settings)
	}
	go u.start(p, u.opts.Heartbeat, u.opts.HeartbeatMisses)
	return p
}

// start starts p's process, then runs p: its writer, its heartbeat, and
// its reader on this goroutine until it ends. One that cannot be started
// ends at once, and is tried again after a backoff.
func (u *UIProcess) start(p *uiProc, heartbeat time.Duration, misses int) {
	c, err := u.opts.Start()
	if err != nil {
		u.log.Error("starting the UI process", "err", err)
		close(p.ended)
		u.mu.Lock()
		if u.proc == p {
			u.proc = nil
			u.appWins = 0
		}
		u.scheduleRestartLocked()
		u.mu.Unlock()
		return
	}
	p.mu.Lock()
	p.conn, p.kill, p.stop, p.cont = uiproto.NewAppConn(c.Channel), c.Kill, c.Stop, c.Continue
	dead := p.dead
	p.mu.Unlock()
	if dead { // ended while it started
		p.end()
	}
	u.log.Info("UI process started")
	go u.write(p)
	go u.heartbeat(p, heartbeat, misses)
	u.read(p, c.Wait)
}

// canSleep reports whether p can be stopped and continued.
func (p *uiProc) canSleep() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stop != nil && p.cont != nil
}

// sendLocked queues m for p, waking p first if it sleeps (it lingers
// again from then on). A UI process that does not take its commands (1024
// queued) is taken for hung: it is killed and restarted like a crashed
// one.
func (u *UIProcess) sendLocked(p *uiProc, m uiproto.Command) {
	p.sleepAsked = false
	if p.asleep {
		p.asleep = false
		p.missed = 0
		u.queueItemLocked(p, outItem{signal: func(p *uiProc) {
			if err := p.cont(); err != nil {
				u.log.Error("waking the UI process", "err", err)
			}
		}})
		u.log.Info("UI process woken", "for", m.Type())
		if _, exit := m.(uiproto.Exit); !exit {
			defer u.lingerLocked() // it sleeps again once idle
		}
	}
	u.queueLocked(p, m)
}

// queueLocked queues m for p as it is (the heartbeat's pings neither wake
// p nor take back a Sleep).
func (u *UIProcess) queueLocked(p *uiProc, m uiproto.Command) {
	u.queueItemLocked(p, outItem{m: m})
}

func (u *UIProcess) queueItemLocked(p *uiProc, it outItem) {
	select {
	case p.out <- it:
	default:
		u.log.Error("the UI process does not read its commands; killing and restarting it")
		go p.end()
	}
}

// end ends p at once: killed (a stopped process too), its channel closed.
// Its reader then sees the channel close and restarts it as after a crash.
// One still starting is ended once started.
func (p *uiProc) end() {
	p.mu.Lock()
	p.dead = true
	kill, conn := p.kill, p.conn
	p.mu.Unlock()
	if kill != nil {
		kill()
	}
	if conn != nil {
		conn.Close()
	}
}

// heartbeat pings p every interval until it ends; misses pings in a row
// unanswered and it is taken for hung (stopped, or no longer reading): the
// failure is logged and p killed, which restarts it with its windows.
func (u *UIProcess) heartbeat(p *uiProc, interval time.Duration, misses int) {
	t := u.clock.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-p.ended:
			return
		case <-t.C():
		}
		u.mu.Lock()
		if p.asleep { // stopped on purpose: not pinged
			u.mu.Unlock()
			continue
		}
		if p.missed >= misses {
			u.mu.Unlock()
			u.log.Error("the UI process does not answer (stopped or hung); killing and restarting it",
				"unanswered_pings", p.missed, "for", time.Duration(p.missed)*interval)
			p.end()
			return
		}
		p.missed++
		u.queueLocked(p, uiproto.Ping{})
		u.mu.Unlock()
	}
}

// write carries out p's commands and signals in order, from the moment
// its Hello matched: the signals (SIGSTOP, SIGCONT) are given here, never
// holding the lock.
func (u *UIProcess) write(p *uiProc) {
	select {
	case <-p.greeted:
	case <-p.ended:
		return
	}
	for {
		select {
		case it := <-p.out:
			if it.signal != nil {
				it.signal(p)
				continue
			}
			if err := p.conn.Send(it.m); err != nil {
				u.log.Warn("sending to the UI process", "type", it.m.Type(), "err", err)
				p.conn.Close()
				return
			}
		case <-p.ended:
			return
		}
	}
}

// read checks p's Hello, then handles its events until its channel
// closes; then it reaps p and, unless it was asked to exit or is of another
// build, shows the open windows in a new one.
func (u *UIProcess) read(p *uiProc, wait func() error) {
	err := u.greet(p)
	for err == nil {
		var ev uiproto.Event
		if ev, err = p.conn.Receive(); err == nil {
			u.handle(p, ev)
		}
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
	open := u.windowsOpenLocked()
	if u.mismatch != nil {
		u.log.Error("the UI process is of another build than the app: no UI process is started until the app is restarted",
			"err", u.mismatch, "windows_open", open)
		return
	}
	u.log.Error("the UI process ended unexpectedly", "read", err, "exit", werr, "windows_open", open)
	if !open {
		return
	}
	u.scheduleRestartLocked()
}

// greet reads p's first event, which must be a Hello of the app's build and
// protocol; then p's commands flow. A UI process that says anything else
// (another build: the binary was replaced under the running app; an older
// one that does not say hello) is ended, and no other is started
// (UIProcessOptions.OnMismatch). An error closing the channel first is
// returned as it is: a crash.
func (u *UIProcess) greet(p *uiProc) error {
	ev, err := p.conn.Receive()
	var unknown *uiproto.UnknownTypeError
	if err != nil && !errors.As(err, &unknown) { // the channel broke: a crash
		return err
	}
	if err == nil {
		hello, ok := ev.(uiproto.Hello)
		if !ok {
			hello.Build = "(said " + ev.Type() + " first)"
		}
		err = uiproto.CheckHello(uiproto.Hello{Protocol: uiproto.Version, Build: u.opts.Build}, hello)
	}
	if err == nil {
		close(p.greeted)
		return nil
	}
	u.mu.Lock()
	first := u.mismatch == nil
	u.mismatch = err
	u.mu.Unlock()
	p.end()
	if first && u.opts.OnMismatch != nil {
		go u.opts.OnMismatch(err)
	}
	return err
}

// scheduleRestartLocked starts the UI process again after a backoff and
// shows in it every window the WindowOwner has open (Reshow).
func (u *UIProcess) scheduleRestartLocked() {
	if u.restart != nil || u.stopped {
		return
	}
	delay := time.Duration(0)
	if u.failures > 0 {
		delay = min(time.Second<<(u.failures-1), 30*time.Second)
	}
	u.failures++
	u.restart = u.clock.AfterFunc(delay, func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		u.restart = nil
		if u.stopped || u.proc != nil || !u.windowsOpenLocked() {
			return
		}
		p := u.ensureLocked()
		if p == nil {
			return
		}
		shows := u.owner.Reshow(p.gen)
		u.log.Info("showing the open windows again in a new UI process", "windows", len(shows))
		for _, m := range shows {
			u.sendLocked(p, m)
		}
	})
}

// handle applies one event of p: its state under the lock, then the
// calls it makes (to the WindowOwner, the app) after the unlock.
func (u *UIProcess) handle(p *uiProc, ev uiproto.Event) {
	u.mu.Lock()
	after := u.applyLocked(p, ev)
	u.mu.Unlock()
	for _, f := range after {
		f()
	}
}

// applyLocked applies ev to the state and returns what to call once the
// lock is released. The events of a question window go to the
// WindowOwner.
func (u *UIProcess) applyLocked(p *uiProc, ev uiproto.Event) (after []func()) {
	owner := u.owner
	if owner == nil {
		owner = noOwner{}
	}
	switch e := ev.(type) {
	case uiproto.Pong:
		p.missed = 0
	case uiproto.Sleeping:
		return u.sleepLocked(p, e)
	case uiproto.Shown:
		u.failures = 0 // a window made it to the screen: the process works
		after = append(after, func() { owner.WindowEvent(e) })
	case uiproto.Found, uiproto.Snooze, uiproto.CountdownChanged, uiproto.Closed:
		after = append(after, func() { owner.WindowEvent(e) })
	case uiproto.DraftChanged:
		after = append(after, func() { owner.WindowDraft(e) })
	case uiproto.Done:
		after = append(after, func() {
			owner.WindowEvent(e)
			u.mu.Lock()
			u.lingerLocked()
			u.mu.Unlock()
		})
	case uiproto.Note:
		if on := u.opts.OnNote; on != nil {
			after = append(after, func() { on(e) })
		}
	case uiproto.AppWindows:
		if u.proc == p || u.proc == nil {
			u.appWins = max(e.Open, 0)
		}
		if u.appWins == 0 {
			u.lingerLocked()
		} else {
			u.stopLingerLocked()
		}
	case uiproto.QuitAnswer:
		if ask := u.quitAsk; ask != nil {
			after = append(after, func() {
				select {
				case ask <- e.Confirmed:
				default:
				}
			})
		}
	case uiproto.Request: // an app window's (uirequests.go)
		after = append(after, func() { u.answer(p, e) })
	default: // a second Hello
		u.log.Warn("unexpected event from the UI process", "type", ev.Type())
	}
	return after
}

// noOwner owns no window: a UIProcess not bound to an inbox.
type noOwner struct{}

func (noOwner) WindowEvent(uiproto.Event)        {}
func (noOwner) WindowDraft(uiproto.DraftChanged) {}
func (noOwner) WindowsOpen() int                 { return 0 }
func (noOwner) Claim(string, uint64) bool        { return false }
func (noOwner) Reshow(uint64) []uiproto.Show     { return nil }

// lingerLocked ends the UI process Linger from now if no window is open and
// nothing is being asked.
func (u *UIProcess) lingerLocked() {
	if u.quitAsk != nil || u.appWins > 0 || u.proc == nil || u.linger != nil || u.windowsOpenLocked() {
		return
	}
	p := u.proc
	end := func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		u.linger = nil
		if u.proc != p || u.quitAsk != nil || u.appWins > 0 || u.windowsOpenLocked() {
			return
		}
		if u.opts.Sleep && p.canSleep() {
			u.log.Info("no window open: the UI process goes to sleep", "linger", u.opts.Linger)
			u.sendLocked(p, uiproto.Sleep{})
			p.sleepAsked = true
			return
		}
		u.log.Info("no window open: the UI process exits", "linger", u.opts.Linger)
		u.exitLocked(p)
	}
	if u.opts.Linger < 0 {
		u.linger = u.clock.AfterFunc(0, end)
		return
	}
	u.linger = u.clock.AfterFunc(u.opts.Linger, end)
}

// sleepLocked has p, which said it may sleep, stopped (by the writer, in
// order with the commands) if nothing was sent to it since it was asked
// and it is still idle; one that refused ends.
func (u *UIProcess) sleepLocked(p *uiProc, e uiproto.Sleeping) (after []func()) {
	if !p.sleepAsked || u.proc != p || u.quitAsk != nil || u.appWins > 0 || u.windowsOpenLocked() {
		return nil // a command came after the Sleep: it stays awake for it
	}
	p.sleepAsked = false
	if e.Refused != "" {
		u.log.Info("the UI process cannot sleep: it exits", "why", e.Refused)
		u.exitLocked(p)
		return nil
	}
	p.asleep = true
	u.queueItemLocked(p, outItem{signal: func(p *uiProc) {
		if err := p.stop(); err != nil {
			u.log.Warn("stopping the UI process: it exits instead", "err", err)
			u.mu.Lock()
			if p.asleep {
				p.asleep = false
				u.exitLocked(p)
			}
			u.mu.Unlock()
		}
	}})
	u.log.Info("UI process asleep")
	if u.opts.OnIdle != nil {
		after = append(after, u.opts.OnIdle)
	}
	return after
}

// exitLocked asks p, the running UI process, to exit. It is no longer the
// running one: a window shown from now on starts another.
func (u *UIProcess) exitLocked(p *uiProc) {
	p.exiting = true
	u.sendLocked(p, uiproto.Exit{})
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
