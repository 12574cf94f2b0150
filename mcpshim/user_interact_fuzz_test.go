package mcpshim

import (
	"encoding/json"
	"testing"

	"feedback/ipc"
)

// FuzzNormalizeUserInteract feeds arbitrary JSON objects to the
// user_interact normaliser: it must never panic, and either ask a valid
// Question or return a result in the envelope shape.
func FuzzNormalizeUserInteract(f *testing.F) {
	for _, seed := range []string{
		`{"question":"q"}`,
		`{}`,
		`{"question":"q","answer":"a"}`,
		`{"answer":""}`,
		`{"question":" ","answer":null}`,
		`{"question":5,"answer":[1]}`,
		`{"question":"\u00e9\ud83d\ude00 **x**"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var args map[string]any
		if json.Unmarshal(data, &args) != nil {
			return
		}
		q, res := normalizeUserInteract(args)
		if res == nil {
			if err := q.Validate(); err != nil {
				t.Fatalf("Validate: %v\nargs: %s", err, data)
			}
			res = renderUserInteract(ipc.Answer{Status: ipc.StatusAnswered, Replies: []ipc.Reply{{Text: q.Prompts[0].Markdown}}})
		}
		if len(res.Content) != 1 {
			t.Fatalf("%d blocks", len(res.Content))
		}
		var env interactResult
		if err := json.Unmarshal([]byte(resultText(t, res)), &env); err != nil {
			t.Fatalf("text is not the envelope: %v", err)
		}
		switch {
		case env.Outcome == outcomeSucceeded && env.Error == nil && !res.IsError:
		case env.Outcome == outcomeFailed && env.Error != nil && env.Error.Category == categoryValidation && res.IsError:
		default:
			t.Fatalf("envelope %+v, isError %v", env, res.IsError)
		}
	})
}
