package dnd

import (
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"feedback/app/clock"
	"feedback/app/core"
	"feedback/app/core/coretest"
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
func setClock(c *Control, wall time.Time) { c.host.Clock().(*shiftedClock).set(wall) }

// night is a night in June, 22:00 to 08:00 (UTC).
func night(day, h, m, s int) time.Time { return time.Date(2026, 6, day, h, m, s, 0, time.UTC) }

// scheduleInbox is an inbox whose clock reads at, with the schedule set.
func scheduleInbox(t *testing.T, at time.Time, schedule string) (*core.Inbox, *Control, *coretest.UI, *memDND) {
	t.Helper()
	s := &memDND{}
	in, c, ui := started(t, shifted(at), schedule, s)
	return in, c, ui, s
}

// started is an inbox on clk with do not disturb attached, its schedule
// set, kept in s, then started; it closes with the test.
func started(t *testing.T, clk clock.Clock, schedule string, s Store) (*core.Inbox, *Control, *coretest.UI) {
	t.Helper()
	ui := coretest.NewUI()
	c := New(nil)
	in := core.New(core.Options{Presenter: ui, Clock: clk, Features: []core.Feature{c}})
	if err := c.SetSchedule(schedule); err != nil {
		t.Fatal(err)
	}
	c.Use(s)
	in.Start()
	t.Cleanup(func() {
		c.Close()
		in.Close(time.Second)
	})
	return in, c, ui
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
				in, c, ui, _ := scheduleInbox(t, tc.at, "22:00-08:00")
				st := c.State()
				if c.Active() != tc.inside {
					t.Fatalf("active %v, want %v (state %+v)", c.Active(), tc.inside, st)
				}
				coretest.Ask(t.Context(), in, coretest.Q("x"))
				if !tc.inside {
					ui.WaitShown(t, "x")
					if st.Mode != Off {
						t.Errorf("state %+v, want off", st)
					}
					return
				}
				if st.Mode != Scheduled || !st.Until.Equal(tc.until) {
					t.Errorf("state %+v, want scheduled until %v", st, tc.until)
				}
				coretest.Eventually(t, "x is held back", func() bool { return len(heldBackIDs(c)) == 1 })
				ui.NoShow(t)
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
		in, c, ui, s := scheduleInbox(t, night(11, 7, 59, 58).Add(500*time.Millisecond), "22:00-08:00") // 1.5 s to hold two back
		var chs []<-chan coretest.Result
		for i, id := range []string{"first", "second"} {
			chs = append(chs, coretest.Ask(t.Context(), in, coretest.Q(id)))
			coretest.Eventually(t, id+" is held back", func() bool { return len(heldBackIDs(c)) == i+1 })
		}
		ui.NoShow(t)
		ui.WaitShown(t, "first") // at 08:00, by the schedule's timer
		ui.WaitShown(t, "second")
		if c.Active() {
			t.Errorf("still active after the end: %+v", c.State())
		}
		for i, id := range []string{"first", "second"} {
			ui.Answer(id, wire.Answer{Status: wire.StatusAnswered})
			if r := coretest.Wait(t, chs[i]); r.Err != nil || r.A.QuestionID != id {
				t.Errorf("%s: %+v, %v", id, r.A, r.Err)
			}
		}
		if len(s.saves) != 0 && s.last().Mode != Off {
			t.Errorf("the schedule saved a state: %+v", s.saves)
		}
	})
}

// The start of the scheduled hours holds back the questions that come
// from then on, without anybody doing anything.
func TestDNDScheduleStartsByItself(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, _ := scheduleInbox(t, night(10, 21, 59, 58).Add(800*time.Millisecond), "22:00-08:00")
		changed := make(chan struct{}, 16)
		in.OnChange(func(f func()) { f() }, func([]core.Item) { changed <- struct{}{} })
		<-changed // OnChange's first call
		if c.Active() {
			t.Fatal("active before 22:00")
		}
		select {
		case <-changed: // the tray is told at 22:00
		case <-time.After(5 * time.Second):
			t.Fatal("the tray was not told of the start")
		}
		if st := c.State(); st.Mode != Scheduled {
			t.Fatalf("state %+v after 22:00", st)
		}
		coretest.Ask(t.Context(), in, coretest.Q("late"))
		coretest.Eventually(t, "late is held back", func() bool { return len(heldBackIDs(c)) == 1 })
		ui.NoShow(t)
	})
}

