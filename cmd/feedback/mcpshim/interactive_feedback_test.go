package mcpshim

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// obj decodes a JSON object the way mcp-go decodes tool arguments.
func obj(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return m
}

// prompt is a one-prompt question with the given prompt, as the normaliser
// builds it (ID left empty).
func question(p wire.Prompt, mods ...func(*wire.Question)) wire.Question {
	q := wire.Question{Source: "interactive_feedback", Prompts: []wire.Prompt{p}}
	for _, f := range mods {
		f(&q)
	}
	return q
}

func withContext(fields ...wire.Field) func(*wire.Question) {
	return func(q *wire.Question) { q.Context = fields }
}

func withTitle(s string) func(*wire.Question) {
	return func(q *wire.Question) { q.Title = s }
}

func opts(labels ...string) []wire.Option {
	o := make([]wire.Option, len(labels))
	for i, l := range labels {
		o[i] = wire.Option{Label: l}
	}
	return o
}

func many(prefix string, n int) []any {
	items := make([]any, n)
	for i := range items {
		items[i] = prefix + strings.Repeat("x", i+1)
	}
	return items
}

var markerRunes = utf8.RuneCountInString(truncatedMarker)

var idPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

type normCase struct {
	name              string
	args              map[string]any
	want              wire.Question // ID is not compared
	ignored           []string      // expected meta.ignored
	placeholderLength int
	wantErr           string // substring of the *ArgError; "" for success
}

