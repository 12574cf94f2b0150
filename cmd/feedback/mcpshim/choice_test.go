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

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// labelsJSON is a JSON array of n distinct labels.
func labelsJSON(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf("%q", fmt.Sprintf("opt%d", i+1))
	}
	return "[" + strings.Join(items, ",") + "]"
}

// TestNormalizeChoiceRules covers seed 004's option rules and every limit
// at n and n+1, for the four tools.
func TestNormalizeChoiceRules(t *testing.T) {
	long := func(n int) string { return strings.Repeat("问", n) }
	for _, tc := range []struct {
		name, tool, args, err string // err "" means valid
	}{
		// question
		{"question missing", askChoiceName, `{"options":["A","B"]}`, "question: required"},
		{"question blank", askConfirmName, `{"question":" \n"}`, "question: required: must not be blank"},
		{"question a number", askTextName, `{"question":42}`, "question: must be a string, got number"},
		{"question 20000 chars", askTextName, `{"question":"` + long(20000) + `"}`, ""},
		{"question 20001 chars", askTextName, `{"question":"` + long(20001) + `"}`, "question: at most 20000 characters, got 20001"},
		// options (2-25, strings, non-blank, unique, ≤ 200 characters)
		{"options missing", askChoiceName, `{"question":"Q"}`, "options: required: pass an array of 2 to 25 items"},
		{"1 option", askChoiceName, `{"question":"Q","options":` + labelsJSON(1) + `}`, "options: at least 2 items, got 1"},
		{"2 options", askChoiceName, `{"question":"Q","options":` + labelsJSON(2) + `}`, ""},
		{"25 options", askChoiceName, `{"question":"Q","options":` + labelsJSON(25) + `}`, ""},
		{"26 options", askChoiceName, `{"question":"Q","options":` + labelsJSON(26) + `}`, "options: at most 25 items, got 26"},
		{"multi 1 option", askMultiSelectName, `{"question":"Q","options":` + labelsJSON(1) + `}`, "options: at least 2 items, got 1"},
		{"multi 25 options", askMultiSelectName, `{"question":"Q","options":` + labelsJSON(25) + `}`, ""},
		{"multi 26 options", askMultiSelectName, `{"question":"Q","options":` + labelsJSON(26) + `}`, "options: at most 25 items, got 26"},
		{"options an object", askChoiceName, `{"question":"Q","options":{"a":"b"}}`, "options: must be an array, got object"},
		{"option a number", askChoiceName, `{"question":"Q","options":["A",2]}`, `options[1]: must be a string (the option's label) or an object {"label": string, "description"?: string}`},
		{"option blank", askChoiceName, `{"question":"Q","options":["A","  "]}`, "options[1]: required: must not be blank"},
		// options as {label, description} objects (text and value alias label)
		{"option objects", askChoiceName, `{"question":"Q","options":[{"label":"A","description":"d"},{"text":"B"},{"value":"C","description":null},"D"]}`, ""},
		{"multi option objects", askMultiSelectName, `{"question":"Q","options":[{"label":"A"},{"label":"B","description":"d"}]}`, ""},
		{"option object without label", askChoiceName, `{"question":"Q","options":["A",{"description":"d"}]}`, "options[1].label: required"},
		{"option object label blank", askMultiSelectName, `{"question":"Q","options":["A",{"text":" "}]}`, "options[1].text: required: must not be blank"},
		{"option object label a number", askChoiceName, `{"question":"Q","options":["A",{"value":5}]}`, "options[1].value: must be a string, got number"},
		{"option object label 201 chars", askChoiceName, `{"question":"Q","options":["A",{"label":"` + long(201) + `"}]}`, "options[1].label: at most 200 characters, got 201"},
		{"option object description 1001 chars", askChoiceName, `{"question":"Q","options":["A",{"label":"B","description":"` + long(1001) + `"}]}`, "options[1].description: at most 1000 characters, got 1001"},
		{"option object description a number", askChoiceName, `{"question":"Q","options":["A",{"label":"B","description":1}]}`, "options[1].description: must be a string, got number"},
		{"option object repeats a label", askChoiceName, `{"question":"Q","options":["A",{"label":"A"}]}`, `options[1]: "A" repeats options[0]`},
		{"1 option object", askChoiceName, `{"question":"Q","options":[{"label":"A"}]}`, "options: at least 2 items, got 1"},
		{"26 option objects", askMultiSelectName, `{"question":"Q","options":[` + strings.Repeat(`{"label":"x"},`, 25) + `{"label":"y"}]}`, "options: at most 25 items, got 26"},
		{"default matches an object's label", askChoiceName, `{"question":"Q","options":[{"label":"A"},{"text":"B","description":"d"}],"default":"B"}`, ""},
		{"default matches no object's label", askChoiceName, `{"question":"Q","options":[{"label":"A"},{"label":"B"}],"default":"d"}`, `default: "d" does not exactly match any of options`},
		{"defaults match objects' labels", askMultiSelectName, `{"question":"Q","options":[{"label":"A"},{"value":"B"}],"defaults":["B"]}`, ""},
		{"defaults match no object's label", askMultiSelectName, `{"question":"Q","options":[{"label":"A"},{"label":"B"}],"defaults":["A","Z"]}`, `defaults[1]: "Z" does not exactly match`},
		{"option 200 chars", askChoiceName, `{"question":"Q","options":["A","` + long(200) + `"]}`, ""},
		{"option 201 chars", askChoiceName, `{"question":"Q","options":["A","` + long(201) + `"]}`, "options[1]: at most 200 characters, got 201"},
		// min and max (ask_multi_select), as the original: argument errors naming the field
		{"min and max", askMultiSelectName, `{"question":"Q","options":["A","B","C"],"min":1,"max":2}`, ""},
		{"min equals max", askMultiSelectName, `{"question":"Q","options":["A","B","C"],"min":2,"max":2}`, ""},
		{"min 0", askMultiSelectName, `{"question":"Q","options":["A","B"],"min":0}`, ""},
		{"max the number of options", askMultiSelectName, `{"question":"Q","options":["A","B","C"],"max":3}`, ""},
		{"min over max", askMultiSelectName, `{"question":"Q","options":["A","B","C"],"min":3,"max":2}`, "min: (3) must not exceed max (2)"},
		{"max over the options", askMultiSelectName, `{"question":"Q","options":["A","B","C"],"max":4}`, "max: (4) cannot exceed the number of options (3)"},
		{"min over the options", askMultiSelectName, `{"question":"Q","options":["A","B"],"min":3}`, "min: (3) must not exceed max (2)"},
		{"min not whole", askMultiSelectName, `{"question":"Q","options":["A","B"],"min":1.5}`, "min: must be a whole number from 0 to 25, got 1.5"},
		{"max 0", askMultiSelectName, `{"question":"Q","options":["A","B"],"max":0}`, "max: must be a whole number from 1 to 25, got 0"},
		{"max a string", askMultiSelectName, `{"question":"Q","options":["A","B"],"max":"2"}`, "max: must be a whole number from 1 to 25, got string"},
		{"min null", askMultiSelectName, `{"question":"Q","options":["A","B"],"min":null,"max":null}`, ""},
		{"duplicate options", askMultiSelectName, `{"question":"Q","options":["A","B","A"]}`, `options[2]: "A" repeats options[0]`},
		{"options differing in spaces are different", askChoiceName, `{"question":"Q","options":["A","A "]}`, ""},
		// default (ask_choice): must exactly match a label
		{"default matches", askChoiceName, `{"question":"Q","options":["A","B"],"default":"B"}`, ""},
		{"default differs in case", askChoiceName, `{"question":"Q","options":["A","B"],"default":"b"}`, `default: "b" does not exactly match any of options`},
		{"default differs in spaces", askChoiceName, `{"question":"Q","options":["A","B"],"default":"B "}`, `default: "B " does not exactly match`},
		{"default a number", askChoiceName, `{"question":"Q","options":["A","B"],"default":1}`, "default: must be a string, got number"},
		{"default null", askChoiceName, `{"question":"Q","options":["A","B"],"default":null}`, ""},
		// defaults (ask_multi_select)
		{"defaults match", askMultiSelectName, `{"question":"Q","options":["A","B","C"],"defaults":["C","A"]}`, ""},
		{"defaults all", askMultiSelectName, `{"question":"Q","options":["A","B"],"defaults":["A","B"]}`, ""},
		{"defaults unknown", askMultiSelectName, `{"question":"Q","options":["A","B"],"defaults":["Z"]}`, `defaults[0]: "Z" does not exactly match`},
		{"defaults twice", askMultiSelectName, `{"question":"Q","options":["A","B","C"],"defaults":["A","A"]}`, `defaults[1]: "A" is listed twice`},
		{"defaults more than options", askMultiSelectName, `{"question":"Q","options":["A","B"],"defaults":["A","B","A"]}`, "defaults: at most 2 items, got 3"},
		{"defaults a string", askMultiSelectName, `{"question":"Q","options":["A","B"],"defaults":"A"}`, "defaults: must be an array, got string"},
		// allow_free_text
		{"allow_free_text a string", askChoiceName, `{"question":"Q","options":["A","B"],"allow_free_text":"yes"}`, "allow_free_text: must be a boolean"},
		// ask_confirm default
		{"confirm default true", askConfirmName, `{"question":"Q","default":true}`, ""},
		{"confirm default a string", askConfirmName, `{"question":"Q","default":"yes"}`, "default: must be a boolean"},
		// ask_text placeholder
		{"placeholder 200 chars", askTextName, `{"question":"Q","placeholder":"` + long(200) + `"}`, ""},
		{"placeholder 201 chars", askTextName, `{"question":"Q","placeholder":"` + long(201) + `"}`, "placeholder: at most 200 characters, got 201"},
		// timeout_ms: 1 to 86400000, whole
		{"timeout_ms 0", askConfirmName, `{"question":"Q","timeout_ms":0}`, "timeout_ms: must be a whole number from 1 to 86400000"},
		{"timeout_ms 1", askConfirmName, `{"question":"Q","timeout_ms":1}`, ""},
		{"timeout_ms 86400000", askConfirmName, `{"question":"Q","timeout_ms":86400000}`, ""},
		{"timeout_ms 86400001", askConfirmName, `{"question":"Q","timeout_ms":86400001}`, "timeout_ms: must be a whole number from 1 to 86400000 (24 hours), got 8.6400001e+07"},
		{"timeout_ms fractional", askTextName, `{"question":"Q","timeout_ms":1500.5}`, "timeout_ms: must be a whole number"},
		{"timeout_ms negative", askTextName, `{"question":"Q","timeout_ms":-5}`, "timeout_ms: must be a whole number"},
		{"timeout_ms a string", askTextName, `{"question":"Q","timeout_ms":"1000"}`, "timeout_ms: must be a number of milliseconds, got string"},
		// unknown properties are ignored
		{"unknown property", askConfirmName, `{"question":"Q","urgency":"high"}`, ""},
	} {
		t.Run(tc.tool+"/"+tc.name, func(t *testing.T) {
			q, _, err := normalizeChoice(tc.tool, decodeArgs(t, tc.args))
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

func TestNormalizeChoiceQuestions(t *testing.T) {
	for _, tc := range []struct {
		name, tool, args string
		check            func(t *testing.T, q wire.Question, c choiceCall)
	}{
		{"ask_choice", askChoiceName, `{"question":"Which DB?","options":["Postgres","SQLite"],"default":"SQLite","timeout_ms":1001}`,
			func(t *testing.T, q wire.Question, c choiceCall) {
				p := q.Prompts[0]
				if p.Kind != wire.KindChoice || !p.Single || p.Options[0].Default || !p.Options[1].Default || q.TimeoutSeconds != 2 || q.Source != "ask_choice" {
					t.Errorf("question = %+v", q)
				}
			}},
		{"ask_choice with free text", askChoiceName, `{"question":"Q","options":["A","B"],"allow_free_text":true,"timeout_ms":1000}`,
			func(t *testing.T, q wire.Question, c choiceCall) {
				p := q.Prompts[0]
				if p.Kind != wire.KindText || !p.Single || len(p.Options) != 2 || p.Placeholder == "" || q.TimeoutSeconds != 1 || !c.allowFree {
					t.Errorf("question = %+v", q)
				}
			}},
		{"ask_confirm", askConfirmName, `{"question":"Deploy?","default":false}`,
			func(t *testing.T, q wire.Question, c choiceCall) {
				if q.Prompts[0].Kind != wire.KindYesNo || len(q.Context) != 1 || q.Context[0] != (wire.Field{Label: "Recommended", Value: "No"}) || q.TimeoutSeconds != 0 {
					t.Errorf("question = %+v", q)
				}
			}},
		{"ask_confirm without default", askConfirmName, `{"question":"Deploy?"}`,
			func(t *testing.T, q wire.Question, c choiceCall) {
				if len(q.Context) != 0 || len(c.recommended) != 0 {
					t.Errorf("question = %+v", q)
				}
			}},
		{"ask_text", askTextName, `{"question":"Name?","placeholder":"e.g. feedback-app","timeout_ms":86400000}`,
			func(t *testing.T, q wire.Question, c choiceCall) {
				p := q.Prompts[0]
				if p.Kind != wire.KindText || len(p.Options) != 0 || p.Placeholder != "e.g. feedback-app" || q.TimeoutSeconds != 86400 {
					t.Errorf("question = %+v", q)
				}
			}},
		{"ask_multi_select", askMultiSelectName, `{"question":"Which?","options":["A","B","C"],"defaults":["A","C"]}`,
			func(t *testing.T, q wire.Question, c choiceCall) {
				p := q.Prompts[0]
				if p.Kind != wire.KindChoice || p.Single || !p.Options[0].Default || p.Options[1].Default || !p.Options[2].Default {
					t.Errorf("question = %+v", q)
				}
			}},
		{"ask_text with a default", askTextName, `{"question":"Name?","default":"feedback\nsecond line","placeholder":"p"}`,
			func(t *testing.T, q wire.Question, c choiceCall) {
				if p := q.Prompts[0]; p.Kind != wire.KindText || p.Prefill != "feedback\nsecond line" || p.Placeholder != "p" {
					t.Errorf("question = %+v", q)
				}
			}},
		{"ask_choice with option objects", askChoiceName, `{"question":"Which DB?","options":[{"label":"Postgres","description":" a server "},{"text":"SQLite"},{"value":"DuckDB","description":"columns"}],"default":"DuckDB"}`,
			func(t *testing.T, q wire.Question, c choiceCall) {
				want := []wire.Option{{Label: "Postgres", Description: "a server"}, {Label: "SQLite"}, {Label: "DuckDB", Description: "columns", Default: true}}
				if p := q.Prompts[0]; !slices.Equal(p.Options, want) || !slices.Equal(c.options, []string{"Postgres", "SQLite", "DuckDB"}) {
					t.Errorf("options = %+v, labels %v", p.Options, c.options)
				}
			}},
		{"ask_multi_select with option objects", askMultiSelectName, `{"question":"Which?","options":[{"label":"A","description":"first"},"B"],"defaults":["A"]}`,
			func(t *testing.T, q wire.Question, c choiceCall) {
				want := []wire.Option{{Label: "A", Description: "first", Default: true}, {Label: "B"}}
				if p := q.Prompts[0]; !slices.Equal(p.Options, want) || p.Single {
					t.Errorf("options = %+v", p.Options)
				}
			}},
		{"ask_multi_select with free text", askMultiSelectName, `{"question":"Which?","options":["A","B"],"allow_free_text":true}`,
			func(t *testing.T, q wire.Question, c choiceCall) {
				if p := q.Prompts[0]; p.Kind != wire.KindText || p.Single {
					t.Errorf("question = %+v", q)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, c, err := normalizeChoice(tc.tool, decodeArgs(t, tc.args))
			if err != nil {
				t.Fatal(err)
			}
			if err := q.Validate(); err != nil {
				t.Fatal(err)
			}
			tc.check(t, q, c)
		})
	}
}

// choiceOf returns the renderer's view of a call.
func choiceOf(t *testing.T, tool, args string) choiceCall {
	t.Helper()
	_, c, err := normalizeChoice(tool, decodeArgs(t, args))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRenderChoice checks every status of every tool, field by field.
func TestRenderChoice(t *testing.T) {
	pick := choiceOf(t, askChoiceName, `{"question":"Which DB?","options":["Postgres","SQLite"],"allow_free_text":true}`)
	confirm := choiceOf(t, askConfirmName, `{"question":"Deploy?"}`)
	confirmNo := choiceOf(t, askConfirmName, `{"question":"Deploy?","default":false}`)
	confirmYes := choiceOf(t, askConfirmName, `{"question":"Deploy?","default":true}`)
	text := choiceOf(t, askTextName, `{"question":"Name?"}`)
	multi := choiceOf(t, askMultiSelectName, `{"question":"Which?","options":["A","B","C"]}`)
	multiNone := choiceOf(t, askMultiSelectName, `{"question":"Which?","options":["A","B","C"],"min":0}`)
	bounded := choiceOf(t, askMultiSelectName, `{"question":"Which?","options":["A","B","C"],"min":1,"max":2}`)
	const cancelledNext = "Do not ask again at once, and do not assume an answer. Continue only if a safe default exists; otherwise say what is blocked. An unanswered question is never permission for a destructive action."
	ans := func(ms int64, r ...wire.Reply) wire.Answer {
		return wire.Answer{QuestionID: "q", Status: wire.StatusAnswered, Replies: r, ElapsedMS: ms}
	}
	fixed := `"via":"window","tool":"%s",`
	for _, tc := range []struct {
		name string
		c    choiceCall
		a    wire.Answer
		want string // the JSON after via and tool
	}{
		{"choice answered", pick, ans(1200, wire.Reply{Selected: []string{"SQLite"}}),
			`"answer":"SQLite","status":"answered","message":"The user chose \"SQLite\".","fallback":"none","form_url":"","question":"Which DB?","selected":["SQLite"],"confirmed":null,"free_text":"","next_step":"Proceed with \"SQLite\".","elapsed_ms":1200,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"choice answered with a note", pick, ans(1200, wire.Reply{Selected: []string{"SQLite"}, Text: " keep it small \n"}),
			`"answer":"SQLite","status":"answered","message":"The user chose \"SQLite\". They added a note: keep it small","fallback":"none","form_url":"","question":"Which DB?","selected":["SQLite"],"confirmed":null,"free_text":"keep it small","next_step":"Proceed with \"SQLite\", taking the note in free_text into account.","elapsed_ms":1200,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"choice answered in own words", pick, ans(1200, wire.Reply{Text: "MySQL"}),
			`"answer":"MySQL","status":"answered","message":"The user chose none of the options and answered in their own words: MySQL","fallback":"none","form_url":"","question":"Which DB?","selected":[],"confirmed":null,"free_text":"MySQL","next_step":"Act on the user's own answer in answer; it is none of your options. Ask in chat if it is unclear.","elapsed_ms":1200,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"choice submitted empty", pick, ans(1200, wire.Reply{Text: "  "}),
			`"answer":"","status":"declined","message":"The user submitted without choosing an option.","fallback":"none","form_url":"","question":"Which DB?","selected":[],"confirmed":null,"free_text":"","next_step":"Do not assume an answer. Continue without it if you can, or ask the user in chat.","elapsed_ms":1200,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"choice dismissed", pick, wire.Answer{Status: wire.StatusDismissed, ElapsedMS: 400},
			`"answer":"","status":"cancelled","message":"The user dismissed the question without answering.","fallback":"none","form_url":"","question":"Which DB?","selected":[],"confirmed":null,"free_text":"","next_step":"` + cancelledNext + `","elapsed_ms":400,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"choice dismissed at once", pick, wire.Answer{Status: wire.StatusDismissed, ElapsedMS: 399},
			`"answer":"","status":"cancelled","message":"The user dismissed the question without answering.","fallback":"none","form_url":"","question":"Which DB?","selected":[],"confirmed":null,"free_text":"","next_step":"` + cancelledNext + `","elapsed_ms":399,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"choice quit", pick, wire.Answer{Status: wire.StatusDismissed, ElapsedMS: 900, Reason: wire.ReasonQuit},
			`"answer":"","status":"cancelled","message":"The user quit the feedback app without answering.","fallback":"none","form_url":"","question":"Which DB?","selected":[],"confirmed":null,"free_text":"","next_step":"` + cancelledNext + `","elapsed_ms":900,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"choice form declined", pick, wire.Answer{Status: wire.StatusDismissed, ElapsedMS: 400, Reason: reasonFormDeclined},
			`"answer":"","status":"declined","message":"The user declined to answer.","fallback":"none","form_url":"","question":"Which DB?","selected":[],"confirmed":null,"free_text":"","next_step":"Do not ask again. Choose the most conservative option and say which assumption you made, or stop and report that a decision is needed.","elapsed_ms":400,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"choice timeout", pick, wire.Answer{Status: wire.StatusTimeout, ElapsedMS: 300000, Replies: []wire.Reply{{Selected: []string{"SQLite"}}}},
			`"answer":"","status":"timeout","message":"The user did not answer in time: the window's countdown ran out.","fallback":"none","form_url":"","question":"Which DB?","selected":[],"confirmed":null,"free_text":"","next_step":"This is not an answer and not a default: do not act as if the user agreed. Call ask_choice again with the same arguments if you still need the answer, or continue with work that does not depend on it.","elapsed_ms":300000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"choice unknown status", pick, wire.Answer{Status: "withdrawn", ElapsedMS: 10},
			`"answer":"","status":"cancelled","message":"The question ended without an answer (the feedback app reported status \"withdrawn\").","fallback":"none","form_url":"","question":"Which DB?","selected":[],"confirmed":null,"free_text":"","next_step":"Do not assume an answer. Call ask_choice again, or ask the user in chat.","elapsed_ms":10,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"confirm yes", confirm, ans(800, wire.Reply{Text: "yes"}),
			`"answer":"yes","status":"answered","message":"The user answered yes.","fallback":"none","form_url":"","question":"Deploy?","selected":[],"confirmed":true,"free_text":"","next_step":"Proceed: the user confirmed.","elapsed_ms":800,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"confirm no", confirm, ans(800, wire.Reply{Text: "no"}),
			`"answer":"no","status":"answered","message":"The user answered no.","fallback":"none","form_url":"","question":"Deploy?","selected":[],"confirmed":false,"free_text":"","next_step":"Do not go ahead with what you asked about. Adjust your plan, or ask the user what they want instead.","elapsed_ms":800,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"confirm submitted empty", confirm, ans(800, wire.Reply{}),
			`"answer":"","status":"declined","message":"The user submitted without answering yes or no.","fallback":"none","form_url":"","question":"Deploy?","selected":[],"confirmed":null,"free_text":"","next_step":"Do not assume an answer. Continue without it if you can, or ask the user in chat.","elapsed_ms":800,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"confirm submitted without choosing: default no", confirmNo, ans(800, wire.Reply{}),
			`"answer":"no","status":"answered","message":"The user submitted without choosing, which accepts the recommended answer: no.","fallback":"none","form_url":"","question":"Deploy?","selected":[],"confirmed":false,"free_text":"","next_step":"Do not go ahead with what you asked about. Adjust your plan, or ask the user what they want instead.","elapsed_ms":800,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"confirm submitted without choosing: default yes", confirmYes, ans(800, wire.Reply{}),
			`"answer":"yes","status":"answered","message":"The user submitted without choosing, which accepts the recommended answer: yes.","fallback":"none","form_url":"","question":"Deploy?","selected":[],"confirmed":true,"free_text":"","next_step":"Proceed: the user confirmed.","elapsed_ms":800,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"confirm with a default answered no", confirmYes, ans(800, wire.Reply{Text: "no"}),
			`"answer":"no","status":"answered","message":"The user answered no.","fallback":"none","form_url":"","question":"Deploy?","selected":[],"confirmed":false,"free_text":"","next_step":"Do not go ahead with what you asked about. Adjust your plan, or ask the user what they want instead.","elapsed_ms":800,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"confirm dismissed", confirm, wire.Answer{Status: wire.StatusDismissed, ElapsedMS: 5000},
			`"answer":"","status":"cancelled","message":"The user dismissed the question without answering.","fallback":"none","form_url":"","question":"Deploy?","selected":[],"confirmed":null,"free_text":"","next_step":"` + cancelledNext + `","elapsed_ms":5000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"confirm timeout", confirm, wire.Answer{Status: wire.StatusTimeout, ElapsedMS: 1000},
			`"answer":"","status":"timeout","message":"The user did not answer in time: the window's countdown ran out.","fallback":"none","form_url":"","question":"Deploy?","selected":[],"confirmed":null,"free_text":"","next_step":"This is not an answer and not a default: do not act as if the user agreed. Call ask_confirm again with the same arguments if you still need the answer, or continue with work that does not depend on it.","elapsed_ms":1000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"text answered", text, ans(3000, wire.Reply{Text: "feedback-app\n"}),
			`"answer":"feedback-app","status":"answered","message":"The user answered: feedback-app","fallback":"none","form_url":"","question":"Name?","selected":[],"confirmed":null,"free_text":"","next_step":"Continue with the user's answer.","elapsed_ms":3000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"text empty", text, ans(3000, wire.Reply{}),
			`"answer":"","status":"invalid_response","message":"The user submitted an empty answer (nothing, or only spaces); this is not a usable answer.","fallback":"none","form_url":"","question":"Name?","selected":[],"confirmed":null,"free_text":"","next_step":"Do not treat it as an answer. Ask again (in chat if you like), or continue with an assumption you state explicitly.","elapsed_ms":3000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"text only spaces", text, ans(3000, wire.Reply{Text: " \t\n "}),
			`"answer":"","status":"invalid_response","message":"The user submitted an empty answer (nothing, or only spaces); this is not a usable answer.","fallback":"none","form_url":"","question":"Name?","selected":[],"confirmed":null,"free_text":"","next_step":"Do not treat it as an answer. Ask again (in chat if you like), or continue with an assumption you state explicitly.","elapsed_ms":3000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"text dismissed", text, wire.Answer{Status: wire.StatusDismissed, ElapsedMS: 0},
			`"answer":"","status":"cancelled","message":"The user dismissed the question without answering.","fallback":"none","form_url":"","question":"Name?","selected":[],"confirmed":null,"free_text":"","next_step":"` + cancelledNext + `","elapsed_ms":0,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"multi within min and max", bounded, ans(2000, wire.Reply{Selected: []string{"A", "B"}}),
			`"answer":"A, B","status":"answered","message":"The user selected 2 of 3 options: \"A\", \"B\".","fallback":"none","form_url":"","question":"Which?","selected":["A","B"],"confirmed":null,"free_text":"","next_step":"Proceed with the selected options.","elapsed_ms":2000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"multi under min", bounded, ans(2000, wire.Reply{Selected: []string{}}),
			`"answer":"","status":"invalid_response","message":"The user ticked 0 options, but the question asked for at least 1; this is not a usable answer.","fallback":"none","form_url":"","question":"Which?","selected":[],"confirmed":null,"free_text":"","next_step":"Ask again with bounds the user can meet, or ask in chat; do not guess.","elapsed_ms":2000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"multi over max", bounded, ans(2000, wire.Reply{Selected: []string{"A", "B", "C"}}),
			`"answer":"","status":"invalid_response","message":"The user ticked 3 options, but the question asked for at most 2; this is not a usable answer.","fallback":"none","form_url":"","question":"Which?","selected":[],"confirmed":null,"free_text":"","next_step":"Ask again with bounds the user can meet, or ask in chat; do not guess.","elapsed_ms":2000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"multi answered", multi, ans(2000, wire.Reply{Selected: []string{"A", "C"}}),
			`"answer":"A, C","status":"answered","message":"The user selected 2 of 3 options: \"A\", \"C\".","fallback":"none","form_url":"","question":"Which?","selected":["A","C"],"confirmed":null,"free_text":"","next_step":"Proceed with the selected options.","elapsed_ms":2000,"client_elicitation":false,"auto_reject_suspected":false}`},
		// Without min, one or more, as the original: none is no answer.
		{"multi none", multi, ans(2000, wire.Reply{}),
			`"answer":"","status":"invalid_response","message":"The user ticked 0 options, but the question asked for at least 1; this is not a usable answer.","fallback":"none","form_url":"","question":"Which?","selected":[],"confirmed":null,"free_text":"","next_step":"Ask again with min 0 if none of the options is a valid answer, or ask in chat; do not guess.","elapsed_ms":2000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"multi none with min 0", multiNone, ans(2000, wire.Reply{}),
			`"answer":"","status":"answered","message":"The user selected none of the 3 options.","fallback":"none","form_url":"","question":"Which?","selected":[],"confirmed":null,"free_text":"","next_step":"Proceed with none of the options selected.","elapsed_ms":2000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"multi with a note", multi, ans(2000, wire.Reply{Selected: []string{"B"}, Text: "and D"}),
			`"answer":"B","status":"answered","message":"The user selected 1 of 3 options: \"B\". They added a note: and D","fallback":"none","form_url":"","question":"Which?","selected":["B"],"confirmed":null,"free_text":"and D","next_step":"Proceed with the selected options, taking the note in free_text into account.","elapsed_ms":2000,"client_elicitation":false,"auto_reject_suspected":false}`},
		{"multi timeout", multi, wire.Answer{Status: wire.StatusTimeout, ElapsedMS: -3},
			`"answer":"","status":"timeout","message":"The user did not answer in time: the window's countdown ran out.","fallback":"none","form_url":"","question":"Which?","selected":[],"confirmed":null,"free_text":"","next_step":"This is not an answer and not a default: do not act as if the user agreed. Call ask_multi_select again with the same arguments if you still need the answer, or continue with work that does not depend on it.","elapsed_ms":0,"client_elicitation":false,"auto_reject_suspected":false}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := renderChoice(tc.a, tc.c)
			want := "{" + fmt.Sprintf(fixed, tc.c.tool) + tc.want
			checkChoiceResult(t, res, want)
		})
	}
}

// checkChoiceResult checks that res is a success result whose
// structuredContent and single text block are both exactly want.
func checkChoiceResult(t *testing.T, res *mcp.CallToolResult, want string) {
	t.Helper()
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("result = %+v", res)
	}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res.StructuredContent); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(buf.String()); got != want {
		t.Errorf("structuredContent =\n%s\nwant\n%s", got, want)
	}
	if got := res.Content[0].(mcp.TextContent).Text; got != want {
		t.Errorf("text =\n%s\nwant\n%s", got, want)
	}
}

