package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
	"feedback/ipc/wire"
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

	valid, _ := json.Marshal(wire.Question{ID: "endpoint", Prompts: []wire.Prompt{{Markdown: "x"}}})
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
			var e wire.Error
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
	if visibleWindows("Intruder — feedback") != 0 {
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

// envSpy makes the test binary the other user's listener (runSpy).
const envSpy = "FEEDBACK_E2E_SPY"

func init() {
	if path := os.Getenv(envSpy); path != "" {
		os.Exit(runSpy(path))
	}
}

// runSpy listens at path, as another local user would to catch questions:
// it prints "listening", then, one connection at a time, how many bytes
// each sent before it closed ("connection: N bytes"), and stops after a
// connection that sent "end" (the test's own, the last).
func runSpy(path string) int {
	l, err := net.Listen("unix", path)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	os.Chmod(path, 0o777) // anyone may connect, as a trap would allow
	fmt.Println("listening")
	for {
		c, err := l.Accept()
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		b, _ := io.ReadAll(c)
		c.Close()
		fmt.Printf("connection: %d bytes\n", len(b))
		if string(b) == "end" {
			return 0
		}
	}
}

// spy is another user's listener, started by startSpy.
type spy struct {
	path  string
	lines *bufio.Scanner
}

// startSpy runs runSpy as uid 65534 listening at path, whose directory that
// user must be able to write.
func startSpy(t *testing.T, path string) *spy {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	public, err := os.MkdirTemp("", "fbspy")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(public) })
	os.Chmod(public, 0o755)
	helper := filepath.Join(public, "spy")
	copyFile(t, exe, helper)
	cmd := exec.Command(helper)
	cmd.Env = append(os.Environ(), envSpy+"="+path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	s := &spy{path: path, lines: bufio.NewScanner(out)}
	if !s.lines.Scan() || s.lines.Text() != "listening" {
		t.Fatalf("the other user's listener: %q, %v", s.lines.Text(), s.lines.Err())
	}
	return s
}

// heardNothing fails the test if any connection sent the spy a byte. It
// makes the last connection itself and reads the spy's report up to it.
func (s *spy) heardNothing(t *testing.T, at string) {
	t.Helper()
	c, err := net.Dial("unix", at)
	if err != nil {
		t.Fatalf("reach the spy: %v", err)
	}
	io.WriteString(c, "end")
	c.Close()
	for s.lines.Scan() {
		line := s.lines.Text()
		if line == "connection: 3 bytes" {
			return
		}
		if line != "connection: 0 bytes" {
			t.Errorf("the other user's listener heard from a client: %s", line)
		}
	}
	t.Fatalf("the spy's report ended early: %v", s.lines.Err())
}

// Another local user who listens where the clients look receives nothing
// from `feedback ask` or `feedback mcp`: they refuse the endpoint, naming
// its path and owner, before sending a byte, so that a forged "yes" to a
// force-push never comes back as confirmed.
func TestClientsRefuseAnotherUsersEndpoint(t *testing.T) {
	requireBinary(t)
	if os.Getuid() != 0 {
		t.Skip("needs root to listen as another user")
	}
	const prompt = "Force-push to main and drop the prod DB?"
	tests := []struct {
		name string
		// setup starts the other user's listener and returns it, the
		// clients' extra environment, where to reach the spy, and what the
		// refusal must say ("" when the clients never look there at all).
		setup func(t *testing.T) (s *spy, env []string, at, want string)
	}{
		{"FEEDBACK_SOCKET in a directory another user owns", func(t *testing.T) (*spy, []string, string, string) {
			dir, err := os.MkdirTemp("", "fbtrap")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			os.Chown(dir, 65534, 65534)
			path := filepath.Join(dir, "feedback.sock")
			return startSpy(t, path), []string{"FEEDBACK_SOCKET=" + path}, path, dir + ": the socket directory is owned by uid 65534"
		}},
		{"another user's listener behind a socket in your own directory", func(t *testing.T) (*spy, []string, string, string) {
			theirs, err := os.MkdirTemp("", "fbtrap")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(theirs) })
			os.Chown(theirs, 65534, 65534)
			s := startSpy(t, filepath.Join(theirs, "s.sock"))
			mine, err := os.MkdirTemp("", "fbmine")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(mine) })
			path := filepath.Join(mine, "feedback.sock")
			if err := os.Rename(s.path, path); err != nil {
				t.Fatal(err)
			}
			os.Chown(path, 0, 0) // only the peer check can tell now
			return s, []string{"FEEDBACK_SOCKET=" + path}, path, path + ": the program listening on it runs as uid 65534"
		}},
		{"XDG_RUNTIME_DIR unset and the old /tmp fallback taken", func(t *testing.T) (*spy, []string, string, string) {
			old := filepath.Join(os.TempDir(), "feedback-0")
			if _, err := os.Lstat(old); err == nil {
				t.Skipf("%s exists on this machine; not touching it", old)
			}
			if err := os.Mkdir(old, 0o700); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(old) })
			os.Chown(old, 65534, 65534)
			path := filepath.Join(old, "feedback.sock")
			// No display: a client that looks in the right place finds no
			// app and cannot start one.
			return startSpy(t, path), []string{"FEEDBACK_SOCKET=", "XDG_RUNTIME_DIR=", "XDG_CACHE_HOME=",
				"HOME=" + t.TempDir(), "DISPLAY=", "WAYLAND_DISPLAY="}, path, ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, extra, at, want := tt.setup(t)

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "ask", "-yesno", prompt)
			cmd.Env = append(append(os.Environ(), env...), extra...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err == nil || ctx.Err() != nil {
				t.Errorf("feedback ask: %v, want a prompt refusal; stderr:\n%s", err, &stderr)
			}
			if want != "" && !strings.Contains(stderr.String(), want) {
				t.Errorf("feedback ask does not say %q:\n%s", want, &stderr)
			}

			c := newMCP(t, "trap", extra...)
			res := callNow(t, c, "interactive_feedback", map[string]any{"message": prompt})
			if want != "" && !strings.Contains(text(res), want) {
				t.Errorf("feedback mcp's result does not say %q:\n%s", want, text(res))
			}
			c.Close()
			s.heardNothing(t, at)
		})
	}
}
