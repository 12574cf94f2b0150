package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// writeSettings writes settings.json under a new config directory and
// returns the XDG_CONFIG_HOME=… variable for it.
func writeSettings(t *testing.T, json string) string {
	t.Helper()
	config := t.TempDir()
	if err := os.MkdirAll(filepath.Join(config, "feedback"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(config, "feedback", "settings.json"), []byte(json), 0o600); err != nil {
		t.Fatal(err)
	}
	return "XDG_CONFIG_HOME=" + config
}

// The UI process killed (kill -9) with two windows open: the resident app
// starts another, and both windows come back — the one being typed in with
// its draft (submitting sends it), the untouched one with its countdown
// where it was, not from the start — quietly: the user, gone to another
// program meanwhile, keeps the focus there.
func TestUIProcessKilledWindowsComeBack(t *testing.T) {
	requireSession(t)
	scr := openScreen(t)
	scr.waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db)
	app := appPID()

	typed := choiceQuestion("UIKillTyped")
	untouched := choiceQuestion("UIKillCountdown")
	untouched.TimeoutSeconds = 72
	chTyped, _ := askApp(t, typed)
	activate(t, findWindow(t, "UIKillTyped — feedback"))
	typeText(t, "typed before the crash")
	waitDraftOf(t, db, typed.ID, hasText("typed before the crash"))
	chUntouched, _ := askApp(t, untouched)
	// The untouched countdown runs into its last minute, which its window
	// shows as a band (on top, where X shows it): restarted from the
	// start, it would show none for 12 s.
	countdown := findWindow(t, "UIKillCountdown — feedback")
	activate(t, countdown)
	scr.waitWarningBand(t, countdown, 30*time.Second)

	elsewhere := otherProgramWindow(t)
	activate(t, elsewhere)

	killed := waitUIPIDs(t, app, 1, 5*time.Second)[0]
	syscall.Kill(killed, syscall.SIGKILL)
	windowGone(t, "UIKillTyped — feedback", 5*time.Second)
	restarted := waitUIPIDs(t, app, 1, 10*time.Second)[0]
	if restarted == killed {
		t.Fatal("the killed UI process still counts")
	}
	win := findWindow(t, "UIKillTyped — feedback")
	countdown = findWindow(t, "UIKillCountdown — feedback")
	restored := time.Now()
	keepsFocus(t, elsewhere, 2*time.Second)
	screenshot(t, "ui-process-restarted")

	// The untouched window's countdown went on from where it was: in its
	// last minute still (dismissed below, it had not run out either).
	activate(t, countdown)
	scr.waitWarningBand(t, countdown, time.Until(restored.Add(restoredWithin)))

	activate(t, win)
	key(t, "ctrl+Return")
	r := awaitAsk(t, chTyped)
	if r.err != nil || r.a.Status != wire.StatusAnswered || len(r.a.Replies) != 1 || r.a.Replies[0].Text != "typed before the crash" {
		t.Fatalf("answer = %+v, %v; want the draft typed before the crash", r.a, r.err)
	}
	activate(t, countdown)
	key(t, "Escape")
	if r := awaitAsk(t, chUntouched); r.err != nil || r.a.Status != wire.StatusDismissed {
		t.Fatalf("answer = %+v, %v; want dismissed", r.a, r.err)
	}
	if appPID() != app {
		t.Error("the resident app changed while only its UI process died")
	}
}

// restoredWithin is how long after a window is shown again its countdown's
// last-minute band may take to be seen: well under the 12 s a countdown
// of 72 s restarted from the start would take.
const restoredWithin = 6 * time.Second