func TestFailChoice(t *testing.T) {
	cause := errors.New("dial unix /run/user/0/feedback.sock: connect: no such file or directory")
	for _, tc := range []struct {
		name, tool, args, message string
	}{
		{"ask_choice", askChoiceName, `{"question":"Which DB?","options":["Postgres","SQLite"],"default":"SQLite","allow_free_text":true}`,
			"The question could not be shown in the feedback window (" + cause.Error() + "). Ask the user in chat:\nWhich DB?\nOptions (choose one):\n- Postgres\n- SQLite (recommended)\nThe user may also answer in their own words."},
		{"ask_confirm", askConfirmName, `{"question":"Deploy?","default":true}`,
			"The question could not be shown in the feedback window (" + cause.Error() + "). Ask the user in chat:\nDeploy?\nAnswer: yes or no (recommended: yes)"},
		{"ask_text", askTextName, `{"question":"Name?"}`,
			"The question could not be shown in the feedback window (" + cause.Error() + "). Ask the user in chat:\nName?"},
		{"ask_text with a default", askTextName, `{"question":"Name?","default":"fbk"}`,
			"The question could not be shown in the feedback window (" + cause.Error() + "). Ask the user in chat:\nName?\nSuggested answer: fbk"},
		{"ask_choice with descriptions", askChoiceName, `{"question":"Which DB?","options":[{"label":"Postgres","description":"a server"},"SQLite"]}`,
			"The question could not be shown in the feedback window (" + cause.Error() + "). Ask the user in chat:\nWhich DB?\nOptions (choose one):\n- Postgres — a server\n- SQLite"},
		{"ask_multi_select", askMultiSelectName, `{"question":"Which?","options":["A","B"],"defaults":["B"]}`,
			"The question could not be shown in the feedback window (" + cause.Error() + "). Ask the user in chat:\nWhich?\nOptions (choose any number):\n- A\n- B (recommended)\nChoose at least 1."},
		{"ask_multi_select with min 0", askMultiSelectName, `{"question":"Which?","options":["A","B"],"min":0}`,
			"The question could not be shown in the feedback window (" + cause.Error() + "). Ask the user in chat:\nWhich?\nOptions (choose any number):\n- A\n- B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := choiceOf(t, tc.tool, tc.args)
			c.start = time.Time{} // elapsed_ms is then huge: pin it below
			res := failChoice(cause, c)
			r := res.StructuredContent.(choiceResult)
			if r.ElapsedMS <= 0 {
				t.Errorf("elapsed_ms = %d", r.ElapsedMS)
			}
			r.ElapsedMS = 0
			want := choiceResult{Via: "window", Tool: tc.tool, Status: "needs_user_input", Message: tc.message, Fallback: "none",
				Question: c.question, Selected: []string{},
				NextStep: "Ask the user this question yourself, in chat, with the options in message. Wait for the reply before you continue; do not guess."}
			if fmt.Sprintf("%#v", r) != fmt.Sprintf("%#v", want) {
				t.Errorf("result =\n%#v\nwant\n%#v", r, want)
			}
			if res.IsError {
				t.Error("needs_user_input is a success result")
			}
		})
	}
}