func TestNormalizeInteractiveFeedback(t *testing.T) {
	s := func(j string) map[string]any { return obj(t, j) }
	long := func(r string, n int) string { return strings.Repeat(r, n) }
	qt := []string{"question_type"} // an unknown question_type is logged as ignored
	cases := []normCase{
		// message and its aliases
		{name: "message", args: s(`{"message":"Ship it?"}`), want: question(wire.Prompt{Markdown: "Ship it?"})},
		{name: "message wins over summary and prompt", args: s(`{"prompt":"p","summary":"s","message":"m"}`), want: question(wire.Prompt{Markdown: "m"})},
		{name: "summary wins over prompt", args: s(`{"prompt":"p","summary":"s"}`), want: question(wire.Prompt{Markdown: "s"})},
		{name: "prompt alone", args: s(`{"prompt":"p"}`), want: question(wire.Prompt{Markdown: "p"})},
		{name: "blank message falls back to summary", args: s(`{"message":"  \n","summary":"s"}`), want: question(wire.Prompt{Markdown: "s"})},
		{name: "null message falls back to prompt", args: s(`{"message":null,"prompt":"p"}`), want: question(wire.Prompt{Markdown: "p"})},
		{name: "message keeps its Markdown whitespace", args: s(`{"message":"  code\n"}`), want: question(wire.Prompt{Markdown: "  code\n"})},
		{name: "no message", args: s(`{}`), wantErr: "message: required"},
		// Removed upstream (seed 000, R167): the original rejects it,
		// naming it, so the agent learns the dict form instead of having
		// its recommendation silently lost.
		{name: "legacy predefined_options_defaults", args: s(`{"message":"m","predefined_options":["A","B"],"predefined_options_defaults":[false,true]}`),
			wantErr: `predefined_options_defaults: no longer supported (removed upstream); mark a recommended option in predefined_options itself: {"label": "Apply", "default": true}`},
		{name: "legacy predefined_options_defaults null", args: s(`{"message":"m","predefined_options_defaults":null}`), wantErr: "predefined_options_defaults: no longer supported"},
		{name: "nil arguments", args: nil, wantErr: "message: required"},
		{name: "empty message", args: s(`{"message":""}`), wantErr: "message: required"},
		{name: "whitespace message and aliases", args: s(`{"message":" ","summary":"\t","prompt":"\n"}`), wantErr: "message: required"},
		{name: "message is a number", args: s(`{"message":5,"summary":"s"}`), wantErr: "message: must be a string, got number"},
		{name: "message is an object", args: s(`{"message":{"text":"hi"}}`), wantErr: "message: must be a string, got object"},
		{name: "summary is an array", args: s(`{"summary":["a"]}`), wantErr: "summary: must be a string, got array"},
		{name: "prompt is a boolean", args: s(`{"prompt":true}`), wantErr: "prompt: must be a string, got boolean"},
		{name: "message at the cap", args: map[string]any{"message": long("a", maxMessageRunes)},
			want: question(wire.Prompt{Markdown: long("a", maxMessageRunes)})},
		{name: "message over the cap", args: map[string]any{"message": long("a", maxMessageRunes+1)},
			want: question(wire.Prompt{Markdown: long("a", maxMessageRunes-utf8.RuneCountInString(truncatedMarker)) + truncatedMarker})},
		{name: "message over the cap never splits a character", args: map[string]any{"message": long("a", maxMessageRunes-markerRunes-5) + long("é", 20)},
			want: question(wire.Prompt{Markdown: long("a", maxMessageRunes-markerRunes-5) + long("é", 5) + truncatedMarker})},
		{name: "multibyte message at the byte cap", args: map[string]any{"message": long("€", wire.MaxMarkdownBytes/3)},
			want: question(wire.Prompt{Markdown: long("€", wire.MaxMarkdownBytes/3)})},
		{name: "multibyte message over the byte cap", args: map[string]any{"message": long("€", wire.MaxMarkdownBytes/3+1)},
			want: question(wire.Prompt{Markdown: long("€", (wire.MaxMarkdownBytes-len(truncatedMarker))/3) + truncatedMarker})},

		// options and their shapes
		{name: "string options", args: s(`{"message":"m","predefined_options":["A","B"]}`), want: question(wire.Prompt{Markdown: "m", Options: opts("A", "B")})},
		{name: "options alias", args: s(`{"message":"m","options":["A","B"]}`), want: question(wire.Prompt{Markdown: "m", Options: opts("A", "B")})},
		{name: "predefined_options wins over options", args: s(`{"message":"m","options":["X"],"predefined_options":["A"]}`), want: question(wire.Prompt{Markdown: "m", Options: opts("A")})},
		{name: "empty predefined_options falls back to options", args: s(`{"message":"m","predefined_options":[],"options":["X"]}`), want: question(wire.Prompt{Markdown: "m", Options: opts("X")})},
		{name: "null predefined_options falls back to options", args: s(`{"message":"m","predefined_options":null,"options":["X"]}`), want: question(wire.Prompt{Markdown: "m", Options: opts("X")})},
		{name: "dict label and default", args: s(`{"message":"m","predefined_options":[{"label":"Apply","default":true},{"label":"Skip"}]}`),
			want: question(wire.Prompt{Markdown: "m", Options: []wire.Option{{Label: "Apply", Default: true}, {Label: "Skip"}}})},
		{name: "dict text and selected", args: s(`{"message":"m","options":[{"text":"A","selected":true}]}`),
			want: question(wire.Prompt{Markdown: "m", Options: []wire.Option{{Label: "A", Default: true}}})},
		{name: "dict value and checked", args: s(`{"message":"m","options":[{"value":"A","checked":true}]}`),
			want: question(wire.Prompt{Markdown: "m", Options: []wire.Option{{Label: "A", Default: true}}})},
		{name: "label wins over text and value", args: s(`{"message":"m","options":[{"value":"V","text":"T","label":"L"},{"value":"V2","text":"T2"}]}`),
			want: question(wire.Prompt{Markdown: "m", Options: opts("L", "T2")})},
		{name: "non-string label falls back to the next alias", args: s(`{"message":"m","options":[{"label":3,"text":"T"}]}`),
			want: question(wire.Prompt{Markdown: "m", Options: opts("T")})},
		{name: "default wins over selected and checked", args: s(`{"message":"m","options":[{"label":"A","default":false,"selected":true,"checked":true},{"label":"B","selected":false,"checked":true}]}`),
			want: question(wire.Prompt{Markdown: "m", Options: opts("A", "B")})},
		{name: "non-boolean defaults are coerced", args: s(`{"message":"m","options":[{"label":"A","default":"no","checked":true},{"label":"B","default":1}]}`),
			want: question(wire.Prompt{Markdown: "m", Options: []wire.Option{{Label: "A"}, {Label: "B", Default: true}}})},
		{name: "an option's description", args: s(`{"message":"m","options":[{"label":"A","description":"  under A  "},{"text":"B","description":7}]}`),
			want: question(wire.Prompt{Markdown: "m", Options: []wire.Option{{Label: "A", Description: "under A"}, {Label: "B"}}})},
		{name: "mixed shapes", args: s(`{"message":"m","options":["A",{"label":"B","default":true}]}`),
			want: question(wire.Prompt{Markdown: "m", Options: []wire.Option{{Label: "A"}, {Label: "B", Default: true}}})},
		{name: "invalid items dropped", args: s(`{"message":"m","options":[1,null,true,["x"],{},{"label":3},{"label":""},""," ",{"default":true},"A"]}`),
			want: question(wire.Prompt{Markdown: "m", Options: opts("A")})},
		{name: "all items dropped", args: s(`{"message":"m","options":[1,{}]}`), want: question(wire.Prompt{Markdown: "m"})},
		{name: "labels trimmed", args: s(`{"message":"m","options":["  A  "]}`), want: question(wire.Prompt{Markdown: "m", Options: opts("A")})},
		{name: "duplicate labels keep the first", args: s(`{"message":"m","options":["A","B",{"label":"A","default":true}," B"]}`),
			want: question(wire.Prompt{Markdown: "m", Options: opts("A", "B")})},
		{name: "option at the clamp", args: map[string]any{"message": "m", "options": []any{long("ж", maxOptionRunes)}},
			want: question(wire.Prompt{Markdown: "m", Options: opts(long("ж", maxOptionRunes))})},
		{name: "option over the clamp", args: map[string]any{"message": "m", "options": []any{long("ж", maxOptionRunes+1)}},
			want: question(wire.Prompt{Markdown: "m", Options: opts(long("ж", maxOptionRunes))})},
		{name: "options equal after clamping are duplicates", args: map[string]any{"message": "m", "options": []any{long("a", maxOptionRunes) + "1", long("a", maxOptionRunes) + "2"}},
			want: question(wire.Prompt{Markdown: "m", Options: opts(long("a", maxOptionRunes))})},
		{name: "25 options", args: map[string]any{"message": "m", "options": many("o", 25)},
			want: question(wire.Prompt{Markdown: "m", Options: func() []wire.Option {
				var o []wire.Option
				for _, l := range many("o", 25) {
					o = append(o, wire.Option{Label: l.(string)})
				}
				return o
			}()})},
		{name: "26 options", args: map[string]any{"message": "m", "predefined_options": many("o", 26)}, wantErr: "predefined_options: at most 25 options, got 26"},
		{name: "predefined_options is an object", args: s(`{"message":"m","predefined_options":{"A":true}}`), wantErr: "predefined_options: must be an array of strings or of {\"label\": string, \"default\": boolean} objects, got object"},
		{name: "options is a string", args: s(`{"message":"m","options":"A, B"}`), wantErr: "options: must be an array"},

		// question_type
		{name: "yesno", args: s(`{"message":"m","question_type":"yesno"}`), want: question(wire.Prompt{Markdown: "m", Kind: wire.KindYesNo})},
		// Only the exact "yesno" is yes/no; every other value or type is the reply box (seed 000).
		{name: "unknown question_type", args: s(`{"message":"m","question_type":"rating"}`), want: question(wire.Prompt{Markdown: "m"}), ignored: qt},
		{name: "YESNO is unknown", args: s(`{"message":"m","question_type":"YESNO"}`), want: question(wire.Prompt{Markdown: "m"}), ignored: qt},
		{name: "Yes is unknown", args: s(`{"message":"m","question_type":"Yes"}`), want: question(wire.Prompt{Markdown: "m"}), ignored: qt},
		{name: "yes-no is unknown", args: s(`{"message":"m","question_type":"yes-no"}`), want: question(wire.Prompt{Markdown: "m"}), ignored: qt},
		{name: "boolean word is unknown", args: s(`{"message":"m","question_type":"boolean"}`), want: question(wire.Prompt{Markdown: "m"}), ignored: qt},
		// The original strips it first (test_whitespace_yesno_normalized).
		{name: "padded yesno is yesno", args: s(`{"message":"m","question_type":"  yesno\n"}`), want: question(wire.Prompt{Markdown: "m", Kind: wire.KindYesNo})},
		{name: "null question_type", args: s(`{"message":"m","question_type":null}`), want: question(wire.Prompt{Markdown: "m"})},
		{name: "blank question_type", args: s(`{"message":"m","question_type":" "}`), want: question(wire.Prompt{Markdown: "m"}), ignored: qt},
		{name: "numeric question_type", args: s(`{"message":"m","question_type":2}`), want: question(wire.Prompt{Markdown: "m"}), ignored: qt},
		{name: "object question_type", args: s(`{"message":"m","question_type":{"type":"yesno"}}`), want: question(wire.Prompt{Markdown: "m"}), ignored: qt},
		{name: "boolean question_type", args: s(`{"message":"m","question_type":true}`), want: question(wire.Prompt{Markdown: "m"}), ignored: qt},

		// header_label
		{name: "header_label", args: s(`{"message":"m","header_label":"Auth"}`), want: question(wire.Prompt{Markdown: "m", Header: "Auth"}, withTitle("Auth"))},
		{name: "header_label at the clamp", args: map[string]any{"message": "m", "header_label": long("界", 16)},
			want: question(wire.Prompt{Markdown: "m", Header: long("界", 16)}, withTitle(long("界", 16)))},
		{name: "header_label over the clamp", args: map[string]any{"message": "m", "header_label": long("界", 17)},
			want: question(wire.Prompt{Markdown: "m", Header: long("界", 16)}, withTitle(long("界", 16)))},
		{name: "header_label is a number", args: s(`{"message":"m","header_label":1}`), wantErr: "header_label: must be a string, got number"},

		// feedback_placeholder
		{name: "placeholder at the clamp", args: map[string]any{"message": "m", "feedback_placeholder": long("é", 200)},
			want: question(wire.Prompt{Markdown: "m", Placeholder: long("é", 200)})},
		{name: "placeholder over the clamp", args: map[string]any{"message": "m", "feedback_placeholder": long("é", 201)},
			want: question(wire.Prompt{Markdown: "m", Placeholder: long("é", 200)}), placeholderLength: 201},
		{name: "placeholder is an array", args: s(`{"message":"m","feedback_placeholder":["x"]}`), wantErr: "feedback_placeholder: must be a string, got array"},

		// loop context
		{name: "all loop fields in order", args: s(`{"message":"m","success_criteria":"green","iteration_label":"iter-3","loop_objective":"migrate","loop_phase":"verify","loop_id":"auth"}`),
			want: question(wire.Prompt{Markdown: "m"}, withContext(
				wire.Field{Label: "Loop", Value: "auth"}, wire.Field{Label: "Phase", Value: "verify"}, wire.Field{Label: "Objective", Value: "migrate"},
				wire.Field{Label: "Iteration", Value: "iter-3"}, wire.Field{Label: "Success criteria", Value: "green"}))},
		{name: "empty loop fields omitted", args: s(`{"message":"m","loop_id":"","loop_phase":"  ","iteration_label":null,"loop_objective":"o"}`),
			want: question(wire.Prompt{Markdown: "m"}, withContext(wire.Field{Label: "Objective", Value: "o"}))},
		{name: "loop_phase is a number", args: s(`{"message":"m","loop_phase":2}`), wantErr: "loop_phase: must be a string, got number"},

		// accepted and ignored
		{name: "ignored fields of any type", args: s(`{"message":"m","project_directory":{"a":1},"submit_button_text":7,"timeout":"soon","timeout_seconds":[1],
			"feedback_type":null,"priority":true,"language":{},"tags":"x","user_id":1.5,"task_id":["t"],"unknown_field":{"deep":[1]}}`),
			want:    question(wire.Prompt{Markdown: "m"}),
			ignored: []string{"project_directory", "submit_button_text", "timeout", "timeout_seconds", "feedback_type", "priority", "language", "tags", "user_id", "task_id"}},
	}
	for _, l := range loopFields {
		cases = append(cases,
			normCase{name: l.key + " at the clamp", args: map[string]any{"message": "m", l.key: long("ü", l.max)},
				want: question(wire.Prompt{Markdown: "m"}, withContext(wire.Field{Label: i18n.T(l.label), Value: long("ü", l.max)}))},
			normCase{name: l.key + " over the clamp", args: map[string]any{"message": "m", l.key: long("ü", l.max+1)},
				want: question(wire.Prompt{Markdown: "m"}, withContext(wire.Field{Label: i18n.T(l.label), Value: long("ü", l.max)}))},
		)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, m, err := normalizeInteractiveFeedback(tc.args)
			if tc.wantErr != "" {
				var ae *ArgError
				if !errors.As(err, &ae) {
					t.Fatalf("err = %v, want an *ArgError containing %q", err, tc.wantErr)
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %q, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !idPattern.MatchString(q.ID) || m.questionID != q.ID {
				t.Errorf("ID = %q, meta ID = %q: want the same 32 hex digits", q.ID, m.questionID)
			}
			if err := q.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			q.ID = ""
			if !reflect.DeepEqual(q, tc.want) {
				t.Errorf("question mismatch\n got: %s\nwant: %s", abbrev(q), abbrev(tc.want))
			}
			if !reflect.DeepEqual(m.ignored, tc.ignored) {
				t.Errorf("ignored = %v, want %v", m.ignored, tc.ignored)
			}
			if m.placeholderLength != tc.placeholderLength {
				t.Errorf("placeholderLength = %d, want %d", m.placeholderLength, tc.placeholderLength)
			}
		})
	}
}

