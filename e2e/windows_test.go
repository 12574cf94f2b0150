package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/ipc/wire"
)

// The Windows app (make build-windows) under wine, driven from Linux: the
// MCP client, xdotool and xclip run here, the app, its UI process, the shim
// and `feedback ask` under wine in the throw-away prefix of
// scripts/wine/session.sh. `make test-windows` runs these tests.

// wineLab is the Windows app under wine: its executable, the probe
// (e2e/internal/winprobe) and the environment of every Windows process.
type wineLab struct {
	exe, probe, prefix string
	env                []string
}

// requireWine skips a test run outside `make test-windows`.
func requireWine(t *testing.T) *wineLab {
	t.Helper()
	exe := os.Getenv("FEEDBACK_WINDOWS_EXE")
	if exe == "" {
		t.Skip("the Windows tests run through `make test-windows` (FEEDBACK_WINDOWS_EXE: the app of make build-windows, run under wine)")
	}
	w := &wineLab{exe: exe, probe: os.Getenv("FEEDBACK_WINPROBE_EXE"), prefix: os.Getenv("WINEPREFIX")}
	if w.probe == "" || w.prefix == "" || os.Getenv("DISPLAY") == "" {
		t.Fatal("FEEDBACK_WINDOWS_EXE is set but FEEDBACK_WINPROBE_EXE, WINEPREFIX or DISPLAY is not: run `make test-windows`")
	}
	w.env = []string{
		"WINEDEBUG=-all",
		"FEEDBACK_TIMEOUT=600",
		"FEEDBACK_INPUT_GUARD_MS=0", // xdotool types at once after activating a window
		"FEEDBACK_UI_PREWARM=0",     // the shims start the app with their first call, as each test expects
	}
	w.reset(t)
	t.Cleanup(func() { w.reset(t) })
	return w
}

// reset ends every Windows process of the prefix (the app, its UI process,
// shims) and starts a persistent wineserver again, so the next wine command
// starts quickly.
func (w *wineLab) reset(t *testing.T) {
	t.Helper()
	exec.Command("wineserver", "-k").Run()
	exec.Command("wineserver", "-w").Run()
	// Its output is not collected: the server forks and would hold a pipe open.
	if err := exec.Command("wineserver", "-p").Run(); err != nil {
		t.Fatalf("wineserver -p: %v", err)
	}
}

// wineWaitDelay bounds how long a wine command's output is read after it
// has exited: the first wine command after a reset starts wine's services,
// which inherit its standard output and keep it open.
const wineWaitDelay = 2 * time.Second

// command is `wine feedback.exe args…` with the lab's environment.
func (w *wineLab) command(args ...string) *exec.Cmd {
	cmd := exec.Command("wine", append([]string{w.exe}, args...)...)
	cmd.Env = append(os.Environ(), w.env...)
	cmd.WaitDelay = wineWaitDelay
	return cmd
}

// run runs `wine feedback.exe args…` to its end within 60 s and returns its
// output and exit code.
func (w *wineLab) run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := w.command(args...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := runWithin(ctx, cmd)
	if ctx.Err() != nil {
		t.Fatalf("wine feedback.exe %s did not end within 60 s; stderr: %s", strings.Join(args, " "), errb.String())
	}
	return out.String(), errb.String(), exitCode(t, err)
}

// runWithin runs cmd, killing it when ctx ends.
func runWithin(ctx context.Context, cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		cmd.Process.Kill()
		return <-done
	}
}

// exitCode is the exit code that err (from Wait) reports.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode()
	}
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) { // that one: it exited 0 (wineWaitDelay)
		t.Fatal(err)
	}
	return 0
}

// probeCmd runs the Windows probe with args and returns its trimmed output.
func (w *wineLab) probeCmd(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "wine", append([]string{w.probe}, args...)...)
	cmd.Env = append(os.Environ(), w.env...)
	cmd.WaitDelay = wineWaitDelay
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrWaitDelay) {
		err = nil // it exited 0; wine's services held its output (wineWaitDelay)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		err = &probeError{args: args, stderr: strings.TrimSpace(string(ee.Stderr))}
	}
	return strings.TrimSpace(string(out)), err
}

type probeError struct {
	args   []string
	stderr string
}

func (e *probeError) Error() string { return "winprobe " + strings.Join(e.args, " ") + ": " + e.stderr }