// Off chosen in the tray inside the scheduled hours opens what they held
// back and keeps do not disturb off until the schedule's next start (saved:
// a restart keeps it off); then the schedule holds again.
func TestDNDScheduleManualOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, s := scheduleInbox(t, night(10, 23, 0, 0), "22:00-08:00")
		coretest.Ask(t.Context(), in, coretest.Q("held"))
		coretest.Eventually(t, "held is held back", func() bool { return len(heldBackIDs(c)) == 1 })
		if err := c.Set(Off); err != nil {
			t.Fatal(err)
		}
		ui.WaitShown(t, "held")
		if c.Active() {
			t.Fatalf("Off chosen, still %+v", c.State())
		}
		coretest.Ask(t.Context(), in, coretest.Q("after"))
		ui.WaitShown(t, "after")
		if saved := s.last(); saved.Mode != Off || !saved.ScheduleOffUntil.Equal(night(11, 8, 0, 0)) {
			t.Errorf("saved %+v, want off with schedule_off_until 08:00", saved)
		}

		// A restart (the same saved state) keeps it off.
		_, again, _ := started(t, shifted(night(11, 2, 0, 0)), "22:00-08:00", s)
		if again.Active() {
			t.Errorf("after a restart the schedule holds again: %+v", again.State())
		}

		// The next night the schedule holds again.
		setClock(c, night(11, 22, 30, 0))
		if st := c.State(); st.Mode != Scheduled || !st.Until.Equal(night(12, 8, 0, 0)) {
			t.Errorf("the next night: %+v, want scheduled until 08:00", st)
		}
	})
}

// The tray's other choices win while they hold: On inside the hours, then
// Off, is off until the next start; an hour ending inside the hours leaves
// the schedule holding.
func TestDNDScheduleAndTrayChoices(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c, _, _ := scheduleInbox(t, night(10, 23, 0, 0), "22:00-08:00")
		c.Set(On)
		if st := c.State(); st.Mode != On {
			t.Errorf("On chosen: %+v", st)
		}
		c.Set(Off)
		if c.Active() {
			t.Errorf("Off chosen: %+v", c.State())
		}
		c.Set(Hour)
		if st := c.State(); st.Mode != Hour {
			t.Errorf("an hour chosen: %+v", st)
		}
		setClock(c, night(11, 0, 30, 0)) // the hour is over, the night is not
		if st := c.State(); st.Mode != Scheduled {
			t.Errorf("after the hour: %+v, want the schedule (an hour chosen forgets the Off)", st)
		}
	})
}

// A changed schedule applies at once: none releases what the old one held
// back; one that covers now holds new questions back; a malformed one is
// refused and changes nothing.
func TestDNDScheduleLiveChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui, _ := scheduleInbox(t, night(10, 23, 0, 0), "22:00-08:00")
		coretest.Ask(t.Context(), in, coretest.Q("held"))
		coretest.Eventually(t, "held is held back", func() bool { return len(heldBackIDs(c)) == 1 })
		if err := c.SetSchedule("later"); err == nil || !strings.Contains(err.Error(), "dnd_schedule") || !c.Active() {
			t.Fatalf("malformed: %v, active %v", err, c.Active())
		}
		if err := c.SetSchedule(""); err != nil {
			t.Fatal(err)
		}
		ui.WaitShown(t, "held")
		if c.Active() {
			t.Errorf("no schedule, still %+v", c.State())
		}
		c.SetSchedule("22:30-23:30")
		coretest.Ask(t.Context(), in, coretest.Q("new"))
		coretest.Eventually(t, "new is held back", func() bool { return len(heldBackIDs(c)) == 1 })
		ui.NoShow(t)
		c.SetSchedule("09:00-17:00")
		ui.WaitShown(t, "new")
	})
}
