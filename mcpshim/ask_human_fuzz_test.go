package mcpshim

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
	"unicode/utf8"

	"feedback/ipc"
)

// FuzzNormalizeAskHuman feeds arbitrary JSON objects to the ask_human and
// ask_human_result normalisers: they must never panic, fail only with a
// complete *ArgError, and produce a Question that passes Validate and whose
// outcomes all render.
func FuzzNormalizeAskHuman(f *testing.F) {
	for _, seed := range []string{
		`{"agent_name":"a","title":"t","choices":[{"id":"1","label":"A"},{"id":"2","label":"B"}]}`,
		`{}`,
		`{"agent_name":"a","title":"t","choices":[{"id":"1","label":"A"},{"id":"1","label":"A"}]}`,
		`{"agent_name":"a","title":"t","choices":[{"id":"1","label":"A"},{"id":"2","label":"B"},{"id":"3","label":"C"},{"id":"4","label":"D"},{"id":"5","label":"E"}]}`,
		`{"agent_name":"a","title":"t","content":"<p>x &amp; <script>y</script></p>","content_type":"html","choices":[{"id":"1","label":"A"},{"id":"2","label":"B"}],"recommended_option":"2"}`,
		`{"agent_name":"a","title":"t","content":"data:image/png;base64,AAAA","content_type":"image","choices":[{"id":"1","label":"A"},{"id":"2","label":"B"}]}`,
		`{"agent_name":"a","title":"t","content":"# x\n\n    y","choices":[{"id":"1","label":"A"},{"id":"2","label":"B"}],"confidence":0.5,"timeout_seconds":86400,"callback_url":"https://e.com","metadata":{"a":[1]},"run_id":"r","trace_id":"t"}`,
		`{"agent_name":5,"title":null,"choices":"x","confidence":"1","timeout_seconds":-1}`,
		`{"request_id":"abc","wait_seconds":300}`,
		`{"agent_name":"\u00e9\ud83d\ude00","title":"\t","choices":[null,1,"x",{}]}`,
	} {
		f.Add([]byte(seed))
	}
	env := callEnv{}
	env.settings.PendingWaitSeconds = 30
	f.Fuzz(func(t *testing.T, data []byte) {
		var args map[string]any
		if json.Unmarshal(data, &args) != nil {
			return
		}
		checkArgError := func(err error) {
			var ae *ArgError
			if !errors.As(err, &ae) || ae.Field == "" || ae.Rule == "" {
				t.Fatalf("error %v (%T) is not a complete *ArgError", err, err)
			}
		}
		if _, wait, err := normalizeAskHumanResult(args, env); err != nil {
			checkArgError(err)
		} else if wait < time.Second || wait > maxResultWaitSeconds*time.Second {
			t.Fatalf("wait %v out of range", wait)
		}
		q, req, err := normalizeAskHuman(args)
		if err != nil {
			checkArgError(err)
			return
		}
		if err := q.Validate(); err != nil {
			t.Fatalf("Validate: %v\nargs: %s", err, data)
		}
		p := q.Prompts[0]
		if !q.KeepOpen || q.TimeoutSeconds < 1 || q.TimeoutSeconds > maxHumanTimeout || len(p.Options) < minChoices || len(p.Options) > maxChoices ||
			!utf8.ValidString(p.Markdown) || len(req.choices) != len(p.Options) {
			t.Fatalf("question out of the rules: %+v", q)
		}
		for i, o := range p.Options {
			if req.idOf(o.Label) != req.choices[i].ID {
				t.Fatalf("label %q does not map back to id %q", o.Label, req.choices[i].ID)
			}
		}
		for _, a := range []ipc.Answer{
			{Status: ipc.StatusAnswered, Replies: []ipc.Reply{{Selected: []string{p.Options[0].Label}}}},
			{Status: ipc.StatusAnswered},
			{Status: ipc.StatusDismissed},
			{Status: ipc.StatusTimeout},
			{Status: "other"},
		} {
			res := settleHuman(a, q.ID, req, callEnv{requests: newRequestStore()})
			if len(res.Content) != 1 {
				t.Fatalf("status %s rendered %d blocks", a.Status, len(res.Content))
			}
		}
	})
}
