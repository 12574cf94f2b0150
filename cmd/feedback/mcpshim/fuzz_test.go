package mcpshim

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// fuzzSeeds are argument objects agents send (and get wrong), by tool; the
// empty object and a few shapes of the wrong type are tried on every tool.
var fuzzSeeds = map[string][]string{
	"": {
		`{}`,
		`{"question":5,"message":[1],"options":{"a":1},"questions":"q","choices":null}`,
		`{"prompt":"\u00e9\ud83d\ude00","question":"\t","answer":null}`,
	},
	"interactive_feedback": {
		`{"message":"m"}`,
		`{"summary":"s","prompt":"p","message":" "}`,
		`{"message":"m","predefined_options":["A",{"label":"B","default":true},{"text":"C","selected":"yes"},{"value":"D","checked":1},1,null,{}]}`,
		`{"message":"m","options":["A","A"," A ",""]}`,
		`{"message":"m","question_type":"yesno","header_label":"Authentication!!","feedback_placeholder":"p"}`,
		`{"message":"m","loop_id":"l","loop_phase":"p","loop_objective":"o","iteration_label":"i","success_criteria":"s"}`,
		`{"message":"m","timeout":1,"timeout_seconds":"2","tags":[1],"task_id":{},"user_id":null}`,
	},
	"ask_human": {
		`{"agent_name":"a","title":"t","choices":[{"id":"1","label":"A"},{"id":"2","label":"B"}]}`,
		`{"agent_name":"a","title":"t","choices":[{"id":"1","label":"A"},{"id":"1","label":"A"}]}`,
		`{"agent_name":"a","title":"t","content":"<p>x &amp; <script>y</script></p>","content_type":"html","choices":[{"id":"1","label":"A"},{"id":"2","label":"B"}],"recommended_option":"2"}`,
		`{"agent_name":"a","title":"t","content":"data:image/png;base64,AAAA","content_type":"image","choices":[{"id":"1","label":"A"},{"id":"2","label":"B"}]}`,
		`{"agent_name":"a","title":"t","content":"# x\n\n    y","choices":[{"id":"1","label":"A"},{"id":"2","label":"B"}],"confidence":0.5,"timeout_seconds":86400,"callback_url":"https://e.com","metadata":{"a":[1]},"run_id":"r","trace_id":"t"}`,
		`{"agent_name":5,"title":null,"choices":"x","confidence":"1","timeout_seconds":-1}`,
	},
	"ask_human_result": {`{"request_id":"abc","wait_seconds":300}`, `{"request_id":5}`},
	"user_interact": {
		`{"question":"q"}`, `{"question":"q","answer":"a"}`, `{"answer":""}`, `{"question":"\u00e9\ud83d\ude00 **x**"}`,
	},
	"ask_user_question": {
		seedOrganize, seedDelete, seedSend, seedNoHeader,
		`{"questions":[{"question":"Q"},{"question":"R","options":[]},{"question":"S","multiSelect":true,"options":[{"label":"Other"},{"label":"A"}]},{"question":"T","header":"123456789012"}]}`,
		`{"questions":[{"question":"Q","options":[{"label":"其他","description":"d"},{"label":"OTHER "}]}]}`,
		`{"questions":[{"question":"Q","options":[{"label":"A"},{"label":"A"}]}]}`,
		`{"questions":["Q",null,{}]}`,
	},
	"ask_choice": {
		`{"question":"Which DB?","options":["Postgres","SQLite"],"default":"SQLite","allow_free_text":true,"timeout_ms":1500}`,
		`{"question":"Which DB?","options":[{"label":"Postgres","description":"a server"},{"text":"SQLite"},{"value":"DuckDB"}],"default":"DuckDB"}`,
		`{"question":"Q","options":["A","B"],"default":"C","defaults":["Z"]}`,
		`{"question":"Q","options":[1,null,{}],"timeout_ms":1.5}`,
	},
	"ask_confirm": {`{"question":"Deploy?","default":true,"timeout_ms":86400000}`, `{"question":" ","timeout_ms":-1,"default":"yes"}`},
	"ask_text":    {`{"question":"Name?","placeholder":"e.g. x","default":"fbk"}`, `{"question":"Q","placeholder":3,"default":{}}`},
	"ask_multi_select": {
		`{"question":"Which?","options":["A","B","C"],"defaults":["A","C"]}`,
		`{"question":"Which?","options":[{"label":"A","description":"d"},"B"],"defaults":["A"],"allow_free_text":"true"}`,
	},
}

