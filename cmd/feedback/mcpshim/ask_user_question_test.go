package mcpshim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"feedback/internal/settings"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// decodeArgs decodes a JSON object the way mcp-go hands arguments over.
func decodeArgs(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return m
}

// The three examples of seed 001, as an agent sends them.
const (
	seedOrganize = `{"questions":[{"question":"您希望如何整理您的下载文件夹？","header":"整理","options":[
		{"label":"按文件类型","description":"分组为文档、图片、视频等"},
		{"label":"按日期","description":"按月份/年份分组"},
		{"label":"按项目","description":"您将帮我命名项目文件夹"}]}]}`
	seedDelete = `{"questions":[{"question":"删除这15个重复文件？","header":"确认","options":[
		{"label":"全部删除","description":"删除所有15个重复文件"},
		{"label":"先查看","description":"在删除前显示列表"},
		{"label":"取消","description":"不删除任何内容"}]}]}`
	seedSend = `{"questions":[{"question":"我应该继续发送这封电子邮件吗？","header":"发送邮件","options":[
		{"label":"发送","description":"立即发送邮件"},
		{"label":"取消","description":"不发送"}]}]}`
	seedNoHeader = `{"questions":[{"question":"您希望如何整理您的文件？","options":[{"label":"按类型"},{"label":"按日期"},{"label":"按项目"}]}]}`
)

func TestNormalizeAskUserQuestionSeedExamples(t *testing.T) {
	for _, tc := range []struct {
		name, args, title, header string
		labels                    []string
	}{
		{"organize downloads", seedOrganize, "整理", "整理", []string{"按文件类型", "按日期", "按项目"}},
		{"confirm a destructive action", seedDelete, "确认", "确认", []string{"全部删除", "先查看", "取消"}},
		{"simple yes/no", seedSend, "发送邮件", "发送邮件", []string{"发送", "取消"}},
		{"no header", seedNoHeader, "", "", []string{"按类型", "按日期", "按项目"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, qs, err := normalizeAskUserQuestion(decodeArgs(t, tc.args))
			if err != nil {
				t.Fatal(err)
			}
			if err := q.Validate(); err != nil {
				t.Fatal(err)
			}
			if q.Source != "ask_user_question" || q.Title != tc.title || len(q.Prompts) != 1 || len(qs) != 1 {
				t.Fatalf("question = %+v", q)
			}
			p := q.Prompts[0]
			if p.Kind != wire.KindChoice || !p.Single || p.Header != tc.header || len(p.Options) != len(tc.labels) {
				t.Fatalf("prompt = %+v", p)
			}
			for i, o := range p.Options {
				if o.Label != tc.labels[i] || o.FreeText || o.Default {
					t.Errorf("option %d = %+v", i, o)
				}
			}
			if tc.name == "organize downloads" && p.Options[1].Description != "按月份/年份分组" {
				t.Errorf("description = %q", p.Options[1].Description)
			}
		})
	}
}

func TestNormalizeAskUserQuestionShapes(t *testing.T) {
	args := decodeArgs(t, `{"questions":[
		{"question":"Which database?","header":"DB","options":[{"label":"Postgres"},{"label":" other "}]},
		{"question":"Which features?","header":"Features","multiSelect":true,"options":[{"label":"Auth"},{"label":"其他","description":"输入您自己的回答"}]},
		{"question":"Anything else?"}],
		"answers":{"ignored":true}}`)
	q, qs, err := normalizeAskUserQuestion(args)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
	if q.Title != "" || len(q.Prompts) != 3 {
		t.Fatalf("question = %+v", q)
	}
	p0, p1, p2 := q.Prompts[0], q.Prompts[1], q.Prompts[2]
	if p0.Kind != wire.KindChoice || !p0.Single || p0.Header != "DB" || !p0.Options[1].FreeText || p0.Options[1].Label != " other " {
		t.Errorf("prompt 0 = %+v", p0)
	}
	if p1.Kind != wire.KindChoice || p1.Single || !p1.Options[1].FreeText || p1.Options[0].FreeText {
		t.Errorf("prompt 1 = %+v", p1)
	}
	if p2.Kind != wire.KindText || len(p2.Options) != 0 || p2.Header != "" {
		t.Errorf("prompt 2 = %+v", p2)
	}
	if !qs[0].choice || !qs[0].free[" other "] || qs[2].choice {
		t.Errorf("meta = %+v", qs)
	}
}

