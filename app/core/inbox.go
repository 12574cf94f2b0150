package core

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"feedback/app/clock"
	"feedback/internal/procsession"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// Presenter puts the questions' windows in front of the user: the UI
// process's supervisor in the app (package supervisor), a double in tests
// and the load tests' fake app. It keeps no window's state: the inbox
// keeps every one's (windows.go), and the presenter reports their events
// to it. Its methods may be called from any goroutine and must not block
// on the user.
type Presenter interface {
	// Bind makes o the owner of its windows: it reports their events to o
	// (shown, found, drafts, snoozed, countdowns, outcomes, closed) and
	// asks o what to show again. New calls it, before ShowWindow.
	Bind(o WindowOwner)
	// ShowWindow opens the window m describes (its question, a draft to
	// restore, its countdown).
	ShowWindow(m uiproto.Show)
	// Withdraw closes the window of question id without an answer; it
	// reports its unreported draft first, then that it closed.
	Withdraw(id string)
	// Focus raises the window of question id.
	Focus(id string)
}

// Item is an open question as the tray menu lists it.
type Item struct {
	ID      string
	Title   string
	Client  string
	Project string
	Since   time.Time
	// Snoozed is the question's snooze, when it is snoozed (snooze.go).
	Snoozed *wire.Snooze
	// Approval: it asks to approve a tool call (wire.Question.IsApproval).
	Approval bool
}

// Inbox holds the open questions and routes each answer to its callers.
// It implements ipc.Asker. It owns every open question and every answer
// that no caller is waiting for (keptAnswers); callers (the shim, `feedback
// ask`) keep none.
//
// Who gets which window: a caller asking with the id of an open question
// that nobody waits for (its caller's wait ran out: "call again"; the shim
// was restarted; the app restarted and showed it again) attaches to it, and
// one asking with the id of an answer nobody received collects it. A caller
// asking while another caller still waits on the identical question (same
// id) gets a second window, with an id of its own (the ask id, "#", a
// random suffix); a caller coming back for it asks with the first id. An
// attach-only ask (wire.Ask.AttachOnly) attaches to any window of its id.
//
// One-shot clients (a new session, so a new id, for every call): an ask
// with a key (wire.Ask.Key: the same question from the same client and
// project, whatever the session) that finds nothing under its own id
// collects the answer kept under its key, or attaches to the window open
// under its key that nobody waits for, once the session that asked it has
// ended (wire.Ask.Session; sessionEnded) — never while that session lives,
// so a live session's concurrent identical question still gets a window of
// its own. An attached window then belongs to the new session (its callers
// ask with the new id). The log says where such an answer went ("kept answer
// delivered to another session"), and the store marks it delivered.
//
// With a Store it records each question when it opens, its drafts as
// the user types, whether it is kept open for a caller that comes back, and
// its outcome (delivered or kept) or its withdrawal; a new question first
// looks for an answer kept before a restart (returned at once) and for a
// draft (restored into the window). After a crash the questions that were
// kept open are shown again and the others withdrawn (their callers ask
// again). Every database call runs on the recorder's goroutine: a slow or
// locked database never holds up a window or a caller by more than
// LookupTimeout.
type Inbox struct {
	p     Presenter
	log   *slog.Logger
	rec   *recorder
	opts  Options // as New made them: they do not change
	clock clock.Clock
	hooks []Hooks // of opts.Features, in order

	// sessionEnded tells whether an asking session has certainly ended
	// (Options.SessionEnded); it is called holding mu, and must be quick.
	sessionEnded func(session string) bool

	mu       sync.Mutex        // guards open, kept, onChange, the window fields below, and every entry's askID, from, waiters, kept, hold, draft, images and win
	open     map[string]*entry // by window id (entry.q.ID)
	kept     keptAnswers
	onChange func()
	// closing are the questions whose window was closed (withdrawn,
	// snoozed, timed out) and may still report its last draft, by window
	// id, until it reports it closed.
	closing        map[string]*entry
	winSeq         uint64        // orders the windows (window.seq)
	defaultTimeout time.Duration // SetDefaultTimeout
	closed         bool          // Close was called: no deadline fires

}

// DefaultHold is Inbox.Hold of a new inbox: how long a question is kept
// open for a caller that said it would come back.
const DefaultHold = time.Hour

