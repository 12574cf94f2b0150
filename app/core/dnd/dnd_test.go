package dnd

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"feedback/app/core"
	"feedback/app/core/coretest"
	"feedback/ipc/wire"
)

// memDND is a Store in memory.
type memDND struct {
	mu    sync.Mutex
	state State
	saves []State
	err   error
}

func (m *memDND) Load() (State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state, m.err
}

func (m *memDND) Save(d State) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.state = d
	m.saves = append(m.saves, d)
	return nil
}

func (m *memDND) last() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

// heldBackIDs lists the questions do-not-disturb holds back, in order.
func heldBackIDs(c *Control) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ids []string
	for _, h := range c.queue {
		if c.host.IsOpen(h) {
			ids = append(ids, h.ID())
		}
	}
	return ids
}

// dndInbox is an inbox with do not disturb attached, kept in a memDND; it
// closes with the test.
func dndInbox(t *testing.T) (*core.Inbox, *Control, *coretest.UI, *memDND) {
	t.Helper()
	s := &memDND{}
	in, c, ui := dndInboxWith(t, core.Options{}, s)
	return in, c, ui, s
}

// dndInboxWith is an inbox made from o with do not disturb attached first,
// kept in s, then started; it closes with the test.
func dndInboxWith(t *testing.T, o core.Options, s Store) (*core.Inbox, *Control, *coretest.UI) {
	t.Helper()
	ui := coretest.NewUI()
	c := New(nil)
	o.Presenter = ui
	o.Features = append([]core.Feature{c}, o.Features...)
	in := core.New(o)
	c.Use(s)
	in.Start()
	t.Cleanup(func() {
		c.Close()
		in.Close(time.Second)
	})
	return in, c, ui
}

// Under do not disturb a question opens no window: it waits in the tray
// (Items, the badge's count), and opens when do not disturb is turned off.
func TestDNDHoldsBackNewQuestions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, s := dndInbox(t)
		if err := c.Set(On); err != nil {
			t.Fatal(err)
		}
		if !c.Active() || s.last().Mode != On {
			t.Fatalf("DND %+v, saved %+v", c.State(), s.last())
		}
		ch := coretest.Ask(t.Context(), in, coretest.Q("a"))
		coretest.Eventually(t, "a is held back", func() bool { return len(heldBackIDs(c)) == 1 })
		ui.NoShow(t)
		if n := ui.Shows(); n != 0 {
			t.Fatalf("%d windows shown under do not disturb", n)
		}
		if items := in.Items(); len(items) != 1 || items[0].ID != "a" {
			t.Fatalf("the tray lists %+v, want a", items)
		}
		if err := c.Set(Off); err != nil {
			t.Fatal(err)
		}
		ui.WaitShown(t, "a")
		ui.Answer("a", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "later"}}})
		r := coretest.Wait(t, ch)
		if r.Err != nil || r.A.Replies[0].Text != "later" {
			t.Fatalf("Ask = %+v, %v", r.A, r.Err)
		}
		if len(r.Events) != 1 || r.Events[0].Type != wire.EventShown {
			t.Errorf("events %+v: want shown once, when the window opened", r.Events)
		}
		if s.last().Mode != Off {
			t.Errorf("saved %+v, want off", s.last())
		}
	})
}

// A caller waiting under do not disturb gets its usual long-wait path:
// ErrPending when its wait runs out, never an answer the user did not give;
// asking again attaches to the held-back question, which it gets once
// answered.
func TestDNDCallerGetsPendingThenTheAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, _ := dndInbox(t)
		c.Set(Hour)
		wq := coretest.Q("long")
		wq.Wait = 30 * time.Millisecond
		r := coretest.Wait(t, coretest.Ask(t.Context(), in, wq))
		if !errors.Is(r.Err, wire.ErrPending) || r.A.Status != "" || len(r.A.Replies) != 0 {
			t.Fatalf("first call: %+v, %v; want ErrPending and no answer", r.A, r.Err)
		}
		if len(r.Events) != 0 {
			t.Errorf("events %+v under do not disturb, want none (no window shown)", r.Events)
		}
		wq.Wait = 0
		ch := coretest.Ask(t.Context(), in, wq)
		synctest.Wait() // the caller attached, and waits
		ui.NoShow(t)
		c.Set(Off)
		ui.WaitShown(t, "long")
		ui.Answer("long", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "yes"}}})
		if r := coretest.Wait(t, ch); r.Err != nil || r.A.Replies[0].Text != "yes" || r.A.QuestionID != "long" {
			t.Fatalf("second call: %+v, %v", r.A, r.Err)
		}
	})
}

