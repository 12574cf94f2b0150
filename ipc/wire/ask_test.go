package wire

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// An ask's key and session travel beside the question, and are bounded.
func TestAskKeyAndSession(t *testing.T) {
	a := Ask{Question: Question{ID: "q", Prompts: []Prompt{{Markdown: "?"}}}, Key: "k1", Session: "42@9"}
	data, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"question":{"id":"q","prompts":[{"markdown":"?"}]},"key":"k1","session":"42@9"}`
	if string(data) != want {
		t.Errorf("encoded %s\nwant    %s", data, want)
	}
	var back Ask
	if err := json.Unmarshal(data, &back); err != nil || back.Key != "k1" || back.Session != "42@9" {
		t.Errorf("decoded %+v, %v", back, err)
	}
	if err := back.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	long := strings.Repeat("k", MaxKeyBytes+1)
	for name, bad := range map[string]Ask{"key": {Question: a.Question, Key: long}, "session": {Question: a.Question, Session: long}} {
		err := bad.Validate()
		if !errors.Is(err, &Error{Code: CodeInvalid}) || !strings.Contains(err.Error(), name+": at most") {
			t.Errorf("a %s of %d bytes: %v", name, len(long), err)
		}
	}
}
