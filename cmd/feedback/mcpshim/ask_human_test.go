package mcpshim

import (
	"bytes"
	"encoding/json"
	"errors"
	"html"
	"reflect"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// humanArgs returns valid ask_human arguments with two choices, changed by
// mods (a nil value deletes the key).
func humanArgs(t testing.TB, mods map[string]any) map[string]any {
	t.Helper()
	args := obj(t, `{"agent_name":"deployer","title":"Ship v2?","choices":[{"id":"yes","label":"Ship it"},{"id":"no","label":"Hold"}]}`)
	for k, v := range mods {
		if v == nil {
			delete(args, k)
			continue
		}
		args[k] = v
	}
	return args
}

// choicesJSON returns n choices c1…cn labelled L1…Ln.
func choicesJSON(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"id": "c" + string(rune('1'+i)), "label": "L" + string(rune('1'+i))}
	}
	return out
}

func TestNormalizeAskHuman(t *testing.T) {
	long := strings.Repeat
	base := wire.Question{
		Source:         "ask_human",
		Title:          "Ship v2?",
		Context:        []wire.Field{{Label: "Agent", Value: "deployer"}},
		Prompts:        []wire.Prompt{{Kind: wire.KindChoice, Single: true, Required: true, Markdown: humanNoContent, Options: opts("Ship it", "Hold")}},
		TimeoutSeconds: 3600,
	}
	with := func(f func(q *wire.Question)) wire.Question {
		q := base
		q.Context = append([]wire.Field(nil), base.Context...)
		q.Prompts = []wire.Prompt{base.Prompts[0]}
		q.Prompts[0].Options = append([]wire.Option(nil), base.Prompts[0].Options...)
		f(&q)
		return q
	}
	for _, tc := range []struct {
		name    string
		mods    map[string]any
		want    wire.Question // compared without ID
		wantErr string
	}{
		{name: "minimal", want: base},
		{name: "fields trimmed", mods: map[string]any{"agent_name": "  deployer ", "title": " Ship v2?\n"}, want: base},
		{name: "agent_name at 100", mods: map[string]any{"agent_name": long("é", 100)}, want: with(func(q *wire.Question) { q.Context[0].Value = long("é", 100) })},
		{name: "agent_name at 101", mods: map[string]any{"agent_name": long("é", 101)}, wantErr: "agent_name: at most 100 characters, got 101"},
		{name: "agent_name missing", mods: map[string]any{"agent_name": nil}, wantErr: "agent_name: required"},
		{name: "agent_name blank", mods: map[string]any{"agent_name": "  "}, wantErr: "agent_name: required"},
		{name: "agent_name a number", mods: map[string]any{"agent_name": 7.0}, wantErr: "agent_name: must be a string, got number"},
		{name: "title at 60", mods: map[string]any{"title": long("t", 60)}, want: with(func(q *wire.Question) { q.Title = long("t", 60) })},
		{name: "title at 61", mods: map[string]any{"title": long("t", 61)}, want: with(func(q *wire.Question) {
			q.Title = long("t", 59) + "…"
			q.Prompts[0].Markdown = "**" + long("t", 61) + "**\n\n" + humanNoContent
		})},
		{name: "title at 200", mods: map[string]any{"title": long("t", 199) + "*"}, want: with(func(q *wire.Question) {
			q.Title = long("t", 59) + "…"
			q.Prompts[0].Markdown = "**" + long("t", 199) + "\\***\n\n" + humanNoContent
		})},
		{name: "title at 201", mods: map[string]any{"title": long("t", 201)}, wantErr: "title: at most 200 characters, got 201"},
		{name: "title missing", mods: map[string]any{"title": nil}, wantErr: "title: required"},
		{name: "title an array", mods: map[string]any{"title": []any{"x"}}, wantErr: "title: must be a string, got array"},

		// content and content_type
		{name: "content text by default", mods: map[string]any{"content": "a *b*\n# c"}, want: with(func(q *wire.Question) { q.Prompts[0].Markdown = `a \*b\*\` + "\n" + `\# c` })},
		{name: "content markdown", mods: map[string]any{"content": "a *b*", "content_type": "markdown"}, want: with(func(q *wire.Question) { q.Prompts[0].Markdown = "a *b*" })},
		{name: "content_type any case", mods: map[string]any{"content": "a *b*", "content_type": " Markdown"}, want: with(func(q *wire.Question) { q.Prompts[0].Markdown = "a *b*" })},
		{name: "content html", mods: map[string]any{"content": "<p>a &amp; <b>b</b></p><script>x()</script>", "content_type": "html"}, want: with(func(q *wire.Question) { q.Prompts[0].Markdown = `a \& **b**` })},
		{name: "content html without text", mods: map[string]any{"content": "<script>x()</script>", "content_type": "html"}, want: base},
		{name: "content image path", mods: map[string]any{"content": "/tmp/a b.png", "content_type": "image"}, want: with(func(q *wire.Question) { q.Prompts[0].Markdown = `![Ship v2\?](</tmp/a b.png>)` })},
		{name: "content image empty", mods: map[string]any{"content": " ", "content_type": "image"}, wantErr: "content: required when content_type is image"},
		{name: "content_type unknown", mods: map[string]any{"content": "x", "content_type": "pdf"}, wantErr: `content_type: must be one of text, markdown, html, image, got "pdf"`},
		{name: "content_type a bool", mods: map[string]any{"content_type": true}, wantErr: "content_type: must be a string, got boolean"},
		{name: "content at 50 KB", mods: map[string]any{"content": long("x", 51200), "content_type": "markdown"}, want: with(func(q *wire.Question) { q.Prompts[0].Markdown = long("x", 51200) })},
		{name: "content at 50 KB + 1", mods: map[string]any{"content": long("x", 51201)}, wantErr: "content: at most 50 KB (51200 bytes), got 51201 bytes"},
		{name: "content blank", mods: map[string]any{"content": "\n \n"}, want: base},

		// choices
		{name: "4 choices", mods: map[string]any{"choices": choicesJSON(4)}, want: with(func(q *wire.Question) { q.Prompts[0].Options = opts("L1", "L2", "L3", "L4") })},
		{name: "5 choices", mods: map[string]any{"choices": choicesJSON(5)}, wantErr: "choices: must hold 2 to 4 choices, got 5"},
		{name: "1 choice", mods: map[string]any{"choices": choicesJSON(1)}, wantErr: "choices: must hold 2 to 4 choices, got 1"},
		{name: "no choices", mods: map[string]any{"choices": nil}, wantErr: "choices: required"},
		{name: "choices an object", mods: map[string]any{"choices": map[string]any{}}, wantErr: "choices: must be an array of 2 to 4"},
		{name: "choice a string", mods: map[string]any{"choices": []any{"a", "b"}}, wantErr: "choices[0]: must be an object"},
		{name: "choice id missing", mods: map[string]any{"choices": []any{map[string]any{"label": "A"}, map[string]any{"id": "b", "label": "B"}}}, wantErr: "choices[0].id: required"},
		{name: "choice label a number", mods: map[string]any{"choices": []any{map[string]any{"id": "a", "label": 1.0}, map[string]any{"id": "b", "label": "B"}}}, wantErr: "choices[0].label: must be a string, got number"},
		{name: "choice id at 50", mods: map[string]any{"choices": []any{map[string]any{"id": long("i", 50), "label": "A"}, map[string]any{"id": "b", "label": "B"}}}, want: with(func(q *wire.Question) { q.Prompts[0].Options = opts("A", "B") })},
		{name: "choice id at 51", mods: map[string]any{"choices": []any{map[string]any{"id": "a", "label": "A"}, map[string]any{"id": long("i", 51), "label": "B"}}}, wantErr: "choices[1].id: at most 50 characters, got 51"},
		{name: "choice label at 100", mods: map[string]any{"choices": []any{map[string]any{"id": "a", "label": long("l", 100)}, map[string]any{"id": "b", "label": "B"}}}, want: with(func(q *wire.Question) { q.Prompts[0].Options = opts(long("l", 100), "B") })},
		{name: "choice label at 101", mods: map[string]any{"choices": []any{map[string]any{"id": "a", "label": long("l", 101)}, map[string]any{"id": "b", "label": "B"}}}, wantErr: "choices[0].label: at most 100 characters, got 101"},
		{name: "duplicate ids", mods: map[string]any{"choices": []any{map[string]any{"id": "a", "label": "A"}, map[string]any{"id": "a", "label": "B"}}}, wantErr: `choices[1].id: "a" is used twice`},
		{name: "duplicate labels", mods: map[string]any{"choices": []any{map[string]any{"id": "a", "label": "A"}, map[string]any{"id": "b", "label": " A"}}}, wantErr: `choices[1].label: "A" is used twice`},

		// recommended_option
		{name: "recommended", mods: map[string]any{"recommended_option": "no"}, want: with(func(q *wire.Question) {
			q.Prompts[0].Options[1].Default = true
			q.Prompts[0].Options[1].Description = "Recommended by the agent"
		})},
		{name: "recommended empty", mods: map[string]any{"recommended_option": ""}, want: base},
		{name: "recommended unknown", mods: map[string]any{"recommended_option": "maybe"}, wantErr: `recommended_option: "maybe" is not the id of a choice; use one of "yes", "no"`},
		{name: "recommended is a label", mods: map[string]any{"recommended_option": "Hold"}, wantErr: `recommended_option: "Hold" is not the id`},

		// context
		{name: "context fields", mods: map[string]any{"decision_reason": "taste", "consequence_of_wrong_choice": "users churn", "confidence": 0.855}, want: with(func(q *wire.Question) {
			q.Context = append(q.Context, wire.Field{Label: "Why a human", Value: "taste"}, wire.Field{Label: "If wrong", Value: "users churn"}, wire.Field{Label: "Agent's confidence", Value: "86%"})
		})},
		{name: "decision_reason at 500", mods: map[string]any{"decision_reason": long("r", 500)}, want: with(func(q *wire.Question) {
			q.Context = append(q.Context, wire.Field{Label: "Why a human", Value: long("r", 500)})
		})},
		{name: "decision_reason at 501", mods: map[string]any{"decision_reason": long("r", 501)}, wantErr: "decision_reason: at most 500 characters, got 501"},
		{name: "consequence at 501", mods: map[string]any{"consequence_of_wrong_choice": long("r", 501)}, wantErr: "consequence_of_wrong_choice: at most 500 characters, got 501"},
		{name: "confidence 0", mods: map[string]any{"confidence": 0.0}, want: with(func(q *wire.Question) {
			q.Context = append(q.Context, wire.Field{Label: "Agent's confidence", Value: "0%"})
		})},
		{name: "confidence 1", mods: map[string]any{"confidence": 1.0}, want: with(func(q *wire.Question) {
			q.Context = append(q.Context, wire.Field{Label: "Agent's confidence", Value: "100%"})
		})},
		{name: "confidence 1.01", mods: map[string]any{"confidence": 1.01}, wantErr: "confidence: must be between 0 and 1, got 1.01"},
		{name: "confidence negative", mods: map[string]any{"confidence": -0.1}, wantErr: "confidence: must be between 0 and 1"},
		{name: "confidence a string", mods: map[string]any{"confidence": "0.5"}, wantErr: "confidence: must be a number, got string"},

		// timeout_seconds
		{name: "timeout 86400", mods: map[string]any{"timeout_seconds": 86400.0}, want: with(func(q *wire.Question) { q.TimeoutSeconds = 86400 })},
		{name: "timeout 86401", mods: map[string]any{"timeout_seconds": 86401.0}, wantErr: "timeout_seconds: must be from 1 to 86400 seconds (default 3600), got 86401"},
		{name: "timeout 1", mods: map[string]any{"timeout_seconds": 1.0}, want: with(func(q *wire.Question) { q.TimeoutSeconds = 1 })},
		{name: "timeout fraction rounds up", mods: map[string]any{"timeout_seconds": 0.2}, want: with(func(q *wire.Question) { q.TimeoutSeconds = 1 })},
		{name: "timeout 0", mods: map[string]any{"timeout_seconds": 0.0}, wantErr: "timeout_seconds: must be from 1 to 86400"},
		{name: "timeout a string", mods: map[string]any{"timeout_seconds": "60"}, wantErr: "timeout_seconds: must be a number, got string"},

		// pass-through and callback
		{name: "pass-through", mods: map[string]any{"run_id": "r1", "trace_id": "t1", "metadata": map[string]any{"k": 1.0}, "callback_url": "https://hooks.example.com/x"}, want: base},
		{name: "callback blank", mods: map[string]any{"callback_url": " "}, want: base},
		{name: "callback http", mods: map[string]any{"callback_url": "http://hooks.example.com/x"}, wantErr: `callback_url: must be an absolute https:// URL (http and other schemes are refused), got "http://hooks.example.com/x"`},
		{name: "callback relative", mods: map[string]any{"callback_url": "/hook"}, wantErr: "callback_url: must be an absolute https:// URL"},
		{name: "callback no host", mods: map[string]any{"callback_url": "https:///x"}, wantErr: "callback_url: must be an absolute https:// URL"},
		{name: "metadata an array", mods: map[string]any{"metadata": []any{}}, wantErr: "metadata: must be a JSON object, got array"},
		{name: "run_id a number", mods: map[string]any{"run_id": 3.0}, wantErr: "run_id: must be a string, got number"},
		{name: "unknown fields ignored", mods: map[string]any{"priority": "high"}, want: base},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, req, err := normalizeAskHuman(humanArgs(t, tc.mods))
			if tc.wantErr != "" {
				var ae *ArgError
				if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v (%T), want an *ArgError containing %q", err, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !idPattern.MatchString(q.ID) || req.id != q.ID {
				t.Errorf("ID = %q, request id = %q", q.ID, req.id)
			}
			if err := q.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			q.ID = ""
			if !reflect.DeepEqual(q, tc.want) {
				t.Errorf("question:\n got %+v\nwant %+v", q, tc.want)
			}
		})
	}
}

func TestNormalizeAskHumanRequest(t *testing.T) {
	_, req, err := normalizeAskHuman(humanArgs(t, map[string]any{
		"run_id": "r1", "trace_id": "t1", "metadata": map[string]any{"k": "v"}, "callback_url": "https://hooks.example.com/x", "timeout_seconds": 60.0,
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := []humanChoice{{"yes", "Ship it"}, {"no", "Hold"}}
	if !reflect.DeepEqual(req.choices, want) || req.runID != "r1" || req.traceID != "t1" || req.metadata["k"] != "v" ||
		req.callbackURL != "https://hooks.example.com/x" || req.timeout != time.Minute {
		t.Errorf("request = %+v", req)
	}
}

// renderedText renders md with goldmark (GFM) to HTML and back to the text a
// reader sees: paragraphs and hard breaks as line breaks, entities decoded.
func renderedText(t *testing.T, md string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &buf); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	s = strings.NewReplacer("<p>", "", "</p>\n", "\n\n", "<br>\n", "\n").Replace(s)
	if strings.Contains(s, "<") {
		t.Fatalf("the Markdown produced markup: %q → %q", md, s)
	}
	return strings.ReplaceAll(html.UnescapeString(strings.TrimRight(s, "\n")), "\u00a0", " ")
}

func TestLiteralMarkdown(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "hello", "hello"},
		{"emphasis and code", "a *b* _c_ `d` **e**", "a *b* _c_ `d` **e**"},
		{"heading, list, quote", "# h\n- item\n> quote\n1. one", "# h\n- item\n> quote\n1. one"},
		{"setext and rule", "title\n===\n---", "title\n===\n---"},
		{"html and entities", "<b>x</b> &amp; &lt;", "<b>x</b> &amp; &lt;"},
		{"links", "[a](http://x) <http://y> ![i](z)", "[a](http://x) <http://y> ![i](z)"},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |", "| a | b |\n|---|---|\n| 1 | 2 |"},
		{"backslashes", `C:\dir\ and \*`, `C:\dir\ and \*`},
		{"indentation kept", "code:\n    x := 1\n\ty", "code:\n    x := 1\n    y"},
		{"blank lines", "a\n\n\n\nb\r\nc", "a\n\nb\nc"},
		{"unicode", "héllo — 你好 😀", "héllo — 你好 😀"},
		{"fence", "```\ncode\n```", "```\ncode\n```"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := renderedText(t, literalMarkdown(tc.in)); got != tc.want {
				t.Errorf("literalMarkdown(%q) renders as %q, want %q (markdown %q)", tc.in, got, tc.want, literalMarkdown(tc.in))
			}
		})
	}
}

