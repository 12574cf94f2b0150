package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/ipc"
)

// rawClient talks HTTP to the running app's socket directly, as a hostile
// or broken local program would.
func rawClient() *http.Client {
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", socket)
		},
	}}
}

// The running app's endpoint: private to the user, closed to browsers,
// bounded, and never brought down by bad input.
func TestEndpointOfTheRunningApp(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	pid := appPID()

	for path, want := range map[string]os.FileMode{filepath.Dir(socket): 0o700, socket: 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s has mode %v, want %v", path, got, want)
		}
	}

	valid, _ := json.Marshal(ipc.Question{ID: "endpoint", Prompts: []ipc.Prompt{{Markdown: "x"}}})
	for _, tc := range []struct {
		name   string
		body   io.Reader
		header map[string]string
		want   int
	}{
		{"a browser (Origin header)", bytes.NewReader(valid), map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"malformed JSON", strings.NewReader(`{"id": `), nil, http.StatusBadRequest},
		{"an invalid question", strings.NewReader(`{"id": "x", "prompts": []}`), nil, http.StatusBadRequest},
		{"a body over 16 MiB", io.MultiReader(strings.NewReader(`{"id": "big", "prompts": [{"markdown": "`),
			io.LimitReader(zeros{}, ipc.MaxBodyBytes+1024), strings.NewReader(`"}]}`)), nil, http.StatusRequestEntityTooLarge},
		{"not an object", strings.NewReader(`42`), nil, http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, "http://feedback"+ipc.PathQuestions, tc.body)
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := rawClient().Do(req)
			if err != nil {
				t.Fatalf("request: %v", err)
			}
			defer resp.Body.Close()
			var e ipc.Error
			json.NewDecoder(resp.Body).Decode(&e)
			if resp.StatusCode != tc.want || e.Message == "" {
				t.Errorf("status %d %q, want %d with a message", resp.StatusCode, e.Message, tc.want)
			}
		})
	}
	if appPID() != pid {
		t.Fatal("the app did not survive the bad requests")
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}

// Another user cannot ask through the socket.
func TestEndpointRefusesAnotherUser(t *testing.T) {
	requireSession(t)
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another user")
	}
	ensureApp(t)
	cmd := exec.Command(bin, "ask", "--timeout", "5", "--title", "Intruder", "let me in")
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil {
		t.Fatal("another user's feedback ask succeeded")
	}
	if out, _ := xdo("search", "--onlyvisible", "--name", "^Intruder — feedback$").Output(); len(bytes.TrimSpace(out)) != 0 {
		t.Error("another user's question opened a window")
	}
	t.Logf("refused: %s", strings.TrimSpace(stderr.String()))
}

// A socket directory owned by someone else is refused with a clear message.
func TestEndpointRefusesAForeignDirectory(t *testing.T) {
	requireSession(t)
	dir := filepath.Join(t.TempDir(), "foreign")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Skipf("cannot chown (not root?): %v", err)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(append(os.Environ(), env...), "FEEDBACK_SOCKET="+filepath.Join(dir, "s.sock"), "FEEDBACK_DB=off")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("the app started on a directory owned by another user")
	}
	if !strings.Contains(string(out), "owned by uid 65534") {
		t.Errorf("the error does not say why:\n%s", out)
	}
}
