package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// Alt+T gives more time and Alt+P pins, with the reply box focused: a
// 3-second question outlives its deadline, and Escape still dismisses.
func TestCountdownExtendAndPin(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	for _, tc := range []struct{ name, key string }{{"Extend", "alt+t"}, {"Pin", "alt+p"}} {
		t.Run(tc.name, func(t *testing.T) {
			q := choiceQuestion("Countdown" + tc.name)
			q.TimeoutSeconds = 3
			title := q.Title + " — feedback"
			ch, _ := askApp(t, q)
			win := findWindow(t, title)
			activate(t, win)
			key(t, tc.key)
			// Past the original deadline: this wait proves that the end
			// does not come at the old deadline (nothing arrives), it
			// synchronises nothing.
			time.Sleep(4 * time.Second)
			screenshot(t, "countdown-"+tc.name)
			select {
			case r := <-ch:
				t.Fatalf("the question ended at its old deadline: %+v, %v", r.a, r.err)
			default:
			}
			activate(t, win)
			key(t, "Escape")
			if r := awaitAsk(t, ch); r.err != nil || r.a.Status != wire.StatusDismissed {
				t.Fatalf("answer = %+v, %v", r.a, r.err)
			}
		})
	}
}

// With submit_draft_on_timeout, a draft restored into a window that nobody
// touches is submitted at zero, marked auto; the same question without a
// draft times out with no reply.
func TestSubmitDraftOnTimeout(t *testing.T) {
	requireSession(t)
	config := t.TempDir()
	if err := os.MkdirAll(filepath.Join(config, "feedback"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(config, "feedback", "settings.json"),
		[]byte(`{"submit_draft_on_timeout": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db, "XDG_CONFIG_HOME="+config)

	q := choiceQuestion("AutoSubmit")
	title := q.Title + " — feedback"
	ch, cancel := askApp(t, q)
	activate(t, findWindow(t, title))
	typeText(t, "unfinished thought")
	waitDraftOf(t, db, q.ID, hasText("unfinished thought")) // every key reached the window
	cancel()                                                // the agent went away; the draft is kept
	windowGone(t, title, time.Second)
	awaitAsk(t, ch)

	q.TimeoutSeconds = 2 // asked again: the draft comes back, and nobody touches it
	ch, _ = askApp(t, q)
	findWindow(t, title)
	r := awaitAsk(t, ch)
	if r.err != nil || r.a.Status != wire.StatusAnswered || !r.a.Auto || r.a.Replies[0].Text != "unfinished thought" {
		t.Fatalf("answer = %+v, %v; want the draft, auto-submitted", r.a, r.err)
	}

	empty := choiceQuestion("AutoEmpty")
	empty.TimeoutSeconds = 2
	ch, _ = askApp(t, empty)
	findWindow(t, empty.Title+" — feedback")
	if r := awaitAsk(t, ch); r.err != nil || r.a.Status != wire.StatusTimeout || r.a.Auto || r.a.Replies != nil {
		t.Fatalf("answer = %+v, %v; want a plain timeout", r.a, r.err)
	}
}