func TestImageMarkdown(t *testing.T) {
	for _, tc := range []struct{ name, in, want, wantErr string }{
		{"data URI", "data:image/png;base64,iVBORw0KGgo=", "![Ti\\*tle](<data:image/png;base64,iVBORw0KGgo=>)", ""},
		{"data URI wrapped", "data:image/png;base64,iVBO\n Rw0K", "![Ti\\*tle](<data:image/png;base64,iVBORw0K>)", ""},
		{"data URI not an image", "data:text/html;base64,PHNjcmlwdD4=", "", "a data: URI must be data:image/"},
		{"absolute path", "/home/u/shot.png", "![Ti\\*tle](</home/u/shot.png>)", ""},
		{"file URL", "file:///home/u/shot.png", "![Ti\\*tle](</home/u/shot.png>)", ""},
		{"remote file URL", "file://host/x.png", "", "is not a local file URL"},
		{"https URL is a link", "https://e.com/a.png", "Image (not loaded): [Ti\\*tle](<https://e.com/a.png>)", ""},
		{"http URL is a link", "http://e.com/a.png", "Image (not loaded): [Ti\\*tle](<http://e.com/a.png>)", ""},
		{"relative path", "shot.png", "", `content: with content_type image, pass a data:image/… URI, an absolute local file path or an http(s) URL, got "shot.png"`},
		{"path with brackets", "/tmp/<x>.png", "", "must not contain <, > or line breaks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := imageMarkdown(tc.in, "Ti*tle")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("imageMarkdown(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestHumanOutcome(t *testing.T) {
	asked := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	req := &humanRequest{id: "r1", choices: []humanChoice{{"yes", "Ship it"}, {"no", "Hold"}}, runID: "run", traceID: "trace",
		metadata: map[string]any{"k": "v"}, askedAt: asked}
	now := time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		a    wire.Answer
		req  *humanRequest
		want string // JSON
	}{
		{"answered", wire.Answer{Status: wire.StatusAnswered, ElapsedMS: 2500, Replies: []wire.Reply{{Selected: []string{"Hold"}}}}, req,
			`{"status":"answered","request_id":"r1","choice_id":"no","choice_label":"Hold","answered_at":"2026-01-02T03:04:07Z","run_id":"run","trace_id":"trace","metadata":{"k":"v"}}`},
		{"answered, unknown request", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"Hold"}}}}, nil,
			`{"status":"answered","request_id":"r1","choice_label":"Hold","answered_at":"2026-01-02T09:00:00Z","message":"` + humanUnknownChoiceNote + `"}`},
		{"submitted without a choice", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{}}}, req,
			`{"status":"declined","request_id":"r1","message":"` + humanDeclinedNoChoice + `","run_id":"run","trace_id":"trace","metadata":{"k":"v"}}`},
		{"dismissed", wire.Answer{Status: wire.StatusDismissed}, req,
			`{"status":"declined","request_id":"r1","message":"` + humanDeclinedDismissed + `","run_id":"run","trace_id":"trace","metadata":{"k":"v"}}`},
		{"timeout", wire.Answer{Status: wire.StatusTimeout}, nil,
			`{"status":"expired","request_id":"r1","message":"` + humanExpiredMessage + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, ok := humanOutcome(tc.a, "r1", tc.req, now)
			if !ok {
				t.Fatal("not ok")
			}
			got, _ := json.Marshal(res)
			if string(got) != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
			tr := humanToolResult(res)
			if tr.IsError || resultText(t, tr) != string(got) {
				t.Errorf("tool result text %q, isError %v", resultText(t, tr), tr.IsError)
			}
		})
	}
	if _, ok := humanOutcome(wire.Answer{Status: "snoozed"}, "r1", req, now); ok {
		t.Error("an unknown status is ok")
	}
	res := settleHuman(wire.Answer{Status: "snoozed"}, "r1", nil, callEnv{})
	if !res.IsError || !strings.Contains(resultText(t, res), `unknown status "snoozed"`) {
		t.Errorf("unknown status: %+v", res)
	}
}

