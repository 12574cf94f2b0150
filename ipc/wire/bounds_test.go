package wire

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// A countdown or a wait beyond 24 hours is refused by field, never turned
// into an overflowed duration ("no time limit", an instant "call again").
func TestValidateBoundsDurations(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a     Ask
		field string
	}{
		{"timeout", Ask{Question: Question{TimeoutSeconds: 10000000000}}, "timeout_seconds"},
		{"wait", Ask{Wait: 1 << 62}, "wait_ms"},
		{"negative wait", Ask{Wait: -time.Millisecond}, "wait_ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.a.Question.ID, tc.a.Question.Prompts = "q", []Prompt{{Markdown: "?"}}
			err := tc.a.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.field) {
				t.Fatalf("err = %v, want one naming %s", err, tc.field)
			}
		})
	}
	a := Ask{Question: Question{ID: "q", Prompts: []Prompt{{Markdown: "?"}}, TimeoutSeconds: MaxTimeoutSeconds}, Wait: MaxWait}
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{`{"question":{"id":"q"},"wait_ms":4611686018427387904}`, `{"question":{"id":"q"},"wait_ms":-1}`} {
		var got Ask
		if err := json.Unmarshal([]byte(body), &got); !errors.Is(err, &Error{Code: CodeInvalid}) || !strings.Contains(err.Error(), "wait_ms") {
			t.Errorf("decoding %s: err = %v, want CodeInvalid naming wait_ms", body, err)
		}
	}
}

// An attach-only ask needs no prompts; any other needs one.
func TestAskValidatesItsQuestion(t *testing.T) {
	attach := Ask{Question: Question{ID: "q"}, AttachOnly: true}
	if err := attach.Validate(); err != nil {
		t.Errorf("attach-only ask: %v", err)
	}
	attach.Question.ID = ""
	if err := attach.Validate(); err == nil || !strings.Contains(err.Error(), "id:") {
		t.Errorf("attach-only ask without an id: %v", err)
	}
	open := Ask{Question: Question{ID: "q"}}
	if err := open.Validate(); err == nil || !strings.Contains(err.Error(), "prompts:") {
		t.Errorf("ask without prompts: %v", err)
	}
}

// On the wire the call's fields sit beside the question, never in it: the
// question decodes the same with or without them, and a flat body (the
// question itself, as protocol 1 sent it) is refused as another protocol,
// not taken as an empty question.
func TestAskOnTheWire(t *testing.T) {
	a := Ask{Question: Question{ID: "q", Prompts: []Prompt{{Markdown: "?"}}}, Wait: 1500*time.Millisecond + time.Microsecond, AttachOnly: true, KeepOpen: true}
	data, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"question":{"id":"q","prompts":[{"markdown":"?"}]},"wait_ms":1501,"attach_only":true,"keep_open":true}`
	if string(data) != want {
		t.Errorf("encoded %s\nwant    %s", data, want)
	}
	var back Ask
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Wait != 1501*time.Millisecond || !back.AttachOnly || !back.KeepOpen || back.Question.ID != "q" {
		t.Errorf("decoded %+v", back)
	}
	var old Ask
	err = json.Unmarshal([]byte(`{"id":"q","prompts":[{"markdown":"?"}],"wait_ms":1000}`), &old)
	if !errors.Is(err, &Error{Code: CodeProtocol}) {
		t.Errorf("a protocol 1 body: err = %v, want CodeProtocol", err)
	}
}
