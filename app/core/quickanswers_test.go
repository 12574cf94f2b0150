package core

import (
	"reflect"
	"strings"
	"testing"

	"feedback/ipc/wire"
)

func TestQuickAnswers(t *testing.T) {
	opts := func(labels ...string) []wire.Option {
		var o []wire.Option
		for _, l := range labels {
			o = append(o, wire.Option{Label: l})
		}
		return o
	}
	one := func(p wire.Prompt) wire.Question { return wire.Question{Prompts: []wire.Prompt{p}} }
	yesNo := []QuickAnswer{{"Yes", wire.Reply{Text: "yes"}}, {"No", wire.Reply{Text: "no"}}}
	recNo := one(wire.Prompt{Kind: wire.KindYesNo})
	recNo.Context = []wire.Field{{Label: "Recommended", Value: "No"}}
	withDefault := opts("Ship", "Wait", "Cancel")
	withDefault[2].Default = true
	withOther := append(opts("A", "B"), wire.Option{Label: "Other", FreeText: true})
	// An approval as package approval makes it: Allow (and Always allow
	// when a rule can be built) allow the call, Deny does not.
	approval := func(always bool) wire.Question {
		o := []wire.Option{{Label: "Allow", Allows: true}}
		if always {
			o = append(o, wire.Option{Label: "Always", Allows: true})
		}
		q := one(wire.Prompt{Single: true, Options: append(o, wire.Option{Label: "Deny"})})
		q.Source = wire.SourceApproval
		return q
	}
	deny := []QuickAnswer{{"Deny", wire.Reply{Selected: []string{"Deny"}}}}
	allowsBeside := opts("Ship", "Wait")
	allowsBeside = append(allowsBeside, wire.Option{Label: "Run it", Allows: true, Default: true})
	approvalYesNo := one(wire.Prompt{Kind: wire.KindYesNo})
	approvalYesNo.Source = wire.SourceApproval
	for _, tc := range []struct {
		name string
		q    wire.Question
		want []QuickAnswer
	}{
		{"yes/no", one(wire.Prompt{Kind: wire.KindYesNo}), yesNo},
		{"yes/no recommending no", recNo, []QuickAnswer{yesNo[1], yesNo[0]}},
		{"single choice, the recommended first", one(wire.Prompt{Kind: wire.KindChoice, Single: true, Options: withDefault}),
			[]QuickAnswer{{"Cancel", wire.Reply{Selected: []string{"Cancel"}}}, {"Ship", wire.Reply{Selected: []string{"Ship"}}}, {"Wait", wire.Reply{Selected: []string{"Wait"}}}}},
		{"single choice beside an optional reply box", one(wire.Prompt{Single: true, Options: opts("A", "B")}),
			[]QuickAnswer{{"A", wire.Reply{Selected: []string{"A"}}}, {"B", wire.Reply{Selected: []string{"B"}}}}},
		{"Other is left to the window", one(wire.Prompt{Kind: wire.KindChoice, Single: true, Options: withOther}),
			[]QuickAnswer{{"A", wire.Reply{Selected: []string{"A"}}}, {"B", wire.Reply{Selected: []string{"B"}}}}},
		{"multi-select", one(wire.Prompt{Kind: wire.KindChoice, Options: opts("A", "B")}), nil},
		{"four options", one(wire.Prompt{Kind: wire.KindChoice, Single: true, Options: opts("A", "B", "C", "D")}), nil},
		{"one option", one(wire.Prompt{Kind: wire.KindChoice, Single: true, Options: append(opts("A"), wire.Option{Label: "Other", FreeText: true})}), nil},
		{"a long option", one(wire.Prompt{Kind: wire.KindChoice, Single: true, Options: opts("A", strings.Repeat("b", 25))}), nil},
		{"a reply box with a suggested answer", one(wire.Prompt{Single: true, Prefill: "draft", Options: opts("A", "B")}), nil},
		{"text only", one(wire.Prompt{}), nil},
		{"two prompts", wire.Question{Prompts: []wire.Prompt{{Kind: wire.KindYesNo}, {Kind: wire.KindYesNo}}}, nil},
		// Issue 29: a notification never allows a tool call.
		{"an approval offers Deny, never Allow", approval(false), deny},
		{"an approval with Always allow offers Deny", approval(true), deny},
		{"an option that allows is left to the window, even recommended", one(wire.Prompt{Kind: wire.KindChoice, Single: true, Options: allowsBeside}),
			[]QuickAnswer{{"Ship", wire.Reply{Selected: []string{"Ship"}}}, {"Wait", wire.Reply{Selected: []string{"Wait"}}}}},
		{"an approval asked as yes/no", approvalYesNo, nil},
	} {
		if got := QuickAnswers(tc.q); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// A notification takes an inline reply for a plain reply box only: never
// for an approval (its box is the reason beside a decision taken in the
// window), nor beside an option that allows a tool call.
func TestTakesInlineReply(t *testing.T) {
	one := func(p wire.Prompt) wire.Question { return wire.Question{Prompts: []wire.Prompt{p}} }
	approval := one(wire.Prompt{Single: true, Options: []wire.Option{{Label: "Allow", Allows: true}, {Label: "Deny"}}})
	approval.Source = wire.SourceApproval
	for _, tc := range []struct {
		name string
		q    wire.Question
		want bool
	}{
		{"a reply box", one(wire.Prompt{}), true},
		{"a reply box beside options", one(wire.Prompt{Single: true, Options: []wire.Option{{Label: "A"}, {Label: "B"}}}), true},
		{"a prefilled reply box", one(wire.Prompt{Prefill: "draft"}), false},
		{"a yes/no", one(wire.Prompt{Kind: wire.KindYesNo}), false},
		{"an approval", approval, false},
		{"an approval with no options", wire.Question{Source: wire.SourceApproval, Prompts: []wire.Prompt{{}}}, false},
		{"beside an option that allows", one(wire.Prompt{Options: []wire.Option{{Label: "Run", Allows: true}, {Label: "Skip"}}}), false},
	} {
		if got := TakesInlineReply(tc.q); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A notification never offers an answer its caller would refuse
// (wire.CheckReply): one click picks one option, which a prompt that asks
// for at least two cannot take.
func TestQuickAnswersKeepThePromptsRule(t *testing.T) {
	p := wire.Prompt{Kind: wire.KindChoice, Single: true, Markdown: "?", Options: []wire.Option{{Label: "A"}, {Label: "B"}}, MinSelected: 2}
	if got := QuickAnswers(wire.Question{Prompts: []wire.Prompt{p}}); got != nil {
		t.Errorf("a prompt asking for two options: the notification offers %+v", got)
	}
	p.MinSelected, p.Required = 0, true
	if got := QuickAnswers(wire.Question{Prompts: []wire.Prompt{p}}); len(got) != 2 {
		t.Errorf("a required single choice: %+v, want both options", got)
	}
}
