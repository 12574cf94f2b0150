package supervisor

import (
	"errors"
	"sync"
	"time"

	"feedback/ipc/uiproto"
)

// One life of the UI process, as UIProcess runs it: its start (outside the
// lock), its Hello, its commands and signals in order (the writer), its
// events (the reader: a question window's go to the core.WindowOwner), its
// heartbeat, its linger, sleep and exit, and its restart after a crash.

// uiProc is one run of the UI process.
type uiProc struct {
	gen     uint64        // its number: core.WindowOwner.Claim, Reshow
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
	stop func() error     // Child.Stop and Continue: nil where it cannot sleep
	cont func() error
}

// outItem is what the writer carries out: a command to send, or a signal
// (SIGSTOP, SIGCONT) to give, in the order they were queued.
type outItem struct {
	m      uiproto.Command
	signal func(*uiProc)
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
		if missed := p.missed; missed >= misses {
			u.mu.Unlock() // missed is read under the lock: a Pong handled now resets p.missed
			u.log.Error("the UI process does not answer (stopped or hung); killing and restarting it",
				"unanswered_pings", missed, "for", time.Duration(missed)*interval)
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
// (Options.OnMismatch). An error closing the channel first is
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
// shows in it every window the core.WindowOwner has open (Reshow).
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
// calls it makes (to the core.WindowOwner, the app) after the unlock.
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
// core.WindowOwner.
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