// abbrev is q as JSON, with long strings shortened for failure messages.
func abbrev(q wire.Question) string {
	b, _ := json.Marshal(q)
	s := string(b)
	if len(s) > 600 {
		s = s[:300] + fmt.Sprintf("…(%d bytes)…", len(s)) + s[len(s)-300:]
	}
	return s
}

func TestQuestionIDsAreFresh(t *testing.T) {
	a, _, _ := normalizeInteractiveFeedback(obj(t, `{"message":"m"}`))
	b, _, _ := normalizeInteractiveFeedback(obj(t, `{"message":"m"}`))
	if a.ID == b.ID {
		t.Fatalf("two calls got the same ID %q", a.ID)
	}
}

func TestTruncateMarked(t *testing.T) {
	for _, tc := range []struct {
		name, in           string
		maxRunes, maxBytes int
		want               string
	}{
		{"fits", "abc", 3, 3, "abc"},
		{"rune limit", "abcd", 3, 10, "ab~"},
		{"byte limit never splits", "ééé", 10, 4, "é~"},
		{"byte limit exact", "ééé", 10, 5, "éé~"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := truncateMarked(tc.in, tc.maxRunes, tc.maxBytes, "~")
			if got != tc.want || !utf8.ValidString(got) {
				t.Errorf("truncateMarked(%q, %d, %d) = %q, want %q", tc.in, tc.maxRunes, tc.maxBytes, got, tc.want)
			}
		})
	}
}

