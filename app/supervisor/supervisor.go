package supervisor

import (
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"feedback/app/clock"
	"feedback/app/core"
	"feedback/ipc/uiproto"
)

// DefaultLinger is how long the UI process stays after its last window
// closed, so that a burst of questions finds it warm.
const DefaultLinger = 2 * time.Minute

// Child is a started UI process as the core holds it.
type Child struct {
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

// Starter starts a UI process.
type Starter func() (Child, error)

// DefaultHeartbeat is how often the core pings a running UI process, and
// DefaultHeartbeatMisses how many pings in a row it may leave unanswered
// before it is taken for hung: killed, and restarted with its windows.
const (
	DefaultHeartbeat       = 5 * time.Second
	DefaultHeartbeatMisses = 3
)

// Options configure a UIProcess.
type Options struct {
	// Start starts a UI process (app: `feedback ui` with an inherited
	// socket).
	Start Starter
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
	// (Child.Stop) and says it may be (uiproto.Sleeping), and let go on
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
	// window (the app keeps it for its agent: package notes).
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
	Requests Requests
	// Settings, if set, are sent first to each UI process (SetSettings
	// changes them): the app alone reads, watches and writes the settings
	// file (the Settings window's edits come as uiproto.SaveSettings).
	Settings *uiproto.Settings
	// Clock times the heartbeat, the linger time and the restarts (nil:
	// the wall clock).
	Clock clock.Clock
}

// UIProcess is the resident app's core.Presenter: it owns the UI process
// and nothing else. It starts one when a window needs it (fork/exec
// outside its lock: the commands queue meanwhile), checks its Hello, pings
// it, lets it sleep or end Linger after the last window closed, and
// restarts it if it dies while windows are open (after 0, 1, 2, 4 … 30 s
// when it keeps dying), asking the core.WindowOwner (the inbox) what to show
// again. A running UI process is pinged every Heartbeat; one that leaves
// HeartbeatMisses pings in a row unanswered (stopped, hung) is logged,
// killed and restarted like a crashed one.
//
// Each window's state — whether it is shown, its latest draft, its
// deadline, whether the user saw it — is the inbox's (windows.go).
type UIProcess struct {
	opts  Options
	log   *slog.Logger
	clock clock.Clock // opts.Clock

	mu       sync.Mutex
	owner    core.WindowOwner // Bind
	proc     *uiProc          // the running UI process (or the one starting), or nil
	gen      uint64           // numbers the UI processes (uiProc.gen)
	linger   clock.Timer      // ends the UI process once no window is open
	restart  clock.Timer      // starts it again after a crash
	failures int              // consecutive crashes or failed starts: the backoff
	quitAsk  chan bool        // the pending ConfirmQuit's answer
	appWins  int              // the app's own windows open in the UI process (history, settings…)
	stopped  bool
	// mismatch, once set, is why no UI process is started any more: one
	// was of another build (see Options.OnMismatch).
	mismatch error
}

var _ core.Presenter = (*UIProcess)(nil)

// New returns a core.Presenter that shows windows in UI
// processes that opts.Start starts.
func New(opts Options) *UIProcess {
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
	return &UIProcess{opts: opts, log: log, clock: clock.Or(opts.Clock)}
}

// Bind implements core.Presenter.
func (u *UIProcess) Bind(o core.WindowOwner) {
	u.mu.Lock()
	u.owner = o
	u.mu.Unlock()
}

// ShowWindow implements core.Presenter: m goes to the UI process,
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

// Withdraw implements core.Presenter: the UI process closes window id (which
// reports its last draft first).
func (u *UIProcess) Withdraw(id string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.proc != nil {
		u.sendLocked(u.proc, uiproto.Withdraw{ID: id})
	}
	u.lingerLocked()
}

// Focus implements core.Presenter.
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

// OpenNoteWindow has the UI process open the note window with c (a note
// for an agent).
func (u *UIProcess) OpenNoteWindow(c uiproto.NoteChoices) {
	u.openWindow(uiproto.OpenWindow{Window: uiproto.WindowNote, Note: &c})
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
// unreported draft first (to the core.WindowOwner, which records it), and Close
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
	waited, stop := clock.After(u.clock, wait)
	defer stop()
	select {
	case <-p.ended:
	case <-waited:
		u.log.Warn("the UI process did not exit in time; killing it", "wait", wait)
		p.end() // a stopped one too: nothing is left behind
	}
}
