package mcpshim

import (
	"context"
	"strings"
	"testing"

	"feedback/internal/settings"
)

// feedback mcp's flags: help on stdout with status 0 (no server starts);
// what is wrong on stderr with status 2, stdout left to the protocol.
func TestRunFlags(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		out, err   string
		stdoutOnly bool
	}{
		{"help", []string{"-h"}, 0, "usage: feedback mcp", "", true},
		{"negative wait", []string{"--wait", "-1"}, 2, "", "--wait -1", false},
		{"an argument", []string{"serve"}, 2, "", `unexpected argument "serve"`, false},
		{"an unknown tool", []string{"--tools", "ask_text,nope"}, 2, "", "nope", false},
		{"a bad flag", []string{"--nope"}, 2, "", "usage: feedback mcp", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := Run(context.Background(), tc.args, Env{
				Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
				Getenv: func(string) string { return "" }, Settings: settings.Default(),
			})
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.out) || !strings.Contains(stderr.String(), tc.err) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", stdout.String(), stderr.String(), tc.out, tc.err)
			}
			if tc.code != 0 && stdout.Len() > 0 {
				t.Errorf("a failure wrote to stdout, the protocol's: %q", stdout.String())
			}
		})
	}
}
