package doctor

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"feedback/app/store"
	"feedback/cmd/feedback/setup"
	"feedback/internal/display"
	"feedback/ipc"
)

// home makes a private home with its XDG directories and points the
// process at it (the socket, settings and database paths read the
// environment).
func home(t *testing.T) string {
	t.Helper()
	h := t.TempDir()
	for k, v := range map[string]string{"HOME": h, "XDG_CONFIG_HOME": filepath.Join(h, ".config"),
		"XDG_DATA_HOME": filepath.Join(h, ".local/share"), "XDG_STATE_HOME": filepath.Join(h, ".local/state"),
		"XDG_RUNTIME_DIR": filepath.Join(h, "run"), "FEEDBACK_SOCKET": "", "FEEDBACK_DB": "",
		"DISPLAY": "", "WAYLAND_DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": "", "XDG_CURRENT_DESKTOP": "",
		"FEEDBACK_TIMEOUT": "", "CODEX_HOME": "", "CLAUDE_CONFIG_DIR": ""} {
		t.Setenv(k, v)
	}
	if err := os.MkdirAll(filepath.Join(h, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	return h
}

func env(t *testing.T, h string) (Env, *bytes.Buffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := &bytes.Buffer{}
	se := setup.Env{Exe: exe, Home: h, GOOS: "linux", Dir: h, Getenv: os.Getenv,
		LookPath: func(string) (string, error) { return "", exec.ErrNotFound },
		Stdout:   out, Stderr: out, Now: time.Now}
	return Env{Version: "1.2.3", GOOS: "linux", Getenv: os.Getenv, Setup: se, Stdout: out, Timeout: 5 * time.Second}, out
}

// startBus runs a private session bus and returns its address.
func startBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("needs dbus-daemon (Debian: dbus)")
	}
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	return strings.TrimSpace(addr)
}

// own takes name on the bus at addr for the rest of the test.
func own(t *testing.T, addr, name string) {
	t.Helper()
	c, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if r, err := c.RequestName(name, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName %s: %v %v", name, r, err)
	}
}

// serveApp runs an ipc server of version v on the default socket.
func serveApp(t *testing.T, path, v string) {
	t.Helper()
	l, err := ipc.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	s := ipc.NewServer(nil, ipc.ServerOptions{Version: v})
	go s.Serve(l)
	t.Cleanup(func() { s.Shutdown(context.Background()) })
}

// lines maps each check name to its report lines.
func lines(out string) map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if len(l) > 20 && (strings.HasPrefix(l, "OK") || strings.HasPrefix(l, "WARN") || strings.HasPrefix(l, "FAIL")) {
			name := strings.TrimSpace(l[6:20])
			m[name] += l + "\n"
		}
	}
	return m
}

func expect(t *testing.T, out string, want map[string][]string) {
	t.Helper()
	got := lines(out)
	for check, subs := range want {
		for _, s := range subs {
			if !strings.Contains(got[check], s) {
				t.Errorf("%s line %q: want %q", check, got[check], s)
			}
		}
	}
	if t.Failed() {
		t.Logf("report:\n%s", out)
	}
}

