package e2e

import (
	"testing"
	"time"
)

// question_type other than the exact "yesno" is the normal window with the
// options and the reply box (seed 000), not an error: the typed reply comes
// back.
func TestUnknownQuestionTypeIsTheReplyBox(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "qtype")
	res := call(c, "interactive_feedback", map[string]any{"message": "Rate the plan", "header_label": "Rating",
		"question_type": "rating", "predefined_options": []any{"Good", "Bad"}})
	win := findWindow(t, "Rating — feedback")
	activate(t, win)
	typeText(t, "four stars")
	screenshot(t, "question-type-rating")
	key(t, "ctrl+Return")
	wantText(t, await(t, res), "User reply:\nfour stars")
}

// ask_multi_select's min and max are shown in the window, and a
// submission outside them, which the agent would get as invalid_response,
// is held back in the window: Ctrl+Enter sends nothing until the ticks
// are within them.
func TestAskMultiSelectBounds(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "multi-bounds")
	res := call(c, "ask_multi_select", map[string]any{"question": "Pick at most two", "options": []any{"A", "B", "C"}, "min": 1, "max": 2})
	win := findWindow(t, "Pick at most two — feedback")
	activate(t, win)
	key(t, "alt+1", "alt+2", "alt+3")
	screenshot(t, "ask-multi-select-bounds")
	key(t, "ctrl+Return")
	noResult(t, "three ticked of at most two", res, 1500*time.Millisecond)
	key(t, "alt+1", "ctrl+Return")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "B, C", "selected": []any{"B", "C"}})
	windowGone(t, "Pick at most two — feedback", 2*time.Second)
}
