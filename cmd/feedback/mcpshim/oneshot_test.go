package mcpshim

import (
	"testing"

	"feedback/internal/settings"
	"feedback/ipc/wire"
)

// Every ask of a question with a stable id carries the question's key and
// the session (wire.Ask.Key, Session): the key is the same for the
// identical question from another session of the same client (a one-shot
// client's next call) and differs for another client; the id differs by
// session.
func TestAsksCarryTheirKeyAndSession(t *testing.T) {
	app := newFakeInbox()
	app.auto = func(q wire.Question) wire.Answer {
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "ok"}}}
	}
	opts := func(session string) Options {
		return Options{Connect: connectTo(app), Settings: settings.Default(), Session: session}
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"interactive_feedback", map[string]any{"message": "Which port?"}},
		{askTextName, map[string]any{"question": "Which port?"}},
		{"ask_choice", map[string]any{"question": "Which port?", "options": []any{"80", "8080"}}},
		{userInteractName, map[string]any{"type": "question", "question": "Which port?"}},
	} {
		asked := func(session, client string) wire.Ask {
			t.Helper()
			c, _ := startShimAt(t, opts(session), testProtocolVersion, client)
			res := callNamed(t, c, tc.tool, tc.args)
			select {
			case q := <-app.asked:
				return app.askOf(q.ID)
			default:
				t.Fatalf("%s asked nothing: %q", tc.tool, resultText(t, res))
				return wire.Ask{}
			}
		}
		first, next, other := asked("100@7", "oneshot"), asked("200@8", "oneshot"), asked("300@9", "another-client")
		if first.Key == "" || first.Key != next.Key || first.Session != "100@7" || next.Session != "200@8" {
			t.Errorf("%s: keys %q, %q (sessions %q, %q): want the same key across sessions", tc.tool, first.Key, next.Key, first.Session, next.Session)
		}
		if first.Question.ID == next.Question.ID {
			t.Errorf("%s: two sessions asked with one id", tc.tool)
		}
		if other.Key == first.Key {
			t.Errorf("%s: another client's question has the same key", tc.tool)
		}
	}
}

// The key names the project: the same question in another project (as
// the dialect sets it, or the client's roots after) has another key, and
// a question whose id is not this session's stable id has none.
func TestQuestionKey(t *testing.T) {
	q := wire.Question{Source: "ask_text", Prompts: []wire.Prompt{{Markdown: "Which port?"}}}
	q.ID = stableQuestionID("ask_text", "c", "1@1", q)
	inA, inB := q, q
	inA.Project, inB.Project = "alpha", "beta" // set after the id, from the roots
	ka, kb := questionKey("ask_text", "c", "1@1", inA), questionKey("ask_text", "c", "1@1", inB)
	if ka == "" || kb == "" || ka == kb {
		t.Errorf("keys in two projects: %q, %q", ka, kb)
	}
	dialect := q
	dialect.Project = "alpha" // set by the dialect, before the id
	dialect.ID = stableQuestionID("ask_text", "c", "2@2", dialect)
	if k := questionKey("ask_text", "c", "2@2", dialect); k != ka {
		t.Errorf("the same question and project from another session: key %q, want %q", k, ka)
	}
	if k := questionKey("ask_text", "c", "3@3", inA); k != "" {
		t.Errorf("an id that is not this session's: key %q", k)
	}
	random := inA
	random.ID = wire.NewID()
	if k := questionKey("ask_text", "c", "1@1", random); k != "" {
		t.Errorf("a random id: key %q", k)
	}
}