func TestGoodEnvironment(t *testing.T) {
	h := home(t)
	addr := startBus(t)
	t.Setenv("DISPLAY", ":99")
	wantDisplay := "X11 (DISPLAY=:99)"
	if display.NativeWayland { // the Wayland build needs the compositor
		t.Setenv("WAYLAND_DISPLAY", "wayland-0")
		wantDisplay = "Wayland (WAYLAND_DISPLAY=wayland-0) with XWayland (DISPLAY=:99)"
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	own(t, addr, "org.kde.StatusNotifierWatcher")
	own(t, addr, "org.freedesktop.Notifications")
	sock, _ := ipc.SocketPath()
	serveApp(t, sock, "1.2.3")
	dbPath, _ := store.DefaultPath()
	s, err := store.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	os.MkdirAll(filepath.Join(h, ".config", "feedback"), 0o700)
	os.WriteFile(filepath.Join(h, ".config", "feedback", "settings.json"), []byte(`{"timeout_seconds": 300}`), 0o600)
	e, out := env(t, h)
	fonts := filepath.Join(h, "fonts")
	os.MkdirAll(fonts, 0o700)
	os.WriteFile(filepath.Join(fonts, "wqy-microhei.ttc"), []byte("font"), 0o600)
	e.FontDirs = []string{fonts}
	c, _ := setup.Lookup("cursor")
	if _, err := setup.Configure(e.Setup, c, setup.ScopeUser, "", true); err != nil {
		t.Fatal(err)
	}
	if _, _, err := setup.InstallAutostart(e.Setup); err != nil {
		t.Fatal(err)
	}

	if code := Run(context.Background(), nil, e); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	expect(t, out.String(), map[string][]string{
		"display":       {"OK", wantDisplay},
		"session bus":   {"OK", "reachable"},
		"tray":          {"OK", "StatusNotifierWatcher"},
		"notifications": {"OK", "is running"},
		"CJK font":      {"OK", "wqy-microhei.ttc"},
		"app":           {"OK", "feedback 1.2.3 (pid", sock},
		"database":      {"OK", dbPath, "integrity ok"},
		"settings":      {"OK", "is valid"},
		"client":        {"OK", "Cursor is set up"},
		"autostart":     {"OK", "starts at login"},
	})
	if strings.Contains(out.String(), "WARN") || strings.Contains(out.String(), "FAIL") {
		t.Errorf("a good environment has warnings:\n%s", out)
	}
}

func TestBrokenEnvironment(t *testing.T) {
	h := home(t)
	dbPath, _ := store.DefaultPath()
	os.MkdirAll(filepath.Dir(dbPath), 0o700)
	junk := bytes.Repeat([]byte("not a database "), 400)
	os.WriteFile(dbPath, junk, 0o600)
	settingsPath := filepath.Join(h, ".config", "feedback", "settings.json")
	os.MkdirAll(filepath.Dir(settingsPath), 0o700)
	os.WriteFile(settingsPath, []byte(`{"timeout_seconds": "soon"`), 0o600)
	os.MkdirAll(filepath.Join(h, ".codex"), 0o700) // installed, not set up
	e, out := env(t, h)
	e.FontDirs = []string{filepath.Join(h, "nofonts")}

	if code := Run(context.Background(), nil, e); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	expect(t, out.String(), map[string][]string{
		"display":       {"FAIL", "neither DISPLAY nor WAYLAND_DISPLAY"},
		"session bus":   {"WARN", "not reachable"},
		"tray":          {"WARN"},
		"notifications": {"WARN"},
		"CJK font":      {"WARN", "none found"},
		"app":           {"OK", "not running"},
		"database":      {"FAIL", dbPath},
		"settings":      {"FAIL", "settings.json"},
		"client":        {"WARN", "Codex is installed but not set up"},
	})
	for _, fix := range []string{"fonts-noto-cjk", "feedback setup codex", "move the file away", "fix " + settingsPath} {
		if !strings.Contains(out.String(), fix) {
			t.Errorf("no fix %q in:\n%s", fix, out)
		}
	}
	if b, _ := os.ReadFile(dbPath); !bytes.Equal(b, junk) {
		t.Error("doctor changed the database file")
	}
	if !strings.HasSuffix(out.String(), "\n3 checks failed, 5 warnings.\n") { // in words, never "warning(s)"
		t.Errorf("the summary line is not counted in words:\n%s", out)
	}
}

func TestGNOMEWithoutAppIndicator(t *testing.T) {
	h := home(t)
	addr := startBus(t)
	t.Setenv("DISPLAY", ":0")
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	t.Setenv("XDG_CURRENT_DESKTOP", "ubuntu:GNOME")
	e, out := env(t, h)
	Run(context.Background(), nil, e)
	expect(t, out.String(), map[string][]string{"tray": {"WARN", "GNOME"}})
	if !strings.Contains(out.String(), "gnome-shell-extension-appindicator") {
		t.Errorf("no package named:\n%s", out)
	}
}

func TestAppVersionAndRefusals(t *testing.T) {
	t.Run("older app", func(t *testing.T) {
		h := home(t)
		sock, _ := ipc.SocketPath()
		serveApp(t, sock, "0.9.0")
		e, out := env(t, h)
		e.Version = "1.0.0"
		Run(context.Background(), nil, e)
		expect(t, out.String(), map[string][]string{"app": {"WARN", "feedback 0.9.0", "this binary is 1.0.0"}})
	})
	t.Run("escapes", func(t *testing.T) {
		h := home(t)
		sock, _ := ipc.SocketPath()
		serveApp(t, sock, "0.9.0\x1b]0;owned\x07\x1b[2J")
		e, out := env(t, h)
		e.Version = "1.0.0"
		Run(context.Background(), nil, e)
		if strings.ContainsAny(out.String(), "\x1b\x07") {
			t.Errorf("doctor printed an escape:\n%q", out.String())
		}
		expect(t, out.String(), map[string][]string{"app": {"WARN", "feedback 0.9.0␛]0;owned␇␛[2J"}})
	})
	t.Run("socket in a shared directory", func(t *testing.T) {
		h := home(t)
		dir := filepath.Join(h, "open")
		os.MkdirAll(dir, 0o700)
		sock := filepath.Join(dir, "feedback.sock")
		serveApp(t, sock, "1.2.3")
		os.Chmod(dir, 0o777)
		t.Setenv("FEEDBACK_SOCKET", sock)
		e, out := env(t, h)
		if code := Run(context.Background(), nil, e); code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		expect(t, out.String(), map[string][]string{"app": {"FAIL", "refusing", dir}})
	})
	t.Run("forwarded socket gone", func(t *testing.T) {
		h := home(t)
		t.Setenv("FEEDBACK_SOCKET", filepath.Join(h, ".ssh", "feedback.sock"))
		e, out := env(t, h)
		e.Headless = true
		if code := Run(context.Background(), nil, e); code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		expect(t, out.String(), map[string][]string{
			"display": {"OK", "headless build"},
			"app":     {"FAIL", "nothing answers", "(FEEDBACK_SOCKET)"},
		})
		if !strings.Contains(out.String(), "RemoteForward") {
			t.Errorf("the fix does not point at the desktop's forward:\n%s", out)
		}
	})
}

// The X11 build on a Wayland session without XWayland cannot open
// windows: doctor fails and names the way out, as the app does.
// The Wayland build on an X11 session does too.
func TestWaylandOnlySession(t *testing.T) {
	h := home(t)
	want := []string{"FAIL", "Wayland", "make build-wayland"}
	if display.NativeWayland {
		t.Setenv("DISPLAY", ":0")
		want = []string{"FAIL", "X11 session", "make build"}
	} else {
		t.Setenv("WAYLAND_DISPLAY", "wayland-0")
	}
	e, out := env(t, h)
	if code := Run(context.Background(), nil, e); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	expect(t, out.String(), map[string][]string{"display": want})
}

// cursor-agent on PATH and set up, but no project approved feedback:
// doctor warns (the CLI leaves the server out silently) and names the
// command; once approved, it is set up.
func TestCursorAgentNotApproved(t *testing.T) {
	h := home(t)
	e, _ := env(t, h)
	e.Setup.LookPath = func(name string) (string, error) {
		if name == "cursor-agent" {
			return "/usr/local/bin/cursor-agent", nil
		}
		return "", exec.ErrNotFound
	}
	c, _ := setup.Lookup("cursor-agent")
	if _, err := setup.Configure(e.Setup, c, setup.ScopeUser, "", true); err != nil {
		t.Fatal(err)
	}
	find := func() Result {
		for _, r := range checkClients(context.Background(), e) {
			if strings.Contains(r.Msg, "cursor-agent") {
				return r
			}
		}
		t.Fatal("no cursor-agent row")
		return Result{}
	}
	if r := find(); r.Level != Warn || !strings.Contains(r.Fix, "cursor-agent mcp enable feedback") {
		t.Errorf("not approved: %+v", r)
	}
	dir := filepath.Join(h, ".cursor", "projects", "home-me-web")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "mcp-approvals.json"), []byte(`["feedback-0123abcd"]`), 0o600)
	if r := find(); r.Level == Warn {
		t.Errorf("approved: %+v", r)
	}
	e.Setup.LookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	for _, r := range checkClients(context.Background(), e) {
		if strings.Contains(r.Msg, "cursor-agent") {
			t.Errorf("without cursor-agent on PATH the shared file is Cursor's: %+v", r)
		}
	}
}

