package dialogs

import (
	"reflect"
	"testing"
	"time"
)

// The draft's debouncer on its own: a fake clock and fake timers, no
// toolkit, no view.

// fakeTimers runs the timers started through after when the test moves
// the clock past them.
type fakeTimers struct {
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	due  time.Time
	f    func()
	done bool // fired or stopped
}

func (ft *fakeTimers) after(d time.Duration, f func()) func() bool {
	t := &fakeTimer{due: ft.now.Add(d), f: f}
	ft.timers = append(ft.timers, t)
	return func() bool {
		was := !t.done
		t.done = true
		return was
	}
}

// advance moves the clock to to, firing on the way, in order, every timer
// that falls due.
func (ft *fakeTimers) advance(to time.Time) {
	for {
		var next *fakeTimer
		for _, t := range ft.timers {
			if !t.done && !t.due.After(to) && (next == nil || t.due.Before(next.due)) {
				next = t
			}
		}
		if next == nil {
			break
		}
		ft.now = next.due
		next.done = true
		next.f()
	}
	ft.now = to
}

func TestDebouncer(t *testing.T) {
	const ms = time.Millisecond
	type step struct {
		at      time.Duration // since t0: the clock moves there first, firing the timers due
		do      string        // "edit", "flush", "cancel", "" (only the time passes)
		reports []time.Duration
	}
	var typing []step // an edit every 200 ms for 2 s
	for at := time.Duration(0); at <= 2000*ms; at += 200 * ms {
		typing = append(typing, step{at: at, do: "edit"})
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{name: "edits coalesce until a pause", steps: []step{
			{0, "edit", nil},
			{100 * ms, "edit", nil},
			{200 * ms, "edit", nil},
			{499 * ms, "", nil},
			{500 * ms, "", []time.Duration{500 * ms}},
			{time.Hour, "", []time.Duration{500 * ms}},
		}},
		{name: "edits that never pause are reported at most a second apart", steps: append(typing,
			step{time.Hour, "", []time.Duration{1000 * ms, 2000 * ms, 2300 * ms}})},
		{name: "a flush reports at once, and its timer then does nothing", steps: []step{
			{0, "edit", nil},
			{100 * ms, "flush", []time.Duration{100 * ms}},
			{time.Hour, "", []time.Duration{100 * ms}},
		}},
		{name: "a flush with nothing unreported reports nothing", steps: []step{
			{0, "flush", nil},
			{0, "edit", nil},
			{300 * ms, "", []time.Duration{300 * ms}},
			{400 * ms, "flush", []time.Duration{300 * ms}},
		}},
		{name: "an edit after a report is reported again", steps: []step{
			{0, "edit", nil},
			{300 * ms, "", []time.Duration{300 * ms}},
			{5000 * ms, "edit", []time.Duration{300 * ms}},
			{5300 * ms, "", []time.Duration{300 * ms, 5300 * ms}},
		}},
		{name: "cancel (an answer) drops what was unreported", steps: []step{
			{0, "edit", nil},
			{100 * ms, "cancel", nil},
			{time.Hour, "flush", nil},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeTimers{now: t0}
			var reports []time.Duration
			d := debouncer{quiet: 300 * ms, most: time.Second, after: ft.after,
				report: func() { reports = append(reports, ft.now.Sub(t0)) }}
			for i, s := range tc.steps {
				ft.advance(t0.Add(s.at))
				switch s.do {
				case "edit":
					d.Edited(ft.now)
					if !d.Dirty() {
						t.Fatalf("step %d: an edit left the debouncer clean", i)
					}
				case "flush":
					had := d.Dirty()
					if got := d.Flush(); got != had {
						t.Fatalf("step %d: Flush = %v with an edit unreported %v", i, got, had)
					}
				case "cancel":
					d.Cancel()
				}
				if s.do == "edit" && s.reports == nil {
					continue // the reports are checked at the steps that name them
				}
				if !reflect.DeepEqual(reports, s.reports) {
					t.Fatalf("step %d (%q at %v): reports at %v, want %v", i, s.do, s.at, reports, s.reports)
				}
			}
			if d.Dirty() {
				t.Error("an edit is left unreported at the end")
			}
		})
	}
}
