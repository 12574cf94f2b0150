package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Nothing declined or sent by one keystroke, end to end: the built app at
// FYNE_SCALE=1.5 in both themes, a real MCP client calling
// ask_user_question, keys typed with xdotool. Two questions, both in view,
// nothing chosen: Ctrl+Enter goes to question 1 and says so, the next to
// question 2, and only the third declines them, with status "declined",
// never "answered". Answering only the first, Ctrl+Enter asks about the
// second before it sends. Then a pre-ticked recommendation with another
// pick: the Sending line lists both and warns. Each step is screenshotted
// (FEEDBACK_SHOTS copies them).
func TestNothingDeclinedByOneKeystroke(t *testing.T) {
	requireSession(t)
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			startApp(t, "FYNE_SCALE=1.5", "FYNE_THEME="+theme)
			c := newMCP(t, "auq-declined-"+theme)
			two := map[string]any{"questions": []any{
				map[string]any{"question": "Which auth for the API?", "header": "Auth", "options": []any{
					map[string]any{"label": "JWT bearer tokens", "description": "stateless, refresh rotation"},
					map[string]any{"label": "Sessions", "description": "server-side, simpler"}}},
				map[string]any{"question": "Offline mode?", "header": "Offline", "options": []any{
					map[string]any{"label": "Offline mode with a local queue"}, map[string]any{"label": "Online only"}}},
			}}
			res := call(c, "ask_user_question", two)
			win := findWindow(t, "Which auth for the API? — feedback")
			activate(t, win)
			shot(t, "auq-two-open-"+theme)
			key(t, "ctrl+Return")
			noResult(t, "one Ctrl+Enter with nothing chosen", res, 1500*time.Millisecond)
			shot(t, "auq-two-asked-"+theme)
			key(t, "ctrl+Return")
			noResult(t, "a second Ctrl+Enter, question 2 not yet asked about", res, 1500*time.Millisecond)
			key(t, "ctrl+Return")
			r := await(t, res)
			wantText(t, r, "User declined to answer the question.\nUser declined to answer the question.")
			if sc := structured(t, r); sc["status"] != "declined" {
				t.Errorf("every question declined: status %v, want declined", sc["status"])
			}

			res = call(c, "ask_user_question", two)
			win = findWindow(t, "Which auth for the API? — feedback")
			activate(t, win)
			key(t, "alt+1", "ctrl+Return")
			noResult(t, "Ctrl+Enter with question 2 unanswered", res, 1500*time.Millisecond)
			key(t, "alt+4") // question 2's first option (question 1 has three, Other included)
			shot(t, "auq-two-answered-"+theme)
			key(t, "ctrl+Return")
			r = await(t, res)
			wantText(t, r, "User selected: JWT bearer tokens\nUser selected: Offline mode with a local queue")
			if sc := structured(t, r); sc["status"] != "answered" {
				t.Errorf("status %v, want answered", sc["status"])
			}

			res = call(c, "interactive_feedback", map[string]any{"header_label": "Migrate" + theme,
				"message": "The migration touches three services: auth, billing and search.\n\n" +
					"Billing keeps the old schema readable for a week.\n\nShould I go ahead?",
				"predefined_options": []any{map[string]any{"label": "Go ahead", "default": true},
					"Keep the old schema for a week", "Stop"}})
			win = findWindow(t, "Migrate"+theme+" — feedback")
			activate(t, win)
			key(t, "alt+2") // beside the pre-ticked recommendation
			shot(t, "pre-ticked-plus-pick-"+theme)
			key(t, "ctrl+Return")
			r = await(t, res)
			if got := text(r); !strings.Contains(got, "Go ahead") || !strings.Contains(got, "Keep the old schema for a week") {
				t.Errorf("sent %q, want both picks", got)
			}
		})
	}
}

// shot is screenshot, copied into $FEEDBACK_SHOTS when it is set.
func shot(t *testing.T, name string) {
	t.Helper()
	path := screenshot(t, name)
	if dir := os.Getenv("FEEDBACK_SHOTS"); dir != "" {
		if data, err := os.ReadFile(path); err == nil {
			os.WriteFile(filepath.Join(dir, name+".png"), data, 0o644)
		}
	}
}
