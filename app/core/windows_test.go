package core

import (
	"context"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"feedback/ipc/wire"
)

// A question shown again after the app restarted is the inbox's like any
// other: snoozed, it comes back with the draft restored from the database
// (the draft was given to the window only, and snoozing one panicked).
func TestReopenedQuestionSnoozesWithItsDraft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "feedback.db")
		open := func() (Store, error) { return openStore(path) }
		ui := newFakeUI()
		in := New(Options{Presenter: ui, Open: open})
		in.Start()
		kq := q("kept")
		kq.Wait = 10 * time.Millisecond
		if r := result(t, ask(context.Background(), in, kq)); r.err == nil {
			t.Fatal("the first call was answered")
		}
		ui.waitShown(t, "kept")
		ui.draft("kept", draftOf("half"))
		in.Close(5 * time.Second)

		ui = newFakeUI()
		in = New(Options{Presenter: ui, Open: open})
		in.Start()
		defer in.Close(5 * time.Second)
		ui.waitShown(t, "kept")
		kept, ok := (host{in}).SetAside("kept", wire.Snooze{Until: time.Now().Add(50 * time.Millisecond)})
		if !ok {
			t.Fatal("not snoozed")
		}
		(host{in}).BringBack(kept)
		ui.waitShown(t, "kept")
		ui.mu.Lock()
		d := ui.restored["kept"]
		ui.mu.Unlock()
		if d == nil || d.Replies[0].Text != "half" {
			t.Errorf("came back with draft %+v, want the one restored", d)
		}
	})
}