// otherProgramWindow opens a window of another program (xmessage) and
// returns its id: where the user works while questions come back.
func otherProgramWindow(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("xmessage", "-title", "OtherProgram", "the user's work")
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Skipf("no xmessage: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return findWindow(t, "OtherProgram")
}

// keepsFocus checks, for d, that win keeps the focus. A newly created
// window can hold it for a frame or two before the Pool gives it back (the
// window manager focuses a native window as it maps it, and Fyne creates
// the native window only then: place.go leaveFocus); an excursion longer
// than maxExcursion, or the focus elsewhere at the end, fails.
func keepsFocus(t *testing.T, win string, d time.Duration) {
	t.Helper()
	const maxExcursion = 300 * time.Millisecond
	var away time.Time // when the focus left win; zero while win has it
	var longest time.Duration
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		out, err := xdo("getactivewindow").Output()
		got := strings.TrimSpace(string(out))
		switch {
		case err != nil:
		case got == win:
			away = time.Time{}
		case away.IsZero():
			away = time.Now()
		case time.Since(away) > maxExcursion:
			name, _ := xdo("getwindowname", got).Output()
			t.Fatalf("the focus went to %s (%q) for over %v; want it kept by %s", got, strings.TrimSpace(string(name)), maxExcursion, win)
		}
		if !away.IsZero() {
			longest = max(longest, time.Since(away))
		}
	}
	if !away.IsZero() {
		t.Fatalf("the focus is not back with %s at the end", win)
	}
	t.Logf("the focus left %s for at most %v", win, longest.Round(time.Millisecond))
}

// No window open for ui_linger_seconds, with ui_sleep off: the UI
// process exits and the resident app stays, answering; the next question
// starts a new UI process.
func TestUIProcessLingersThenExits(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	startApp(t, writeSettings(t, `{"ui_linger_seconds": 1, "ui_sleep": false}`))
	app := appPID()
	if pids := uiPIDs(app); len(pids) != 0 {
		t.Fatalf("UI processes %v before any question", pids)
	}
	r := startAsk(t, "--yesno", "--title", "Linger1", "First?")
	activate(t, findWindow(t, "Linger1 — feedback"))
	first := waitUIPIDs(t, app, 1, time.Second)[0]
	key(t, "alt+y")
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
	waitUIPIDs(t, app, 0, 10*time.Second)
	if appPID() != app {
		t.Fatal("the resident app went away with its UI process")
	}
	r = startAsk(t, "--yesno", "--title", "Linger2", "Second?")
	activate(t, findWindow(t, "Linger2 — feedback"))
	if second := waitUIPIDs(t, app, 1, time.Second)[0]; second == first {
		t.Error("the second question went to the UI process that exited")
	}
	key(t, "alt+n")
	if code := r.wait(t); code != 0 || r.stdout.String() != "no\n" {
		t.Fatalf("exit %d, stdout %q; want the answer no", code, r.stdout.String())
	}
}

// Quit from the tray with questions open asks first. Keep running keeps
// everything; Quit ends each question as dismissed by the user, the shims
// report that, and they do not start the app again.
func TestTrayQuitWithQuestionsOpen(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	ensureApp(t)
	app := appPID()
	defer ensureApp(t)
	tray := openTray(t)
	shim1, shim2 := newMCP(t, "quitter-a"), newMCP(t, "quitter-b")
	a := call(shim1, "interactive_feedback", map[string]any{"message": "Still there?", "header_label": "QuitOpenA"})
	b := call(shim2, "ask_text", map[string]any{"question": "Anything else?", "title": "QuitOpenB"})
	findWindow(t, "QuitOpenA — feedback")
	findWindow(t, "Anything else? — feedback")

	tray.click(t, tray.labels(t)["Quit"])
	confirm := findWindow(t, "Quit feedback?")
	screenshot(t, "quit-confirmation")
	activate(t, confirm)
	key(t, "Return") // the safe choice
	windowGone(t, "Quit feedback?", 5*time.Second)
	if appPID() != app {
		t.Fatal("Keep running quit the app")
	}
	findWindow(t, "QuitOpenA — feedback")

	tray.click(t, tray.labels(t)["Quit"])
	activate(t, findWindow(t, "Quit feedback?"))
	key(t, "alt+q")
	resA, resB := await(t, a), await(t, b)
	if got := text(resA); !strings.Contains(got, "quit the feedback app") {
		t.Errorf("interactive_feedback after Quit: %q, want it to say the user quit", got)
	}
	if got := text(resB); !strings.Contains(got, `"status":"cancelled"`) || !strings.Contains(got, "quit the feedback app") {
		t.Errorf("ask_text after Quit: %q, want it cancelled, saying the user quit", got)
	}
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(app, 0) == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the app still runs after Quit")
		}
	}
	// Nothing starts it again: the shims got their answers. (A shim that
	// took the quit for a crash restarts the app within 0.6 s: give it
	// more than three times that to show the absence is real.)
	time.Sleep(2 * time.Second)
	if pid := appPID(); pid != 0 {
		t.Errorf("the app was started again (pid %d) after the user quit", pid)
	}
}