// When do not disturb ends the held-back questions open one at a time,
// oldest first, paced.
func TestDNDReleasesOneByOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, _ := dndInbox(t)
		c.Set(On)
		var chs []<-chan coretest.Result
		for i, id := range []string{"first", "second", "third"} {
			chs = append(chs, coretest.Ask(t.Context(), in, coretest.Q(id)))
			coretest.Eventually(t, id+" is held back", func() bool { return len(heldBackIDs(c)) == i+1 })
		}
		c.Set(Off)
		var at []time.Time
		for _, id := range []string{"first", "second", "third"} {
			ui.WaitShown(t, id)
			at = append(at, time.Now())
		}
		for i := 1; i < len(at); i++ {
			if gap := at[i].Sub(at[i-1]); gap != ReleaseEvery {
				t.Errorf("window %d opened %v after the one before, want %v", i+1, gap, ReleaseEvery)
			}
		}
		for i, id := range []string{"first", "second", "third"} {
			ui.Answer(id, wire.Answer{Status: wire.StatusAnswered})
			if r := coretest.Wait(t, chs[i]); r.Err != nil || r.A.QuestionID != id {
				t.Errorf("%s: %+v, %v", id, r.A, r.Err)
			}
		}
	})
}

// Turned on again while releasing: the rest stay held back, in order.
func TestDNDOnAgainStopsTheRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, _ := dndInbox(t)
		c.Set(On)
		for i, id := range []string{"a", "b", "c"} {
			coretest.Ask(t.Context(), in, coretest.Q(id))
			coretest.Eventually(t, id+" is held back", func() bool { return len(heldBackIDs(c)) == i+1 })
		}
		c.Set(Off)
		ui.WaitShown(t, "a")
		c.Set(On)
		coretest.Eventually(t, "the release stopped", func() bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			return !c.releasing
		})
		ui.NoShow(t)
		if got := strings.Join(heldBackIDs(c), ","); got != "b,c" {
			t.Fatalf("held back %q, want b,c", got)
		}
		c.Set(Off)
		ui.WaitShown(t, "b")
		ui.WaitShown(t, "c")
	})
}

// A timed do not disturb ends by itself, and what it held back opens.
func TestDNDTimedEndsByItself(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &memDND{state: State{Mode: Hour, Until: time.Now().Add(150 * time.Millisecond)}}
		in, c, ui := dndInboxWith(t, core.Options{}, s)
		if !c.Active() {
			t.Fatal("the saved hour is not in force")
		}
		coretest.Ask(t.Context(), in, coretest.Q("x"))
		coretest.Eventually(t, "x is held back", func() bool { return len(heldBackIDs(c)) == 1 })
		ui.WaitShown(t, "x")
		if c.Active() || s.last().Mode != Off {
			t.Errorf("after its end: State %+v, saved %+v", c.State(), s.last())
		}
	})
}

// A saved state whose end passed while the app was not running is off; a
// store that fails to read leaves it off and the inbox working.
func TestDNDLoadedState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, s := range []*memDND{
			{state: State{Mode: Tomorrow, Until: time.Now().Add(-time.Minute)}},
			{err: errors.New("disk on fire")},
		} {
			in, c, ui := dndInboxWith(t, core.Options{}, s)
			if c.Active() || c.State().Mode != Off {
				t.Errorf("loaded %+v/%v: State %+v, want off", s.state, s.err, c.State())
			}
			coretest.Ask(t.Context(), in, coretest.Q("now"))
			ui.WaitShown(t, "now")
		}
	})
}

// The wall clock decides: a timed state whose end has passed (the machine
// slept, its timer did not fire) is off as soon as it is read or a
// question comes.
func TestDNDEndedByTheWallClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, _ := dndInbox(t)
		c.mu.Lock()
		c.state = State{Mode: Hour, Until: time.Now().Add(-time.Second)} // as after a sleep
		c.mu.Unlock()
		coretest.Ask(t.Context(), in, coretest.Q("woke"))
		ui.WaitShown(t, "woke")
		if c.Active() {
			t.Error("still active after its end")
		}
	})
}

