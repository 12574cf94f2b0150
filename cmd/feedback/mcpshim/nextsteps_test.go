package mcpshim

import (
	"context"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
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
		text := allText(res)
		if res.IsError || !strings.Contains(text, nextStep(snoozeKind(&s), "interactive_feedback", &s, time.Now())) {
			t.Errorf("snoozed %+v: isError %v, result %q", s, res.IsError, text)
		}
		if !s.UntilBack && !strings.Contains(text, until.UTC().Format("15:04 UTC")) || !strings.Contains(text, "not answered") {
			t.Errorf("snoozed %+v: %q", s, text)
		}
	}
}

// Issue 30: a snoozed question's result gives the agent one instruction —
// the snooze's "call again after …" — never also "call again now", in
// every dialect; and a "call again" result says how long the call waited
// (elapsed_ms), not 0.
func TestSnoozedResultOneInstruction(t *testing.T) {
	s := wire.Snooze{Until: time.Now().Add(17 * time.Minute)}
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
		for _, snooze := range []*wire.Snooze{&s, nil} {
			t.Run(tc.tool, func(t *testing.T) {
				app := askFunc(func(ctx context.Context, _ wire.Question, _ func(wire.Event)) (wire.Answer, error) {
					<-time.After(30 * time.Millisecond) // the call waits a little: its elapsed_ms is not 0
					return wire.Answer{Snooze: snooze}, wire.ErrPending
				})
				c := startShim(t, Options{Connect: connectTo(app)})
				res, err := callCtx(context.Background(), c, tc.tool, tc.args)
				if err != nil {
					t.Fatal(err)
				}
				text := strings.ReplaceAll(allText(res), `\"`, `"`)
				if snooze != nil {
					for _, now := range []string{"keep waiting", "again now", "arguments now", "questions now", "stays open"} {
						if strings.Contains(text, now) {
							t.Errorf("a snoozed result says %q besides the snooze's instruction: %s", now, text)
						}
					}
					if !strings.Contains(text, s.Until.UTC().Format("15:04 UTC")) {
						t.Errorf("the snoozed result does not say until when: %s", text)
					}
				}
				if sc, ok := res.StructuredContent.(map[string]any); ok && tc.tool != "ask_human" && tc.tool != "user_interact" {
					if ms, _ := sc["elapsed_ms"].(float64); ms < 30 {
						t.Errorf("elapsed_ms = %v after a wait of 30 ms", sc["elapsed_ms"])
					}
				}
			})
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

// Issue 30: the away outcome of the choice family says no channel showed
// it (via "none"): no window was shown.
func TestAwayResultViaNone(t *testing.T) {
	app := newFakeInbox()
	app.auto = func(wire.Question) wire.Answer { return wire.Answer{Status: wire.StatusAway} }
	c := startShim(t, Options{Connect: connectTo(app)})
	res, err := callCtx(context.Background(), c, "ask_confirm", map[string]any{"question": "Ship?"})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if sc["status"] != "away" || sc["via"] != "none" {
		t.Errorf("away result: status %v, via %v; want away, none", sc["status"], sc["via"])
	}
}
