package wire

import (
	"strings"
	"testing"
)

// A countdown or a wait beyond 24 hours is refused by field, never turned
// into an overflowed duration ("no time limit", an instant "call again").
func TestValidateBoundsDurations(t *testing.T) {
	for _, tc := range []struct {
		name  string
		q     Question
		field string
	}{
		{"timeout", Question{TimeoutSeconds: 10000000000}, "timeout_seconds"},
		{"wait", Question{WaitMS: 1 << 62}, "wait_ms"},
		{"negative wait", Question{WaitMS: -1}, "wait_ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.ID, tc.q.Prompts = "q", []Prompt{{Markdown: "?"}}
			err := tc.q.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.field) {
				t.Fatalf("err = %v, want one naming %s", err, tc.field)
			}
		})
	}
	q := Question{ID: "q", Prompts: []Prompt{{Markdown: "?"}}, TimeoutSeconds: MaxTimeoutSeconds, WaitMS: MaxTimeoutSeconds * 1000}
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
}
