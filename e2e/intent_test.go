package e2e

import (
	"strings"
	"testing"
	"time"
)

// The answer matches the intent, end to end: the built binary under a
// real MCP client (or `feedback ask`), real windows driven by xdotool.

// noResult fails if the call returns within d: nobody answered it.
func noResult(t *testing.T, what string, ch <-chan callResult, d time.Duration) {
	t.Helper()
	select {
	case r := <-ch:
		t.Fatalf("%s returned, though its window was never answered: %s %v", what, text(r.res), r.err)
	case <-time.After(d):
	}
}

// `feedback ask` without --multi is one choice: Alt+1 beside the default
// replaces it (it printed both "yes" and "no").
func TestAskOneChoiceReplacesTheDefault(t *testing.T) {
	requireSession(t)
	r := startAsk(t, "--title", "AskOne", "--option", "yes", "--option", "no", "--default", "no", "Deploy?")
	win := findWindow(t, "AskOne — feedback")
	activate(t, win)
	key(t, "alt+1")
	screenshot(t, "ask-one-choice")
	key(t, "ctrl+Return")
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, r.stderr.String())
	}
	if got := r.stdout.String(); got != "yes\n" {
		t.Errorf("stdout = %q, want \"yes\\n\"", got)
	}
}

// Keys go to the window the user chose: X is clicked, Y opens once X has
// the focus (cascaded 32 px off X); once Y asks for attention (it opened
// without the focus, which is back with X), Alt+1 and Ctrl+Enter answer X,
// and Y stays unanswered: it never takes the focus and the keys.
func TestNewWindowDoesNotTakeTheFocusFromAClickedOne(t *testing.T) {
	requireSession(t)
	a, b := newMCP(t, "agent-x"), newMCP(t, "agent-y")
	rx := call(a, "interactive_feedback", map[string]any{"message": "Deploy staging?", "header_label": "DeployStaging",
		"predefined_options": []any{"Deploy staging", "Wait"}})
	wx := findWindow(t, "DeployStaging — feedback")
	xdotool(t, "mousemove", "--window", wx, "60", "20")
	xdotool(t, "click", "1")
	waitActive(t, wx, "the click on X")
	ry := call(b, "interactive_feedback", map[string]any{"message": "Delete the prod db?", "header_label": "DeleteProd",
		"predefined_options": []any{"Delete prod db", "Keep it"}})
	wy := findWindow(t, "DeleteProd — feedback")
	askedAttention(t, wy) // Y opened without the focus, which is back with X
	screenshot(t, "focus-stays-with-clicked")
	if got := activeWindow(); got != wx {
		t.Errorf("the active window is %s, want the clicked %s (Y is %s)", got, wx, wy)
	}
	key(t, "alt+1", "ctrl+Return")
	r := await(t, rx)
	if got := text(r); !strings.Contains(got, "Deploy staging") {
		t.Errorf("X's result = %q", got)
	}
	noResult(t, "Y (delete the prod db)", ry, 1500*time.Millisecond)
	activate(t, wy)
	key(t, "Escape")
	await(t, ry)
}

// Two prompts, the second below the fold: Ctrl+Enter never declines it for
// the user; it goes there, the first option has the keyboard, Space
// chooses it, and Ctrl+Enter then sends both. (It sent "User declined to
// answer the question." for the prompt never seen.)
func TestUnseenPromptIsNeverDeclinedForTheUser(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "auq-fold")
	long := strings.Repeat("This paragraph explains the first choice at length so that the page fills up. ", 14)
	res := call(c, "ask_user_question", map[string]any{"questions": []any{
		map[string]any{"question": "Which database?\n\n" + long, "header": "DB", "options": []any{
			map[string]any{"label": "Postgres"}, map[string]any{"label": "SQLite"}}},
		map[string]any{"question": "Deploy when done?\n\n" + long, "header": "Deploy", "options": []any{
			map[string]any{"label": "Deploy now"}, map[string]any{"label": "Hold"}}},
	}})
	win := findWindow(t, "Which database? — feedback")
	activate(t, win)
	key(t, "alt+1", "ctrl+Return")
	noResult(t, "the window with question 2 unseen", res, 1500*time.Millisecond)
	screenshot(t, "unseen-prompt-shown")
	key(t, "space", "ctrl+Return")
	wantText(t, await(t, res), "User selected: Postgres\nUser selected: Deploy now")
}

// Every prompt takes the user's own words: "Other" is offered though the
// agent gave none; choosing it reveals its field, and its text is the
// answer. The window opens with the first option focused: Down and Space
// work at once.
func TestAskUserQuestionOtherAndFirstFocus(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "auq-other")
	res := call(c, "ask_user_question", map[string]any{"questions": []any{map[string]any{
		"question": "How to organise the files?", "header": "Organise", "options": []any{
			map[string]any{"label": "By type"}, map[string]any{"label": "By date"}}}}})
	win := findWindow(t, "Organise — feedback")
	activate(t, win)
	key(t, "Down", "space") // the first option has the keyboard: Down moves to By date
	key(t, "alt+3")         // Other replaces it and takes the keyboard
	typeText(t, "by project")
	screenshot(t, "auq-other")
	key(t, "ctrl+Return")
	wantText(t, await(t, res), "User answered: by project")

	res = call(c, "ask_user_question", map[string]any{"questions": []any{map[string]any{
		"question": "Which one?", "header": "Focus", "options": []any{
			map[string]any{"label": "A"}, map[string]any{"label": "B"}}}}})
	win = findWindow(t, "Focus — feedback")
	activate(t, win)
	key(t, "Down", "space", "ctrl+Return")
	wantText(t, await(t, res), "User selected: B")
}