// With ui_prewarm, an agent's MCP server starting (initialize) starts the
// UI process before any question; without it, nothing starts. (The
// session's FEEDBACK_UI_PREWARM=0 is blanked: the file decides.)
func TestUIPrewarm(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	startApp(t, writeSettings(t, `{"ui_prewarm": true}`), "FEEDBACK_UI_PREWARM=")
	app := appPID()
	if pids := uiPIDs(app); len(pids) != 0 {
		t.Fatalf("UI processes %v before any shim", pids)
	}
	newMCP(t, "prewarm")
	waitUIPIDs(t, app, 1, 5*time.Second)

	off := writeSettings(t, `{"ui_prewarm": false}`)
	startApp(t, off, "FEEDBACK_UI_PREWARM=")
	app = appPID()
	newMCP(t, "no-prewarm", off, "FEEDBACK_UI_PREWARM=")
	// The shim greets right after initialize: give it the time a prewarm
	// took above (well under a second) three times over.
	time.Sleep(1500 * time.Millisecond)
	if pids := uiPIDs(app); len(pids) != 0 {
		t.Errorf("UI processes %v without ui_prewarm", pids)
	}
}

// History… and Settings… in the tray open their windows in the UI process
// (again: raised, not doubled); an open one keeps the UI process past its
// linger time, and closing the last lets it go to sleep.
func TestTrayOpensHistoryAndSettings(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	startApp(t, writeSettings(t, `{"ui_linger_seconds": 1}`))
	app := appPID()
	tray := openTray(t)
	ids := tray.labels(t)
	for _, want := range []string{"History…", "Settings…"} {
		if _, ok := ids[want]; !ok {
			t.Fatalf("tray menu %v lacks %q", ids, want)
		}
	}
	tray.click(t, ids["Settings…"])
	settingsWin := findWindow(t, "feedback settings")
	activate(t, settingsWin)
	windowShot(t, settingsWin, "settings-window")
	tray.click(t, ids["History…"])
	findWindow(t, "feedback history")
	tray.click(t, ids["Settings…"])
	if out := xdotool(t, "search", "--onlyvisible", "--name", "^feedback settings$"); len(strings.Fields(out)) != 1 {
		t.Errorf("Settings… twice made windows %q, want the one raised", out)
	}
	screenshot(t, "tray-history-settings")
	// Past the linger time both windows are still there.
	time.Sleep(2500 * time.Millisecond)
	findWindow(t, "feedback settings")
	findWindow(t, "feedback history")
	ui := waitUIPIDs(t, app, 1, time.Second)[0]

	// Closed the way a user does (the window manager's close: Alt+F4 in
	// openbox), not destroyed under the app.
	activate(t, settingsWin)
	key(t, "alt+F4")
	windowGone(t, "feedback settings", 5*time.Second)
	activate(t, findWindow(t, "feedback history"))
	key(t, "alt+F4")
	windowGone(t, "feedback history", 5*time.Second)
	waitUIState(t, ui, 'T', 10*time.Second) // asleep (ui_sleep): no window keeps it
}

// A saved settings.json applies to the running app without a restart: a
// shorter ui_linger_seconds with ui_sleep off lets the UI process exit
// sooner.
func TestResidentAppAppliesSettingsLive(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	cfg := writeSettings(t, `{"ui_linger_seconds": 600}`)
	startApp(t, cfg)
	app := appPID()
	path := filepath.Join(strings.TrimPrefix(cfg, "XDG_CONFIG_HOME="), "feedback", "settings.json")
	if err := os.WriteFile(path+".tmp", []byte(`{"ui_linger_seconds": 1, "ui_sleep": false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil { // as editors and the Settings window save
		t.Fatal(err)
	}
	// Nothing outside the app shows the linger it holds until a UI process
	// goes: the question below takes longer to open and answer than the
	// app takes to read the file, and the UI process going within 10 s,
	// not 600, is the proof.
	r := startAsk(t, "--yesno", "--title", "LiveLinger", "Now?")
	activate(t, findWindow(t, "LiveLinger — feedback"))
	key(t, "alt+y")
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
	waitUIPIDs(t, app, 0, 10*time.Second) // not 600 s
}
