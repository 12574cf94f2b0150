package core

import (
	"sort"
	"time"

	"feedback/app/clock"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// The inbox owns each question's window: whether it is shown, its latest
// draft (entry.draft), its deadline and whether the user has seen it. The
// Presenter (the supervisor's UIProcess) only carries windows to and from a
// UI process: it reports their events here (WindowEvent, WindowDraft) and,
// after a restart, asks what to show again (Reshow).

// DefaultTimeoutGrace is how long after a window's deadline the inbox waits
// for the UI process to report the timeout (the window says "Time is up"
// for dialogs.ClosingFor first) before it ends the question itself.
const DefaultTimeoutGrace = 3 * time.Second

// WindowOwner is who owns the question windows a Presenter shows:
// the inbox. The presenter (package supervisor's UIProcess) reports their
// events to it and, after a restart, asks it what to show again; it keeps
// no window, draft or deadline of its own. Its methods are called from any
// goroutine, WindowsOpen, Claim and Reshow holding the presenter's lock:
// they must not call back into it.
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

// window is an entry's window while the presenter shows it. Guarded by
// Inbox.mu.
type window struct {
	seq   uint64    // orders the windows for a restart
	since time.Time // when the inbox showed it
	cd    *wire.Countdown
	// deadline is when the question times out: from its time limit at
	// first, then as the UI reports its countdown; zero while there is
	// none (no limit, held, pinned). expire fires TimeoutGrace after it.
	deadline time.Time
	expire   clock.Timer
	// unseen: the user has not typed in it nor edited it yet (found, a
	// draft); see Inbox.OnUnseenEnd.
	unseen bool
	// ui is the UI process it was sent to (Claim, Reshow): zero, none yet.
	ui uint64
}

var _ WindowOwner = (*Inbox)(nil)

// SetDefaultTimeout changes the countdown of the questions that set none
// (wire.Question.TimeoutSeconds 0), for the windows shown from now on: the
// settings' timeout_seconds; zero means none.
func (in *Inbox) SetDefaultTimeout(d time.Duration) {
	in.mu.Lock()
	in.defaultTimeout = d
	in.mu.Unlock()
}

// limitLocked is q's time limit: its own, else the default; zero or less
// means none.
func (in *Inbox) limitLocked(q wire.Question) time.Duration {
	switch {
	case q.TimeoutSeconds > 0:
		return time.Duration(q.TimeoutSeconds) * time.Second
	case q.TimeoutSeconds == 0:
		return in.defaultTimeout
	}
	return 0
}

// showWindow records that e's window opens with its latest draft and has
// the Presenter show it.
func (in *Inbox) showWindow(e *entry) {
	in.mu.Lock()
	if in.open[e.q.ID] != e { // ended meanwhile
		in.mu.Unlock()
		return
	}
	draft := e.draft
	in.winSeq++
	w := &window{seq: in.winSeq, since: in.clock.Now(), unseen: draft == nil}
	in.dropWindowLocked(e)
	e.win = w
	delete(in.closing, e.q.ID)
	in.setDeadlineLocked(e, w.since.Add(in.limitLocked(e.q)))
	m := uiproto.Show{Question: e.q, Draft: draft}
	in.mu.Unlock()
	in.p.ShowWindow(m)
}

// dropWindowLocked forgets e's window, which closed: its deadline no
// longer runs. It returns the window, nil if none was shown.
func (in *Inbox) dropWindowLocked(e *entry) *window {
	w := e.win
	if w == nil {
		return nil
	}
	e.win = nil
	if w.expire != nil {
		w.expire.Stop()
		w.expire = nil
	}
	return w
}

// closeWindow closes e's window, whose last draft may still come; ended:
// its question ended (withdrawn), so a window the user never saw leaves a
// notice (OnUnseenEnd). Nothing when no window is shown.
func (in *Inbox) closeWindow(e *entry, ended bool) {
	in.mu.Lock()
	w := in.dropWindowLocked(e)
	if w != nil {
		in.closing[e.q.ID] = e
	}
	on := in.opts.OnUnseenEnd
	in.mu.Unlock()
	if w == nil {
		return
	}
	if ended && w.unseen && on != nil {
		go on(e.q, false)
	}
	in.p.Withdraw(e.q.ID)
}

// setDeadlineLocked makes d, if after the window's start, e's deadline
// (else it has none) and arms the timer that times e out TimeoutGrace
// after it.
func (in *Inbox) setDeadlineLocked(e *entry, d time.Time) {
	w := e.win
	if !d.After(w.since) {
		d = time.Time{}
	}
	if w.expire != nil {
		w.expire.Stop()
		w.expire = nil
	}
	w.deadline = d
	if d.IsZero() {
		return
	}
	w.expire = in.clock.AfterFunc(d.Sub(in.clock.Now())+in.opts.TimeoutGrace, func() { in.timeOut(e, w, d) })
}

// timeOut ends e as timed out if its window w is still open with deadline
// d: the UI process did not end it on time (stopped, hung, or down). Its
// window is withdrawn (a last draft it reports is still recorded).
func (in *Inbox) timeOut(e *entry, w *window, d time.Time) {
	in.mu.Lock()
	if in.open[e.q.ID] != e || e.win != w || !w.deadline.Equal(d) || in.closed {
		in.mu.Unlock()
		return
	}
	in.dropWindowLocked(e)
	in.closing[e.q.ID] = e
	on := in.opts.OnUnseenEnd
	in.mu.Unlock()
	in.log.Warn("the UI process did not end a question at its deadline: the app times it out",
		"id", e.q.ID, "deadline", d)
	in.p.Withdraw(e.q.ID)
	in.answered(e, wire.Answer{Status: wire.StatusTimeout, ElapsedMS: in.clock.Now().Sub(w.since).Milliseconds()})
	if w.unseen && on != nil {
		on(e.q, true)
	}
}

// shownEntryLocked is the open question whose window id is shown, or nil.
func (in *Inbox) shownEntryLocked(id string) *entry {
	if e := in.open[id]; e != nil && e.win != nil {
		return e
	}
	return nil
}

// WindowEvent implements WindowOwner: it applies an event of a question's
// window (uiproto.Shown, Found, Snooze, CountdownChanged, Done, Closed).
// An event of a window that is not shown (withdrawn, timed out) is
// dropped, but for the outcome of one that was closing (the user answered
// as it was withdrawn), which is the question's as Inbox.answered says.
func (in *Inbox) WindowEvent(ev uiproto.Event) {
	switch m := ev.(type) {
	case uiproto.Shown:
		in.mu.Lock()
		e := in.shownEntryLocked(m.ID)
		on := in.opts.OnUnfocused
		in.mu.Unlock()
		if e == nil {
			return
		}
		e.shownOnce.Do(func() { close(e.shown) })
		if m.Unfocused && on != nil {
			on(e.q)
		}
	case uiproto.Found:
		in.mu.Lock()
		e := in.shownEntryLocked(m.ID)
		if e != nil {
			e.win.unseen = false
		}
		on := in.opts.OnFound
		in.mu.Unlock()
		if e != nil && on != nil {
			on(e.q)
		}
	case uiproto.Snooze:
		in.mu.Lock()
		shown := in.shownEntryLocked(m.ID) != nil
		s := wire.Snooze{UntilBack: m.UntilBack}
		if !m.UntilBack {
			s.Until = in.clock.Now().Add(time.Duration(max(m.Minutes, 1)) * time.Minute)
		}
		in.mu.Unlock()
		if !shown {
			return
		}
		for _, h := range in.hooks { // package snooze
			if h.Snooze != nil {
				h.Snooze(m.ID, s)
			}
		}
	case uiproto.CountdownChanged:
		in.mu.Lock()
		if e := in.shownEntryLocked(m.ID); e != nil {
			cd := m.Countdown
			e.win.cd = &cd
			var d time.Time
			if cd.Running() {
				d = cd.Deadline
			}
			in.setDeadlineLocked(e, d)
		}
		in.mu.Unlock()
	case uiproto.Done:
		in.mu.Lock()
		e := in.shownEntryLocked(m.ID)
		var w *window
		if e != nil {
			w = in.dropWindowLocked(e)
		} else if e = in.closing[m.ID]; e != nil {
			// Answered as it was withdrawn: answered keeps a real answer
			// for the caller that comes back.
			delete(in.closing, m.ID)
		}
		on := in.opts.OnUnseenEnd
		in.mu.Unlock()
		if e == nil {
			return
		}
		a := m.Answer
		in.answered(e, a)
		if w != nil && w.unseen && a.Status == wire.StatusTimeout && on != nil {
			on(e.q, true)
		}
	case uiproto.Closed:
		in.mu.Lock()
		delete(in.closing, m.ID)
		in.mu.Unlock()
	}
}

// WindowDraft implements WindowOwner: ev reports the draft of its window,
// open or closing (its last draft, reported as it closed). Rebuilt whole
// (the images it refers to crossed before: entry.images), it is the
// question's latest draft from now on, recorded in the database.
func (in *Inbox) WindowDraft(ev uiproto.DraftChanged) {
	id := ev.ID
	in.mu.Lock()
	e := in.shownEntryLocked(id)
	if e == nil {
		if e = in.closing[id]; e == nil {
			in.mu.Unlock()
			return
		}
	}
	d, err := e.images.Apply(ev)
	if err != nil {
		in.mu.Unlock()
		in.log.Warn("a draft from the UI process ignored", "id", id, "err", err)
		return
	}
	if e.win != nil {
		e.win.unseen = false // an edit: the user was there
	}
	e.draft = &d
	in.mu.Unlock()
	in.rec.draft(id, func() wire.Draft {
		in.mu.Lock()
		defer in.mu.Unlock()
		return *e.draft
	})
}

// WindowsOpen implements WindowOwner: how many windows are shown.
func (in *Inbox) WindowsOpen() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	n := 0
	for _, e := range in.open {
		if e.win != nil {
			n++
		}
	}
	return n
}

