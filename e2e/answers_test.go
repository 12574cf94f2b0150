package e2e

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/ipc"
	"feedback/ipc/wire"
)

// "Nothing answers for you, and no answer is lost on the way", end to end
// through the built app and a real MCP client, in both themes.
//
// The window refuses what the agent would refuse, before it closes:
// ask_multi_select with max 2 and three ticked says so in place and
// Ctrl+Enter sends nothing (the window closed, and the agent got
// invalid_response); the ticks stay, and with one unticked the answer is
// sent. ask_text with a blank box the same. Screenshots:
// refuse-too-many-<theme>, refuse-empty-<theme>.
func TestWindowRefusesWhatTheAgentWould(t *testing.T) {
	requireSession(t)
	for _, theme := range []string{"dark", "light"} {
		t.Run(theme, func(t *testing.T) {
			startApp(t, "FYNE_THEME="+theme)
			c := newMCP(t, "refuse-"+theme)
			title := "Which checks run before the " + theme + " release?"
			res := call(c, "ask_multi_select", map[string]any{"question": title,
				"options": []any{"unit tests", "go vet", "staticcheck", "race detector"}, "max": 2})
			win := findWindow(t, title+" — feedback")
			activate(t, win)
			key(t, "alt+1", "alt+2", "alt+3")
			shot(t, "refuse-too-many-"+theme)
			key(t, "ctrl+Return")
			noResult(t, "ask_multi_select with 3 ticked of at most 2", res, 1500*time.Millisecond)
			findWindow(t, title+" — feedback") // still open, the ticks in it
			key(t, "alt+3")
			key(t, "ctrl+Return")
			wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "unit tests, go vet",
				"selected": []any{"unit tests", "go vet"}})

			title = "What should the new " + theme + " branch be called?"
			res = call(c, "ask_text", map[string]any{"question": title})
			win = findWindow(t, title+" — feedback")
			activate(t, win)
			typeText(t, "   ")
			shot(t, "refuse-empty-"+theme)
			key(t, "ctrl+Return")
			noResult(t, "ask_text with a blank box", res, 1500*time.Millisecond)
			typeText(t, "release/2.5")
			key(t, "ctrl+Return")
			wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "release/2.5", "tool": "ask_text"})
		})
	}
}

// One click is not an answer: a quick-reply chip above the reply box of a
// factual question fills the box and gives it the keyboard; the window
// stays open until the user sends (a chip sent "Looks good, continue" to
// "What should the new branch be called?"). Shift+Tab from the reply box
// is the keyboard's way to the chip beside it; Space presses it.
// Screenshot: quick-reply-chip.
func TestQuickReplyChipIsNoAnswer(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	c := newMCP(t, "quick-chip")
	title := "What should the new ChipBranch be called?"
	res := call(c, "ask_text", map[string]any{"question": title})
	win := findWindow(t, title+" — feedback")
	activate(t, win)
	key(t, "shift+Tab", "space")
	noResult(t, "a click on a quick reply", res, 1500*time.Millisecond)
	findWindow(t, title+" — feedback")
	typeText(t, "!")
	shot(t, "quick-reply-chip")
	key(t, "ctrl+Return")
	sc := wantChoice(t, await(t, res), map[string]any{"status": "answered", "tool": "ask_text"})
	answer, _ := sc["answer"].(string)
	chip := false
	for _, r := range []string{"Looks good, continue", "Stop and wait for me", "Explain the trade-offs first"} {
		chip = chip || answer == r+"!"
	}
	if !chip {
		t.Errorf("answer %q, want a quick reply followed by what was typed after it", answer)
	}
}

// Ticks are work: options ticked (and a recommendation unticked), nothing
// typed, are saved as the draft, survive the app killed mid-question, come
// back with the question, and Escape then asks before discarding them
// (it dismissed them at once); Escape again keeps them, and Ctrl+Enter
// sends them. Screenshot: ticks-discard-asked.
func TestTicksSurviveACrashAndEscapeAsks(t *testing.T) {
	requireSession(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	logPath := startApp(t, "FEEDBACK_DB="+db)
	q := choiceQuestion("CrashTicks")
	title := "CrashTicks — feedback"
	ch, _ := askApp(t, q)
	activate(t, findWindow(t, title))
	key(t, "alt+1", "alt+2") // the recommended "Online" unticked, "With downtime" ticked
	waitDraftOf(t, db, q.ID, func(d wire.Draft) bool {
		return len(d.Replies) == 1 && reflect.DeepEqual(d.Replies[0].Selected, []string{"With downtime"})
	})
	syscall.Kill(appPID(), syscall.SIGKILL)
	if r := awaitAsk(t, ch); !errors.Is(r.err, ipc.ErrAppGone) {
		t.Fatalf("ask after the kill: %+v, %v; want ErrAppGone", r.a, r.err)
	}
	windowGone(t, title, 5*time.Second)

	launchApp(t, logPath, "FEEDBACK_DB="+db)
	ch, _ = askApp(t, q)
	activate(t, findWindow(t, title))
	key(t, "Escape")
	select {
	case r := <-ch:
		t.Fatalf("Escape over restored ticks ended the question without asking: %+v, %v", r.a, r.err)
	case <-time.After(1500 * time.Millisecond):
	}
	shot(t, "ticks-discard-asked")
	key(t, "Escape") // Keep editing
	time.Sleep(300 * time.Millisecond)
	key(t, "ctrl+Return")
	r := awaitAsk(t, ch)
	if r.err != nil || r.a.Status != wire.StatusAnswered || strings.Join(r.a.Replies[0].Selected, ",") != "With downtime" {
		t.Fatalf("answer = %+v, %v; want the restored ticks", r.a, r.err)
	}
}