// TestChoiceOutputSchema checks that the declared outputSchema requires
// exactly the fields every result carries, and declares user_notes (added
// only when the user wrote notes: notes.go) and away (only when the user
// is away) besides.
func TestChoiceOutputSchema(t *testing.T) {
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(choiceOutputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(newChoiceResult(choiceCall{}))
	var fields map[string]any
	json.Unmarshal(data, &fields)
	if _, ok := schema.Properties[userNotesKey]; !ok {
		t.Errorf("no %s property", userNotesKey)
	}
	if _, ok := schema.Properties["away"]; !ok {
		t.Error("no away property")
	}
	if len(fields) != 15 || len(schema.Required) != 15 || len(schema.Properties) != 17 {
		t.Fatalf("%d fields, %d required, %d properties; want 15, 15 and 17 (user_notes, away)", len(fields), len(schema.Required), len(schema.Properties))
	}
	for _, k := range schema.Required {
		if _, ok := fields[k]; !ok {
			t.Errorf("required %s is not in the result", k)
		}
		if _, ok := schema.Properties[k]; !ok {
			t.Errorf("required %s has no property", k)
		}
	}
	for _, d := range []dialect{askChoice, askConfirm, askText, askMultiSelect} {
		if string(d.tool.RawOutputSchema) != string(choiceOutputSchema) {
			t.Errorf("%s does not declare the output schema", d.tool.Name)
		}
	}
	if string(askUserQuestion.tool.RawOutputSchema) == string(choiceOutputSchema) {
		t.Error("ask_user_question declares the choice family's outputSchema; its results have their own (an isError result needs no structuredContent)")
	}
}

// fakeSession is a client session with capabilities, for
// clientDeclaresElicitation.
type fakeSession struct {
	server.ClientSession
	caps mcp.ClientCapabilities
}

func (s fakeSession) GetClientInfo() mcp.Implementation                   { return mcp.Implementation{} }
func (s fakeSession) SetClientInfo(mcp.Implementation)                    {}
func (s fakeSession) GetClientCapabilities() mcp.ClientCapabilities       { return s.caps }
func (s fakeSession) SetClientCapabilities(mcp.ClientCapabilities)        {}
func (s fakeSession) SessionID() string                                   { return "s" }
func (s fakeSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
func (s fakeSession) Initialize()                                         {}
func (s fakeSession) Initialized() bool                                   { return true }

func TestClientDeclaresElicitation(t *testing.T) {
	srv := server.NewMCPServer("t", "1")
	withCaps := func(caps mcp.ClientCapabilities) context.Context {
		return srv.WithContext(context.Background(), fakeSession{caps: caps})
	}
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want bool
	}{
		{"no session", context.Background(), false},
		{"no elicitation", withCaps(mcp.ClientCapabilities{}), false},
		{"empty elicitation is form", withCaps(mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{}}), true},
		{"form", withCaps(mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}}}), true},
		{"url only", withCaps(mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{URL: &struct{}{}}}), false},
		{"per request", server.WithRequestProtocolInfo(context.Background(), &server.RequestProtocolInfo{
			ClientCapabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}}}}), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := clientDeclaresElicitation(tc.ctx); got != tc.want {
				t.Errorf("clientDeclaresElicitation = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestE2EChoiceTools calls each tool of the family over pipes with a fake
// app and checks the result as a client sees it.
func TestE2EChoiceTools(t *testing.T) {
	var last wire.Question
	asker := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		last = q
		var r wire.Reply
		switch q.Source {
		case askChoiceName:
			r.Selected = []string{q.Prompts[0].Options[1].Label}
		case askConfirmName:
			r.Text = "yes"
		case askTextName:
			r.Text = "typed"
		case askMultiSelectName:
			return wire.Answer{QuestionID: q.ID, Status: wire.StatusDismissed, ElapsedMS: 50}, nil
		}
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, ElapsedMS: 1000, Replies: []wire.Reply{r}}, nil
	})
	c := startShim(t, Options{Connect: connectTo(asker)})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]mcp.Tool{}
	for _, tool := range list.Tools {
		listed[tool.Name] = tool
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		want map[string]any
	}{
		{askChoiceName, map[string]any{"question": "Which?", "options": []any{"A", "B"}, "timeout_ms": 2500},
			map[string]any{"status": "answered", "answer": "B", "selected": []any{"B"}}},
		{askConfirmName, map[string]any{"question": "Go?"}, map[string]any{"status": "answered", "answer": "yes", "confirmed": true}},
		{askTextName, map[string]any{"question": "Name?"}, map[string]any{"status": "answered", "answer": "typed"}},
		{askMultiSelectName, map[string]any{"question": "Which?", "options": []any{"A", "B"}},
			map[string]any{"status": "cancelled", "auto_reject_suspected": false, "elapsed_ms": float64(50)}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			tool, ok := listed[tc.tool]
			if !ok {
				t.Fatalf("tools/list has no %s", tc.tool)
			}
			if tool.OutputSchema.Type != "object" || len(tool.OutputSchema.Required) != 15 || !*tool.Annotations.ReadOnlyHint || *tool.Annotations.OpenWorldHint {
				t.Errorf("tools/list entry = %+v", tool)
			}
			res := callNamed(t, c, tc.tool, tc.args)
			if res.IsError || len(res.Content) != 1 {
				t.Fatalf("result = %+v", res)
			}
			sc, _ := res.StructuredContent.(map[string]any)
			for k, v := range tc.want {
				if fmt.Sprint(sc[k]) != fmt.Sprint(v) {
					t.Errorf("%s = %v, want %v", k, sc[k], v)
				}
			}
			var fromText map[string]any
			if err := json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &fromText); err != nil || fmt.Sprint(fromText) != fmt.Sprint(sc) {
				t.Errorf("text block %q is not the structuredContent (%v)", res.Content[0].(mcp.TextContent).Text, err)
			}
			if sc["tool"] != tc.tool || sc["via"] != "window" || last.Source != tc.tool || last.Client != "shim-test" {
				t.Errorf("tool = %v, via = %v, question = %+v", sc["tool"], sc["via"], last)
			}
		})
	}
	if last.TimeoutSeconds != 0 {
		t.Errorf("timeout_seconds = %d for a call without timeout_ms", last.TimeoutSeconds)
	}
	t.Run("invalid arguments are isError", func(t *testing.T) {
		res := callNamed(t, c, askChoiceName, map[string]any{"question": "Q", "options": []any{"A", "B"}, "default": "C"})
		text := res.Content[0].(mcp.TextContent).Text
		if !res.IsError || res.StructuredContent != nil || !strings.Contains(text, `default: "C" does not exactly match any of options`) {
			t.Errorf("isError = %v, text = %q", res.IsError, text)
		}
	})
}

