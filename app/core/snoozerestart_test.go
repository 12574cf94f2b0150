package core

import (
	"errors"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"feedback/ipc/wire"
)

// Issue 30: a snooze survives a restart of the app (a new inbox on the
// same database): the question stays snoozed — not shown, listed as
// snoozed — and comes back at the snooze's end, or when the user is back.
func TestSnoozeSurvivesARestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "feedback.db")
		open := func() (Store, error) { return openStore(path) }
		ui := newFakeUI()
		in := New(Options{Presenter: ui, Open: open})
		in.Start()
		soon := time.Now().Add(90 * time.Minute)
		snoozes := map[string]wire.Snooze{"later": {Until: time.Now().Add(3 * time.Hour)}, "soon": {Until: soon}, "back": {UntilBack: true}}
		for _, id := range []string{"later", "soon", "back"} {
			r := q(id)
			r.Wait = time.Hour
			ch := ask(t.Context(), in, r)
			ui.waitShown(t, id)
			if !in.Snooze(id, snoozes[id]) {
				t.Fatalf("%s not snoozed", id)
			}
			if r := result(t, ch); !errors.Is(r.err, wire.ErrPending) || r.a.Snooze == nil {
				t.Fatalf("%s: %+v, %v", id, r.a, r.err)
			}
		}
		in.Close(5 * time.Second)

		ui = newFakeUI()
		in = New(Options{Presenter: ui, Open: open})
		in.Start()
		defer in.Close(5 * time.Second)
		time.Sleep(time.Until(soon))
		synctest.Wait()
		ui.waitShown(t, "soon") // the first window after the restart: at the end of its snooze
		if now := time.Now(); now.Before(soon) {
			t.Errorf("soon came back %v before its snooze ended: the restart ended it", soon.Sub(now))
		}
		snoozed := map[string]bool{}
		for _, it := range in.Items() {
			if it.Snoozed != nil {
				snoozed[it.ID] = true
			}
		}
		if !snoozed["later"] || !snoozed["back"] || snoozed["soon"] {
			t.Errorf("snoozed after the restart: %v, want later and back", snoozed)
		}
		in.Back()
		ui.waitShown(t, "back")
		select {
		case id := <-ui.showCh:
			t.Errorf("%s shown before its snooze ended", id)
		default:
		}
	})
}
