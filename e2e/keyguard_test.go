package e2e

import (
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"

	"feedback/ipc/wire"
)

// keysDown lists the keycodes the X server holds down.
func (s *xscreen) keysDown(t *testing.T) []int {
	t.Helper()
	r, err := xproto.QueryKeymap(s.x).Reply()
	if err != nil {
		t.Fatalf("QueryKeymap: %v", err)
	}
	var down []int
	for i, b := range r.Keys {
		for j := range 8 {
			if b&(1<<j) != 0 {
				down = append(down, i*8+j)
			}
		}
	}
	return down
}

// releaseKeys lets go of keys a test left held at the X server.
func releaseKeys(t *testing.T) {
	t.Helper()
	xdotool(t, "keyup", "Return", "ctrl", "alt", "y")
}

// textQuestion is a question with a reply box, titled title.
func textQuestion(title string) wire.Question {
	return wire.Question{ID: title + "-" + wire.NewID()[:8], Title: title, Prompts: []wire.Prompt{{Markdown: "Anything to add?"}}}
}

// noAnswer fails the test if a question on ch ends within d: nothing the
// user did should answer it. The wait is the point: it proves that nothing
// arrives late.
func noAnswer(t *testing.T, what string, ch <-chan asked, d time.Duration) {
	t.Helper()
	select {
	case r := <-ch:
		t.Fatalf("%s was answered with no key or click of the user's: %+v, %v", what, r.a, r.err)
	case <-time.After(d):
	}
}

// A synthetic submit answers nothing else: a window submitted by a
// synthetic Ctrl+Return (xdotool key --window, which presses through XTEST
// while the window has the focus and, once the window is gone, releases
// through XSendEvent) leaves Ctrl and Return held at the X server, and the
// server's key repeat goes on pressing them into the next windows. A key
// counts only if it went down in that window: the next windows wait for the
// user, never submitted empty.
func TestSyntheticSubmitAnswersNothingElse(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	scr := openScreen(t)
	t.Cleanup(func() { releaseKeys(t) })

	q := textQuestion("SynthFirst")
	ch, _ := askApp(t, q)
	w := findWindow(t, q.Title+" — feedback")
	activate(t, w)
	typeText(t, "first")
	xdotool(t, "key", "--window", w, "ctrl+Return")
	if r := awaitAsk(t, ch); r.err != nil || r.a.Status != wire.StatusAnswered || r.a.Replies[0].Text != "first" {
		t.Fatalf("the synthetic Ctrl+Return: %+v, %v", r.a, r.err)
	}
	t.Logf("keys held at the X server after it: %v", scr.keysDown(t))

	// Whether or not xdotool left them held this time, hold them now: the
	// state the leak left behind, with the server repeating Return.
	xdotool(t, "keydown", "ctrl", "Return")
	a, b := textQuestion("SynthNextA"), textQuestion("SynthNextB")
	cha, _ := askApp(t, a)
	chb, _ := askApp(t, b)
	wa := findWindow(t, a.Title+" — feedback")
	findWindow(t, b.Title+" — feedback")
	noAnswer(t, "a window opened while Ctrl+Return was held", cha, 1500*time.Millisecond)
	noAnswer(t, "a window opened while Ctrl+Return was held", chb, 0)
	screenshot(t, "keyguard-held-keys")
	releaseKeys(t)

	// The user's own keys still answer.
	activate(t, wa)
	typeText(t, "mine")
	key(t, "ctrl+Return")
	if r := awaitAsk(t, cha); r.err != nil || r.a.Status != wire.StatusAnswered || r.a.Replies[0].Text != "mine" {
		t.Fatalf("the user's Ctrl+Return: %+v, %v", r.a, r.err)
	}
	wb := findWindow(t, b.Title+" — feedback")
	activate(t, wb)
	key(t, "Escape")
	if r := awaitAsk(t, chb); r.err != nil || r.a.Status != wire.StatusDismissed {
		t.Fatalf("Escape: %+v, %v", r.a, r.err)
	}
}

// The input guard (the rest of the suite runs with its time rule off): a
// Ctrl+Return that lands right after a window takes the keyboard, before
// anything was typed there, is ignored and the hint says so; the same keys
// a moment later submit. Text typed into the reply ends the time rule: the
// Ctrl+Return after it is the user's (keyboard_test.go).
func TestInputGuardIgnoresKeysRightAfterFocus(t *testing.T) {
	requireSession(t)
	startApp(t, "FEEDBACK_INPUT_GUARD_MS=1500") // longer than 600 ms: a slow moment must not end it early
	q := textQuestion("Guarded")
	ch, _ := askApp(t, q)
	w := findWindow(t, q.Title+" — feedback")
	time.Sleep(500 * time.Millisecond) // a user's reaction: sooner, the window gives back a focus it did not ask for
	xdotool(t, "windowactivate", "--sync", w)
	key(t, "ctrl+Return")
	screenshot(t, "keyguard-ignored")
	noAnswer(t, "a Ctrl+Return within the guard", ch, 1500*time.Millisecond)
	typeText(t, "meant for the question")
	key(t, "ctrl+Return")
	if r := awaitAsk(t, ch); r.err != nil || r.a.Status != wire.StatusAnswered || r.a.Replies[0].Text != "meant for the question" {
		t.Fatalf("after the guard: %+v, %v", r.a, r.err)
	}
}
