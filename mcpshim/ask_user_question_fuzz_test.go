package mcpshim

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"feedback/ipc"
	"feedback/settings"
)

// FuzzNormalizeAskUserQuestion feeds arbitrary JSON objects to the
// normaliser: it must never panic, fail only with a complete *ArgError, and
// produce a Question that passes Validate, keeps every limit, and renders
// for every status in every language.
func FuzzNormalizeAskUserQuestion(f *testing.F) {
	for _, seed := range []string{
		seedOrganize, seedDelete, seedSend, seedNoHeader,
		`{}`,
		`{"questions":[]}`,
		`{"questions":[{"question":"Q"},{"question":"R","options":[]},{"question":"S","multiSelect":true,"options":[{"label":"Other"},{"label":"A"}]},{"question":"T","header":"123456789012"}]}`,
		`{"questions":[{"question":"Q","options":[{"label":"其他","description":"d"},{"label":"OTHER "}]}]}`,
		`{"questions":[{"question":"Q","options":[{"label":"A"},{"label":"A"}]}]}`,
		`{"questions":[{"question":"Q","header":"1234567890123"}]}`,
		`{"questions":[{"question":1,"options":"x","multiSelect":"no"}]}`,
		`{"questions":["Q",null,{}]}`,
		`{"questions":{"question":"Q"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var args map[string]any
		if json.Unmarshal(data, &args) != nil {
			return
		}
		q, qs, err := normalizeAskUserQuestion(args)
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
		if len(qs) != len(q.Prompts) || len(qs) < 1 || len(qs) > maxAUQQuestions {
			t.Fatalf("%d questions, %d prompts", len(qs), len(q.Prompts))
		}
		replies := make([]ipc.Reply, len(q.Prompts))
		for i, p := range q.Prompts {
			if utf8.RuneCountInString(p.Header) > maxAUQHeader || len(p.Options) > maxAUQOptions {
				t.Fatalf("a limit was not kept: %+v", p)
			}
			for _, o := range p.Options {
				replies[i].Selected = append(replies[i].Selected, o.Label)
				if o.FreeText != isOtherLabel(o.Label) {
					t.Fatalf("option %+v: FreeText is wrong", o)
				}
			}
			replies[i].Text = p.Markdown
		}
		for _, lang := range []string{settings.English, settings.SimplifiedChinese, settings.TraditionalChinese} {
			for _, s := range []ipc.Status{ipc.StatusAnswered, ipc.StatusDismissed, ipc.StatusTimeout, "other"} {
				res := renderAskUserQuestion(ipc.Answer{QuestionID: q.ID, Status: s, Replies: replies}, qs, phrasesFor(lang))
				if len(res.Content) != 1 || (s != "other" && res.StructuredContent == nil) {
					t.Fatalf("status %s rendered %+v", s, res)
				}
			}
		}
	})
}
