package e2e

import (
	"strings"
	"testing"
	"time"
)

// Where a seed is silent, the original server decides (issue #32). These
// go through the built binary with a real MCP client over stdio.

// interactive_feedback's legacy predefined_options_defaults was removed
// upstream (seed 000, R167); the original rejects it, naming the field and
// the dict form to use, where ignoring it would lose the recommendation
// silently. No window opens.
func TestOriginalRejectsLegacyOptionDefaults(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "orig-legacy-defaults")
	res := await(t, call(c, "interactive_feedback", map[string]any{
		"message":                     "Ship the release?",
		"predefined_options":          []any{"Ship", "Wait"},
		"predefined_options_defaults": []any{true, false},
	}))
	msg := text(res)
	if !res.IsError || !strings.Contains(msg, "predefined_options_defaults") || !strings.Contains(msg, `"default": true`) {
		t.Fatalf("want an isError result naming predefined_options_defaults and the dict form, got isError %v: %s", res.IsError, msg)
	}
	noWindow(t, "Ship the release? — feedback") // rejected before the app was asked
}

// An answered ask_choice carries confirmed null, not false (which reads
// as a "no"): confirmed is ask_confirm's only, as in the original.
func TestOriginalChoiceConfirmedIsNull(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "orig-choice-confirmed")
	res := call(c, "ask_choice", map[string]any{"question": "Which license?", "options": []any{"MIT", "Apache-2.0"}})
	win := findWindow(t, "Which license? — feedback")
	activate(t, win)
	key(t, "alt+2")
	key(t, "ctrl+Return")
	sc := wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "Apache-2.0", "tool": "ask_choice"})
	if v, ok := sc["confirmed"]; !ok || v != nil {
		t.Errorf("confirmed = %v (present %v), want null", v, ok)
	}
}

// An ask_text answer of only spaces is no answer (the original reports
// such a submission as invalid_response): the window does not send it,
// and says so; Escape then closes it, cancelled.
func TestOriginalTextOnlySpacesIsNoAnswer(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "orig-text-spaces")
	res := call(c, "ask_text", map[string]any{"question": "What should the tag be called?"})
	win := findWindow(t, "What should the tag be called? — feedback")
	activate(t, win)
	typeText(t, "   ")
	screenshot(t, "orig-text-spaces")
	key(t, "ctrl+Return")
	noResult(t, "an answer of only spaces", res, 1500*time.Millisecond)
	key(t, "Escape")
	wantChoice(t, await(t, res), map[string]any{"status": "cancelled", "answer": "", "confirmed": nil, "tool": "ask_text"})
}
