package relaycmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/ipc/relay"
)

func testEnv(t *testing.T) (Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	dir := t.TempDir()
	return Env{Stdout: &out, Stderr: &errb, Config: filepath.Join(dir, "config"), State: filepath.Join(dir, "state"), Wait: 50 * time.Millisecond}, &out, &errb
}

// pair keeps the password apart, mode 0600, prints one token line without
// it; list shows the pairing; revoke removes its keys.
func TestPairListRevoke(t *testing.T) {
	env, out, errb := testEnv(t)
	if code := Run([]string{"pair", "--name", "box"}, env); code != 2 || !strings.Contains(errb.String(), "no broker yet") {
		t.Fatalf("pair without a broker: exit %d, %s", code, errb)
	}
	errb.Reset()
	env.Stdin = strings.NewReader("s3cret-pw\n")
	if code := Run([]string{"pair", "--broker", "mqtts://alice@broker.example:8883", "--broker-password-file", "-", "--name", "box", "--remote-user", "boxuser"}, env); code != 0 {
		t.Fatalf("pair: exit %d: %s", code, errb)
	}
	line := strings.TrimSpace(out.String())
	if strings.Count(line, "\n") != 0 || strings.Contains(line, "s3cret") {
		t.Fatalf("pair printed %q", line)
	}
	tok, err := relay.ParseToken(line)
	if err != nil {
		t.Fatal(err)
	}
	if tok.Broker != "mqtts://boxuser@broker.example:8883" || tok.Name != "box" {
		t.Fatalf("token %+v", tok)
	}
	if !strings.Contains(errb.String(), "did not report") {
		t.Errorf("with no app running, pair should say so: %q", errb)
	}
	for _, f := range []string{relay.StoreFile, relay.PasswordFile} {
		fi, err := os.Stat(filepath.Join(env.Config, f))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v, mode %v; want 0600", f, err, fi.Mode())
		}
	}
	if pw, _ := relay.ReadPassword(filepath.Join(env.Config, relay.PasswordFile)); pw != "s3cret-pw" {
		t.Fatalf("password file holds %q", pw)
	}
	store, _ := os.ReadFile(filepath.Join(env.Config, relay.StoreFile))
	if strings.Contains(string(store), "s3cret") {
		t.Fatal("relay.json holds the password")
	}
	if code := Run([]string{"pair", "--name", "box"}, env); code != 2 {
		t.Fatalf("a second pairing named box: exit %d", code)
	}
	out.Reset()
	if code := Run([]string{"list"}, env); code != 0 || !strings.Contains(out.String(), "paired  box") || !strings.Contains(out.String(), "mqtts://alice@broker.example:8883") {
		t.Fatalf("list: exit %d:\n%s", code, out)
	}
	if code := Run([]string{"revoke", "box"}, env); code != 0 {
		t.Fatalf("revoke: exit %d: %s", code, errb)
	}
	st, _ := relay.LoadState(filepath.Join(env.Config, relay.StoreFile))
	if len(st.Pairings) != 0 || len(st.Revoked) != 1 {
		t.Fatalf("after revoke: %+v", st)
	}
	if code := Run([]string{"revoke", "box"}, env); code != 1 {
		t.Fatalf("revoking twice: exit %d", code)
	}
}

// A password in --broker is seen by every user of the machine (ps, /proc):
// pair refuses it, says where a password goes, and stores nothing.
func TestPairRefusesAPasswordInTheURL(t *testing.T) {
	env, out, errb := testEnv(t)
	code := Run([]string{"pair", "--broker", "mqtts://alice:s3cret-pw@broker.example:8883", "--name", "box"}, env)
	if code != 2 || !strings.Contains(errb.String(), "--broker-password-file") || out.Len() != 0 {
		t.Fatalf("pair with a password in the URL: exit %d, stdout %q, stderr %q; want a refusal naming --broker-password-file", code, out, errb)
	}
	for _, f := range []string{relay.StoreFile, relay.PasswordFile} {
		if _, err := os.Stat(filepath.Join(env.Config, f)); err == nil {
			t.Errorf("%s written after a refusal", f)
		}
	}
}

// The password comes from a prompt on a terminal (echo off), from standard
// input (--broker-password-file -) or from a file.
func TestPairReadsThePassword(t *testing.T) {
	pwFile := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pwFile, []byte("from-file\n"), 0o600)
	tests := []struct {
		name   string
		args   []string
		stdin  string
		prompt func(string) (string, error)
		want   string
	}{
		{"prompt", nil, "", func(string) (string, error) { return "typed", nil }, "typed"},
		{"stdin", []string{"--broker-password-file", "-"}, "piped\n", nil, "piped"},
		{"file", []string{"--broker-password-file", pwFile}, "", nil, "from-file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, _, errb := testEnv(t)
			env.Stdin = strings.NewReader(tt.stdin)
			env.ReadSecret = tt.prompt
			args := append([]string{"pair", "--broker", "mqtts://alice@broker.example:8883", "--name", "box"}, tt.args...)
			if code := Run(args, env); code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			if pw, _ := relay.ReadPassword(filepath.Join(env.Config, relay.PasswordFile)); pw != tt.want {
				t.Errorf("password file holds %q, want %q", pw, tt.want)
			}
		})
	}
}