// TestE2EChoiceAppUnreachable: every tool of the family answers
// needs_user_input, as structuredContent, when the app cannot be reached
// or the connection breaks.
func TestE2EChoiceAppUnreachable(t *testing.T) {
	for _, tc := range []struct {
		name    string
		connect func(context.Context) (wire.Asker, error)
		cause   string
	}{
		{"connect fails", func(context.Context) (wire.Asker, error) { return nil, errors.New("no app") }, "(no app)"},
		{"connection breaks", connectTo(askFunc(func(context.Context, wire.Question, func(wire.Event)) (wire.Answer, error) {
			return wire.Answer{}, &wire.Error{Code: wire.CodeNoDisplay, Message: "DISPLAY is not set"}
		})), "(no_display: DISPLAY is not set)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startShim(t, Options{Connect: tc.connect})
			for _, tool := range []string{askChoiceName, askConfirmName, askTextName, askMultiSelectName} {
				res := callNamed(t, c, tool, map[string]any{"question": "Pick?", "options": []any{"Red", "Blue"}})
				sc, _ := res.StructuredContent.(map[string]any)
				msg, _ := sc["message"].(string)
				if res.IsError || sc["status"] != "needs_user_input" || !strings.Contains(msg, tc.cause) || !strings.Contains(msg, "\nPick?") {
					t.Errorf("%s: isError = %v, structuredContent = %v", tool, res.IsError, sc)
				}
				if (tool == askChoiceName || tool == askMultiSelectName) && !strings.Contains(msg, "- Red\n- Blue") {
					t.Errorf("%s: message lacks the options: %q", tool, msg)
				}
			}
		})
	}
}
