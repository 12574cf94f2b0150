package mcpshim

import (
	"context"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// Every dialect tells the agent what to do after a timeout (but ask_human,
// whose seed words its "expired") and while the user is away in the table's
// words, as a result (never an isError that invites a retry loop); a
// snoozed question's "call again" result says until when, and that it is
// no answer.
func TestNextStepsAreTheTable(t *testing.T) {
	timeout := wire.Answer{Status: wire.StatusTimeout}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"interactive_feedback", map[string]any{"message": "Ship?"}},
		{"ask_user_question", map[string]any{"questions": []any{map[string]any{"question": "Ship?", "header": "Ship", "options": []any{map[string]any{"label": "Yes", "description": "y"}, map[string]any{"label": "No", "description": "n"}}, "multiSelect": false}}}},
		{"user_interact", map[string]any{"question": "Ship?"}},
		{"ask_choice", map[string]any{"question": "Ship?", "options": []any{"Yes", "No"}}},
		{"ask_confirm", map[string]any{"question": "Ship?"}},
		{"ask_human", humanArgs(t, nil)},
	} {
		for _, kind := range []outcomeKind{kindTimeout, kindAway} {
			if kind == kindTimeout && tc.tool == "ask_human" {
				continue // seed 002's own "expired" words (ask_human.go)
			}
			t.Run(tc.tool, func(t *testing.T) {
				app := newFakeInbox()
				app.auto = func(wire.Question) wire.Answer {
					if kind == kindAway {
						return wire.Answer{Status: wire.StatusAway}
					}
					return timeout
				}
				c := startShim(t, Options{Connect: connectTo(app)})
				res, err := callCtx(context.Background(), c, tc.tool, tc.args)
				if err != nil {
					t.Fatal(err)
				}
				want := nextStep(kind, tc.tool, nil, time.Time{})
				if res.IsError || !strings.Contains(strings.ReplaceAll(allText(res), `\"`, `"`), want) {
					t.Errorf("isError %v, result %s\nwant it to say %q", res.IsError, allText(res), want)
				}
				if sc, ok := res.StructuredContent.(map[string]any); kind == kindAway && ok && tc.tool != "user_interact" && sc["away"] != true {
					t.Errorf("structured content %v lacks away: true", sc)
				}
			})
		}
	}

	until := time.Now().Add(10 * time.Minute)
	for _, s := range []wire.Snooze{{Until: until}, {UntilBack: true}} {
		snoozed := askFunc(func(context.Context, wire.Question, func(wire.Event)) (wire.Answer, error) {
			return wire.Answer{Snooze: &s}, wire.ErrPending
		})
		c := startShim(t, Options{Connect: connectTo(snoozed)})
		res, err := callCtx(context.Background(), c, "interactive_feedback", map[string]any{"message": "Ship?"})
		if err != nil {
			t.Fatal(err)
		}
		last := res.Content[len(res.Content)-1].(mcp.TextContent).Text
		if res.IsError || last != nextStep(snoozeKind(&s), "interactive_feedback", &s, time.Now()) {
			t.Errorf("snoozed %+v: isError %v, last block %q", s, res.IsError, last)
		}
		if !s.UntilBack && !strings.Contains(last, until.UTC().Format("15:04 UTC")) || !strings.Contains(last, "not answered") {
			t.Errorf("snoozed %+v: %q", s, last)
		}
	}
}

func TestRoughly(t *testing.T) {
	for d, want := range map[time.Duration]string{30 * time.Second: "30 s", 10 * time.Minute: "10 min", time.Hour: "1 h", 125 * time.Minute: "2 h 5 min", -time.Second: "0 s"} {
		if got := roughly(d); got != want {
			t.Errorf("roughly(%v) = %q, want %q", d, got, want)
		}
	}
}
