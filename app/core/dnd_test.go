package core

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"feedback/ipc/wire"
)

// memDND is a DNDStore in memory.
type memDND struct {
	mu    sync.Mutex
	state DND
	saves []DND
	err   error
}

func (m *memDND) LoadDND() (DND, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state, m.err
}

func (m *memDND) SaveDND(d DND) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.state = d
	m.saves = append(m.saves, d)
	return nil
}

func (m *memDND) last() DND {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

// eventually waits until cond holds, failing after 5 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}

// heldBackIDs lists the questions do-not-disturb holds back, in order.
func heldBackIDs(in *Inbox) []string {
	in.dnd.mu.Lock()
	defer in.dnd.mu.Unlock()
	var ids []string
	for _, h := range in.dnd.queue {
		if in.isOpen(h.e) {
			ids = append(ids, h.e.q.ID)
		}
	}
	return ids
}

func (f *fakeUI) showCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.shows
}

// noShow fails if a window was shown.
func (f *fakeUI) noShow(t *testing.T) {
	t.Helper()
	select {
	case id := <-f.showCh:
		t.Fatalf("%q was shown while do not disturb is on", id)
	default:
	}
}

func dndInbox(t *testing.T) (*Inbox, *fakeUI, *memDND) {
	t.Helper()
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	s := &memDND{}
	in.UseDND(s)
	t.Cleanup(func() { in.Close(time.Second) })
	return in, ui, s
}

// Under do not disturb a question opens no window: it waits in the tray
// (Items, the badge's count), and opens when do not disturb is turned off.
func TestDNDHoldsBackNewQuestions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, s := dndInbox(t)
		if err := in.SetDND(DNDOn); err != nil {
			t.Fatal(err)
		}
		if !in.DNDActive() || s.last().Mode != DNDOn {
			t.Fatalf("DND %+v, saved %+v", in.DND(), s.last())
		}
		ch := ask(t.Context(), in, q("a"))
		eventually(t, "a is held back", func() bool { return len(heldBackIDs(in)) == 1 })
		ui.noShow(t)
		if n := ui.showCount(); n != 0 {
			t.Fatalf("%d windows shown under do not disturb", n)
		}
		if items := in.Items(); len(items) != 1 || items[0].ID != "a" {
			t.Fatalf("the tray lists %+v, want a", items)
		}
		if err := in.SetDND(DNDOff); err != nil {
			t.Fatal(err)
		}
		ui.waitShown(t, "a")
		ui.answer("a", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "later"}}})
		r := result(t, ch)
		if r.err != nil || r.a.Replies[0].Text != "later" {
			t.Fatalf("Ask = %+v, %v", r.a, r.err)
		}
		if len(r.events) != 1 || r.events[0].Type != wire.EventShown {
			t.Errorf("events %+v: want shown once, when the window opened", r.events)
		}
		if s.last().Mode != DNDOff {
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
		in, ui, _ := dndInbox(t)
		in.SetDND(DNDHour)
		wq := q("long")
		wq.Wait = 30 * time.Millisecond
		r := result(t, ask(t.Context(), in, wq))
		if !errors.Is(r.err, wire.ErrPending) || r.a.Status != "" || len(r.a.Replies) != 0 {
			t.Fatalf("first call: %+v, %v; want ErrPending and no answer", r.a, r.err)
		}
		if len(r.events) != 0 {
			t.Errorf("events %+v under do not disturb, want none (no window shown)", r.events)
		}
		wq.Wait = 0
		ch := ask(t.Context(), in, wq)
		eventually(t, "the caller attached", func() bool {
			in.mu.Lock()
			defer in.mu.Unlock()
			return in.open["long"] != nil && in.open["long"].waiters == 1
		})
		ui.noShow(t)
		in.SetDND(DNDOff)
		ui.waitShown(t, "long")
		ui.answer("long", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "yes"}}})
		if r := result(t, ch); r.err != nil || r.a.Replies[0].Text != "yes" || r.a.QuestionID != "long" {
			t.Fatalf("second call: %+v, %v", r.a, r.err)
		}
	})
}

// When do not disturb ends the held-back questions open one at a time,
// oldest first, paced.
func TestDNDReleasesOneByOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, _ := dndInbox(t)
		in.SetDND(DNDOn)
		var chs []<-chan askResult
		for i, id := range []string{"first", "second", "third"} {
			chs = append(chs, ask(t.Context(), in, q(id)))
			eventually(t, id+" is held back", func() bool { return len(heldBackIDs(in)) == i+1 })
		}
		in.SetDND(DNDOff)
		var at []time.Time
		for _, id := range []string{"first", "second", "third"} {
			ui.waitShown(t, id)
			at = append(at, time.Now())
		}
		for i := 1; i < len(at); i++ {
			if gap := at[i].Sub(at[i-1]); gap != DNDReleaseEvery {
				t.Errorf("window %d opened %v after the one before, want %v", i+1, gap, DNDReleaseEvery)
			}
		}
		for i, id := range []string{"first", "second", "third"} {
			ui.answer(id, wire.Answer{Status: wire.StatusAnswered})
			if r := result(t, chs[i]); r.err != nil || r.a.QuestionID != id {
				t.Errorf("%s: %+v, %v", id, r.a, r.err)
			}
		}
	})
}