func TestIsOtherLabel(t *testing.T) {
	for label, want := range map[string]bool{
		"Other": true, "other": true, "OTHER": true, "  Other\t": true, "其他": true, " 其他 ": true,
		"Others": false, "Other…": false, "其它": false, "": false, "Another": false,
	} {
		if got := isOtherLabel(label); got != want {
			t.Errorf("isOtherLabel(%q) = %v, want %v", label, got, want)
		}
	}
}

// TestNormalizeAskUserQuestionLimits checks every limit at n and n+1.
func TestNormalizeAskUserQuestionLimits(t *testing.T) {
	question := func(extra string) string { return `{"question":"Q"` + extra + `}` }
	questions := func(n int) string {
		items := make([]string, n)
		for i := range items {
			items[i] = question("")
		}
		return `{"questions":[` + strings.Join(items, ",") + `]}`
	}
	options := func(n int) string {
		items := make([]string, n)
		for i := range items {
			items[i] = `{"label":"o` + strings.Repeat("x", i) + `"}`
		}
		return `{"questions":[` + question(`,"options":[`+strings.Join(items, ",")+`]`) + `]}`
	}
	one := func(extra string) string { return `{"questions":[` + question(extra) + `]}` }
	str := func(n int, r string) string { return strings.Repeat(r, n) }
	for _, tc := range []struct {
		name, args, err string // err "" means valid
	}{
		{"no questions key", `{}`, "questions: required"},
		{"questions null", `{"questions":null}`, "questions: required"},
		{"0 questions", questions(0), "questions: at least 1 items, got 0"},
		{"1 question", questions(1), ""},
		{"4 questions", questions(4), ""},
		{"5 questions", questions(5), "questions: at most 4 items, got 5"},
		{"questions not an array", `{"questions":{"question":"Q"}}`, "questions: must be an array, got object"},
		{"question item a string", `{"questions":["Q"]}`, "questions[0]: must be an object"},
		{"question missing", `{"questions":[{"header":"H"}]}`, "questions[0].question: required"},
		{"question blank", `{"questions":[{"question":"  "}]}`, "questions[0].question: required: must not be blank"},
		{"question a number", `{"questions":[{"question":1}]}`, "questions[0].question: must be a string, got number"},
		{"question 20000 chars", `{"questions":[{"question":"` + str(20000, "问") + `"}]}`, ""},
		{"question 20001 chars", `{"questions":[{"question":"` + str(20001, "问") + `"}]}`, "questions[0].question: at most 20000 characters, got 20001"},
		{"header 12 chars", one(`,"header":"` + str(12, "标") + `"`), ""},
		{"header 13 chars", one(`,"header":"` + str(13, "h") + `"`), "questions[0].header: at most 12 characters, got 13"},
		{"header a bool", one(`,"header":true`), "questions[0].header: must be a string, got boolean"},
		{"0 options is a text question", options(0), ""},
		{"1 option", options(1), ""},
		{"8 options", options(8), ""},
		{"9 options", options(9), "questions[0].options: at most 8 items, got 9"},
		{"options an object", one(`,"options":{}`), "questions[0].options: must be an array, got object"},
		{"option a string", one(`,"options":["A","B"]`), "questions[0].options[0]: must be an object"},
		{"option without label", one(`,"options":[{"description":"d"}]`), "questions[0].options[0].label: required"},
		{"option label blank", one(`,"options":[{"label":" "}]`), "questions[0].options[0].label: required: must not be blank"},
		{"label 200 chars", one(`,"options":[{"label":"` + str(200, "l") + `"}]`), ""},
		{"label 201 chars", one(`,"options":[{"label":"` + str(201, "l") + `"}]`), "questions[0].options[0].label: at most 200 characters, got 201"},
		{"description 1000 chars", one(`,"options":[{"label":"A","description":"` + str(1000, "d") + `"}]`), ""},
		{"description 1001 chars", one(`,"options":[{"label":"A","description":"` + str(1001, "d") + `"}]`), "questions[0].options[0].description: at most 1000 characters, got 1001"},
		{"duplicate labels", one(`,"options":[{"label":"A"},{"label":"B"},{"label":"A"}]`), `questions[0].options[2].label: "A" repeats questions[0].options[0]`},
		{"multiSelect a string", one(`,"multiSelect":"true"`), "questions[0].multiSelect: must be a boolean"},
		{"multiSelect null", one(`,"multiSelect":null`), ""},
		{"error names the right question", `{"questions":[{"question":"A"},{"question":"B","header":"` + str(13, "h") + `"}]}`, "questions[1].header: at most 12"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, _, err := normalizeAskUserQuestion(decodeArgs(t, tc.args))
			if tc.err == "" {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				if err := q.Validate(); err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			var ae *ArgError
			if !errors.As(err, &ae) || !strings.HasPrefix(err.Error(), tc.err) {
				t.Fatalf("error %v, want an *ArgError starting %q", err, tc.err)
			}
		})
	}
}

