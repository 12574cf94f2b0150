package relaycmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/internal/mqtttest"
	"feedback/ipc/relay"
)

func testEnv(t *testing.T) (Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	dir := t.TempDir()
	return Env{Stdout: &out, Stderr: &errb, Config: filepath.Join(dir, "config"), State: filepath.Join(dir, "state"), Wait: 50 * time.Millisecond,
		CheckBroker: func(context.Context, string, string) error { return nil }}, &out, &errb
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
	if code := Run([]string{"list"}, env); code != 0 || !strings.Contains(out.String(), "paired   box") || !strings.Contains(out.String(), "mqtts://alice@broker.example:8883") {
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

// pair logs in to the broker as the app will before it keeps anything: a
// TLS URL for a plain listener or a wrong password ends with what to fix,
// a non-zero exit, no token and no pairing or password left behind.
func TestPairChecksTheBrokerFirst(t *testing.T) {
	b := mqtttest.Start(t, []string{"desk"})
	tlsURL := fmt.Sprintf("mqtts://desk@127.0.0.1:%d", b.Port)
	for _, tc := range []struct {
		name, url, password, want string
	}{
		{"mqtts:// against a plain listener", tlsURL, b.Password("desk"), "does not speak TLS"},
		{"a wrong password", b.URL("desk"), "wrong", `refused user "desk"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, out, errb := testEnv(t)
			env.CheckBroker = nil // the real one
			env.Stdin = strings.NewReader(tc.password + "\n")
			code := Run([]string{"pair", "--broker", tc.url, "--broker-password-file", "-", "--name", "box"}, env)
			if code != 1 || out.Len() != 0 || !strings.Contains(errb.String(), tc.want) || !strings.Contains(errb.String(), "Nothing was saved") {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 1, no token, and %q", code, out, errb, tc.want)
			}
			for _, f := range []string{relay.StoreFile, relay.PasswordFile} {
				if _, err := os.Stat(filepath.Join(env.Config, f)); err == nil {
					t.Errorf("%s left behind", f)
				}
			}
		})
	}
	env, out, errb := testEnv(t)
	env.CheckBroker = nil
	env.Stdin = strings.NewReader(b.Password("desk") + "\n")
	if code := Run([]string{"pair", "--broker", b.URL("desk"), "--broker-password-file", "-", "--name", "box"}, env); code != 0 {
		t.Fatalf("the right password: exit %d: %s", code, errb)
	}
	if _, err := relay.ParseToken(out.String()); err != nil {
		t.Fatalf("pair printed %q: %v", out, err)
	}
	// A wrong address given later is not kept either: the pairings stay
	// on the broker that works.
	errb.Reset()
	if code := Run([]string{"broker", tlsURL}, env); code != 1 || !strings.Contains(errb.String(), "does not speak TLS") {
		t.Fatalf("relay broker with a TLS URL for a plain listener: exit %d, %s", code, errb)
	}
	if st, _ := relay.LoadState(filepath.Join(env.Config, relay.StoreFile)); st.Broker != b.URL("desk") || len(st.Pairings) != 1 {
		t.Fatalf("after a failed relay broker: %+v", st)
	}
	out.Reset()
	if code := Run([]string{"broker"}, env); code != 0 || !strings.Contains(out.String(), "took the app's login") {
		t.Fatalf("relay broker (check): exit %d, %s%s", code, out, errb)
	}
}

// Each revoked pairing has a line of its own that says when it was paired
// and revoked and names its topic: two pairings of one name, paired and
// revoked in turn, are told apart.
func TestListTellsRevokedPairingsApart(t *testing.T) {
	env, out, errb := testEnv(t)
	env.Stdin = strings.NewReader("pw\n")
	if code := Run([]string{"pair", "--broker", "mqtt://desk@broker.example", "--broker-password-file", "-", "--name", "box"}, env); code != 0 {
		t.Fatalf("pair: %s", errb)
	}
	Run([]string{"revoke", "box"}, env)
	if code := Run([]string{"pair", "--name", "box"}, env); code != 0 {
		t.Fatalf("pair again: %s", errb)
	}
	Run([]string{"revoke", "box"}, env)
	if code := Run([]string{"pair", "--name", "box"}, env); code != 0 {
		t.Fatalf("pair a third time: %s", errb)
	}
	out.Reset()
	Run([]string{"list"}, env)
	var revoked []string
	seen := map[string]bool{}
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "revoked") {
			revoked = append(revoked, l)
			if seen[l] {
				t.Errorf("two revoked lines read the same: %q", l)
			}
			seen[l] = true
			if !strings.Contains(l, "paired ") || !strings.Contains(l, "fbr/") {
				t.Errorf("a revoked line says neither when it was paired nor its topic: %q", l)
			}
		}
	}
	if len(revoked) != 2 || !strings.Contains(out.String(), "paired   box") {
		t.Fatalf("list:\n%s", out)
	}
}

// relay password keeps a password read from standard input (or typed at
// a prompt) in the config directory, which it creates (mode 0700), in a
// file of mode 0600.
func TestPasswordCommand(t *testing.T) {
	env, _, errb := testEnv(t)
	env.Stdin = strings.NewReader("remote-pw\n")
	if code := Run([]string{"password"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	path := filepath.Join(env.Config, relay.PasswordFile)
	if pw, err := relay.ReadPassword(path); err != nil || pw != "remote-pw" {
		t.Fatalf("the file holds %q, %v", pw, err)
	}
	if fi, err := os.Stat(env.Config); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the config directory: %v, %v", fi.Mode(), err)
	}
	env.ReadSecret = func(string) (string, error) { return "typed-pw", nil }
	if code := Run([]string{"password"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if pw, _ := relay.ReadPassword(path); pw != "typed-pw" {
		t.Fatalf("the file holds %q after the prompt", pw)
	}
	env.Stdin, env.ReadSecret = strings.NewReader(""), nil
	if code := Run([]string{"password"}, env); code != 1 {
		t.Fatalf("no password: exit %d", code)
	}
}

// relay token gives a token another broker address and nothing else: the
// same pairing and keys, the remote's user kept when the URL names none.
func TestTokenForAnotherBroker(t *testing.T) {
	var st relay.State
	st.SetBroker("mqtts://desk@old.example:8883")
	tok, _ := st.Pair("box")
	tok.Broker, _ = relay.WithUser(tok.Broker, "boxuser")
	env, out, errb := testEnv(t)
	if code := Run([]string{"token", tok.String(), "--broker", "mqtt://new.example:1884"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	got, err := relay.ParseToken(out.String())
	if err != nil {
		t.Fatal(err)
	}
	want := tok
	want.Broker = "mqtt://boxuser@new.example:1884"
	if got != want {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if code := Run([]string{"token", "--broker", "mqtt://u:pw@new.example", tok.String()}, env); code != 2 {
		t.Fatalf("a password in the URL: exit %d", code)
	}
}