// Clicking a held-back question in the tray opens it at once, do not
// disturb staying on for the others; clicking a shown one raises it.
func TestDNDRaiseFromTheTray(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, _ := dndInbox(t)
		c.Set(On)
		for i, id := range []string{"a", "b"} {
			coretest.Ask(t.Context(), in, coretest.Q(id))
			coretest.Eventually(t, id+" is held back", func() bool { return len(heldBackIDs(c)) == i+1 })
		}
		in.Raise("b")
		ui.WaitShown(t, "b")
		if !c.Active() || strings.Join(heldBackIDs(c), ",") != "a" {
			t.Fatalf("after raising b: State %v, held back %v", c.Active(), heldBackIDs(c))
		}
		in.Raise("b")
		focused := strings.Join(ui.Focused(), ",")
		if focused != "b" {
			t.Errorf("raising a shown question focused %q, want b", focused)
		}
		ui.NoShow(t)
	})
}

// A held-back question whose caller goes away is withdrawn and never opens.
func TestDNDWithdrawnWhileHeldBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, _ := dndInbox(t)
		c.Set(On)
		ctx, cancel := context.WithCancel(context.Background())
		gone := coretest.Ask(ctx, in, coretest.Q("gone"))
		coretest.Eventually(t, "gone is held back", func() bool { return len(heldBackIDs(c)) == 1 })
		coretest.Ask(t.Context(), in, coretest.Q("stays"))
		coretest.Eventually(t, "stays is held back", func() bool { return len(heldBackIDs(c)) == 2 })
		cancel()
		if r := coretest.Wait(t, gone); !errors.Is(r.Err, context.Canceled) {
			t.Fatalf("the caller that left got %+v, %v", r.A, r.Err)
		}
		if items := in.Items(); len(items) != 1 || items[0].ID != "stays" {
			t.Fatalf("the tray lists %+v", items)
		}
		c.Set(Off)
		ui.WaitShown(t, "stays") // waitShown fails if "gone" comes first
		if n := ui.Shows(); n != 1 {
			t.Errorf("%d windows shown, want 1", n)
		}
	})
}

// Questions kept open before a restart come back held back under do not
// disturb.
func TestDNDHoldsBackQuestionsShownAgainAfterARestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fs := &leftStore{Store: core.NewMemoryStore(), left: []core.Left{{Question: coretest.Q("kept").Question, AskID: "kept", AskedAt: time.Now(), KeptOpen: true}}}
		_, c, ui := dndInboxWith(t, core.Options{Open: func() (core.Store, error) { return fs, nil }}, &memDND{state: State{Mode: On}})
		coretest.Eventually(t, "kept is held back", func() bool { return len(heldBackIDs(c)) == 1 })
		ui.NoShow(t)
		c.Set(Off)
		ui.WaitShown(t, "kept")
	})
}

type leftStore struct {
	core.Store
	left []core.Left
}

func (l *leftStore) LeftOpen() ([]core.Left, error) { return l.left, nil }

func TestSetDNDRejectsAnUnknownMode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c, _, s := dndInbox(t)
		if err := c.Set("always"); err == nil || !strings.Contains(err.Error(), "always") {
			t.Errorf("SetDND(always) = %v", err)
		}
		if c.Active() || len(s.saves) != 0 {
			t.Errorf("a refused mode changed the state: %+v, saves %+v", c.State(), s.saves)
		}
	})
}

// The tray follows do not disturb: changing it calls OnChange's view.
func TestSetDNDUpdatesTheTray(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, _, _ := dndInbox(t)
		var mu sync.Mutex
		var seen []bool
		in.OnChange(func(f func()) { f() }, func([]core.Item) {
			mu.Lock()
			seen = append(seen, c.Active())
			mu.Unlock()
		})
		c.Set(On)
		c.Set(Off)
		mu.Lock()
		defer mu.Unlock()
		if len(seen) != 3 || seen[0] || !seen[1] || seen[2] {
			t.Errorf("the tray saw do not disturb %v, want [false true false]", seen)
		}
	})
}

// Without a place to keep it (no tray to turn it off) do not disturb is
// off, and what it held back opens.
func TestUseDNDNilTurnsItOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, s := dndInbox(t)
		c.Set(On)
		coretest.Ask(t.Context(), in, coretest.Q("waiting"))
		coretest.Eventually(t, "waiting is held back", func() bool { return len(heldBackIDs(c)) == 1 })
		saves := len(s.saves)
		c.Use(nil)
		ui.WaitShown(t, "waiting")
		if c.Active() {
			t.Error("do not disturb is still on")
		}
		if err := c.Set(Hour); err != nil {
			t.Errorf("SetDND with nothing to keep it in: %v", err)
		}
		if len(s.saves) != saves || s.last().Mode != On {
			t.Errorf("the old store was written: %+v", s.saves)
		}
	})
}