// entry is one open question (one window). Several callers may wait on it:
// asking again with its id attaches to it.
type entry struct {
	q         wire.Question // as shown: q.ID is the window's own id
	askID     string        // the id its callers ask with; guarded by Inbox.mu
	from      origin        // who asked it (a one-shot client's next session may take it over); guarded by Inbox.mu
	since     time.Time
	keepOpen  bool          // the ask that opened it said wire.Ask.KeepOpen: it outlives its callers
	waiters   int           // guarded by Inbox.mu
	kept      bool          // kept open for a caller that comes back; guarded by Inbox.mu
	hold      clock.Timer   // withdraws it when nobody came back; guarded by Inbox.mu
	shown     chan struct{} // closed when the window is on screen
	shownOnce sync.Once     // closes shown
	done      chan struct{} // closed when answer is set
	answer    wire.Answer
	at        time.Time // when answer was given

	// Snoozed (snooze.go): the window is closed until the snooze ends;
	// snoozeC is closed when the question is snoozed (it wakes the
	// callers) and replaced when it comes back. Guarded by Inbox.mu.
	snooze  *wire.Snooze
	snoozeC chan struct{}
	snoozes int // how many times it was snoozed
	// draft is the question's latest draft, the one place it is kept in
	// memory: restored into its window when it comes back (snoozed, held
	// back, the UI process restarted); the recorder writes it.
	draft *wire.Draft
	// images are the images of draft by the references the UI process
	// gave them (each crosses the channel once): what its next draft is
	// rebuilt from (Inbox.WindowDraft).
	images uiproto.DraftImages
	// win is its window while the Presenter shows it (windows.go): nil
	// while it is not shown (held back, set aside, closed).
	win *window
}

// Options make an Inbox. None of them changes once the inbox is made.
type Options struct {
	// Presenter shows the questions' windows; the inbox is the owner of
	// them (Presenter.Bind). Required.
	Presenter Presenter
	Log       *slog.Logger
	// Open opens the Store the inbox records in (nil, or an error: it
	// records nothing, and keeps the notes for agents in memory). It runs on the inbox's own goroutine, so a
	// slow database does not delay the start; the questions the last run
	// kept open are shown again once it has opened.
	Open func() (Store, error)
	// Clock times everything the inbox times: holds, deadlines, snoozes,
	// do not disturb, kept answers (nil: the wall clock).
	Clock clock.Clock
	// MaxOpen bounds the open questions, those kept open included; an ask
	// beyond it is refused with wire.CodeTooMany (zero:
	// wire.MaxOpenQuestions).
	MaxOpen int
	// Hold is how long a question nobody waits for stays open (at least
	// its countdown): then it is withdrawn, its draft kept (zero:
	// DefaultHold).
	Hold time.Duration
	// TimeoutGrace is how long past a window's deadline the inbox waits
	// for the UI process's own timeout before it times the question out
	// itself (zero: DefaultTimeoutGrace).
	TimeoutGrace time.Duration
	// SessionEnded tells whether an asking session has certainly ended
	// (nil: procsession.Ended); it must be quick.
	SessionEnded func(session string) bool
	// Features extend the inbox (feature.go): each is attached, in order,
	// by New.
	Features []Feature

	// OnEnd, if set, is called (on no particular goroutine, never
	// holding the inbox's lock) with the window id of each question that
	// ended: answered, dismissed, timed out or withdrawn.
	OnEnd func(id string)
	// OnHandedOver, if set, is called (on no particular goroutine, never
	// holding the inbox's lock) when an answer the user gave after its
	// asking session had ended goes to the next identical question of
	// another session (a one-shot client's next call), with that question:
	// the app tells the user where the answer went.
	OnHandedOver func(q wire.Question)
	// OnUnfocused, if set, is called when a window opened without taking
	// the focus (the user was typing in another
	// one): the app notifies.
	OnUnfocused func(q wire.Question)
	// OnFound, if set, is called when the user came to a window
	// (uiproto.Found): the app withdraws its notification,
	// which has done its work.
	OnFound func(q wire.Question)
	// OnUnseenEnd, if set, is called when a window ends before the user typed in it or edited it (uiproto.Found, a
	// draft), whether or not it opened with the focus: its agent withdrew
	// it, or it timed out (timedOut). The app leaves a notification, so
	// that nothing disappears silently. A window shown with a restored
	// draft was seen.
	OnUnseenEnd func(q wire.Question, timedOut bool)
}

