package mcpshim

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// The client's form shows what the window shows: an option's description
// under the question (a form's enum shows labels only), and ask_text's
// default prefilled; submitted unchanged, the default is the answer.
func TestElicitationFormDescriptionsAndPrefill(t *testing.T) {
	q, _, err := normalizeChoice(askChoiceName, decodeArgs(t,
		`{"question":"Which DB?","options":[{"label":"Postgres","description":"a server"},"SQLite",{"text":"DuckDB","description":"columns"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, schema, _ := elicitationForm(q)
	data, _ := json.Marshal(schema)
	want := `{"properties":{"answer":{"description":"Which DB?\n\nOptions:\n- Postgres: a server\n- DuckDB: columns","enum":["Postgres","SQLite","DuckDB"],"title":"Which DB?","type":"string"}},"required":["answer"],"type":"object"}`
	if string(data) != want {
		t.Errorf("schema:\n%s\nwant\n%s", data, want)
	}

	q, c, err := normalizeChoice(askTextName, decodeArgs(t, `{"question":"Name?","default":"fbk"}`))
	if err != nil {
		t.Fatal(err)
	}
	_, schema, fields := elicitationForm(q)
	data, _ = json.Marshal(schema)
	want = `{"properties":{"answer":{"default":"fbk","description":"Name?","title":"Name?","type":"string"}},"type":"object"}`
	if string(data) != want {
		t.Errorf("schema:\n%s\nwant\n%s", data, want)
	}
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"answer": "fbk"}}}
	r := renderChoice(formAnswer(q, fields, res, 5), c).StructuredContent.(choiceResult)
	if r.Status != statusAnswered || r.Answer != "fbk" {
		t.Errorf("result = %+v", r)
	}
}