func TestNormalizeAskHumanResult(t *testing.T) {
	env := callEnv{}
	env.settings.PendingWaitSeconds = 30
	for _, tc := range []struct {
		name    string
		args    string
		wait    time.Duration
		wantErr string
	}{
		{"default wait", `{"request_id":"abc"}`, 30 * time.Second, ""},
		{"wait 300", `{"request_id":"abc","wait_seconds":300}`, 300 * time.Second, ""},
		{"wait 301", `{"request_id":"abc","wait_seconds":301}`, 0, "wait_seconds: must be from 0 to 300, got 301"},
		{"wait 0 checks", `{"request_id":"abc","wait_seconds":0}`, time.Second, ""},
		{"wait fraction", `{"request_id":"abc","wait_seconds":2.5}`, 3 * time.Second, ""},
		{"wait negative", `{"request_id":"abc","wait_seconds":-1}`, 0, "wait_seconds: must be from 0 to 300"},
		{"wait a string", `{"request_id":"abc","wait_seconds":"5"}`, 0, "wait_seconds: must be a number, got string"},
		{"no request_id", `{}`, 0, "request_id: required"},
		{"blank request_id", `{"request_id":" "}`, 0, "request_id: required"},
		{"request_id a number", `{"request_id":5}`, 0, "request_id: must be a string, got number"},
		{"request_id at 128 bytes", `{"request_id":"` + strings.Repeat("a", 128) + `"}`, 30 * time.Second, ""},
		{"request_id at 129 bytes", `{"request_id":"` + strings.Repeat("a", 129) + `"}`, 0, "request_id: at most 128 bytes, got 129"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, wait, err := normalizeAskHumanResult(obj(t, tc.args), env)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || wait != tc.wait {
				t.Errorf("wait = %v, %v; want %v", wait, err, tc.wait)
			}
		})
	}
	env.settings.PendingWaitSeconds = 900
	if _, wait, _ := normalizeAskHumanResult(obj(t, `{"request_id":"a"}`), env); wait != 300*time.Second {
		t.Errorf("a pending wait of 900 s gives a default of %v, want 300 s", wait)
	}
}