// New returns an empty inbox made from o; Start starts it.
func New(o Options) *Inbox {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Open == nil {
		o.Open = func() (Store, error) { return NewMemoryStore(), nil }
	}
	if o.MaxOpen <= 0 {
		o.MaxOpen = wire.MaxOpenQuestions
	}
	if o.Hold <= 0 {
		o.Hold = DefaultHold
	}
	if o.TimeoutGrace <= 0 {
		o.TimeoutGrace = DefaultTimeoutGrace
	}
	if o.SessionEnded == nil {
		o.SessionEnded = procsession.Ended
	}
	c := clock.Or(o.Clock)
	in := &Inbox{p: o.Presenter, log: o.Log, opts: o, clock: c, open: make(map[string]*entry),
		sessionEnded: o.SessionEnded, closing: make(map[string]*entry)}
	in.kept.clock = c
	o.Presenter.Bind(in)
	in.rec = newRecorder(o.Log, c)
	for _, f := range o.Features {
		in.hooks = append(in.hooks, f.Attach(host{in}))
	}
	return in
}

// Start opens the Store (Options.Open, on the inbox's own goroutine) and,
// once it is open, shows again the questions the last run kept open. Call
// it once, when what the inbox and its features show a question with is
// set (the default timeout, do not disturb): until then nothing is
// recorded, and a question asked waits for its lookups.
func (in *Inbox) Start() {
	in.rec.start(in.opts.Open, in.reopen)
}

// Close stops the hold timers and the deadlines, writes what is still queued for the
// database, waiting at most wait, and closes it. Call it once no caller
// waits any more.
func (in *Inbox) Close(wait time.Duration) {
	in.mu.Lock()
	in.closed = true
	for _, e := range in.open {
		if e.hold != nil {
			e.hold.Stop()
			e.hold = nil
		}
		in.dropWindowLocked(e)
	}
	in.mu.Unlock()
	in.rec.close(wait)
}

// OnChange has a view follow the open questions: after every change, do is
// called (from any goroutine) with a function that calls set with the open
// questions as they are when it runs. do runs it where the view lives
// (fyne.Do), so updates applied late or out of order still leave the view
// showing the latest state: the list is read when the update runs, never
// captured before.
func (in *Inbox) OnChange(do func(func()), set func([]Item)) {
	f := func() { do(func() { set(in.Items()) }) }
	in.mu.Lock()
	in.onChange = f
	in.mu.Unlock()
	f()
}

// Items lists the open questions, oldest first.
func (in *Inbox) Items() []Item {
	in.mu.Lock()
	defer in.mu.Unlock()
	items := make([]Item, 0, len(in.open))
	for id, e := range in.open {
		it := Item{ID: id, Title: e.q.Summary(60), Client: e.q.Client, Project: e.q.Project, Since: e.since, Approval: e.q.IsApproval()}
		if e.snooze != nil {
			s := *e.snooze
			it.Snoozed = &s
		}
		items = append(items, it)
	}
	sort.Slice(items, func(i, j int) bool {
		if !items[i].Since.Equal(items[j].Since) {
			return items[i].Since.Before(items[j].Since)
		}
		return items[i].ID < items[j].ID
	})
	return items
}

func (in *Inbox) notify() {
	in.mu.Lock()
	f := in.onChange
	in.mu.Unlock()
	if f != nil {
		f()
	}
}

// Ask shows r.Question (or attaches to the window of its id that nobody
// waits for) and waits for the answer. When ctx ends first the caller has
// gone away: the question is withdrawn once no caller waits for it any
// more (unless the ask that opened it said KeepOpen), and Ask returns
// ctx.Err(). When r.Wait runs out first the caller will come back: the
// question stays open and Ask returns ipc.ErrPending. A kept answer for
// the question's ID, in memory or in the database, is returned at once; a
// stored draft is restored into the new window. Beyond MaxOpen open
// questions a new one is refused with wire.CodeTooMany: the inbox is
// where the app's cap on open questions is enforced (ipc counts none).
//
// The features add to an outcome what they have for it (Hooks.Outcome:
// the notes the user wrote for the question's client meanwhile); a pending
// or failed ask gets nothing.
func (in *Inbox) Ask(ctx context.Context, r wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
	a, err := in.ask(ctx, r, emit)
	if err == nil {
		for _, h := range in.hooks {
			if h.Outcome != nil {
				a = h.Outcome(ctx, r.Question, a)
			}
		}
	}
	return a, err
}