// Turned on again while releasing: the rest stay held back, in order.
func TestDNDOnAgainStopsTheRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, _ := dndInbox(t)
		in.SetDND(DNDOn)
		for i, id := range []string{"a", "b", "c"} {
			ask(t.Context(), in, q(id))
			eventually(t, id+" is held back", func() bool { return len(heldBackIDs(in)) == i+1 })
		}
		in.SetDND(DNDOff)
		ui.waitShown(t, "a")
		in.SetDND(DNDOn)
		eventually(t, "the release stopped", func() bool {
			in.dnd.mu.Lock()
			defer in.dnd.mu.Unlock()
			return !in.dnd.releasing
		})
		ui.noShow(t)
		if got := strings.Join(heldBackIDs(in), ","); got != "b,c" {
			t.Fatalf("held back %q, want b,c", got)
		}
		in.SetDND(DNDOff)
		ui.waitShown(t, "b")
		ui.waitShown(t, "c")
	})
}

// A timed do not disturb ends by itself, and what it held back opens.
func TestDNDTimedEndsByItself(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ui := newFakeUI()
		in := New(Options{Presenter: ui})
		in.Start()
		defer in.Close(time.Second)
		s := &memDND{state: DND{Mode: DNDHour, Until: time.Now().Add(150 * time.Millisecond)}}
		in.UseDND(s)
		if !in.DNDActive() {
			t.Fatal("the saved hour is not in force")
		}
		ask(t.Context(), in, q("x"))
		eventually(t, "x is held back", func() bool { return len(heldBackIDs(in)) == 1 })
		ui.waitShown(t, "x")
		if in.DNDActive() || s.last().Mode != DNDOff {
			t.Errorf("after its end: DND %+v, saved %+v", in.DND(), s.last())
		}
	})
}

// A saved state whose end passed while the app was not running is off; a
// store that fails to read leaves it off and the inbox working.
func TestDNDLoadedState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, s := range []*memDND{
			{state: DND{Mode: DNDTomorrow, Until: time.Now().Add(-time.Minute)}},
			{err: errors.New("disk on fire")},
		} {
			ui := newFakeUI()
			in := New(Options{Presenter: ui})
			in.Start()
			in.UseDND(s)
			if in.DNDActive() || in.DND().Mode != DNDOff {
				t.Errorf("loaded %+v/%v: DND %+v, want off", s.state, s.err, in.DND())
			}
			ask(t.Context(), in, q("now"))
			ui.waitShown(t, "now")
			in.Close(time.Second)
		}
	})
}

// The wall clock decides: a timed state whose end has passed (the machine
// slept, its timer did not fire) is off as soon as it is read or a
// question comes.
func TestDNDEndedByTheWallClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, _ := dndInbox(t)
		in.dnd.mu.Lock()
		in.dnd.state = DND{Mode: DNDHour, Until: time.Now().Add(-time.Second)} // as after a sleep
		in.dnd.mu.Unlock()
		ask(t.Context(), in, q("woke"))
		ui.waitShown(t, "woke")
		if in.DNDActive() {
			t.Error("still active after its end")
		}
	})
}

// Clicking a held-back question in the tray opens it at once, do not
// disturb staying on for the others; clicking a shown one raises it.
func TestDNDRaiseFromTheTray(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, _ := dndInbox(t)
		in.SetDND(DNDOn)
		for i, id := range []string{"a", "b"} {
			ask(t.Context(), in, q(id))
			eventually(t, id+" is held back", func() bool { return len(heldBackIDs(in)) == i+1 })
		}
		in.Raise("b")
		ui.waitShown(t, "b")
		if !in.DNDActive() || strings.Join(heldBackIDs(in), ",") != "a" {
			t.Fatalf("after raising b: DND %v, held back %v", in.DNDActive(), heldBackIDs(in))
		}
		in.Raise("b")
		ui.mu.Lock()
		focused := strings.Join(ui.focused, ",")
		ui.mu.Unlock()
		if focused != "b" {
			t.Errorf("raising a shown question focused %q, want b", focused)
		}
		ui.noShow(t)
	})
}