// Claim implements WindowOwner.
func (in *Inbox) Claim(id string, ui uint64) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	e := in.shownEntryLocked(id)
	if e == nil || e.win.ui == ui {
		return false
	}
	e.win.ui = ui
	return true
}

// Reshow implements WindowOwner: every shown window not yet sent to UI
// process ui, oldest first, quiet (it does not take the focus), with its
// latest draft and its countdown where it was — as the UI last reported it,
// else running to the inbox's deadline. The windows closing in the UI
// process before are gone with it.
func (in *Inbox) Reshow(ui uint64) []uiproto.Show {
	in.mu.Lock()
	defer in.mu.Unlock()
	clear(in.closing)
	var es []*entry
	for _, e := range in.open {
		if e.win != nil && e.win.ui != ui {
			e.win.ui = ui
			es = append(es, e)
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].win.seq < es[j].win.seq })
	ms := make([]uiproto.Show, 0, len(es))
	for _, e := range es {
		m := uiproto.Show{Question: e.q, Draft: e.draft, Countdown: e.win.cd, Quiet: true}
		if m.Countdown == nil && !e.win.deadline.IsZero() {
			m.Countdown = &wire.Countdown{Deadline: e.win.deadline}
		}
		ms = append(ms, m)
	}
	return ms
}