func (in *Inbox) ask(ctx context.Context, r wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
	askID := r.Question.ID
	from := in.originOf(r)
	in.mu.Lock()
	if a, ok := in.takeKeptLocked(askID); ok {
		in.mu.Unlock()
		return a, nil
	}
	if a, ok := in.takeEndedLocked(askID, from); ok {
		in.mu.Unlock()
		in.handedOver(r.Question)
		return a, nil
	}
	in.mu.Unlock()
	if a, ok := in.gate(r); ok { // a feature answers at once: away
		return a, nil
	}
	in.mu.Lock()
	e := in.attachLocked(r)
	_, busy := in.open[askID]
	var gen int // the snoozes e had when this caller joined it (snooze.go)
	if e != nil {
		gen = e.snoozes
	}
	in.mu.Unlock()

	var draft *wire.Draft
	if e == nil {
		// A second window (the id is taken by a caller that waits) restores
		// no draft: the draft is the first window's.
		f := in.rec.lookup(ctx, askID, !busy)
		if err := ctx.Err(); err != nil {
			return wire.Answer{}, err
		}
		if f.answer != nil {
			a := *f.answer
			in.log.Info("kept answer delivered from the database", "id", askID, "window", a.QuestionID, "status", a.Status)
			window := a.QuestionID
			in.rec.do("mark delivered", window, func(p Store) error { return p.MarkDelivered(window) })
			a.QuestionID = askID
			return a, nil
		}
		draft = f.draft

		in.mu.Lock()
		if a, ok := in.takeKeptLocked(askID); ok { // answered while we looked
			in.mu.Unlock()
			return a, nil
		}
		if a, ok := in.takeEndedLocked(askID, from); ok {
			in.mu.Unlock()
			in.handedOver(r.Question)
			return a, nil
		}
		if e = in.attachLocked(r); e == nil {
			e = in.attachEndedLocked(askID, from)
		}
		if e == nil {
			var err error
			if e, err = in.openLocked(r, from, draft); err != nil {
				in.mu.Unlock()
				return wire.Answer{}, err
			}
			in.mu.Unlock()
			in.show(e)
		} else {
			gen = e.snoozes
			in.mu.Unlock()
		}
	}
	return in.wait(ctx, e, askID, r.Wait, emit, gen)
}

// gate asks the features whether one answers r at once (Hooks.Gate), as
// away's "proceed" does: not a question open already, nor an attach-only
// ask. The question and its answer are recorded, as asked and delivered.
func (in *Inbox) gate(r wire.Ask) (wire.Answer, bool) {
	if r.AttachOnly {
		return wire.Answer{}, false
	}
	in.mu.Lock()
	_, open := in.open[r.Question.ID]
	in.mu.Unlock()
	if open { // asked again: it waits as it did
		return wire.Answer{}, false
	}
	for _, h := range in.hooks {
		if h.Gate == nil {
			continue
		}
		if a, ok := h.Gate(r); ok {
			q, now := r.Question, in.clock.Now()
			id := q.ID
			in.rec.do("save question", id, func(p Store) error { return p.SaveQuestionAs(q, id, now, false) })
			in.rec.do("save answer", id, func(p Store) error { return p.SaveAnswer(a, now, true) })
			return a, true
		}
	}
	return wire.Answer{}, false
}

// originOf is who asks r: its key, and its session if the session can
// be told ended later (it is not ended now, while it asks; a session that
// looks ended while asking, one of another pid namespace, is never handed
// another's answer nor taken for ended).
func (in *Inbox) originOf(r wire.Ask) origin {
	o := origin{key: r.Key}
	if r.Session != "" && in.sessionEnded != nil && !in.sessionEnded(r.Session) {
		o.session = r.Session
	}
	return o
}

// endedLocked reports whether session, that asked a question, has ended:
// its answer, or its window, may then go to another session asking under
// the same key. An unknown session never ends.
func (in *Inbox) endedLocked(session, asking string) bool {
	return session != "" && session != asking && in.sessionEnded != nil && in.sessionEnded(session)
}

// takeEndedLocked hands the caller asking as askID from o the answer kept
// under o's key for a session that has ended (a one-shot client's earlier
// call), if there is one.
func (in *Inbox) takeEndedLocked(askID string, o origin) (wire.Answer, bool) {
	if o.key == "" {
		return wire.Answer{}, false
	}
	was, a, ok := in.kept.takeEnded(o.key, func(s string) bool { return in.endedLocked(s, o.session) })
	if !ok {
		return wire.Answer{}, false
	}
	window := a.QuestionID
	in.rec.do("mark delivered", window, func(p Store) error { return p.MarkDelivered(window) })
	in.log.Info("kept answer delivered to another session: the session that asked it ended", "id", askID, "asked_as", was, "window", window, "status", a.Status)
	return forCaller(a, askID), true
}

