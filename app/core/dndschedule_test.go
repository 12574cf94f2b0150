package core

import (
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"feedback/app/clock"
	"feedback/ipc/wire"
)

// shiftedClock is the wall clock read as another time in another zone:
// it reads wall when set, and runs on in real time from there (timers fire
// when it reaches a boundary).
type shiftedClock struct {
	mu     sync.Mutex
	offset time.Duration
	loc    *time.Location
}

func shifted(wall time.Time) *shiftedClock {
	c := &shiftedClock{}
	c.set(wall)
	return c
}

func (c *shiftedClock) set(wall time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset, c.loc = time.Until(wall), wall.Location()
}

func (c *shiftedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset).In(c.loc)
}

func (c *shiftedClock) AfterFunc(d time.Duration, f func()) clock.Timer {
	return clock.Wall.AfterFunc(d, f)
}

func (c *shiftedClock) NewTicker(d time.Duration) clock.Ticker { return clock.Wall.NewTicker(d) }

// setClock makes the inbox's clock (a shiftedClock) read wall now.
func setClock(in *Inbox, wall time.Time) { in.clock.(*shiftedClock).set(wall) }

// night is a night in June, 22:00 to 08:00 (UTC).
func night(day, h, m, s int) time.Time { return time.Date(2026, 6, day, h, m, s, 0, time.UTC) }

// scheduleInbox is an inbox whose clock reads at, with the schedule set.
func scheduleInbox(t *testing.T, at time.Time, schedule string) (*Inbox, *fakeUI, *memDND) {
	t.Helper()
	ui := newFakeUI()
	in := New(Options{Presenter: ui, Clock: shifted(at)})
	in.Start()
	s := &memDND{}
	if err := in.SetDNDSchedule(schedule); err != nil {
		t.Fatal(err)
	}
	in.UseDND(s)
	t.Cleanup(func() { in.Close(time.Second) })
	return in, ui, s
}

// Inside the scheduled hours, before and after midnight, a question opens
// no window and waits in the tray, as under the tray's "On"; the state says
// the schedule holds and until when. Outside them questions open.
func TestDNDScheduleHoldsInsideItsHours(t *testing.T) {
	for _, tc := range []struct {
		name   string
		at     time.Time
		inside bool
		until  time.Time
	}{
		{"before midnight", night(10, 23, 0, 0), true, night(11, 8, 0, 0)},
		{"after midnight", night(11, 3, 0, 0), true, night(11, 8, 0, 0)},
		{"at its start", night(10, 22, 0, 0), true, night(11, 8, 0, 0)},
		{"in the day", night(10, 12, 0, 0), false, time.Time{}},
		{"at its end", night(11, 8, 0, 0), false, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				in, ui, _ := scheduleInbox(t, tc.at, "22:00-08:00")
				st := in.DND()
				if in.DNDActive() != tc.inside {
					t.Fatalf("active %v, want %v (state %+v)", in.DNDActive(), tc.inside, st)
				}
				ask(t.Context(), in, q("x"))
				if !tc.inside {
					ui.waitShown(t, "x")
					if st.Mode != DNDOff {
						t.Errorf("state %+v, want off", st)
					}
					return
				}
				if st.Mode != DNDScheduled || !st.Until.Equal(tc.until) {
					t.Errorf("state %+v, want scheduled until %v", st, tc.until)
				}
				eventually(t, "x is held back", func() bool { return len(heldBackIDs(in)) == 1 })
				ui.noShow(t)
				if items := in.Items(); len(items) != 1 {
					t.Errorf("the tray lists %+v", items)
				}
			})
		})
	}
}

// The end of the scheduled hours opens what they held back, one by one,
// without anybody doing anything; a caller gets the answer given then.
func TestDNDScheduleEndReleasesHeldQuestions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, s := scheduleInbox(t, night(11, 7, 59, 58).Add(500*time.Millisecond), "22:00-08:00") // 1.5 s to hold two back
		var chs []<-chan askResult
		for i, id := range []string{"first", "second"} {
			chs = append(chs, ask(t.Context(), in, q(id)))
			eventually(t, id+" is held back", func() bool { return len(heldBackIDs(in)) == i+1 })
		}
		ui.noShow(t)
		ui.waitShown(t, "first") // at 08:00, by the schedule's timer
		ui.waitShown(t, "second")
		if in.DNDActive() {
			t.Errorf("still active after the end: %+v", in.DND())
		}
		for i, id := range []string{"first", "second"} {
			ui.answer(id, wire.Answer{Status: wire.StatusAnswered})
			if r := result(t, chs[i]); r.err != nil || r.a.QuestionID != id {
				t.Errorf("%s: %+v, %v", id, r.a, r.err)
			}
		}
		if len(s.saves) != 0 && s.last().Mode != DNDOff {
			t.Errorf("the schedule saved a state: %+v", s.saves)
		}
	})
}

