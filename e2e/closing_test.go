package e2e

import (
	"testing"
	"time"

	"feedback/ipc/wire"
)

// At zero the window does not just vanish: it stays, saying "Time is up —
// closing" with its controls disabled, for about 1.5 s, and only then does
// the question end, as timed out with no reply. The screenshot
// countdown-time-up shows the closing state.
func TestTimeUpShowsWhyBeforeClosing(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	q := choiceQuestion("TimeUp")
	q.TimeoutSeconds = 2
	title := q.Title + " — feedback"
	ch, _ := askApp(t, q)
	findWindow(t, title)
	shown := time.Now() // the window mapped after its countdown started
	s := openScreen(t)
	seen := false // the window seen on screen past its deadline
	tick, limit := time.NewTicker(50*time.Millisecond), time.After(30*time.Second)
	defer tick.Stop()
	for {
		select {
		case r := <-ch:
			if r.err != nil || r.a.Status != wire.StatusTimeout || r.a.Replies != nil || r.a.Auto {
				t.Fatalf("answer = %+v, %v; want a plain timeout", r.a, r.err)
			}
			if !seen {
				t.Error("the window was gone at its deadline: no closing state was on screen")
			}
			// The countdown starts as the window is built, before it maps
			// (up to a second before on a loaded machine, after hundreds
			// of windows): 2 s + 1.5 s from the start is at least 2 s
			// from the map even then; without the closing state it would
			// be 2 s from the start, about 1 s from the map.
			if d := time.Since(shown); d < 2*time.Second {
				t.Errorf("the question ended %v after its window showed; want its 2 s and the closing state's 1.5 s", d)
			}
			windowGone(t, title, 2*time.Second)
			return
		case <-tick.C: // look again: the window is on screen or not
		case <-limit:
			t.Fatal("the question did not end within 30 s")
		}
		if !seen && time.Since(shown) > 2300*time.Millisecond && s.mapped(title) {
			seen = true
			screenshot(t, "countdown-time-up")
		}
	}
}