// handedOver tells OnHandedOver, if set, that the answer to q went to a
// later call than the one that asked.
func (in *Inbox) handedOver(q wire.Question) {
	if in.opts.OnHandedOver != nil {
		in.opts.OnHandedOver(q)
	}
}

// attachEndedLocked attaches the caller asking as askID from o to the
// window open under o's key that nobody waits for and whose session has
// ended (the oldest), which then belongs to the caller's session: its
// callers ask as askID from then on.
func (in *Inbox) attachEndedLocked(askID string, o origin) *entry {
	if o.key == "" {
		return nil
	}
	var found *entry
	for _, e := range in.open {
		if e.from.key != o.key || e.waiters > 0 || (found != nil && !e.since.Before(found.since)) {
			continue
		}
		if in.endedLocked(e.from.session, o.session) {
			found = e
		}
	}
	if found == nil {
		return nil
	}
	was := found.askID
	found.askID, found.from = askID, o
	found.waiters++
	if found.hold != nil {
		found.hold.Stop()
		found.hold = nil
	}
	sq, since, keep := found.q, found.since, found.keepOpen // after a restart, its callers find it, and its answer, as askID
	in.rec.do("save question", sq.ID, func(p Store) error { return p.SaveQuestionAs(sq, askID, since, keep) })
	in.log.Info("caller of another session attached to an open question: the session that asked it ended", "id", askID, "asked_as", was, "window", found.q.ID)
	return found
}

// attachLocked attaches the caller of r to the window it comes back to, if
// there is one: a window of its question's ID that nobody waits for (the
// oldest), or for an attach-only ask any window of that ID.
func (in *Inbox) attachLocked(r wire.Ask) *entry {
	id := r.Question.ID
	var found *entry
	for _, e := range in.open {
		if e.askID != id || (e.waiters > 0 && !r.AttachOnly) {
			continue
		}
		if found == nil || e.waiters < found.waiters ||
			(e.waiters == found.waiters && e.since.Before(found.since)) {
			found = e
		}
	}
	if found == nil {
		return nil
	}
	found.waiters++
	if found.hold != nil {
		found.hold.Stop()
		found.hold = nil
	}
	in.log.Info("caller attached to an open question", "id", id, "window", found.q.ID, "attach_only", r.AttachOnly)
	return found
}

// openLocked opens a window for r's question with one waiter: under its
// ID, or, when a window of that id is open (its caller still waits), under
// an id of its own. It refuses an attach-only ask (nothing to attach to)
// and one beyond MaxOpen.
func (in *Inbox) openLocked(r wire.Ask, from origin, draft *wire.Draft) (*entry, error) {
	q := r.Question
	if r.AttachOnly {
		return nil, &wire.Error{Code: wire.CodeNotFound, Message: "no open question and no kept answer with id " + q.ID}
	}
	if max := in.opts.MaxOpen; len(in.open) >= max {
		in.log.Info("question refused: too many open", "id", q.ID, "open", len(in.open), "max", max)
		return nil, &wire.Error{Code: wire.CodeTooMany, Message: fmt.Sprintf(
			"%d questions are open, the most the app shows at once (questions kept open for a caller to come back count too); answer or close some, then ask again", max)}
	}
	askID := q.ID
	if _, taken := in.open[askID]; taken {
		q.ID = askID + "#" + wire.NewID()[:8]
	}
	e := &entry{q: q, askID: askID, from: from, since: in.clock.Now(), keepOpen: r.KeepOpen, waiters: 1, shown: make(chan struct{}), done: make(chan struct{}),
		snoozeC: make(chan struct{}), draft: draft}
	in.open[q.ID] = e
	sq, since, keep := e.q, e.since, e.keepOpen
	in.rec.do("save question", q.ID, func(p Store) error { return p.SaveQuestionAs(sq, askID, since, keep) })
	in.log.Info("question opened", "id", askID, "window", q.ID, "source", q.Source, "client", q.Client, "draft_restored", draft != nil)
	return e, nil
}

// show puts e's window on screen, its latest draft restored into it,
// unless a feature holds it back (Hooks.HoldBack; do not disturb: it waits
// in the tray).
func (in *Inbox) show(e *entry) {
	for _, h := range in.hooks {
		if h.HoldBack != nil && h.HoldBack(Ref{e}) {
			in.notify()
			return
		}
	}
	in.showNow(e)
}

// isOpen reports whether e is still an open question.
func (in *Inbox) isOpen(e *entry) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.open[e.q.ID] == e
}