// TestOptionDefaultCoercion: an option object's default (or selected, or
// checked) is coerced the way the servers agents learned it from do, and
// never rejects the call.
func TestOptionDefaultCoercion(t *testing.T) {
	for _, tc := range []struct {
		value string // JSON
		want  bool
	}{
		{`true`, true}, {`1`, true}, {`-2.5`, true}, {`42`, true},
		{`"true"`, true}, {`"TRUE"`, true}, {`"1"`, true}, {`"yes"`, true}, {`"Yes"`, true}, {`"y"`, true},
		{`"on"`, true}, {`"ON"`, true}, {`"selected"`, true}, {`"Checked"`, true}, {`" yes "`, true},
		{`false`, false}, {`0`, false}, {`null`, false}, {`""`, false}, {`"no"`, false}, {`"n"`, false},
		{`"off"`, false}, {`"false"`, false}, {`"FALSE"`, false}, {`"0"`, false}, {`"maybe"`, false},
		{`[]`, false}, {`[true]`, false}, {`{}`, false},
	} {
		for _, key := range []string{"default", "selected", "checked"} {
			args := decodeArgs(t, `{"message":"m","predefined_options":[{"label":"A","`+key+`":`+tc.value+`},"B"]}`)
			q, _, err := normalizeInteractiveFeedback(args)
			if err != nil {
				t.Errorf("%s %s: rejected: %v", key, tc.value, err)
				continue
			}
			if got := q.Prompts[0].Options[0].Default; got != tc.want {
				t.Errorf("%s %s: Default = %v, want %v", key, tc.value, got, tc.want)
			}
		}
	}
}