// Doctor counts in words ("1 warning", "2 checks failed"), never
// "1 warning(s)".
func TestSummaryCounts(t *testing.T) {
	for _, tc := range []struct {
		fails, warns int
		want         string
	}{
		{0, 0, "All good."},
		{0, 1, "No failures; 1 warning: feedback works, with less."},
		{0, 4, "No failures; 4 warnings: feedback works, with less."},
		{1, 0, "1 check failed."},
		{1, 1, "1 check failed, 1 warning."},
		{2, 4, "2 checks failed, 4 warnings."},
	} {
		if got := summary(tc.fails, tc.warns); got != tc.want {
			t.Errorf("summary(%d, %d) = %q, want %q", tc.fails, tc.warns, got, tc.want)
		}
	}
}

// watcherProps is a StatusNotifierWatcher's properties, as D-Bus serves them.
type watcherProps struct{ hostRegistered bool }

func (w watcherProps) Get(iface, prop string) (dbus.Variant, *dbus.Error) {
	if iface == "org.kde.StatusNotifierWatcher" && prop == "IsStatusNotifierHostRegistered" {
		return dbus.MakeVariant(w.hostRegistered), nil
	}
	return dbus.Variant{}, dbus.MakeFailedError(fmt.Errorf("no property %s.%s", iface, prop))
}

// A StatusNotifierWatcher with no host registered shows no icon anywhere:
// the tray line warns and says how to quit without one; with a host it is
// OK.
func TestTrayWatcherWithoutHost(t *testing.T) {
	for _, registered := range []bool{false, true} {
		h := home(t)
		addr := startBus(t)
		t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
		c, err := dbus.Connect(addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if err := c.Export(watcherProps{registered}, "/StatusNotifierWatcher", "org.freedesktop.DBus.Properties"); err != nil {
			t.Fatal(err)
		}
		if r, err := c.RequestName("org.kde.StatusNotifierWatcher", dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
			t.Fatal(r, err)
		}
		e, _ := env(t, h)
		r := checkTray(context.Background(), e)[0]
		if registered && r.Level != OK || !registered && (r.Level != Warn || !strings.Contains(r.Msg, "no tray host is registered") || !strings.Contains(r.Fix, "feedback quit")) {
			t.Errorf("host registered %v: %+v", registered, r)
		}
	}
}