// The start of the scheduled hours holds back the questions that come
// from then on, without anybody doing anything.
func TestDNDScheduleStartsByItself(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, _ := scheduleInbox(t, night(10, 21, 59, 58).Add(800*time.Millisecond), "22:00-08:00")
		changed := make(chan struct{}, 16)
		in.OnChange(func(f func()) { f() }, func([]Item) { changed <- struct{}{} })
		<-changed // OnChange's first call
		if in.DNDActive() {
			t.Fatal("active before 22:00")
		}
		select {
		case <-changed: // the tray is told at 22:00
		case <-time.After(5 * time.Second):
			t.Fatal("the tray was not told of the start")
		}
		if st := in.DND(); st.Mode != DNDScheduled {
			t.Fatalf("state %+v after 22:00", st)
		}
		ask(t.Context(), in, q("late"))
		eventually(t, "late is held back", func() bool { return len(heldBackIDs(in)) == 1 })
		ui.noShow(t)
	})
}

// Off chosen in the tray inside the scheduled hours opens what they held
// back and keeps do not disturb off until the schedule's next start (saved:
// a restart keeps it off); then the schedule holds again.
func TestDNDScheduleManualOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, s := scheduleInbox(t, night(10, 23, 0, 0), "22:00-08:00")
		ask(t.Context(), in, q("held"))
		eventually(t, "held is held back", func() bool { return len(heldBackIDs(in)) == 1 })
		if err := in.SetDND(DNDOff); err != nil {
			t.Fatal(err)
		}
		ui.waitShown(t, "held")
		if in.DNDActive() {
			t.Fatalf("Off chosen, still %+v", in.DND())
		}
		ask(t.Context(), in, q("after"))
		ui.waitShown(t, "after")
		if saved := s.last(); saved.Mode != DNDOff || !saved.ScheduleOffUntil.Equal(night(11, 8, 0, 0)) {
			t.Errorf("saved %+v, want off with schedule_off_until 08:00", saved)
		}

		// A restart (the same saved state) keeps it off.
		again := New(Options{Presenter: newFakeUI(), Clock: shifted(night(11, 2, 0, 0))})
		again.Start()
		defer again.Close(time.Second)
		again.SetDNDSchedule("22:00-08:00")
		again.UseDND(s)
		if again.DNDActive() {
			t.Errorf("after a restart the schedule holds again: %+v", again.DND())
		}

		// The next night the schedule holds again.
		setClock(in, night(11, 22, 30, 0))
		if st := in.DND(); st.Mode != DNDScheduled || !st.Until.Equal(night(12, 8, 0, 0)) {
			t.Errorf("the next night: %+v, want scheduled until 08:00", st)
		}
	})
}

// The tray's other choices win while they hold: On inside the hours, then
// Off, is off until the next start; an hour ending inside the hours leaves
// the schedule holding.
func TestDNDScheduleAndTrayChoices(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, _, _ := scheduleInbox(t, night(10, 23, 0, 0), "22:00-08:00")
		in.SetDND(DNDOn)
		if st := in.DND(); st.Mode != DNDOn {
			t.Errorf("On chosen: %+v", st)
		}
		in.SetDND(DNDOff)
		if in.DNDActive() {
			t.Errorf("Off chosen: %+v", in.DND())
		}
		in.SetDND(DNDHour)
		if st := in.DND(); st.Mode != DNDHour {
			t.Errorf("an hour chosen: %+v", st)
		}
		setClock(in, night(11, 0, 30, 0)) // the hour is over, the night is not
		if st := in.DND(); st.Mode != DNDScheduled {
			t.Errorf("after the hour: %+v, want the schedule (an hour chosen forgets the Off)", st)
		}
	})
}

// A changed schedule applies at once: none releases what the old one held
// back; one that covers now holds new questions back; a malformed one is
// refused and changes nothing.
func TestDNDScheduleLiveChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, ui, _ := scheduleInbox(t, night(10, 23, 0, 0), "22:00-08:00")
		ask(t.Context(), in, q("held"))
		eventually(t, "held is held back", func() bool { return len(heldBackIDs(in)) == 1 })
		if err := in.SetDNDSchedule("later"); err == nil || !strings.Contains(err.Error(), "dnd_schedule") || !in.DNDActive() {
			t.Fatalf("malformed: %v, active %v", err, in.DNDActive())
		}
		if err := in.SetDNDSchedule(""); err != nil {
			t.Fatal(err)
		}
		ui.waitShown(t, "held")
		if in.DNDActive() {
			t.Errorf("no schedule, still %+v", in.DND())
		}
		in.SetDNDSchedule("22:30-23:30")
		ask(t.Context(), in, q("new"))
		eventually(t, "new is held back", func() bool { return len(heldBackIDs(in)) == 1 })
		ui.noShow(t)
		in.SetDNDSchedule("09:00-17:00")
		ui.waitShown(t, "new")
	})
}

// The Off chosen inside the quiet hours is kept in dnd.json; "schedule"
// is never a state the file or the tray can set.
func TestDNDFileKeepsTheScheduleOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := DNDFile(t.TempDir() + "/dnd.json")
		want := DND{Mode: DNDOff, ScheduleOffUntil: night(11, 8, 0, 0)}
		if err := f.SaveDND(want); err != nil {
			t.Fatal(err)
		}
		if got, err := f.LoadDND(); err != nil || !got.ScheduleOffUntil.Equal(want.ScheduleOffUntil) {
			t.Fatalf("read back %+v, %v", got, err)
		}
		if _, err := DNDFor(DNDScheduled, night(10, 23, 0, 0)); err == nil {
			t.Error(`DNDFor("schedule") is accepted`)
		}
	})
}