// FuzzTools feeds arbitrary JSON objects to the prepare of every dialect of
// the tools table (the first byte picks it), so a new dialect is fuzzed
// without new code. prepare must never panic and fail only with a complete
// *ArgError; a call it prepares either answers at once or asks a Question
// that passes Validate, holds valid UTF-8 and is this tool's; and every
// outcome renders to a result with content — with structuredContent when
// the tool declares an outputSchema — as do the failure, "call again",
// chat and form results.
func FuzzTools(f *testing.F) {
	index := map[string]int{}
	for i, d := range tools {
		index[d.tool.Name] = i
	}
	for name, seeds := range fuzzSeeds {
		for _, s := range seeds {
			if name == "" {
				for i := range tools {
					f.Add(byte(i), []byte(s))
				}
				continue
			}
			i, ok := index[name]
			if !ok {
				f.Fatalf("seeds for %q, which is not in the tools table", name)
			}
			f.Add(byte(i), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		var args map[string]any
		if json.Unmarshal(data, &args) != nil {
			return
		}
		d := tools[int(which)%len(tools)]
		env := callEnv{notify: func(webhook) {}, client: "fuzz"}
		env.settings.PendingWaitSeconds = 30
		p, err := d.prepare(args, env)
		if err != nil {
			var ae *ArgError
			if !errors.As(err, &ae) || ae.Field == "" || ae.Rule == "" {
				t.Fatalf("%s: error %v (%T) is not a complete *ArgError", d.tool.Name, err, err)
			}
			return
		}
		if p.immediate != nil {
			checkResult(t, d, "immediate", p.immediate)
			return
		}
		q := p.question
		if err := (&wire.Ask{Question: q, AttachOnly: p.attachOnly}).Validate(); err != nil {
			t.Fatalf("%s: Validate: %v\nargs: %s", d.tool.Name, err, data)
		}
		if q.Source != d.tool.Name && !p.attachOnly {
			t.Fatalf("%s: Source %q", d.tool.Name, q.Source)
		}
		var labels []string
		for _, pr := range q.Prompts {
			for _, s := range []string{pr.Header, pr.Placeholder, pr.Prefill} {
				if !utf8.ValidString(s) {
					t.Fatalf("%s: invalid UTF-8 in %+v", d.tool.Name, pr)
				}
			}
			for _, o := range pr.Options {
				if !utf8.ValidString(o.Label) || !utf8.ValidString(o.Description) {
					t.Fatalf("%s: invalid UTF-8 in option %+v", d.tool.Name, o)
				}
				labels = append(labels, o.Label)
			}
		}
		replies := func(r wire.Reply) []wire.Reply {
			out := make([]wire.Reply, max(len(q.Prompts), 1))
			for i := range out {
				out[i] = r
			}
			return out
		}
		answers := []wire.Answer{
			{Status: wire.StatusAnswered, Replies: replies(wire.Reply{Selected: labels, Text: "typed"})},
			{Status: wire.StatusAnswered, Replies: replies(wire.Reply{Text: "yes"})},
			{Status: wire.StatusAnswered, Replies: replies(wire.Reply{})},
			{Status: wire.StatusAnswered},
			{Status: wire.StatusAnswered, Auto: true, Replies: replies(wire.Reply{Text: "draft"})},
			{Status: wire.StatusDismissed},
			{Status: wire.StatusDismissed, ElapsedMS: 5000},
			{Status: wire.StatusTimeout},
			{Status: "other"},
		}
		for _, a := range answers {
			a.QuestionID = q.ID
			checkResult(t, d, "render "+string(a.Status), p.render(a))
			if p.elicited != nil {
				checkResult(t, d, "elicited "+string(a.Status), p.elicited(a))
			}
		}
		cause := errors.New("the feedback app went away")
		if p.fail != nil {
			checkResult(t, d, "fail", p.fail(cause))
		}
		if p.pending != nil {
			checkResult(t, d, "pending", p.pending(wire.Answer{}))
		}
		if p.chat != nil {
			checkResult(t, d, "chat", p.chat(cause))
		}
	})
}

// checkResult checks one result of dialect d: it has content, and a
// success of a tool with an outputSchema carries structuredContent.
func checkResult(t *testing.T, d dialect, what string, res *mcp.CallToolResult) {
	t.Helper()
	if res == nil || len(res.Content) == 0 {
		t.Fatalf("%s %s: result %+v has no content", d.tool.Name, what, res)
	}
	if len(d.tool.RawOutputSchema) > 0 && !res.IsError && res.StructuredContent == nil {
		t.Fatalf("%s %s: a success without structuredContent, though the tool declares an outputSchema", d.tool.Name, what)
	}
}
