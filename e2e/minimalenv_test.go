package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/ipc"
)

// tsMinimalEnv is the whole environment the TypeScript SDK's stdio
// transport gives a server (DEFAULT_INHERITED_ENV_VARS: HOME LOGNAME PATH
// SHELL TERM USER), with home as HOME, plus the config's env.
func tsMinimalEnv(home string, configEnv map[string]string) []string {
	e := []string{"HOME=" + home}
	for _, k := range []string{"LOGNAME", "PATH", "SHELL", "TERM", "USER"} {
		if v, ok := os.LookupEnv(k); ok {
			e = append(e, k+"="+v)
		}
	}
	for k, v := range configEnv {
		e = append(e, k+"="+v)
	}
	return e
}

// A client that passes the TypeScript SDK's minimal environment (the MCP
// Inspector, mcp-cli, Claude Desktop with the entry feedback setup wrote)
// starts the shim with no XDG_RUNTIME_DIR and no DISPLAY. The shim still
// reaches the app running on the user's display — here one listening in a
// custom XDG_RUNTIME_DIR — and, once that app is gone, starts one on the
// same session; doctor names where it looked.
func TestMinimalEnvironmentReachesTheApp(t *testing.T) {
	requireSession(t)
	home := t.TempDir()
	rt, err := os.MkdirTemp("", "fbrt") // short: a socket path
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(rt)
	os.Chmod(rt, 0o700)
	sock := filepath.Join(rt, "feedback", "feedback.sock")
	data := t.TempDir()

	// The app, started as a desktop session starts it: the whole
	// environment, a runtime directory of its own.
	var appEnv []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, ipc.EnvSocket+"=") && !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") && !strings.HasPrefix(kv, "HOME=") {
			appEnv = append(appEnv, kv)
		}
	}
	appEnv = append(appEnv, "HOME="+home, "XDG_RUNTIME_DIR="+rt, "XDG_DATA_HOME="+data, "XDG_STATE_HOME="+filepath.Join(data, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "FEEDBACK_INPUT_GUARD_MS=0", "FEEDBACK_TIMEOUT=600", "FEEDBACK_UI_PREWARM=0")
	app := exec.Command(bin)
	app.Env = appEnv
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func(pid int) {
		syscall.Kill(pid, syscall.SIGTERM)
		waitFor(t, "the app to exit", 10*time.Second, func() bool { return syscall.Kill(pid, 0) != nil })
	}
	go app.Wait()
	waitFor(t, "the app to listen in its runtime directory", 20*time.Second, func() bool { return helloAt(sock) != 0 })
	defer func() {
		if pid := helloAt(sock); pid != 0 {
			stop(pid)
		}
	}()

	// The entry feedback setup writes for Claude Desktop, used as it is.
	setup := exec.Command(bin, "setup", "claude-desktop")
	setup.Env = appEnv
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("feedback setup claude-desktop: %v\n%s", err, out)
	}
	var cfg struct {
		Servers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	raw, err := os.ReadFile(filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	entry, ok := cfg.Servers["feedback"]
	if !ok {
		t.Fatalf("no feedback entry in %s", raw)
	}
	// The input guard's time rule off, as in every test here: the app the
	// shim starts inherits it.
	shimEnv := append(tsMinimalEnv(home, entry.Env), "FEEDBACK_INPUT_GUARD_MS=0")

	ask := func(name, answer string) {
		t.Helper()
		// env -i: mcp-go's stdio transport adds its own environment to the
		// one given; the shim gets shimEnv and nothing else.
		args := append(append(append([]string{"-i"}, shimEnv...), entry.Command), entry.Args...)
		c := startMCPClientEnv(t, name, "2025-11-25", "/usr/bin/env", args, nil, nil)
		res := call(c, "ask_text", map[string]any{"question": "Minimal environment " + name + "?"})
		win := findWindow(t, "Minimal environment "+name+"? — feedback")
		activate(t, win)
		typeText(t, answer)
		key(t, "ctrl+Return")
		if got := structured(t, await(t, res)); got["answer"] != answer || got["status"] != "answered" {
			t.Fatalf("%s: the agent got %v, want the answer %q", name, got, answer)
		}
	}
	ask("running", "found it")

	doctor := exec.Command(bin, "doctor")
	doctor.Env = tsMinimalEnv(home, nil) // exec.Cmd.Env is the whole environment
	out, _ := doctor.CombinedOutput()
	if !strings.Contains(string(out), "answers at "+sock) {
		t.Errorf("doctor under a minimal environment does not find the app at %s:\n%s", sock, out)
	}

	// No app runs: the shim starts one on the session the app recorded.
	stop(helloAt(sock))
	ask("started", "started it")
	if helloAt(sock) == 0 {
		log, _ := os.ReadFile(filepath.Join(home, ".local", "state", "feedback", "app.log"))
		t.Errorf("the app the shim started does not listen in the session's runtime directory; its log:\n%s", log)
	}
}

// helloAt returns the pid of the app answering at path, or 0.
func helloAt(path string) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	h, err := (&ipc.Client{Path: path}).Hello(ctx)
	if err != nil {
		return 0
	}
	return h.PID
}
