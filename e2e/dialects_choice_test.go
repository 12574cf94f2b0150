package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// The ask_user_question and ask_choice-family dialects, end to end: the
// built binary under a real MCP client, real windows answered with xdotool
// through the keyboard contract.

// wantChoice checks a result of the ask_choice family: a success whose
// structuredContent has the wanted fields and whose text block is the same
// JSON.
func wantChoice(t *testing.T, res *mcp.CallToolResult, want map[string]any) map[string]any {
	t.Helper()
	if res.IsError {
		t.Fatalf("isError result: %s", text(res))
	}
	sc := structured(t, res)
	var fromText map[string]any
	if err := json.Unmarshal([]byte(text(res)), &fromText); err != nil || fmt.Sprint(fromText) != fmt.Sprint(sc) {
		t.Errorf("the text block is not the structuredContent: %q (%v)", text(res), err)
	}
	if len(sc) != 15 {
		t.Errorf("structuredContent has %d fields, want 15: %v", len(sc), sc)
	}
	for k, v := range want {
		if fmt.Sprint(sc[k]) != fmt.Sprint(v) {
			t.Errorf("%s = %v, want %v", k, sc[k], v)
		}
	}
	return sc
}

func TestDialectsChoiceListTools(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "list-dialects")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]mcp.Tool{}
	for _, tool := range res.Tools {
		listed[tool.Name] = tool
	}
	for name, required := range map[string][]string{
		"ask_user_question": {"questions"},
		"ask_choice":        {"question", "options"},
		"ask_confirm":       {"question"},
		"ask_text":          {"question"},
		"ask_multi_select":  {"question", "options"},
	} {
		tool, ok := listed[name]
		if !ok {
			t.Errorf("tools/list has no %s", name)
			continue
		}
		if !slices.Equal(tool.InputSchema.Required, required) || tool.Description == "" {
			t.Errorf("%s: required = %v, description = %q", name, tool.InputSchema.Required, tool.Description)
		}
		a := tool.Annotations
		if !*a.ReadOnlyHint || *a.DestructiveHint || *a.OpenWorldHint || *a.IdempotentHint {
			t.Errorf("%s: annotations = %+v", name, a)
		}
		hasOutput := name != "ask_user_question"
		if got := tool.OutputSchema.Type == "object" && len(tool.OutputSchema.Required) == 15; got != hasOutput {
			t.Errorf("%s: outputSchema = %+v", name, tool.OutputSchema)
		}
	}
}

// Three questions in one window: "Other" typed into, several ticked, one
// picked; options are numbered through the whole window (Alt+1…8).
func TestAskUserQuestionThreeQuestions(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "auq-three")
	res := call(c, "ask_user_question", map[string]any{"questions": []any{
		map[string]any{"question": "Which database?", "header": "DB", "options": []any{
			map[string]any{"label": "Postgres", "description": "A server; best for many writers"},
			map[string]any{"label": "SQLite", "description": "A file; no server to run"},
			map[string]any{"label": "Other", "description": "Type your own answer"},
		}},
		map[string]any{"question": "Which features ship first?", "header": "Features", "multiSelect": true, "options": []any{
			map[string]any{"label": "Auth"}, map[string]any{"label": "Search"}, map[string]any{"label": "Billing"},
		}},
		map[string]any{"question": "Deploy when done?", "header": "Deploy", "options": []any{
			map[string]any{"label": "Yes"}, map[string]any{"label": "No"},
		}},
	}})
	win := findWindow(t, "Which database? — feedback")
	activate(t, win)
	// Choosing Other (Alt+3) reveals its text field and gives it the keyboard;
	// the Alt keys that follow still reach the window from there. Features
	// and Deploy offer an Other of their own (Alt+7, Alt+10): No is Alt+9.
	key(t, "alt+3", "alt+4", "alt+6", "alt+9")
	typeText(t, "MySQL 8")
	screenshot(t, "ask-user-question-three")
	key(t, "ctrl+Return")
	r := await(t, res)
	wantText(t, r, "User answered: MySQL 8\nUser selected: Auth, Billing\nUser selected: No")
	if sc := structured(t, r); sc["status"] != "answered" {
		t.Errorf("structuredContent = %v", sc)
	}
	windowGone(t, "Which database? — feedback", 2*time.Second)
}

