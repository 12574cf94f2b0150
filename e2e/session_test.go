package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/ipc"
)

// The session every test shares: the built binary, a private socket, state
// and config directory, and the X display of scripts/xsession.sh.
var (
	bin       string   // FEEDBACK_BIN
	env       []string // added to the environment of everything started
	socket    string
	artifacts string // screenshots land here
	appLog    string // where every app instance of the session logs
)

func TestMain(m *testing.M) {
	bin = os.Getenv("FEEDBACK_BIN")
	// Short: socket paths are limited to 108 bytes. In scripts/xsession.sh's
	// directory when there is one: it goes with the session even when this
	// binary dies without cleaning up (go test -timeout, a signal).
	dir, err := os.MkdirTemp(os.Getenv("XSESSION_TMP"), "fbe2e")
	if err != nil {
		panic(err)
	}
	socket = filepath.Join(dir, "feedback.sock")
	// Every test owns its home and runtime folder (the display and the
	// bus are scripts/xsession.sh's): nothing of the developer's — the
	// session record a `make run` left in ~/.cache, settings, history —
	// reaches the app or the shims, and nothing of the tests' reaches
	// theirs. npm keeps its cache where it was (the agent CLIs' installs).
	if realHome, err := os.UserHomeDir(); err == nil && os.Getenv("npm_config_cache") == "" {
		os.Setenv("npm_config_cache", filepath.Join(realHome, ".npm"))
	}
	os.MkdirAll(filepath.Join(dir, "home", ".cache"), 0o700) // Fyne makes its cache folder in it, not the folder itself
	for name, path := range map[string]string{"HOME": filepath.Join(dir, "home"), "XDG_RUNTIME_DIR": filepath.Join(dir, "run")} {
		if err := os.MkdirAll(path, 0o700); err != nil {
			panic(err)
		}
		os.Setenv(name, path)
	}
	os.Unsetenv("XDG_CACHE_HOME")
	appLog = filepath.Join(dir, "state", "feedback", "app.log")
	// Screenshots: in $FEEDBACK_ARTIFACTS, kept; else in a directory of
	// this run's, kept (and named at the end) when a test failed.
	artifacts = os.Getenv("FEEDBACK_ARTIFACTS")
	ownArtifacts := artifacts == ""
	if ownArtifacts {
		if artifacts, err = os.MkdirTemp("", "feedback-e2e-"); err != nil {
			panic(err)
		}
	} else {
		os.MkdirAll(artifacts, 0o755)
	}
	env = []string{
		"FEEDBACK_SOCKET=" + socket,
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_DATA_HOME=" + filepath.Join(dir, "data"), // the app's database
		"FEEDBACK_TIMEOUT=600",
		// xdotool types at once after activating a window: the input
		// guard's time rule is off (keyguard_test.go tests it).
		"FEEDBACK_INPUT_GUARD_MS=0",
		// A shim's greeting starts no app: many tests start shims on
		// sockets of their own before (or without) an app of their own.
		// prewarm_test.go and TestUIPrewarm turn it back to the settings
		// file's (the default: on) with "FEEDBACK_UI_PREWARM=".
		"FEEDBACK_UI_PREWARM=0",
	}
	code := m.Run()
	stopApp()
	removeCLIs() // the agent CLIs' npm installs (claudecode_test.go)
	log, _ := os.ReadFile(appLog)
	// Widgets touched off the Fyne goroutine, or a crash, fail the run even
	// when every answer came back.
	for _, bad := range []string{"Error in Fyne call thread", "panic:", "fatal error:"} {
		if strings.Contains(string(log), bad) {
			fmt.Fprintf(os.Stderr, "FAIL: the app's log contains %q\n", bad)
			code = 1
		}
	}
	if code != 0 {
		fmt.Fprintf(os.Stderr, "--- the app's log:\n%s\n", log)
	}
	os.RemoveAll(dir)
	switch {
	case !ownArtifacts:
		fmt.Fprintf(os.Stderr, "screenshots: %s\n", artifacts)
	case os.Remove(artifacts) == nil: // empty: no screenshot taken
	case code != 0:
		fmt.Fprintf(os.Stderr, "screenshots of this run (kept: a test failed): %s\n", artifacts)
	default:
		os.RemoveAll(artifacts)
		fmt.Fprintln(os.Stderr, "screenshots of this run removed (every test passed); FEEDBACK_ARTIFACTS=dir keeps them")
	}
	os.Exit(code)
}

