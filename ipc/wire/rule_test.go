package wire

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestCheckReply(t *testing.T) {
	opts := []Option{{Label: "a"}, {Label: "b"}, {Label: "c"}}
	for _, tc := range []struct {
		name string
		p    Prompt
		r    Reply
		want *ReplyProblem
	}{
		{"no rule takes nothing", Prompt{Options: opts}, Reply{}, nil},
		{"over the maximum", Prompt{Options: opts, MaxSelected: 2}, Reply{Selected: []string{"a", "b", "c"}}, &ReplyProblem{Kind: ProblemTooMany, Bound: 2, Selected: 3}},
		{"at the maximum", Prompt{Options: opts, MaxSelected: 2}, Reply{Selected: []string{"a", "b"}}, nil},
		{"under the minimum", Prompt{Options: opts, MinSelected: 2}, Reply{Selected: []string{"a"}}, &ReplyProblem{Kind: ProblemTooFew, Bound: 2, Selected: 1}},
		{"text never stands for an option", Prompt{Options: opts, MinSelected: 1}, Reply{Text: "my own"}, &ReplyProblem{Kind: ProblemTooFew, Bound: 1}},
		{"required, blank text", Prompt{Required: true}, Reply{Text: " \n\t"}, &ReplyProblem{Kind: ProblemNoAnswer}},
		{"required, text", Prompt{Required: true}, Reply{Text: "feature/x"}, nil},
		{"required, an option", Prompt{Options: opts, Single: true, Required: true}, Reply{Selected: []string{"b"}}, nil},
		{"required yes/no", Prompt{Kind: KindYesNo, Required: true}, Reply{}, &ReplyProblem{Kind: ProblemNoAnswer}},
		{"required yes/no answered", Prompt{Kind: KindYesNo, Required: true}, Reply{Text: "no"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckReply(tc.p, tc.r)
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("CheckReply = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// The rule travels with the prompt, and a rule its options cannot meet is
// refused by field.
func TestPromptRuleOnTheWire(t *testing.T) {
	q := Question{ID: "q", Prompts: []Prompt{{Markdown: "?", Options: []Option{{Label: "a"}, {Label: "b"}, {Label: "c"}}, MinSelected: 1, MaxSelected: 2, Required: true}}}
	data, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"min_selected":1,"max_selected":2,"required":true`) {
		t.Errorf("encoded %s", data)
	}
	var back Question
	if err := json.Unmarshal(data, &back); err != nil || back.Prompts[0].MinSelected != 1 || back.Prompts[0].MaxSelected != 2 || !back.Prompts[0].Required {
		t.Errorf("decoded %+v, %v", back, err)
	}
	if err := back.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	for _, tc := range []struct{ min, max int }{{-1, 0}, {0, 4}, {4, 0}, {3, 2}} {
		bad := back
		bad.Prompts = []Prompt{back.Prompts[0]}
		bad.Prompts[0].MinSelected, bad.Prompts[0].MaxSelected = tc.min, tc.max
		if err := bad.Validate(); !errors.Is(err, &Error{Code: CodeInvalid}) || !strings.Contains(err.Error(), "_selected") {
			t.Errorf("min %d, max %d: %v", tc.min, tc.max, err)
		}
	}
}