// pipe is the user's pipe, \\.\pipe\feedback-<SID>, as a Windows process sees it.
func (w *wineLab) pipe(t *testing.T) string {
	t.Helper()
	p, err := w.probeCmd("pipe")
	if err != nil || !strings.HasPrefix(p, `\\.\pipe\feedback-S-1-`) {
		t.Fatalf("the user's pipe: %q, %v", p, err)
	}
	return p
}

// waitPipe waits until something answers on the user's pipe and returns
// its security descriptor in SDDL.
func (w *wineLab) waitPipe(t *testing.T, within time.Duration) string {
	t.Helper()
	pipe := w.pipe(t)
	deadline := time.Now().Add(within)
	for {
		sd, err := w.probeCmd("sddl", pipe)
		if err == nil {
			return sd
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on %s after %v: %v", pipe, within, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// profile is the Windows profile directory of the prefix's user
// (C:\users\NAME), holding AppData\Roaming and AppData\Local.
func (w *wineLab) profile(t *testing.T) string {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(w.prefix, "drive_c", "users", "*", "AppData", "Local"))
	for _, d := range dirs {
		if !strings.Contains(d, string(filepath.Separator)+"Public"+string(filepath.Separator)) {
			return filepath.Dir(filepath.Dir(d))
		}
	}
	t.Fatalf("no user profile with AppData\\Local in %s", w.prefix)
	return ""
}

// localAppData and appData are %LOCALAPPDATA% and %APPDATA%, as Linux paths.
func (w *wineLab) localAppData(t *testing.T) string {
	return filepath.Join(w.profile(t), "AppData", "Local")
}

func (w *wineLab) appData(t *testing.T) string {
	return filepath.Join(w.profile(t), "AppData", "Roaming")
}

// wineWindowWait bounds the wait for a window of an app (or UI process)
// starting under wine: wine's start-up and its OpenGL over Mesa take
// seconds more than the Linux build's.
const wineWindowWait = 60 * time.Second

// wineDraft is a draft as winprobe draft prints it.
type wineDraft struct {
	Replies []wire.Reply
	Images  int
}

// waitDraft waits until the app's database holds, for the open question
// titled title, a draft that ok accepts (read under wine by winprobe).
func (w *wineLab) waitDraft(t *testing.T, title string, ok func(wineDraft) bool) {
	t.Helper()
	db := windowsPath(filepath.Join(w.localAppData(t), "feedback", "feedback.db"), w.prefix)
	var last string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		out, err := w.probeCmd("draft", db, title)
		last = fmt.Sprint(out, err)
		var d wineDraft
		if err == nil && json.Unmarshal([]byte(out), &d) == nil && ok(d) {
			return
		}
	}
	t.Fatalf("no draft as wanted for %q within 30 s; the last: %s", title, last)
}

// windowsPath is the Windows path (C:\…) of path inside the prefix's drive_c.
func windowsPath(path, prefix string) string {
	rel, _ := filepath.Rel(filepath.Join(prefix, "drive_c"), path)
	return `C:\` + strings.ReplaceAll(rel, "/", `\`)
}

// mcp starts `wine feedback.exe mcp` under a real MCP client.
func (w *wineLab) mcp(t *testing.T, name string) *client.Client {
	t.Helper()
	return startMCPClientEnv(t, name, "2025-11-25", "wine", []string{w.exe, "mcp"}, nil, w.env)
}

// pids returns the Linux pids of the Windows processes running feedback.exe
// whose arguments after the program are args (none: the app).
func (w *wineLab) pids(args ...string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		f := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		prog := strings.ToLower(f[0][strings.LastIndexAny(f[0], `/\`)+1:])
		if prog != "feedback.exe" || strings.Join(f[1:], " ") != strings.Join(args, " ") {
			continue // not a Windows process of the app (wine shows the Windows command line)
		}
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// The shim under wine starts the app detached, a window opens on the X
// display and is answered with xdotool: typed text and an image put on the
// X clipboard with xclip, pasted with Ctrl+V (wine hands it to the app as a
// Win32 clipboard format), come back to the MCP client on Linux. The app
// listens on the user's pipe with the user-only DACL; its data is under
// %LOCALAPPDATA% as the README says; a second app exits at once; feedback
// ask reaches the running app.
func TestWindowsAppUnderWine(t *testing.T) {
	w := requireWine(t)
	pipe := w.pipe(t)
	if _, err := w.probeCmd("sddl", pipe); err == nil {
		t.Fatalf("something listens on %s before the test started the app", pipe)
	}

	src := writePNG(t, 800, 400)
	xclip := exec.Command("xclip", "-quiet", "-selection", "clipboard", "-t", "image/png", "-i", src)
	if err := xclip.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xclip.Process.Kill(); xclip.Wait() })

	// The app's first start in a fresh prefix (wine loads and maps the
	// 40 MB executable and its DLLs for the first time) once took longer
	// than the 15 s the shim waits for a started app (CI); the later
	// tests' starts take a few seconds. Load it once first.
	if _, stderr, code := w.run(t, "version"); code != 0 {
		t.Fatalf("wine feedback.exe version: exit %d: %s", code, stderr)
	}
	c := w.mcp(t, "wine")
	started := time.Now()
	res := call(c, "interactive_feedback", map[string]any{"message": "Does the **Windows** build work?", "header_label": "WinAsk"})
	win := findWindowWithin(t, "WinAsk — feedback", wineWindowWait)
	t.Logf("shim call → window mapped (app started by the shim) in %v", time.Since(started))
	activate(t, win)
	typeText(t, "typed under wine")
	key(t, "ctrl+v")
	w.waitDraft(t, "WinAsk", func(d wineDraft) bool { return d.Images == 1 })
	screenshot(t, "windows-wine-answer")
	key(t, "ctrl+Return")
	r := await(t, res)
	if txt := text(r); !strings.Contains(txt, "User reply:\ntyped under wine") || !strings.Contains(txt, "Attached images: 1") {
		t.Errorf("the answer's text = %q", txt)
	}
	if got := imageSizes(t, r); len(got) != 1 || got[0] != image.Pt(800, 400) {
		t.Errorf("image blocks = %v, want the pasted 800×400 picture", got)
	}

	// The pipe: owned by the user, one entry granting the user alone.
	sd := w.waitPipe(t, 5*time.Second)
	sid := strings.TrimPrefix(pipe, `\\.\pipe\feedback-`)
	if !strings.HasPrefix(sd, "O:"+sid+"D:P(") || strings.Count(sd, "(") != 1 || !strings.HasSuffix(sd, ";;;"+sid+")") {
		t.Errorf("the app's pipe has the security descriptor %s, want owner %s and one entry for %s alone", sd, sid, sid)
	}
	// The app's data where the README says: %LOCALAPPDATA%\feedback.
	for _, f := range []string{"feedback.db", "app.log"} {
		if _, err := os.Stat(filepath.Join(w.localAppData(t), "feedback", f)); err != nil {
			t.Errorf("%%LOCALAPPDATA%%\\feedback\\%s: %v", f, err)
		}
	}
	apps := w.pids()
	if len(apps) != 1 {
		t.Fatalf("feedback.exe app processes: %v, want the one the shim started", apps)
	}

	// A second app, started as the Run key or a double-click would, sees
	// the first and exits.
	t0 := time.Now()
	_, stderr, code := w.run(t)
	t.Logf("a second app exited with %d after %v", code, time.Since(t0))
	if code != 0 {
		t.Errorf("the second app exited with %d, want 0; stderr: %s", code, stderr)
	}
	if now := w.pids(); len(now) != 1 || now[0] != apps[0] {
		t.Errorf("app processes after the second start: %v, want %v", now, apps)
	}

	// feedback ask reaches the running app.
	ask := startAskCmd(t, w.command("ask", "--title", "WinAskCLI", "Which one?"))
	activate(t, findWindow(t, "WinAskCLI — feedback"))
	typeText(t, "from ask")
	key(t, "ctrl+Return")
	if code := ask.wait(t); code != 0 {
		t.Fatalf("feedback ask exited with %d; stderr: %s", code, ask.stderr.String())
	}
	if got := ask.stdout.String(); got != "from ask\n" {
		t.Errorf("feedback ask printed %q, want \"from ask\\n\"", got)
	}
}

// feedback ask starts the app when none runs (the shim's path, from the
// command line), and a cancelled call closes its window.
func TestWindowsAskStartsTheAppAndCancelCloses(t *testing.T) {
	w := requireWine(t)
	ask := startAskCmd(t, w.command("ask", "--title", "WinAskStart", "Started by ask?"))
	activate(t, findWindowWithin(t, "WinAskStart — feedback", wineWindowWait))
	typeText(t, "yes")
	key(t, "ctrl+Return")
	if code := ask.wait(t); code != 0 || ask.stdout.String() != "yes\n" {
		t.Fatalf("feedback ask: exit %d, stdout %q; stderr: %s", code, ask.stdout.String(), ask.stderr.String())
	}
	if n := len(w.pids()); n != 1 {
		t.Errorf("%d app processes after feedback ask started one", n)
	}

	c := w.mcp(t, "winCancel")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "interactive_feedback"
		req.Params.Arguments = map[string]any{"message": "Cancel me", "header_label": "WinCancel"}
		_, err := c.CallTool(ctx, req)
		done <- err
	}()
	findWindow(t, "WinCancel — feedback")
	cancel() // notifications/cancelled to the shim under wine
	<-done
	windowGone(t, "WinCancel — feedback", 10*time.Second)
}

// The UI process (`feedback.exe ui`, its channel the stdin and stdout pipes
// the app gave it) killed mid-question: the app starts another and the
// window comes back with what was typed; submitting sends it.
func TestWindowsUIProcessKilledComesBackWithTheDraft(t *testing.T) {
	w := requireWine(t)
	c := w.mcp(t, "winUIKill")
	res := call(c, "interactive_feedback", map[string]any{"message": "Type, then lose the window", "header_label": "WinUIKill"})
	activate(t, findWindowWithin(t, "WinUIKill — feedback", wineWindowWait))
	typeText(t, "typed before the crash")
	w.waitDraft(t, "WinUIKill", func(d wineDraft) bool { return len(d.Replies) > 0 && d.Replies[0].Text == "typed before the crash" })
	ui := w.pids("ui")
	if len(ui) != 1 {
		t.Fatalf("UI processes %v, want one", ui)
	}
	syscall.Kill(ui[0], syscall.SIGKILL)
	windowGone(t, "WinUIKill — feedback", 10*time.Second)
	// The facts in the order they happen: a new UI process running (wine
	// shows its Windows command line only then), then its window. (Found
	// first, a window could be gone by the time it was activated, with no
	// UI process listed yet: one CI run in three.)
	var restarted int
	waitFor(t, "a new UI process", wineWindowWait, func() bool {
		now := w.pids("ui")
		if len(now) == 1 && now[0] != ui[0] {
			restarted = now[0]
		}
		return restarted != 0
	})
	win := findWindowWithin(t, "WinUIKill — feedback", wineWindowWait)
	screenshot(t, "windows-wine-ui-restarted")
	activate(t, win)
	key(t, "ctrl+Return")
	wantText(t, await(t, res), "User reply:\ntyped before the crash")
	// One restart: the window and the answer came from the process that
	// replaced the killed one, not from a third after it died as well
	// (waiting for the process first would let that pass unseen).
	if now := w.pids("ui"); len(now) > 1 || len(now) == 1 && now[0] != restarted {
		t.Errorf("UI processes %v after the answer, want the one restarted (%d) or none (lingered out)", now, restarted)
	}
}

// A pipe of the user's name held by a process that is not the app: one
// owned by another principal is refused by the shim at once, and the agent
// is told why (the owner check); one the user created is a name collision: the app
// cannot take the name and says so, and the shim does not hang.
func TestWindowsPipeRefusesSquatters(t *testing.T) {
	w := requireWine(t)
	pipe := w.pipe(t)
	sid := strings.TrimPrefix(pipe, `\\.\pipe\feedback-`)

	t.Run("owned by another principal", func(t *testing.T) {
		stop := w.squat(t, pipe, "O:S-1-5-18D:P(A;;GA;;;WD)") // SYSTEM's, open to everyone
		defer stop()
		if sd, err := w.probeCmd("sddl", pipe); err != nil || !strings.HasPrefix(sd, "O:SY") {
			t.Skipf("wine did not give the pipe another owner (%q, %v): nothing to refuse", sd, err)
		}
		c := w.mcp(t, "winSquatOther")
		r := await(t, call(c, "interactive_feedback", map[string]any{"message": "to a squatter?", "header_label": "WinSquat"}))
		// The shim says why the window cannot be used, as on Linux (the
		// client's own form, if it has one, carries the reason).
		if txt := text(r); !strings.Contains(txt, "cannot be shown") || !strings.Contains(txt, "not by you") {
			t.Errorf("the shim's result on a pipe owned by SYSTEM: %q", txt)
		}
		if n := len(w.pids()); n != 0 {
			t.Errorf("%d app processes: the shim started the app beside a squatter", n)
		}
	})
	t.Run("a name collision", func(t *testing.T) {
		stop := w.squat(t, pipe, "O:"+sid+"D:P(A;;GA;;;"+sid+")")
		defer stop()
		_, stderr, code := w.run(t)
		if code == 0 || !strings.Contains(stderr, "does not answer as the feedback app") {
			t.Errorf("the app beside a squatter on its pipe: exit %d, stderr %q; want a failure saying the name is taken", code, stderr)
		}
		ask := startAskCmd(t, w.command("ask", "--title", "WinCollide", "anyone?"))
		if code := ask.wait(t); code == 0 {
			t.Errorf("feedback ask to a silent squatter exited 0: %q", ask.stdout.String())
		}
	})
}

// squat holds pipe with the security descriptor sddl from a process that
// is not the app, until stop.
func (w *wineLab) squat(t *testing.T, pipe, sddl string) (stop func()) {
	t.Helper()
	cmd := exec.Command("wine", w.probe, "squat", pipe, sddl)
	cmd.Env = append(os.Environ(), w.env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "listening" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("winprobe squat: %q %s", line, errb.String())
	}
	return func() { in.Close(); cmd.Wait() }
}

// feedback setup writes the Windows paths (%APPDATA%\Claude,
// %APPDATA%\Code\User) with the Windows path of feedback.exe, and
// setup autostart writes and removes the Run key value.
func TestWindowsSetupAndAutostart(t *testing.T) {
	w := requireWine(t)
	for _, tc := range []struct{ client, file, container string }{
		{"claude-desktop", filepath.Join("Claude", "claude_desktop_config.json"), "mcpServers"},
		{"vscode", filepath.Join("Code", "User", "mcp.json"), "servers"},
	} {
		if _, stderr, code := w.run(t, "setup", tc.client); code != 0 {
			t.Fatalf("setup %s: exit %d: %s", tc.client, code, stderr)
		}
		path := filepath.Join(w.appData(t), tc.file)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("setup %s: %v", tc.client, err)
		}
		var conf map[string]map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}
		if err := json.Unmarshal(b, &conf); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, b)
		}
		e := conf[tc.container]["feedback"]
		if !strings.HasSuffix(strings.ToLower(e.Command), `\feedback.exe`) || !strings.Contains(e.Command, `:\`) || strings.Join(e.Args, " ") != "mcp" {
			t.Errorf("%s: the entry is %+v, want the Windows path of feedback.exe with mcp", path, e)
		}
	}

	const runKey = `HKCU\Software\Microsoft\Windows\CurrentVersion\Run`
	if _, stderr, code := w.run(t, "setup", "autostart"); code != 0 {
		t.Fatalf("setup autostart: exit %d: %s", code, stderr)
	}
	v := regQuery(t, w, runKey)
	if !strings.Contains(v, "feedback") || !strings.Contains(strings.ToLower(v), `\feedback.exe"`) {
		t.Errorf("the Run key after setup autostart:\n%s", v)
	}
	if _, stderr, code := w.run(t, "setup", "autostart", "--remove"); code != 0 {
		t.Fatalf("setup autostart --remove: exit %d: %s", code, stderr)
	}
	if v := regQuery(t, w, runKey); strings.Contains(strings.ToLower(v), "feedback.exe") {
		t.Errorf("the Run key still names feedback.exe after --remove:\n%s", v)
	}
}

// regQuery is `reg query KEY` under wine.
func regQuery(t *testing.T, w *wineLab, key string) string {
	t.Helper()
	cmd := exec.Command("wine", "reg", "query", key)
	cmd.Env = append(os.Environ(), w.env...)
	cmd.WaitDelay = wineWaitDelay
	out, _ := cmd.CombinedOutput() // a missing key exits non-zero: the output says so
	return string(out)
}