// requireSession skips a test run outside `make e2e`.
func requireSession(t *testing.T) {
	t.Helper()
	if bin == "" || os.Getenv("DISPLAY") == "" {
		t.Skip("end-to-end tests run through `make e2e` (they need FEEDBACK_BIN and an X display)")
	}
}

// appClient talks to the app directly over its socket.
func appClient() *ipc.Client { return &ipc.Client{Path: socket} }

// appPID returns the running app's pid, or 0.
func appPID() int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	h, err := appClient().Hello(ctx)
	if err != nil {
		return 0
	}
	return h.PID
}

// stopApp terminates the running app, if any, and waits until it is gone.
func stopApp() {
	pid := appPID()
	if pid == 0 {
		return
	}
	syscall.Kill(pid, syscall.SIGTERM)
	for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(50 * time.Millisecond)
	}
}

// newMCP starts `feedback mcp` under a real MCP client and initializes it.
// extraEnv ("NAME=value") is added to this shim's environment only.
func newMCP(t *testing.T, name string, extraEnv ...string) *client.Client {
	t.Helper()
	return newMCPClient(t, name, nil, extraEnv...)
}

// newMCPClient is newMCP with client options (an elicitation handler); the
// client's own Start wires notifications and the server's requests.
func newMCPClient(t *testing.T, name string, opts []client.ClientOption, extraEnv ...string) *client.Client {
	t.Helper()
	return newMCPClientAt(t, name, "2025-11-25", opts, extraEnv...)
}

// newMCPClientAt is newMCPClient speaking protocol revision version
// (2026-07-28: stateless, no initialize on the wire).
func newMCPClientAt(t *testing.T, name, version string, opts []client.ClientOption, extraEnv ...string) *client.Client {
	t.Helper()
	return startMCPClient(t, name, version, bin, []string{"mcp"}, opts, extraEnv...)
}

// startMCPClient is newMCPClientAt with the command that runs the shim:
// command and args (a shell that runs it, for a shim whose parent is
// another process than the test's).
func startMCPClient(t *testing.T, name, version, command string, args []string, opts []client.ClientOption, extraEnv ...string) *client.Client {
	t.Helper()
	return startMCPClientEnv(t, name, version, command, args, opts, append(append([]string(nil), env...), extraEnv...))
}

// startMCPClientEnv starts command with args (a shim) under a real MCP
// client speaking version, with shimEnv as its whole environment (the
// Windows shim under wine has its own), and initializes it.
func startMCPClientEnv(t *testing.T, name, version, command string, args []string, opts []client.ClientOption, shimEnv []string) *client.Client {
	t.Helper()
	w := &testWriter{t: t, prefix: name + " shim: "}
	t.Cleanup(w.stop) // registered first, so it runs after the client is closed
	tr := transport.NewStdioWithOptions(command, shimEnv, args, transport.WithCommandStderrWriter(w))
	c := client.NewClient(tr, append([]client.ClientOption{client.WithProtocolVersion(version)}, opts...)...)
	// The process lives as long as Start's context: not bounded by the timeout below.
	if err := c.Start(context.Background()); err != nil {
		t.Fatalf("starting feedback mcp: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if c.ProtocolVersion() != version {
		t.Fatalf("the client speaks %s, want %s", c.ProtocolVersion(), version)
	}
	return c
}

type callResult struct {
	res *mcp.CallToolResult
	err error
}

// call calls tool in the background; the result arrives on the channel.
func call(c *client.Client, tool string, args map[string]any) <-chan callResult {
	return callWithProgress(c, tool, args, "")
}

// callWithProgress is call asking for progress under token (none if "").
func callWithProgress(c *client.Client, tool string, args map[string]any, token string) <-chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		req := mcp.CallToolRequest{}
		req.Params.Name = tool
		req.Params.Arguments = args
		if token != "" {
			req.Params.Meta = &mcp.Meta{ProgressToken: token}
		}
		res, err := c.CallTool(ctx, req)
		ch <- callResult{res, err}
	}()
	return ch
}

