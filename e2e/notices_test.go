package e2e

import (
	"strings"
	"testing"

	"feedback/wire"
)

// notesWith waits until dunst shows one notification, closes it and
// returns its history entry, which must contain every want.
func notesWith(t *testing.T, want ...string) historyEntry {
	t.Helper()
	waitDisplayed(t, 1)
	dunstctl(t, "close-all")
	for _, e := range history(t) {
		all := true
		for _, w := range want {
			all = all && strings.Contains(e.Summary+"\n"+e.Body, w)
		}
		if all {
			return e
		}
	}
	t.Fatalf("no notification with %q in dunst's history: %+v", want, history(t))
	return historyEntry{}
}

// A question that opens while the user types in another one notifies
// "<client> asks" (its window did not take the keyboard); withdrawn by its
// agent before the user ever typed in it, it leaves "… withdrew its
// question" — through the real resident app and the real dunst.
func TestUnfocusedQuestionNotifies(t *testing.T) {
	requireSession(t)
	startDunst(t)
	dunstctl(t, "close-all")
	ensureApp(t)
	a, b := textQuestion("NoticeTypingA"), textQuestion("NoticeArrivesB")
	b.Client, b.Project = "e2e-agent", "shop"
	b.Prompts[0].Markdown = "Ship the release now?"
	cha, _ := askApp(t, a)
	wa := findWindow(t, a.Title+" — feedback")
	activate(t, wa)
	typeText(t, "typing here ")
	typing := xdo("type", "--delay", "40", "while the other question arrives")
	if err := typing.Start(); err != nil {
		t.Fatal(err)
	}
	chb, cancelB := askApp(t, b)
	findWindow(t, b.Title+" — feedback")
	if err := typing.Wait(); err != nil {
		t.Fatal(err)
	}
	e := notesWith(t, "e2e-agent asks", "shop")
	t.Logf("notification: %q / %q", e.Summary, e.Body)

	cancelB() // the agent goes away before the user looked
	awaitAsk(t, chb)
	e = notesWith(t, "e2e-agent withdrew its question", "NoticeArrivesB")
	t.Logf("notification: %q / %q", e.Summary, e.Body)

	activate(t, wa)
	key(t, "ctrl+Return")
	if r := awaitAsk(t, cha); r.err != nil || r.a.Status != wire.StatusAnswered {
		t.Fatalf("A: %+v, %v", r.a, r.err)
	}
}
