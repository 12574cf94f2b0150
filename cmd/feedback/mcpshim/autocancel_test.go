package mcpshim

import (
	"encoding/json"
	"strings"
	"testing"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// A client form cancelled sooner than anyone could have read it (Claude
// Code's print mode cancels it about 3 ms after it was sent) is no
// dismissal of the user's: nobody was asked. Every dialect says so — that
// the user could not be asked, and to ask in chat — in its text and in its
// structuredContent (Claude Code hands the model that alone). A form
// cancelled after a person's time is still their dismissal.
func TestFormCancelledAtOnceSaysNobodyWasAsked(t *testing.T) {
	byName := map[string]dialect{}
	for _, d := range tools {
		byName[d.tool.Name] = d
	}
	byName[permissionPromptName] = permissionPrompt
	dismissed := map[string]string{
		"interactive_feedback": `"status":"dismissed"`,
		"ask_human":            "closed the window without choosing",
		"user_interact":        `"outcome":"failed"`,
		"ask_user_question":    `"status":"declined"`,
		"ask_choice":           `"status":"cancelled"`,
		"ask_confirm":          `"status":"cancelled"`,
		"ask_text":             `"status":"cancelled"`,
		"ask_multi_select":     `"status":"cancelled"`,
		permissionPromptName:   "closed the approval",
	}
	cases := append(append([]matrixTool(nil), matrixTools...),
		matrixTool{name: permissionPromptName, args: map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "ls"}}})
	cancel := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}}
	for _, tool := range cases {
		t.Run(tool.name, func(t *testing.T) {
			p, err := byName[tool.name].prepare(tool.args, callEnv{})
			if err != nil {
				t.Fatal(err)
			}
			c := call{tool: tool.name, p: p}
			at := func(ms int64) *mcp.CallToolResult {
				return c.renderFormAnswer(formAnswer(p.question, nil, cancel, ms))
			}
			fast := at(3)
			txt, sc := textOnly(fast), structuredJSON(fast)
			if strings.Contains(txt+sc, dismissed[tool.name]) {
				t.Errorf("cancelled after 3 ms reads as the user's dismissal (%q):\n%s\n%s", dismissed[tool.name], txt, sc)
			}
			// user_interact's "ask in chat" is its seed's pending envelope,
			// which has no room for words of ours.
			if tool.name != userInteractName {
				where := map[string]string{"text": txt, "structuredContent": sc}
				if tool.name == permissionPromptName { // Claude Code reads its JSON text alone
					delete(where, "structuredContent")
				}
				for name, s := range where {
					if !strings.Contains(s, "could not be asked") || !strings.Contains(s, "chat") {
						t.Errorf("cancelled after 3 ms: the %s does not say that the user could not be asked and to ask in chat:\n%s", name, s)
					}
				}
			}
			slow := at(4000)
			if all := textOnly(slow) + structuredJSON(slow); !strings.Contains(all, dismissed[tool.name]) || strings.Contains(all, "could not be asked") {
				t.Errorf("cancelled after 4 s: want the user's dismissal (%q), got\n%s", dismissed[tool.name], all)
			}
		})
	}
}

// A decline stays a person's answer however it is timed by this rule: only
// a cancel is read as the client's own (a fast decline has its own rule,
// autoDeclined).
func TestFormCancelNotDecline(t *testing.T) {
	q := wire.Question{ID: "q", Prompts: []wire.Prompt{{Markdown: "?"}}}
	decline := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}
	if err := autoCancelled(formAnswer(q, nil, decline, 3)); err != nil {
		t.Errorf("a decline read as an automatic cancel: %v", err)
	}
	cancel := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}}
	for _, tc := range []struct {
		ms   int64
		auto bool
	}{{0, true}, {3, true}, {autoCancelMS - 1, true}, {autoCancelMS, false}, {4000, false}} {
		if got := autoCancelled(formAnswer(q, nil, cancel, tc.ms)) != nil; got != tc.auto {
			t.Errorf("cancel after %d ms: automatic %v, want %v", tc.ms, got, tc.auto)
		}
	}
	if autoCancelled(wire.Answer{QuestionID: "q", Status: wire.StatusDismissed, ElapsedMS: 3}) != nil {
		t.Error("a window closed after 3 ms read as a client's automatic cancel")
	}
}

func textOnly(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			b.WriteString(tc.Text + "\n")
		}
	}
	return b.String()
}

func structuredJSON(res *mcp.CallToolResult) string {
	if res.StructuredContent == nil {
		return ""
	}
	raw, _ := json.Marshal(res.StructuredContent)
	return string(raw)
}