// await waits for a call's result.
func await(t *testing.T, ch <-chan callResult) *mcp.CallToolResult {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("tools/call: %v", r.err)
		}
		return r.res
	case <-time.After(30 * time.Second):
		t.Fatal("tools/call did not return within 30 s")
		return nil
	}
}

// text joins the text blocks of a result.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// xdotool runs xdotool and returns its trimmed output.
func xdotool(t *testing.T, args ...string) string {
	t.Helper()
	out, err := xdo(args...).CombinedOutput()
	if err != nil {
		t.Fatalf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// xdo is an xdotool command in a UTF-8 locale that exists everywhere:
// xdotool converts window titles through the locale, and an unknown one
// mangles every non-ASCII title.
func xdo(args ...string) *exec.Cmd {
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	return cmd
}

// activate gives win the keyboard.
func activate(t *testing.T, win string) {
	t.Helper()
	xdotool(t, "windowactivate", "--sync", win)
	// The window manager has made win the active window (a fact, read back;
	// the property can be briefly unreadable while it changes), and it has
	// stayed so for activeSettles: a window that just opened without the
	// focus gives it back to the one the user was in, and one that came
	// back quietly does so for up to a second (dialogs/place.go), which
	// can land after this activation, and a window just shown gives back
	// a focus it did not ask for. As a user clicks again, the activation
	// is repeated every 0.3 s until it holds. Keys typed from
	// then on reach the window after its focus-in: X keeps the order.
	last := time.Now()
	var since time.Time // when win last became the active window; zero: it is not
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		out, err := xdo("getactivewindow").Output()
		switch active := err == nil && strings.TrimSpace(string(out)) == win; {
		case active && since.IsZero():
			since = time.Now()
		case active && time.Since(since) >= activeSettles:
			return
		case !active:
			since = time.Time{}
			if time.Since(last) > 300*time.Millisecond {
				xdo("windowactivate", win).Run()
				last = time.Now()
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("window %s did not become the active window (%s, %v)", win, strings.TrimSpace(string(out)), err)
		}
	}
}

// activeSettles is how long activate waits for an activation to hold.
const activeSettles = 300 * time.Millisecond

// typeText types s into the focused window; characters that are not on
// the keyboard are mapped onto spare keys first (mapRunes).
func typeText(t *testing.T, s string) {
	t.Helper()
	mapRunes(t, s) // keymap_test.go: CJK and accents on keys of their own first
	xdotool(t, "type", "--delay", "25", s)
}

// key presses keys (xdotool names, e.g. ctrl+Return).
func key(t *testing.T, keys ...string) {
	t.Helper()
	xdotool(t, append([]string{"key", "--delay", "60"}, keys...)...)
}

// screenshot saves the whole screen as name.png in the artifacts directory.
func screenshot(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(artifacts, name+".png")
	if out, err := exec.Command("import", "-window", "root", path).CombinedOutput(); err != nil {
		t.Errorf("screenshot: %v: %s", err, out)
	}
	t.Logf("screenshot: %s", path)
	return path
}

// testWriter logs a child's stderr into the test's log until stop.
type testWriter struct {
	t       *testing.T
	prefix  string
	mu      sync.Mutex
	stopped bool
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.stopped {
		w.t.Log(w.prefix + strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

func (w *testWriter) stop() {
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
}