// auqMeta returns the renderer's view of a call.
func auqMeta(t *testing.T, args string) []auqQuestion {
	t.Helper()
	_, qs, err := normalizeAskUserQuestion(decodeArgs(t, args))
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

func TestRenderAskUserQuestionLines(t *testing.T) {
	single := auqMeta(t, seedOrganize)
	multi := auqMeta(t, `{"questions":[{"question":"Which?","multiSelect":true,"options":[{"label":"选项A"},{"label":"选项B"},{"label":"Other"}]}]}`)
	other := auqMeta(t, `{"questions":[{"question":"Which?","options":[{"label":"A"},{"label":"其他"}]}]}`)
	free := auqMeta(t, `{"questions":[{"question":"Anything else?"}]}`)
	three := auqMeta(t, `{"questions":[{"question":"Q1","options":[{"label":"A"},{"label":"Other"}]},{"question":"Q2","multiSelect":true,"options":[{"label":"X"},{"label":"Y"}]},{"question":"Q3"}]}`)
	ans := func(r ...wire.Reply) wire.Answer {
		return wire.Answer{QuestionID: "q", Status: wire.StatusAnswered, Replies: r, ElapsedMS: 900}
	}
	type want struct{ en, hans, hant string }
	for _, tc := range []struct {
		name string
		qs   []auqQuestion
		a    wire.Answer
		want want
	}{
		{"selected", single, ans(wire.Reply{Selected: []string{"按文件类型"}}),
			want{"User selected: 按文件类型", "用户选择了：按文件类型", "用戶選擇了：按文件类型"}},
		{"several selected", multi, ans(wire.Reply{Selected: []string{"选项A", "选项B"}}),
			want{"User selected: 选项A, 选项B", "用户选择了：选项A，选项B", "用戶選擇了：选项A，选项B"}},
		{"other typed", other, ans(wire.Reply{Selected: []string{"其他"}, Text: "  按大小  \n"}),
			want{"User answered: 按大小", "用户回答：按大小", "用戶回答：按大小"}},
		{"other ticked beside others", multi, ans(wire.Reply{Selected: []string{"选项A", "Other"}, Text: "mine"}),
			want{"User selected: 选项A; User answered: mine", "用户选择了：选项A；用户回答：mine", "用戶選擇了：选项A；用戶回答：mine"}},
		{"other ticked without text", other, ans(wire.Reply{Selected: []string{"其他"}}),
			want{"User selected: 其他", "用户选择了：其他", "用戶選擇了：其他"}},
		{"text without other ticked is ignored", other, ans(wire.Reply{Selected: []string{"A"}, Text: "stale"}),
			want{"User selected: A", "用户选择了：A", "用戶選擇了：A"}},
		{"free-text question", free, ans(wire.Reply{Text: "line one\nline two"}),
			want{"User answered: line one\nline two", "用户回答：line one\nline two", "用戶回答：line one\nline two"}},
		{"nothing chosen", single, ans(wire.Reply{}),
			want{"User declined to answer the question.", "用户拒绝回答问题。", "用戶拒絕回答問題。"}},
		{"free-text question left blank", free, ans(wire.Reply{Text: " \n "}),
			want{"User declined to answer the question.", "用户拒绝回答问题。", "用戶拒絕回答問題。"}},
		{"answered without replies", single, ans(),
			want{"User declined to answer the question.", "用户拒绝回答问题。", "用戶拒絕回答問題。"}},
		{"dismissed", single, wire.Answer{Status: wire.StatusDismissed, Replies: []wire.Reply{{Selected: []string{"按日期"}}}},
			want{"User declined to answer the question.", "用户拒绝回答问题。", "用戶拒絕回答問題。"}},
		{"three questions", three, ans(wire.Reply{Selected: []string{"Other"}, Text: "typed"}, wire.Reply{Selected: []string{"X", "Y"}}, wire.Reply{}),
			want{"User answered: typed\nUser selected: X, Y\nUser declined to answer the question.",
				"用户回答：typed\n用户选择了：X，Y\n用户拒绝回答问题。",
				"用戶回答：typed\n用戶選擇了：X，Y\n用戶拒絕回答問題。"}},
		{"three questions dismissed", three, wire.Answer{Status: wire.StatusDismissed},
			want{"User declined to answer the question.\nUser declined to answer the question.\nUser declined to answer the question.",
				"用户拒绝回答问题。\n用户拒绝回答问题。\n用户拒绝回答问题。",
				"用戶拒絕回答問題。\n用戶拒絕回答問題。\n用戶拒絕回答問題。"}},
		{"timeout", three, wire.Answer{Status: wire.StatusTimeout},
			want{"The user did not answer before the question window timed out. This is not an answer and not a default: do not act as if the user agreed. Call ask_user_question again with the same arguments if you still need the answer, or continue with work that does not depend on it.",
				"用户尚未回答：提问窗口已超时。这不是回答；请再次调用 ask_user_question 重新提问。",
				"用戶尚未回答：提問窗口已超時。這不是回答；請再次調用 ask_user_question 重新提問。"}},
	} {
		for lang, w := range map[string]string{settings.English: tc.want.en, settings.SimplifiedChinese: tc.want.hans, settings.TraditionalChinese: tc.want.hant} {
			t.Run(tc.name+"/"+lang, func(t *testing.T) {
				res := renderAskUserQuestion(tc.a, tc.qs, phrasesFor(lang))
				if res.IsError || len(res.Content) != 1 {
					t.Fatalf("result = %+v", res)
				}
				if got := res.Content[0].(mcp.TextContent).Text; got != w {
					t.Errorf("text = %q\nwant   %q", got, w)
				}
			})
		}
	}
}

func TestPhrasesForUnknownLanguage(t *testing.T) {
	if phrasesFor("fr") != phrasesEnglish || phrasesFor("") != phrasesEnglish || phrasesFor("zh-Hans") != phrasesSimplified {
		t.Error("phrasesFor does not fall back to English")
	}
}

func TestRenderAskUserQuestionStructured(t *testing.T) {
	three := auqMeta(t, `{"questions":[{"question":"Q1","header":"H1","options":[{"label":"A"},{"label":"Other"}]},{"question":"Q2","multiSelect":true,"options":[{"label":"X"},{"label":"Y"}]},{"question":"Q3"}]}`)
	for _, tc := range []struct {
		name string
		a    wire.Answer
		want string
	}{
		{"answered", wire.Answer{QuestionID: "q", Status: wire.StatusAnswered, ElapsedMS: 5, Replies: []wire.Reply{{Selected: []string{"Other"}, Text: "t"}, {Selected: []string{"X"}}, {}}},
			`{"status":"answered","answers":[{"question":"Q1","header":"H1","status":"answered","selected":["Other"],"answer":"t"},{"question":"Q2","header":"","status":"selected","selected":["X"],"answer":""},{"question":"Q3","header":"","status":"declined","selected":[],"answer":""}],"question_id":"q","elapsed_ms":5}`},
		// Issue 30: Submit with nothing chosen or typed anywhere is a refusal
		// of every question, not an answer: the whole says "declined".
		{"submitted empty", wire.Answer{QuestionID: "q", Status: wire.StatusAnswered, ElapsedMS: 7, Replies: []wire.Reply{{}, {}, {Text: "  "}}},
			`{"status":"declined","answers":[{"question":"Q1","header":"H1","status":"declined","selected":[],"answer":""},{"question":"Q2","header":"","status":"declined","selected":[],"answer":""},{"question":"Q3","header":"","status":"declined","selected":[],"answer":""}],"question_id":"q","elapsed_ms":7}`},
		{"dismissed", wire.Answer{QuestionID: "q", Status: wire.StatusDismissed},
			`{"status":"declined","answers":[{"question":"Q1","header":"H1","status":"declined","selected":[],"answer":""},{"question":"Q2","header":"","status":"declined","selected":[],"answer":""},{"question":"Q3","header":"","status":"declined","selected":[],"answer":""}],"question_id":"q","elapsed_ms":0}`},
		{"timeout", wire.Answer{QuestionID: "q", Status: wire.StatusTimeout, ElapsedMS: 600000},
			`{"status":"timeout","answers":[{"question":"Q1","header":"H1","status":"unanswered","selected":[],"answer":""},{"question":"Q2","header":"","status":"unanswered","selected":[],"answer":""},{"question":"Q3","header":"","status":"unanswered","selected":[],"answer":""}],"question_id":"q","elapsed_ms":600000}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := renderAskUserQuestion(tc.a, three, phrasesEnglish)
			got, _ := json.Marshal(res.StructuredContent)
			// Every outcome but answered carries the text's words as its
			// message: Claude Code gives the model structuredContent alone.
			var m map[string]any
			json.Unmarshal(got, &m)
			if m["status"] != "answered" {
				if text := res.Content[0].(mcp.TextContent).Text; m["message"] != text {
					t.Errorf("structured message %q, want the text %q", m["message"], text)
				}
				delete(m, "message")
				got, _ = json.Marshal(m)
				var w map[string]any
				json.Unmarshal([]byte(tc.want), &w)
				want, _ := json.Marshal(w)
				tc.want = string(want)
			}
			if string(got) != tc.want {
				t.Errorf("structuredContent =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	res := renderAskUserQuestion(wire.Answer{QuestionID: "q", Status: "exploded"}, three, phrasesEnglish)
	if !res.IsError || !strings.Contains(res.Content[0].(mcp.TextContent).Text, `unknown status "exploded"`) {
		t.Errorf("unknown status: %+v", res)
	}
}

// callNamed calls tool over the client, bounded by 20 s, and checks the
// result against the tool's outputSchema.
func callNamed(t *testing.T, c interface {
	CallTool(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)
}, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("tools/call %s: %v", tool, err)
	}
	if err := checkOutput(tool, res); err != nil { // outputschema_test.go
		t.Error(err)
	}
	return res
}

// TestE2EAskUserQuestion runs the seed's organise example over pipes with a
// fake app, in Simplified Chinese.
func TestE2EAskUserQuestion(t *testing.T) {
	var got wire.Question
	asker := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		got = q
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, ElapsedMS: 7, Replies: []wire.Reply{{Selected: []string{"按文件类型"}}}}, nil
	})
	s := settings.Default()
	s.Language = settings.SimplifiedChinese
	c := startShim(t, Options{Connect: connectTo(asker), Settings: s})
	res := callNamed(t, c, "ask_user_question", decodeArgs(t, seedOrganize))
	if res.IsError || len(res.Content) != 1 || res.Content[0].(mcp.TextContent).Text != "用户选择了：按文件类型" {
		t.Fatalf("result = %+v", res)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if sc["status"] != "answered" || sc["question_id"] != got.ID {
		t.Errorf("structuredContent = %v", sc)
	}
	if got.Client != "shim-test" || got.Source != "ask_user_question" || got.Title != "整理" {
		t.Errorf("question = %+v", got)
	}
	bad := callNamed(t, c, "ask_user_question", map[string]any{"questions": []any{}})
	if text := bad.Content[0].(mcp.TextContent).Text; !bad.IsError || !strings.Contains(text, "questions: at least 1 items, got 0") {
		t.Errorf("invalid call: isError = %v, text = %q", bad.IsError, text)
	}
}

// Every question with options offers the user's own words: an "Other"
// option in the user's language is added unless the agent gave one, and
// its text is the answer (seed 001's "User answered: …").
func TestEveryQuestionOffersOther(t *testing.T) {
	q, qs, err := normalizeAskUserQuestion(decodeArgs(t, `{"questions":[
		{"question":"Q1","options":[{"label":"A"},{"label":"B"}]},
		{"question":"Q2","options":[{"label":"X"},{"label":"其他"}]},
		{"question":"Q3"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	offerOther(&q, qs, phrasesSimplified.other)
	labels := func(p wire.Prompt) (l []string) {
		for _, o := range p.Options {
			l = append(l, fmt.Sprintf("%s/%v", o.Label, o.FreeText))
		}
		return l
	}
	for i, want := range [][]string{{"A/false", "B/false", "其他/true"}, {"X/false", "其他/true"}, nil} {
		if got := labels(q.Prompts[i]); !slices.Equal(got, want) {
			t.Errorf("question %d: options %v, want %v", i+1, got, want)
		}
	}
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
	res := renderAskUserQuestion(wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{
		{Selected: []string{"其他"}, Text: "都不要"}, {Selected: []string{"X"}}, {Text: "好"}}}, qs, phrasesSimplified)
	if got, want := res.Content[0].(mcp.TextContent).Text, "用户回答：都不要\n用户选择了：X\n用户回答：好"; got != want {
		t.Errorf("lines = %q, want %q", got, want)
	}
}
