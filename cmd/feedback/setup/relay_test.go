package setup

import (
	"os"
	"testing"

	"feedback/ipc/relay"
)

// --relay writes the token as FEEDBACK_RELAY into the client's shim
// environment; a damaged token is refused and nothing is written.
func TestSetupRelayWritesTheToken(t *testing.T) {
	st := relay.State{}
	if err := st.SetBroker("mqtt://u@127.0.0.1:1883"); err != nil {
		t.Fatal(err)
	}
	tok, err := st.Pair("box")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := Lookup("claude-code")
	te := newEnv(t)
	if code := Run([]string{"claude-code", "--relay", tok.String()}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	file, err := c.File(te.Env, ScopeUser)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := entry(t, c, decode(t, c, data))["env"].(map[string]any)
	if env["FEEDBACK_RELAY"] != tok.String() {
		t.Fatalf("env = %v, want FEEDBACK_RELAY = the token", env)
	}

	te2 := newEnv(t)
	s := tok.String()
	damaged := s[:40] + string(s[40]^1) + s[41:]
	if code := Run([]string{"claude-code", "--relay", damaged}, te2.Env); code != 2 {
		t.Fatalf("a damaged token: exit %d, want 2", code)
	}
	if f, _ := c.File(te2.Env, ScopeUser); fileExists(f) {
		t.Fatal("a damaged token was written")
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