// Raise brings the question id forward, as a click on it in the tray does:
// a feature may bring it itself (Hooks.Raise: do not disturb opens one it
// holds back, snooze brings back a snoozed one); else its window is
// raised.
func (in *Inbox) Raise(id string) {
	for _, h := range in.hooks {
		if h.Raise != nil && h.Raise(id) {
			return
		}
	}
	in.p.Focus(id)
}

// showNow puts e's window on screen, its latest draft restored into it
// (windows.go).
func (in *Inbox) showNow(e *entry) {
	in.showWindow(e)
	in.notify()
}

// wait waits, as one of e's callers, for its answer, the caller going away
// (ctx) or the caller's wait running out (wait, when positive).
//
// A caller with a wait hears at once of a snooze made since it joined
// (gen: e's snoozes then); one that joins while e is snoozed waits as
// usual, and one without a wait waits the snooze out.
func (in *Inbox) wait(ctx context.Context, e *entry, askID string, wait time.Duration, emit func(wire.Event), gen int) (wire.Answer, error) {
	var waitC <-chan struct{}
	if wait > 0 {
		c, stop := clock.After(in.clock, wait)
		defer stop()
		waitC = c
	}
	shown := e.shown
	var snoozed <-chan struct{}
	if wait > 0 {
		in.mu.Lock()
		switch {
		case e.snooze == nil:
			snoozed = e.snoozeC
		case e.snoozes != gen: // snoozed after this caller joined, before it got here
			waitC = closed
		}
		in.mu.Unlock()
	}
	for {
		select {
		case <-shown:
			emit(wire.Event{Type: wire.EventShown, Snooze: in.snoozeNow(e)}) // snoozed: its window is closed now
			shown = nil
		case <-snoozed:
			snoozed = nil
			if in.snoozeNow(e) == nil { // it came back meanwhile
				continue
			}
			waitC = closed // it ends this call as its wait running out does
		case <-e.done:
			select {
			case <-shown: // shown, then answered before this loop saw it: the caller hears both, in order
				emit(wire.Event{Type: wire.EventShown})
			default:
			}
			return forCaller(e.answer, askID), nil
		case <-ctx.Done():
			in.leave(e)
			return wire.Answer{}, ctx.Err()
		case <-waitC:
			if a, answered := in.detach(e); answered {
				return forCaller(a, askID), nil
			}
			return wire.Answer{QuestionID: askID, CallerData: e.q.CallerData, Snooze: in.snoozeNow(e)}, wire.ErrPending
		}
	}
}

// forCaller is a as the caller asking as askID receives it.
func forCaller(a wire.Answer, askID string) wire.Answer {
	a.QuestionID = askID
	return a
}

// takeKeptLocked hands out the kept answer of askID, if there is one.
func (in *Inbox) takeKeptLocked(askID string) (wire.Answer, bool) {
	a, ok := in.kept.take(askID)
	if !ok {
		return wire.Answer{}, false
	}
	window := a.QuestionID
	in.rec.do("mark delivered", window, func(p Store) error { return p.MarkDelivered(window) })
	in.log.Info("kept answer delivered", "id", askID, "window", window, "status", a.Status)
	return forCaller(a, askID), true
}

// answered records the outcome of e and wakes its callers. An answer that
// reaches nobody is kept, in memory and in the database, for the next ask
// with its id.
//
// It reports whether a was taken: an outcome for a question that has one
// already (its window answered as its notification did) is dropped.
func (in *Inbox) answered(e *entry, a wire.Answer) bool {
	at := in.clock.Now()
	id := e.q.ID
	a.QuestionID = id
	a.CallerData = e.q.CallerData
	in.mu.Lock()
	select {
	case <-e.done:
		in.mu.Unlock()
		in.log.Info("second outcome of a question dropped", "id", id, "status", a.Status, "via", a.Via)
		return false
	default:
	}
	if e.hold != nil {
		e.hold.Stop()
		e.hold = nil
	}
	if in.open[id] != e {
		// The window was withdrawn while the user answered. A real answer is
		// kept for a caller that asks again, unless the question was asked
		// again meanwhile (the new window collects the answer then).
		if _, reopened := in.open[id]; reopened || a.Status != wire.StatusAnswered {
			in.mu.Unlock()
			in.log.Warn("outcome of a withdrawn question dropped", "id", id, "status", a.Status, "reopened", reopened)
			return false
		}
		in.keepLocked(e, a)
		in.rec.do("save answer", id, func(p Store) error { return p.SaveAnswer(a, at, false) })
		in.mu.Unlock()
		in.ended(e)
		return true
	}
	delete(in.open, id)
	e.answer, e.at = a, at
	close(e.done)
	delivered := e.waiters > 0
	if !delivered {
		in.keepLocked(e, a)
	}
	in.rec.do("save answer", id, func(p Store) error { return p.SaveAnswer(a, at, delivered) })
	in.mu.Unlock()
	in.log.Info("question ended", "id", id, "status", a.Status, "via", a.Via, "elapsed_ms", a.ElapsedMS, "delivered", delivered)
	in.notify()
	in.ended(e)
	return true
}

