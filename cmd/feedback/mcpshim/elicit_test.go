package mcpshim

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// The client's form shows what the window shows: an option's description
// under the question (a form's enum shows labels only), and ask_text's
// default prefilled; submitted unchanged, the default is the answer. The
// question is the form's message, once: the field of a one-prompt form is
// "Your answer" (Claude Code showed the question as the message, the
// field's title and its description).
func TestElicitationFormDescriptionsAndPrefill(t *testing.T) {
	q, _, err := normalizeChoice(askChoiceName, decodeArgs(t,
		`{"question":"Which DB?","options":[{"label":"Postgres","description":"a server"},"SQLite",{"text":"DuckDB","description":"columns"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	msg, schema, _ := elicitationForm(q)
	if strings.Count(msg, "Which DB?") != 1 {
		t.Errorf("message %q: want the question once", msg)
	}
	data, _ := json.Marshal(schema)
	want := `{"properties":{"answer":{"description":"Options:\n- Postgres: a server\n- DuckDB: columns","enum":["Postgres","SQLite","DuckDB"],"title":"Your answer","type":"string"}},"required":["answer"],"type":"object"}`
	if string(data) != want {
		t.Errorf("schema:\n%s\nwant\n%s", data, want)
	}

	q, c, err := normalizeChoice(askTextName, decodeArgs(t, `{"question":"Name?","default":"fbk"}`))
	if err != nil {
		t.Fatal(err)
	}
	_, schema, fields := elicitationForm(q)
	data, _ = json.Marshal(schema)
	want = `{"properties":{"answer":{"default":"fbk","title":"Your answer","type":"string"}},"type":"object"}`
	if string(data) != want {
		t.Errorf("schema:\n%s\nwant\n%s", data, want)
	}
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"answer": "fbk"}}}
	r := renderChoice(formAnswer(q, fields, res, 5), c).StructuredContent.(choiceResult)
	if r.Status != statusAnswered || r.Answer != "fbk" {
		t.Errorf("result = %+v", r)
	}
}

// formTypesAt checks that schema holds only what the forms of revision
// allow: before 2025-11-25 strings, numbers, booleans and string enums,
// no array; from it, an array of a string enum too.
func formTypesAt(t *testing.T, schema map[string]any, revision string) {
	t.Helper()
	props, _ := schema["properties"].(map[string]any)
	for k, v := range props {
		p, _ := v.(map[string]any)
		typ, _ := p["type"].(string)
		switch typ {
		case "string", "number", "integer", "boolean":
			if _, enum := p["enum"]; enum && typ != "string" {
				t.Errorf("%s: property %s is a %s enum", revision, k, typ)
			}
		case "array":
			if !revisionAllowsMultiSelect(revision) {
				t.Errorf("%s: property %s is an array, which this revision's forms do not allow", revision, k)
			}
			items, _ := p["items"].(map[string]any)
			if items["type"] != "string" || items["enum"] == nil {
				t.Errorf("%s: property %s is an array of %v", revision, k, items)
			}
		default:
			t.Errorf("%s: property %s of type %q", revision, k, typ)
		}
	}
}

// At 2025-06-18 a multi-select prompt is one boolean per option (its
// label the title, the recommended ones checked), since that revision's
// forms have no arrays; the options ticked come back as the selection, in
// option order, an "Other" text beside them. From 2025-11-25 it stays an
// array of the labels.
func TestElicitationFormMultiSelectByRevision(t *testing.T) {
	q, c, err := normalizeChoice(askMultiSelectName, decodeArgs(t,
		`{"question":"Which checks?","options":[{"label":"lint","description":"fast"},"unit","e2e"],"defaults":["e2e"]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []string{"2025-06-18", "2025-11-25", ""} {
		_, schema, _ := elicitationFormAt(q, rev)
		formTypesAt(t, schema, rev)
	}

	_, schema, fields := elicitationFormAt(q, "2025-06-18")
	props := schema["properties"].(map[string]any)
	for key, want := range map[string]string{"answer_1": "lint", "answer_2": "unit", "answer_3": "e2e"} {
		p, _ := props[key].(map[string]any)
		if p["type"] != "boolean" || p["title"] != want || p["default"] != (want == "e2e") {
			t.Errorf("%s = %v, want the boolean of %q", key, p, want)
		}
	}
	first, _ := props["answer_1"].(map[string]any)
	if d, _ := first["description"].(string); strings.Contains(d, "Which checks?") || !strings.Contains(d, "fast") || !strings.Contains(d, "Choose any number") {
		t.Errorf("the first checkbox's note: %q; want how to choose and its description, not the question again (the message has it)", d)
	}
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept,
		Content: map[string]any{"answer_3": true, "answer_2": false, "answer_1": true}}}
	a := formAnswer(q, fields, res, 5)
	if got := a.Replies[0].Selected; !reflect.DeepEqual(got, []string{"lint", "e2e"}) {
		t.Errorf("selected %q, want lint and e2e in option order", got)
	}
	if r := renderChoice(a, c).StructuredContent.(choiceResult); r.Status != statusAnswered || !reflect.DeepEqual(r.Selected, []string{"lint", "e2e"}) {
		t.Errorf("result = %+v", r)
	}

	// ask_user_question: several prompts, one of them multi-select.
	q, _, err = normalizeAskUserQuestion(decodeArgs(t, `{"questions":[
		{"question":"Which?","header":"Pick","multiSelect":true,"options":[{"label":"Red","description":"r"},{"label":"Blue","description":"b"}]},
		{"question":"Size?","header":"Size","options":[{"label":"S","description":"s"},{"label":"L","description":"l"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, schema, fields = elicitationFormAt(q, "2025-06-18")
	formTypesAt(t, schema, "2025-06-18")
	props = schema["properties"].(map[string]any)
	if p, _ := props["q1_2"].(map[string]any); p["title"] != "Blue" {
		t.Errorf("no checkbox q1_2 for Blue: %v", props)
	}
	first, _ = props["q1_1"].(map[string]any)
	if d, _ := first["description"].(string); !strings.HasPrefix(d, "Pick\n\nWhich?") {
		t.Errorf("the first checkbox does not carry the header and the question: %q", d)
	}
	res = &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept,
		Content: map[string]any{"q1_1": false, "q1_2": true, "q2": "L"}}}
	a = formAnswer(q, fields, res, 5)
	if !reflect.DeepEqual(a.Replies[0].Selected, []string{"Blue"}) || !reflect.DeepEqual(a.Replies[1].Selected, []string{"L"}) {
		t.Errorf("replies = %+v", a.Replies)
	}
}
