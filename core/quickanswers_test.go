package core

import (
	"reflect"
	"strings"
	"testing"

	"feedback/wire"
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
	} {
		if got := QuickAnswers(tc.q); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
