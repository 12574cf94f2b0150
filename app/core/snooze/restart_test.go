package snooze

import (
	"errors"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"feedback/app/core"
	"feedback/app/core/coretest"
	"feedback/ipc/wire"
)

// Issue 30: a snooze survives a restart of the app (a new inbox on the
// same database): the question stays snoozed — not shown, listed as
// snoozed — and comes back at the snooze's end, or when the user is back.
func TestSnoozeSurvivesARestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "feedback.db")
		open := func() (core.Store, error) { return coretest.OpenSQLite(path) }
		in, c, ui := snoozing(t, open)
		soon := time.Now().Add(90 * time.Minute)
		snoozes := map[string]wire.Snooze{"later": {Until: time.Now().Add(3 * time.Hour)}, "soon": {Until: soon}, "back": {UntilBack: true}}
		for _, id := range []string{"later", "soon", "back"} {
			r := coretest.Q(id)
			r.Wait = time.Hour
			ch := coretest.Ask(t.Context(), in, r)
			ui.WaitShown(t, id)
			if !c.Snooze(id, snoozes[id]) {
				t.Fatalf("%s not snoozed", id)
			}
			if r := coretest.Wait(t, ch); !errors.Is(r.Err, wire.ErrPending) || r.A.Snooze == nil {
				t.Fatalf("%s: %+v, %v", id, r.A, r.Err)
			}
		}
		in.Close(5 * time.Second)

		in, c, ui = snoozing(t, open)
		time.Sleep(time.Until(soon))
		synctest.Wait()
		ui.WaitShown(t, "soon") // the first window after the restart: at the end of its snooze
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
		c.Back()
		ui.WaitShown(t, "back")
		ui.NoShow(t)
	})
}