// A held-back question whose caller goes away is withdrawn and never opens.
func TestDNDWithdrawnWhileHeldBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, _ := dndInbox(t)
		in.SetDND(DNDOn)
		ctx, cancel := context.WithCancel(context.Background())
		gone := ask(ctx, in, q("gone"))
		eventually(t, "gone is held back", func() bool { return len(heldBackIDs(in)) == 1 })
		ask(t.Context(), in, q("stays"))
		eventually(t, "stays is held back", func() bool { return len(heldBackIDs(in)) == 2 })
		cancel()
		if r := result(t, gone); !errors.Is(r.err, context.Canceled) {
			t.Fatalf("the caller that left got %+v, %v", r.a, r.err)
		}
		if items := in.Items(); len(items) != 1 || items[0].ID != "stays" {
			t.Fatalf("the tray lists %+v", items)
		}
		in.SetDND(DNDOff)
		ui.waitShown(t, "stays") // waitShown fails if "gone" comes first
		if n := ui.showCount(); n != 1 {
			t.Errorf("%d windows shown, want 1", n)
		}
	})
}

// Questions kept open before a restart come back held back under do not
// disturb.
func TestDNDHoldsBackQuestionsShownAgainAfterARestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ui := newFakeUI()
		fs := &leftStore{fakeStore: newFakeStore(), left: []Left{{Question: q("kept").Question, AskID: "kept", AskedAt: time.Now(), KeptOpen: true}}}
		gate := make(chan struct{})
		in := New(Options{Presenter: ui, Open: func() (Store, error) { <-gate; return fs, nil }})
		in.Start()
		defer in.Close(time.Second)
		in.UseDND(&memDND{state: DND{Mode: DNDOn}})
		close(gate)
		eventually(t, "kept is held back", func() bool { return len(heldBackIDs(in)) == 1 })
		ui.noShow(t)
		in.SetDND(DNDOff)
		ui.waitShown(t, "kept")
	})
}

type leftStore struct {
	*fakeStore
	left []Left
}

func (l *leftStore) LeftOpen() ([]Left, error) { return l.left, nil }

func TestSetDNDRejectsAnUnknownMode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, _, s := dndInbox(t)
		if err := in.SetDND("always"); err == nil || !strings.Contains(err.Error(), "always") {
			t.Errorf("SetDND(always) = %v", err)
		}
		if in.DNDActive() || len(s.saves) != 0 {
			t.Errorf("a refused mode changed the state: %+v, saves %+v", in.DND(), s.saves)
		}
	})
}

// The tray follows do not disturb: changing it calls OnChange's view.
func TestSetDNDUpdatesTheTray(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, _, _ := dndInbox(t)
		var mu sync.Mutex
		var seen []bool
		in.OnChange(func(f func()) { f() }, func([]Item) {
			mu.Lock()
			seen = append(seen, in.DNDActive())
			mu.Unlock()
		})
		in.SetDND(DNDOn)
		in.SetDND(DNDOff)
		mu.Lock()
		defer mu.Unlock()
		if len(seen) != 3 || seen[0] || !seen[1] || seen[2] {
			t.Errorf("the tray saw do not disturb %v, want [false true false]", seen)
		}
	})
}

func TestDNDFileRoundTrip(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		f := DNDFile(filepath.Join(dir, "state", "dnd.json"))
		if d, err := f.LoadDND(); err != nil || d.Mode != DNDOff {
			t.Fatalf("no file: %+v, %v; want off", d, err)
		}
		want := DND{Mode: DNDTomorrow, Until: time.Date(2026, 3, 11, 8, 0, 0, 0, time.Local)}
		if err := f.SaveDND(want); err != nil {
			t.Fatal(err)
		}
		got, err := f.LoadDND()
		if err != nil || got.Mode != want.Mode || !got.Until.Equal(want.Until) {
			t.Fatalf("read back %+v, %v; want %+v", got, err, want)
		}
		fi, err := os.Stat(string(f))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("file mode %v, %v; want 0600", fi.Mode(), err)
		}
		entries, _ := os.ReadDir(filepath.Dir(string(f)))
		if len(entries) != 1 {
			t.Errorf("the directory holds %d files, want only dnd.json", len(entries))
		}
		for _, bad := range []string{"{", `{"mode":"forever"}`} {
			os.WriteFile(string(f), []byte(bad), 0o600)
			if d, err := f.LoadDND(); err == nil || !strings.Contains(err.Error(), string(f)) || d.Mode != DNDOff {
				t.Errorf("file %q: %+v, %v; want off and an error naming the file", bad, d, err)
			}
		}
	})
}

// Without a place to keep it (no tray to turn it off) do not disturb is
// off, and what it held back opens.
func TestUseDNDNilTurnsItOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, s := dndInbox(t)
		in.SetDND(DNDOn)
		ask(t.Context(), in, q("waiting"))
		eventually(t, "waiting is held back", func() bool { return len(heldBackIDs(in)) == 1 })
		saves := len(s.saves)
		in.UseDND(nil)
		ui.waitShown(t, "waiting")
		if in.DNDActive() {
			t.Error("do not disturb is still on")
		}
		if err := in.SetDND(DNDHour); err != nil {
			t.Errorf("SetDND with nothing to keep it in: %v", err)
		}
		if len(s.saves) != saves || s.last().Mode != DNDOn {
			t.Errorf("the old store was written: %+v", s.saves)
		}
	})
}
