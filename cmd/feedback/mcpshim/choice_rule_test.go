package mcpshim

import (
	"testing"

	"feedback/ipc/wire"
)

// Every member of the ask_choice family carries what it refuses in the
// question (wire.Prompt's MinSelected, MaxSelected, Required), so the
// window can hold back a reply the agent would not get; and the shim
// refuses exactly the replies wire.CheckReply finds fault with: one rule
// for both sides.
func TestChoiceQuestionsCarryTheirRule(t *testing.T) {
	for _, tc := range []struct {
		name, tool, args string
		min, max         int
		required         bool
	}{
		{"multi, min and max", askMultiSelectName, `{"question":"Which?","options":["A","B","C"],"max":2}`, 1, 2, false},
		{"multi, min 0", askMultiSelectName, `{"question":"Which?","options":["A","B","C"],"min":0,"max":2}`, 0, 2, false},
		{"multi with free text", askMultiSelectName, `{"question":"Which?","options":["A","B","C"],"min":2,"allow_free_text":true}`, 2, 0, false},
		{"text", askTextName, `{"question":"What should the new branch be called?"}`, 0, 0, true},
		{"text with a default", askTextName, `{"question":"Name?","default":"main"}`, 0, 0, true},
		{"choice", askChoiceName, `{"question":"Which DB?","options":["Postgres","SQLite"]}`, 0, 0, true},
		{"choice with free text", askChoiceName, `{"question":"Which DB?","options":["Postgres","SQLite"],"allow_free_text":true}`, 0, 0, true},
		{"confirm", askConfirmName, `{"question":"Deploy?"}`, 0, 0, true},
		{"confirm with a default", askConfirmName, `{"question":"Deploy?","default":true}`, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, c, err := normalizeChoice(tc.tool, decodeArgs(t, tc.args))
			if err != nil {
				t.Fatal(err)
			}
			if err := q.Validate(); err != nil {
				t.Fatal(err)
			}
			p := q.Prompts[0]
			if p.MinSelected != tc.min || p.MaxSelected != tc.max || p.Required != tc.required {
				t.Errorf("prompt's rule: min %d, max %d, required %v; want %d, %d, %v", p.MinSelected, p.MaxSelected, p.Required, tc.min, tc.max, tc.required)
			}
			for _, r := range []wire.Reply{{}, {Text: "  "}, {Text: "mine"}, {Text: "yes"}, {Selected: []string{"A"}},
				{Selected: []string{"A", "B"}}, {Selected: []string{"A", "B", "C"}}, {Selected: []string{"SQLite"}, Text: "note"}} {
				res := renderChoice(wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{r}}, c)
				status := res.StructuredContent.(choiceResult).Status
				refused := status == statusInvalidResponse || status == statusDeclined
				if prob := wire.CheckReply(p, r); refused != (prob != nil) {
					t.Errorf("reply %+v: the shim says %s, CheckReply %+v", r, status, prob)
				}
			}
		})
	}
}

// ask_human declines a submission without a choice: its question says a
// choice is required.
func TestAskHumanRequiresAChoice(t *testing.T) {
	q, _, err := normalizeAskHuman(humanArgs(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	if p := q.Prompts[0]; !p.Required || wire.CheckReply(p, wire.Reply{}) == nil || wire.CheckReply(p, wire.Reply{Selected: []string{"Hold"}}) != nil {
		t.Errorf("ask_human's prompt = %+v", p)
	}
}
