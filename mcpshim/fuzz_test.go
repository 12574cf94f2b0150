package mcpshim

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"feedback/ipc"
)

// FuzzNormalizeInteractiveFeedback feeds arbitrary JSON objects to the
// normaliser: it must never panic, fail only with an *ArgError, and produce
// a Question that passes Validate and renders for every status.
func FuzzNormalizeInteractiveFeedback(f *testing.F) {
	for _, seed := range []string{
		`{"message":"m"}`,
		`{}`,
		`{"summary":"s","prompt":"p","message":" "}`,
		`{"message":"m","predefined_options":["A",{"label":"B","default":true},{"text":"C","selected":true},{"value":"D","checked":true},1,null,{}]}`,
		`{"message":"m","options":["A","A"," A ",""]}`,
		`{"message":"m","question_type":"yesno","header_label":"Authentication!!","feedback_placeholder":"p"}`,
		`{"message":"m","loop_id":"l","loop_phase":"p","loop_objective":"o","iteration_label":"i","success_criteria":"s"}`,
		`{"message":"m","timeout":1,"timeout_seconds":"2","tags":[1],"task_id":{},"user_id":null}`,
		`{"message":5}`,
		`{"prompt":"\u00e9\ud83d\ude00","predefined_options":{"a":1}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var args map[string]any
		if json.Unmarshal(data, &args) != nil {
			return
		}
		q, m, err := normalizeInteractiveFeedback(args)
		if err != nil {
			var ae *ArgError
			if !errors.As(err, &ae) || ae.Field == "" || ae.Rule == "" {
				t.Fatalf("error %v (%T) is not a complete *ArgError", err, err)
			}
			return
		}
		if err := q.Validate(); err != nil {
			t.Fatalf("Validate: %v\nargs: %s", err, data)
		}
		p := q.Prompts[0]
		if utf8.RuneCountInString(p.Header) > maxHeaderRunes || utf8.RuneCountInString(p.Placeholder) > maxPlaceholderRunes {
			t.Fatalf("a clamp was not applied: %+v", p)
		}
		for _, o := range p.Options {
			if !utf8.ValidString(o.Label) || utf8.RuneCountInString(o.Label) > maxOptionRunes {
				t.Fatalf("option label %q is not clamped valid UTF-8", o.Label)
			}
		}
		var labels []string
		for _, o := range p.Options {
			labels = append(labels, o.Label)
		}
		for _, s := range []ipc.Status{ipc.StatusAnswered, ipc.StatusDismissed, ipc.StatusTimeout, "other"} {
			res := renderInteractiveFeedback(ipc.Answer{QuestionID: q.ID, Status: s, Replies: []ipc.Reply{{Selected: labels, Text: p.Markdown}}}, m)
			if len(res.Content) != 1 {
				t.Fatalf("status %s rendered %d blocks", s, len(res.Content))
			}
		}
	})
}