// ended tells OnEnd and the features (Hooks.Ended) that e ended.
func (in *Inbox) ended(e *entry) {
	if in.opts.OnEnd != nil {
		in.opts.OnEnd(e.q.ID)
	}
	in.endedHooks(e)
}

// endedHooks tells the features that e ended, or never opened.
func (in *Inbox) endedHooks(e *entry) {
	for _, h := range in.hooks {
		if h.Ended != nil {
			h.Ended(Ref{e})
		}
	}
}

// AnswerFrom answers the open question whose window is id with a, given
// outside its window (its notification): the window closes, reporting its
// draft first, and the callers get a. It reports false when no question
// with that id is open (it ended meanwhile, or was never shown).
func (in *Inbox) AnswerFrom(id string, a wire.Answer) bool {
	in.mu.Lock()
	e := in.open[id]
	in.mu.Unlock()
	if e == nil {
		return false
	}
	a.ElapsedMS = clock.Since(in.clock, e.since).Milliseconds()
	in.putAway(id) // answered where the user saw it: no "withdrew" notice
	return in.answered(e, a)
}

// EndAll ends every open question with a (the user quit: dismissed,
// wire.ReasonQuit): its window closes, reporting its draft first, and its
// callers get a; an answer nobody waits for is kept, as any other, for the
// caller that comes back. It returns how many questions it ended.
func (in *Inbox) EndAll(a wire.Answer) int {
	in.mu.Lock()
	es := make([]*entry, 0, len(in.open))
	for _, e := range in.open {
		es = append(es, e)
	}
	in.mu.Unlock()
	for _, e := range es {
		in.closeWindow(e, true)
		in.answered(e, a)
	}
	return len(es)
}

// keepLocked keeps a, the answer of e, for the next ask as e's askID (or
// under its key, once its session ended); an answer dropped to stay within
// the bounds is still in the database.
func (in *Inbox) keepLocked(e *entry, a wire.Answer) {
	askID := e.askID
	for _, d := range in.kept.putFrom(askID, e.from, a) {
		in.log.Warn("kept answer dropped from memory: too many kept, or kept too long", "window", d.QuestionID)
	}
	in.log.Info("answer kept for a caller that comes back", "id", askID, "window", a.QuestionID, "status", a.Status)
}

// leave drops one caller of e that went away; the last one to leave
// withdraws the question unless it is e.keepOpen. An answer that came in
// while the last caller was leaving reached nobody: it is kept for the next
// ask with its id.
func (in *Inbox) leave(e *entry) {
	in.mu.Lock()
	e.waiters--
	if e.waiters == 0 {
		select {
		case <-e.done:
			in.keepLocked(e, e.answer)
			a, at := e.answer, e.at
			in.rec.do("save answer", e.q.ID, func(p Store) error { return p.SaveAnswer(a, at, false) })
			in.mu.Unlock()
			return
		default:
		}
	}
	last := e.waiters == 0 && in.open[e.q.ID] == e
	withdraw := last && !e.keepOpen
	if withdraw {
		in.withdrawLocked(e)
	} else if last {
		in.holdLocked(e)
	}
	in.mu.Unlock()
	if withdraw {
		in.log.Info("question withdrawn: its caller went away", "id", e.q.ID)
		in.closeWindow(e, true)
		in.notify()
		in.ended(e)
	}
}

// detach drops one caller of e whose wait ran out: it comes back later, so
// the question stays open (held for Hold) and is recorded as kept open. If
// e was answered meanwhile, the answer is the caller's: answered is true.
func (in *Inbox) detach(e *entry) (a wire.Answer, answered bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	select {
	case <-e.done:
		return e.answer, true
	default:
	}
	e.waiters--
	if e.waiters > 0 || in.open[e.q.ID] != e {
		return wire.Answer{}, false
	}
	if !e.kept {
		e.kept = true
		id := e.q.ID
		in.rec.do("keep open", id, func(p Store) error { return p.SetKeptOpen(id, true) })
	}
	in.log.Info("question kept open for its caller to come back", "id", e.askID, "window", e.q.ID, "hold", in.holdOf(e))
	in.holdLocked(e)
	return wire.Answer{}, false
}

