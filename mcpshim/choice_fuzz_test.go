package mcpshim

import (
	"encoding/json"
	"errors"
	"testing"

	"feedback/ipc"
)

// FuzzNormalizeChoice feeds arbitrary JSON objects to the normaliser of each
// of the four tools of the family (the first byte picks the tool): it must
// never panic, fail only with a complete *ArgError, and produce a Question
// that passes Validate and renders, for every status and a failure, a
// result with structuredContent.
func FuzzNormalizeChoice(f *testing.F) {
	for _, seed := range []string{
		`{"question":"Which DB?","options":["Postgres","SQLite"],"default":"SQLite","allow_free_text":true,"timeout_ms":1500}`,
		`{"question":"Deploy?","default":true,"timeout_ms":86400000}`,
		`{"question":"Name?","placeholder":"e.g. x"}`,
		`{"question":"Which?","options":["A","B","C"],"defaults":["A","C"]}`,
		`{}`,
		`{"question":"Q","options":["A"]}`,
		`{"question":"Q","options":["A","A"]}`,
		`{"question":"Q","options":["A","B"],"default":"C","defaults":["Z"]}`,
		`{"question":"Q","options":[1,null,{}],"timeout_ms":1.5}`,
		`{"question":" ","timeout_ms":-1,"default":"yes"}`,
		`{"question":"Q","options":"A,B","allow_free_text":"true","placeholder":3}`,
	} {
		for tool := range 4 {
			f.Add(byte(tool), []byte(seed))
		}
	}
	tools := []string{askChoiceName, askConfirmName, askTextName, askMultiSelectName}
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		var args map[string]any
		if json.Unmarshal(data, &args) != nil {
			return
		}
		tool := tools[int(which)%len(tools)]
		q, c, err := normalizeChoice(tool, args)
		if err != nil {
			var ae *ArgError
			if !errors.As(err, &ae) || ae.Field == "" || ae.Rule == "" {
				t.Fatalf("error %v (%T) is not a complete *ArgError", err, err)
			}
			return
		}
		if err := q.Validate(); err != nil {
			t.Fatalf("%s: Validate: %v\nargs: %s", tool, err, data)
		}
		p := q.Prompts[0]
		if q.TimeoutSeconds < 0 || q.TimeoutSeconds > maxTimeoutMS/1000 || q.Source != tool {
			t.Fatalf("question = %+v", q)
		}
		if (c.kind == kindPick || c.kind == kindMulti) && (len(p.Options) < minChoiceOptions || len(p.Options) > maxChoiceOptions) {
			t.Fatalf("%d options", len(p.Options))
		}
		var labels []string
		for _, o := range p.Options {
			labels = append(labels, o.Label)
		}
		for _, r := range []ipc.Reply{{}, {Selected: labels, Text: p.Markdown}, {Text: "yes"}, {Text: "no"}} {
			for _, s := range []ipc.Status{ipc.StatusAnswered, ipc.StatusDismissed, ipc.StatusTimeout, "other"} {
				res := renderChoice(ipc.Answer{QuestionID: q.ID, Status: s, Replies: []ipc.Reply{r}}, c)
				if res.IsError || len(res.Content) != 1 || res.StructuredContent == nil {
					t.Fatalf("status %s rendered %+v", s, res)
				}
			}
		}
		if res := failChoice(errors.New("x"), c); res.IsError || res.StructuredContent == nil {
			t.Fatalf("failure rendered %+v", res)
		}
	})
}
