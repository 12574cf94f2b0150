package mcpshim

import (
	"strings"
	"testing"

	"feedback/ipc/wire"
)

// A client form declined sooner than a person could (autoRejectMS) means
// one thing in every dialect: the user never saw it, so it is neither an
// answer nor a refusal, and the agent must ask in chat — the dialect's own
// "ask in chat" result (seed 004's needs_user_input, with
// auto_reject_suspected where the result has that field). A form the user
// declined after reading it is the dialect's refusal, as its seed or
// original says: interactive_feedback "dismissed", ask_user_question's
// "User declined to answer the question." (seed 001, a closed modal),
// ask_human and the ask_choice family "declined", user_interact a failed
// outcome that says no answer was given.
func TestFormDeclinedAtOnceAsksInChat(t *testing.T) {
	byName := map[string]dialect{}
	for _, d := range tools {
		byName[d.tool.Name] = d
	}
	refused := map[string]string{
		"interactive_feedback": `"status":"dismissed"`,
		"ask_human":            `"status":"declined"`,
		"user_interact":        `"outcome":"failed"`,
		"ask_user_question":    "User declined to answer the question.",
		"ask_choice":           `"status":"declined"`,
		"ask_confirm":          `"status":"declined"`,
		"ask_text":             `"status":"declined"`,
		"ask_multi_select":     `"status":"declined"`,
	}
	for _, tool := range matrixTools {
		t.Run(tool.name, func(t *testing.T) {
			p, err := byName[tool.name].prepare(tool.args, callEnv{})
			if err != nil {
				t.Fatal(err)
			}
			if p.elicited == nil {
				t.Fatal("no elicited renderer: a form's answer is rendered as the window's")
			}
			at := func(ms int64) string {
				return allText(p.elicited(wire.Answer{QuestionID: p.question.ID, Status: wire.StatusDismissed, Reason: reasonFormDeclined, ElapsedMS: ms}))
			}
			fast := at(12)
			// user_interact's chat result is its seed's MCP surface
			// (pending with the question), which has no room for a cause.
			if !strings.Contains(fast, tool.chat) || (tool.name != "user_interact" && !strings.Contains(fast, "too soon for a person")) {
				t.Errorf("declined after 12 ms: want the ask-in-chat result (%q) with its cause, got\n%s", tool.chat, fast)
			}
			if strings.Contains(fast, refused[tool.name]) {
				t.Errorf("declined after 12 ms reads as the user's refusal (%q):\n%s", refused[tool.name], fast)
			}
			if strings.HasPrefix(tool.name, "ask_") && tool.name != "ask_human" && tool.name != "ask_user_question" && !strings.Contains(fast, `"auto_reject_suspected":true`) {
				t.Errorf("declined after 12 ms: no auto_reject_suspected:\n%s", fast)
			}
			slow := at(4000)
			if !strings.Contains(slow, refused[tool.name]) || strings.Contains(slow, tool.chat) {
				t.Errorf("declined after 4 s: want the user's refusal (%q), got\n%s", refused[tool.name], slow)
			}
		})
	}
}
