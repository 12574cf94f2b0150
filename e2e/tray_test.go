package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// trayMenu reaches the app's tray menu the way a tray host does: the
// StatusNotifierWatcher names the item, the item names its dbusmenu.
type trayMenu struct {
	conn *dbus.Conn
	obj  dbus.BusObject
	item dbus.BusObject
}

func openTray(t *testing.T) *trayMenu {
	t.Helper()
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatalf("session bus: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	watcher := conn.Object("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher")
	var items []string
	for deadline := time.Now().Add(10 * time.Second); len(items) == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		v, err := watcher.GetProperty("org.kde.StatusNotifierWatcher.RegisteredStatusNotifierItems")
		if err == nil {
			items, _ = v.Value().([]string)
		}
	}
	if len(items) != 1 {
		t.Fatalf("registered tray items = %q, want the app's one", items)
	}
	// An item is "busname/path" (or a bare bus name for the default path).
	name, path, found := strings.Cut(items[0], "/")
	if !found {
		path = "StatusNotifierItem"
	}
	item := conn.Object(name, dbus.ObjectPath("/"+path))
	menuPath, err := item.GetProperty("org.kde.StatusNotifierItem.Menu")
	if err != nil {
		t.Fatalf("the tray item has no menu: %v", err)
	}
	return &trayMenu{conn: conn, item: item, obj: conn.Object(name, menuPath.Value().(dbus.ObjectPath))}
}

// layout is the menu's top-level items as dbusmenu's GetLayout gives
// them, each with its properties and its children, the whole depth.
// fyne.io/systray (from v1.12.3) answers the first GetLayout after each
// rebuild of the menu one level deep, submenus empty, and emits
// LayoutUpdated 150 ms later (for libdbusmenu-gtk3's sake): as a tray host
// does on that signal, a layout with an empty submenu is asked for again.
func (m *trayMenu) layout(t *testing.T) []dbus.Variant {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		var revision uint32
		var layout struct {
			ID       int32
			Props    map[string]dbus.Variant
			Children []dbus.Variant
		}
		if err := busCall(m.obj, "com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&revision, &layout); err != nil {
			t.Fatalf("GetLayout: %v", err)
		}
		if !hasEmptySubmenu(layout.Children) || time.Now().After(deadline) {
			return layout.Children
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// hasEmptySubmenu reports whether an item of items says it has a submenu
// ("children-display": "submenu") and came without its children.
func hasEmptySubmenu(items []dbus.Variant) bool {
	for _, c := range items {
		fields, ok := c.Value().([]any)
		if !ok || len(fields) < 3 {
			continue
		}
		props, _ := fields[1].(map[string]dbus.Variant)
		children, _ := fields[2].([]dbus.Variant)
		if d, ok := props["children-display"]; ok && d.Value() == "submenu" && len(children) == 0 {
			return true
		}
		if hasEmptySubmenu(children) {
			return true
		}
	}
	return false
}

// labels returns the top-level menu labels with their ids.
func (m *trayMenu) labels(t *testing.T) map[string]int32 {
	t.Helper()
	out := map[string]int32{}
	for _, c := range m.layout(t) {
		fields, ok := c.Value().([]any)
		if !ok || len(fields) < 2 {
			continue
		}
		id, _ := fields[0].(int32)
		props, _ := fields[1].(map[string]dbus.Variant)
		if label, ok := props["label"]; ok {
			out[label.Value().(string)] = id
		}
	}
	return out
}

func (m *trayMenu) click(t *testing.T, id int32) {
	t.Helper()
	call := busCall(m.obj, "com.canonical.dbusmenu.Event", 0, id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix()))
	if call.Err != nil {
		t.Fatalf("Event clicked: %v", call.Err)
	}
}

// The tray lists the open questions; clicking one brings its window forward.
func TestTrayListsAndFocusesQuestions(t *testing.T) {
	requireSession(t)
	scr := openScreen(t)
	scr.waitForWindowManager(t)
	ensureApp(t)
	tray := openTray(t)
	if v, err := tray.item.GetProperty("org.kde.StatusNotifierItem.IconPixmap"); err != nil || v.String() == "[]" {
		t.Errorf("the tray icon has no pixels: %v %v", v, err)
	}

	a := startAsk(t, "--title", "TrayA", "first question")
	wa := findWindow(t, "TrayA — feedback")
	b := startAsk(t, "--title", "TrayB", "second question")
	wb := findWindow(t, "TrayB — feedback")
	activate(t, wb)

	// Each question's entry is its title and its age ("TrayA — just now").
	waitTray(t, tray, "both questions", all(hasEntry("TrayA — "), hasEntry("TrayB — "), hasEntry("Quit")))
	clickEntry(t, tray, "TrayA — ")
	// The active window as a fact: the window manager's _NET_ACTIVE_WINDOW,
	// read directly (xdotool getactivewindow fails outright while it is
	// unset or being changed, which made this test flaky).
	for deadline := time.Now().Add(5 * time.Second); scr.activeWindow() != wa; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("clicking TrayA in the tray left window %s active, want %s", scr.activeWindow(), wa)
		}
	}
	key(t, "Escape")
	a.wait(t)
	activate(t, wb)
	key(t, "Escape")
	b.wait(t)

	waitTray(t, tray, "no open questions after both answers", hasEntry("No open questions"))
}

// Without a session D-Bus the app runs without a tray instead of crashing,
// still answers questions, and quits cleanly.
func TestWithoutSessionBus(t *testing.T) {
	requireSession(t)
	stopApp()
	logPath := filepath.Join(t.TempDir(), "app.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	app := exec.Command(bin)
	app.Env = append(os.Environ(), env...)
	app.Env = append(app.Env, "DBUS_SESSION_BUS_ADDRESS=", "XDG_RUNTIME_DIR=")
	app.Stdout, app.Stderr = logFile, logFile
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- app.Wait() }()
	defer app.Process.Kill()

	r := startAsk(t, "--yesno", "--title", "NoBus", "Still works?")
	activate(t, findWindow(t, "NoBus — feedback"))
	key(t, "alt+y")
	if code := r.wait(t); code != 0 || r.stdout.String() != "yes\n" {
		t.Fatalf("exit %d, stdout %q", code, r.stdout.String())
	}
	windowGone(t, "NoBus — feedback", 2*time.Second)
	if pid := appPID(); pid != app.Process.Pid {
		t.Fatalf("with its last window closed the app no longer answers (pid %d, want %d)", pid, app.Process.Pid)
	}
	app.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the app exited with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the app did not quit on SIGTERM")
	}
	log, _ := os.ReadFile(logPath)
	if !strings.Contains(string(log), "running without a tray icon") {
		t.Errorf("the log does not say the tray is off:\n%s", log)
	}
	if strings.Contains(string(log), "panic") || strings.Contains(string(log), "Error in Fyne call thread") {
		t.Errorf("the log shows a failure:\n%s", log)
	}
}

// Quit in the tray menu ends the app and removes its socket.
func TestTrayQuit(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	pid := appPID()
	tray := openTray(t)
	ids := tray.labels(t)
	quit, ok := ids["Quit"]
	if !ok {
		t.Fatalf("tray menu %v has no Quit", ids)
	}
	tray.click(t, quit)
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the app still runs after Quit")
		}
	}
	if _, err := os.Stat(socket); !os.IsNotExist(err) {
		t.Errorf("the socket is still there after Quit: %v", err)
	}
}
