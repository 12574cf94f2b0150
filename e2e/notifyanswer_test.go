package e2e

import (
	"strings"
	"testing"
	"time"

	"feedback/app/notification"
	"feedback/ipc/wire"
)

// A question that opens while the user types in another is announced by a
// notification that carries its answers: choosing one there (in dunst's
// menu, which sends ActionInvoked as a click on the button does) answers
// the agent through the real MCP client with via "notification", closes
// the window the user never looked at, and withdraws the notification,
// with no "withdrew its question" notice after it.
func TestAnswerFromTheNotification(t *testing.T) {
	requireSession(t)
	d := startDunst(t)
	dunstctl(t, "close-all")
	ensureApp(t)
	a := textQuestion("QuickTypingA")
	cha, _ := askApp(t, a)
	wa := findWindow(t, a.Title+" — feedback")
	activate(t, wa)
	typeText(t, "typing here ")
	typing := xdo("type", "--delay", "40", "while the other question arrives")
	if err := typing.Start(); err != nil {
		t.Fatal(err)
	}
	c := newMCP(t, "quick-agent")
	res := call(c, "ask_confirm", map[string]any{"question": "Deploy QuickB to staging?", "default": false})
	findWindow(t, "Deploy QuickB to staging? — feedback")
	if err := typing.Wait(); err != nil {
		t.Fatal(err)
	}
	waitDisplayed(t, 1)
	screenshot(t, "notification-answers")
	closes := watchCloses(t)
	sent := watchNotifies(t)
	d.chooseAction(t, "Yes")

	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "yes", "confirmed": true, "via": "notification", "tool": "ask_confirm"})
	windowGone(t, "Deploy QuickB to staging? — feedback", 5*time.Second)
	// The app withdraws the notification. (dunst 1.9 keeps showing one
	// whose action came from its context menu even when told to close it,
	// so the test watches the app's call rather than dunst's screen.)
	var closed notification.ID
	select {
	case closed = <-closes:
	case <-time.After(5 * time.Second):
		t.Error("the app did not withdraw the notification (no CloseNotification)")
	}
	// The answer is never reported as a withdrawal (no "quick-agent
	// withdrew its question" after it): the notifications the app sent up
	// to a message sent after the answer hold no such notice.
	if r := await(t, call(c, "notify", map[string]any{"message": "QuickB sentinel"})); r.IsError {
		t.Fatalf("notify: %+v", r)
	}
	for seen := false; !seen; {
		select {
		case n := <-sent:
			if strings.Contains(n.Summary, "withdrew") {
				t.Errorf("the app reported the answered question as withdrawn: %q", n.Summary)
			}
			seen = strings.Contains(n.Summary+n.Body, "QuickB sentinel")
		case <-time.After(10 * time.Second):
			t.Fatal("the message's notification was not sent")
		}
	}
	dunstctl(t, "close-all")
	if e, ok := history(t)[closed]; !ok || e.Summary != "quick-agent asks" {
		t.Errorf("the app closed notification %d (%+v), not the one that asked", closed, e)
	}

	// What the user typed in A is untouched, and A still answers.
	activate(t, wa)
	key(t, "ctrl+Return")
	if r := awaitAsk(t, cha); r.err != nil || r.a.Status != wire.StatusAnswered || r.a.Replies[0].Text != "typing here while the other question arrives" {
		t.Fatalf("A: %+v, %v", r.a, r.err)
	}
}