// holdOf is how long e stays open with nobody waiting: Hold, or its
// countdown and a minute when that is longer.
func (in *Inbox) holdOf(e *entry) time.Duration {
	d := in.opts.Hold
	if t := time.Duration(e.q.TimeoutSeconds)*time.Second + time.Minute; e.q.TimeoutSeconds > 0 && t > d {
		d = t
	}
	return d
}

// holdLocked starts the timer that withdraws e when nobody came back.
func (in *Inbox) holdLocked(e *entry) {
	if e.hold != nil {
		e.hold.Stop()
	}
	d := in.holdOf(e)
	e.hold = in.clock.AfterFunc(d, func() {
		in.mu.Lock()
		if e.snooze != nil && e.waiters == 0 && in.open[e.q.ID] == e {
			in.holdLocked(e) // snoozed: held until it is back and ignored again
			in.mu.Unlock()
			return
		}
		expired := e.waiters == 0 && in.open[e.q.ID] == e
		if expired {
			e.hold = nil
			in.withdrawLocked(e)
		}
		in.mu.Unlock()
		if expired {
			in.log.Info("question withdrawn: its caller did not come back", "id", e.askID, "window", e.q.ID, "after", d)
			in.closeWindow(e, true)
			in.notify()
			in.ended(e)
		}
	})
}

// withdrawLocked removes e, which nobody waits for, and records it.
func (in *Inbox) withdrawLocked(e *entry) {
	delete(in.open, e.q.ID)
	if e.hold != nil {
		e.hold.Stop()
		e.hold = nil
	}
	id, at := e.q.ID, in.clock.Now()
	in.rec.do("mark withdrawn", id, func(p Store) error { return p.MarkWithdrawn(id, at) })
}

// reopen runs on the recorder's goroutine once the database is open,
// before anything queued: of the questions the last run left open, those
// kept open for a caller that comes back are shown again, with their
// drafts, and held; the others are withdrawn (their callers, if still
// there, ask again and get their drafts back). Beyond MaxOpen the rest are
// withdrawn too.
func (in *Inbox) reopen(p Store) {
	left, err := p.LeftOpen()
	if err != nil {
		in.log.Warn("persistence: listing the questions left open", "err", err)
		return
	}
	now := in.clock.Now()
	var show []*entry
	for _, l := range left {
		id := l.Question.ID
		if l.KeptOpen {
			var draft *wire.Draft
			if d, ok, err := p.Draft(id); err == nil && ok {
				draft = &d
			}
			e := &entry{q: l.Question, askID: l.AskID, since: l.AskedAt, keepOpen: l.KeepOpen, kept: true,
				shown: make(chan struct{}), done: make(chan struct{}), snoozeC: make(chan struct{}), draft: draft}
			// A snooze outlives the restart, unless it ended meanwhile.
			aside := l.Snooze != nil && in.restore(e, *l.Snooze) // aside.go
			in.mu.Lock()
			_, taken := in.open[id]
			full := len(in.open) >= in.opts.MaxOpen
			if !taken && !full {
				in.open[id] = e
				in.holdLocked(e)
				switch {
				case aside:
					in.asideLocked(e, *l.Snooze)
				case l.Snooze != nil: // it ended meanwhile
					in.recordSnooze(id, nil)
					show = append(show, e)
				default:
					show = append(show, e)
				}
			}
			in.mu.Unlock()
			if aside && (taken || full) {
				in.endedHooks(e) // what restore armed for it goes
			}
			if taken {
				continue
			}
			if !full {
				in.log.Info("question kept open before the restart shown again", "id", l.AskID, "window", id, "draft_restored", draft != nil)
				continue
			}
			in.log.Warn("question kept open before the restart withdrawn: too many open", "window", id)
		}
		if err := p.MarkWithdrawn(id, now); err != nil {
			in.log.Warn("persistence: marking a question left open as withdrawn", "id", id, "err", err)
		}
	}
	if len(show) > 0 {
		go func() { // the Presenter may call back into the recorder
			for _, e := range show {
				in.show(e)
			}
		}()
	}
	in.log.Info("questions left open by the last run", "left_open", len(left), "shown_again", len(show))
}
