package e2e

import (
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
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

// Two windows that timed out before the user typed in them leave a
// notification each ("Not answered in time — …: …"), whether or not they opened
// with the focus, as the README promises (before, only a window that
// opened without the focus did: two timed-out windows left none); a
// window the user typed in and its agent then withdrew leaves none.
func TestTimedOutWindowsNotify(t *testing.T) {
	requireSession(t)
	startDunst(t)
	dunstctl(t, "close-all")
	ensureApp(t)
	var chs []<-chan asked
	for _, title := range []string{"NoticeTimeoutA", "NoticeTimeoutB"} {
		q := textQuestion(title)
		q.Client, q.TimeoutSeconds = "e2e-agent", 3
		ch, _ := askApp(t, q)
		findWindow(t, title+" — feedback")
		chs = append(chs, ch)
	}
	for _, ch := range chs {
		if r := awaitAsk(t, ch); r.err != nil || r.a.Status != wire.StatusTimeout {
			t.Fatalf("ask: %+v, %v; want timed out", r.a, r.err)
		}
	}
	// Each leaves its notice. (B may also have announced itself, "… asks",
	// if it opened while A had the focus: that is not what is tested.)
	stopped := func(title string) bool {
		for _, e := range history(t) {
			if strings.Contains(e.Summary, "Not answered in time — e2e-agent: "+title) {
				return true
			}
		}
		return false
	}
	waitFor(t, "a notice for each timed-out window", 10*time.Second, func() bool {
		dunstctl(t, "close-all")
		return stopped("NoticeTimeoutA") && stopped("NoticeTimeoutB")
	})

	typed := textQuestion("NoticeTypedC")
	ch, cancel := askApp(t, typed)
	win := findWindow(t, typed.Title+" — feedback")
	activate(t, win)
	typeText(t, "my answer")
	waitDraft(t, sessionDB(), typed.Title, hasText("my answer"))
	cancel()
	awaitAsk(t, ch)
	windowGone(t, typed.Title+" — feedback", 10*time.Second)
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if n := dunstctl(t, "count", "displayed"); n != "0" {
			t.Fatalf("a window the user typed in left %s notifications when withdrawn: %+v", n, history(t))
		}
	}
}