// Seed 001's first example in Simplified Chinese: the header is the title.
func TestAskUserQuestionChinese(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "auq-zh", "FEEDBACK_LANGUAGE=zh-Hans")
	res := call(c, "ask_user_question", map[string]any{"questions": []any{map[string]any{
		"question": "您希望如何整理您的下载文件夹？", "header": "整理", "options": []any{
			map[string]any{"label": "按文件类型", "description": "分组为文档、图片、视频等"},
			map[string]any{"label": "按日期", "description": "按月份/年份分组"},
			map[string]any{"label": "按项目", "description": "您将帮我命名项目文件夹"},
		}}}})
	win := findWindow(t, "整理 — feedback")
	activate(t, win)
	key(t, "alt+1", "alt+3") // radio buttons: the second pick replaces the first
	screenshot(t, "ask-user-question-zh")
	key(t, "ctrl+Return")
	wantText(t, await(t, res), "用户选择了：按项目")
}

// A question without options is a free-text question; Escape declines.
func TestAskUserQuestionFreeTextAndDeclined(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "auq-free")
	res := call(c, "ask_user_question", map[string]any{"questions": []any{map[string]any{
		"question": "How should the files be indented?", "header": "Indent"}}})
	win := findWindow(t, "Indent — feedback")
	activate(t, win)
	typeText(t, "Tabs, width 4")
	key(t, "ctrl+Return")
	wantText(t, await(t, res), "User answered: Tabs, width 4")

	res = call(c, "ask_user_question", map[string]any{"questions": []any{
		map[string]any{"question": "Delete these 15 duplicate files?", "header": "Confirm", "options": []any{
			map[string]any{"label": "Delete all"}, map[string]any{"label": "Cancel"}}},
		map[string]any{"question": "Anything else?"},
	}})
	win = findWindow(t, "Delete these 15 duplicate files? — feedback")
	activate(t, win)
	key(t, "Escape")
	r := await(t, res)
	wantText(t, r, "User declined to answer the question.\nUser declined to answer the question.")
	if sc := structured(t, r); sc["status"] != "declined" {
		t.Errorf("structuredContent = %v", sc)
	}
}

// ask_choice with a default and allow_free_text: Alt+3 picks the third
// option (the default is unpicked), the reply box takes a note.
func TestAskChoiceWindow(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "ask-choice")
	res := call(c, "ask_choice", map[string]any{
		"question":        "Which database should the service use?\n\nIt stores about 10 GB of events.",
		"options":         []any{"Postgres", "SQLite", "DuckDB"},
		"default":         "SQLite",
		"allow_free_text": true,
	})
	win := findWindow(t, "Which database should the service use? — feedback")
	activate(t, win)
	key(t, "alt+3")
	typeText(t, "for analytics")
	screenshot(t, "ask-choice")
	key(t, "ctrl+Return")
	sc := wantChoice(t, await(t, res), map[string]any{
		"via": "window", "tool": "ask_choice", "status": "answered", "answer": "DuckDB", "selected": []any{"DuckDB"},
		"free_text": "for analytics", "confirmed": nil, "fallback": "none", "form_url": "",
		"question":           "Which database should the service use?\n\nIt stores about 10 GB of events.",
		"client_elicitation": false, "auto_reject_suspected": false,
	})
	if ms, _ := sc["elapsed_ms"].(float64); ms <= 0 {
		t.Errorf("elapsed_ms = %v", sc["elapsed_ms"])
	}
}

// ask_confirm: Alt+N answers no; a timeout_ms countdown runs out.
func TestAskConfirmWindow(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "ask-confirm")
	res := call(c, "ask_confirm", map[string]any{"question": "Push the release tag now?", "default": true})
	win := findWindow(t, "Push the release tag now? — feedback")
	activate(t, win)
	screenshot(t, "ask-confirm")
	key(t, "alt+n")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "no", "confirmed": false, "tool": "ask_confirm"})

	start := time.Now()
	res = call(c, "ask_confirm", map[string]any{"question": "Nobody answers this", "timeout_ms": 1500})
	findWindow(t, "Nobody answers this — feedback")
	wantChoice(t, await(t, res), map[string]any{"status": "timeout", "answer": "", "confirmed": nil})
	if d := time.Since(start); d < 1500*time.Millisecond || d > 10*time.Second {
		t.Errorf("a 1500 ms timeout took %v", d)
	}
}

// ask_text: the answer box is focused; the typed text is the answer.
func TestAskTextWindow(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "ask-text")
	res := call(c, "ask_text", map[string]any{"question": "What should the binary be called?", "placeholder": "e.g. feedback"})
	win := findWindow(t, "What should the binary be called? — feedback")
	activate(t, win)
	typeText(t, "fbk")
	key(t, "ctrl+Return")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "fbk", "selected": []any{}, "free_text": ""})
}

// ask_multi_select: a default is pre-ticked; Alt+digit toggles; Escape
// declines.
func TestAskMultiSelectWindow(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "ask-multi")
	res := call(c, "ask_multi_select", map[string]any{
		"question": "Which features ship first?", "options": []any{"Auth", "Search", "Billing", "Export"}, "defaults": []any{"Auth"},
	})
	win := findWindow(t, "Which features ship first? — feedback")
	activate(t, win)
	key(t, "alt+1", "alt+2", "alt+4")
	screenshot(t, "ask-multi-select")
	key(t, "ctrl+Return")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "Search, Export", "selected": []any{"Search", "Export"}})

	res = call(c, "ask_multi_select", map[string]any{"question": "Dismiss me", "options": []any{"A", "B"}})
	win = findWindow(t, "Dismiss me — feedback")
	activate(t, win)
	key(t, "Escape")
	// A window closed without an answer is cancelled, as in the original (declined is a form's explicit no).
	wantChoice(t, await(t, res), map[string]any{"status": "cancelled", "answer": "", "selected": []any{}})
}

// ask_confirm submitted without choosing (Ctrl+Enter, or Enter) answers
// its default: default false is answered, confirmed false, "no" — not
// declined.
func TestAskConfirmSubmitTakesDefault(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "ask-confirm-default")
	res := call(c, "ask_confirm", map[string]any{"question": "Drop the staging database?", "default": false})
	win := findWindow(t, "Drop the staging database? — feedback")
	activate(t, win)
	key(t, "ctrl+Return")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "no", "confirmed": false, "tool": "ask_confirm"})
	windowGone(t, "Drop the staging database? — feedback", 2*time.Second)

	// Enter, with nothing focused, does the same in a yes/no window.
	res = call(c, "ask_confirm", map[string]any{"question": "Tag the release now?", "default": true})
	win = findWindow(t, "Tag the release now? — feedback")
	activate(t, win)
	key(t, "Return")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "yes", "confirmed": true, "tool": "ask_confirm"})
}

// ask_text's default is prefilled in the answer box: sent unchanged it is
// the answer; typed on, the cursor starts after it.
func TestAskTextDefaultPrefilled(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "ask-text-default")
	res := call(c, "ask_text", map[string]any{"question": "Name the release branch", "default": "release/2.4"})
	win := findWindow(t, "Name the release branch — feedback")
	activate(t, win)
	screenshot(t, "ask-text-default")
	key(t, "ctrl+Return")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "release/2.4"})

	res = call(c, "ask_text", map[string]any{"question": "Name the hotfix branch", "default": "hotfix/2.4"})
	win = findWindow(t, "Name the hotfix branch — feedback")
	activate(t, win)
	typeText(t, ".1")
	key(t, "ctrl+Return")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "hotfix/2.4.1"})
}

// ask_choice options as {label, description} objects: the description
// shows under its label, and the answer is the label.
func TestAskChoiceOptionObjects(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "ask-choice-objects")
	res := call(c, "ask_choice", map[string]any{
		"question": "Which queue should the jobs use?",
		"options": []any{
			map[string]any{"label": "Redis", "description": "Already deployed; jobs are lost on a crash"},
			map[string]any{"label": "Postgres", "description": "Durable; one more table to vacuum"},
			map[string]any{"text": "SQS"},
		},
		"default": "Postgres",
	})
	win := findWindow(t, "Which queue should the jobs use? — feedback")
	activate(t, win)
	screenshot(t, "ask-choice-objects")
	key(t, "alt+1", "ctrl+Return")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "Redis", "selected": []any{"Redis"}})
}
