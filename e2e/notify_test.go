package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"feedback/app/notification"
	"feedback/assets"
)

// dunstrc keeps every notification on screen until it is acted on (no
// timeouts), so the test decides when each one closes; a left click invokes
// the default action and closes, as GNOME's and KDE's servers do (dunst's
// own default only closes).
const dunstrc = `[global]
    mouse_left_click = do_action, close_current
    font = Monospace 10
    width = 420
    origin = top-right
    offset = 10x10
    markup = full
    format = "<b>%s</b>\n%b"
    history_length = 100
    sticky_history = yes
    idle_threshold = 0
[urgency_low]
    timeout = 0
[urgency_normal]
    timeout = 0
[urgency_critical]
    timeout = 0
`

// dunst is the real notification daemon, running on the session bus.
type dunst struct {
	conn *dbus.Conn
	ours bool   // started by the test, with dunstrc
	pick string // the file whose first line the context menu picks (ours only)
}

// pickScript is dunst's "dmenu" in the tests: it reads the context menu's
// entries (one per action of the notifications shown) and picks the first
// that contains the text in the file beside it, as a user choosing an
// action in the menu would.
const pickScript = `#!/bin/sh
dir=$(dirname "$0")
cat > "$dir/menu"
grep -m1 -F -- "$(cat "$dir/pick")" "$dir/menu"
`

// startDunst runs dunst for the test (with dunstrc) unless a notification
// server already runs; it must be dunst, since the test reads its history.
func startDunst(t *testing.T) *dunst {
	t.Helper()
	if os.Getenv("DISPLAY") == "" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		t.Skip("notification tests run through `make e2e` (they need an X display and a session bus)")
	}
	if _, err := exec.LookPath("dunst"); err != nil {
		if bin != "" {
			t.Fatal("make e2e needs dunst (scripts/deps.sh test installs it)")
		}
		t.Skip("needs dunst")
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatalf("session bus: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	d := &dunst{conn: conn}
	hasOwner := func() bool {
		var owned bool
		if err := busCall(conn.BusObject(), "org.freedesktop.DBus.NameHasOwner", 0, "org.freedesktop.Notifications").Store(&owned); err != nil {
			t.Fatal(err)
		}
		return owned
	}
	running := hasOwner()
	if running && os.Getenv("FEEDBACK_IN_XSESSION") != "" && stopBusDunst(t, conn) {
		// In the throw-away session of scripts/xsession.sh, a dunst that
		// the bus started for someone's notification (its D-Bus service
		// file) between two tests is not the test's: it goes.
		waitFor(t, "the bus to release org.freedesktop.Notifications", 10*time.Second, func() bool { return !hasOwner() })
		running = false
	}
	if !running {
		d.ours = true
		owned := make(chan *dbus.Signal, 4)
		conn.Signal(owned)
		defer conn.RemoveSignal(owned)
		if err := conn.AddMatchSignal(dbus.WithMatchInterface("org.freedesktop.DBus"), dbus.WithMatchMember("NameOwnerChanged"),
			dbus.WithMatchArg(0, "org.freedesktop.Notifications")); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		conf, script := filepath.Join(dir, "dunstrc"), filepath.Join(dir, "pick.sh")
		d.pick = filepath.Join(dir, "pick")
		rc := strings.Replace(dunstrc, "[global]\n", "[global]\n    dmenu = "+script+"\n", 1)
		if err := os.WriteFile(conf, []byte(rc), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(script, []byte(pickScript), 0o700); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("dunst", "-conf", conf)
		cmd.Stderr = &testWriter{t: t, prefix: "dunst: "}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		t.Cleanup(func() {
			cmd.Process.Kill()
			<-exited
			cmd.Stderr.(*testWriter).stop()
			// The bus lets the name go once it has seen dunst's connection
			// close: the next test must not find it still owned and call a
			// server that is gone.
			waitFor(t, "the bus to release org.freedesktop.Notifications", 10*time.Second, func() bool { return !hasOwner() })
		})
		select {
		case <-owned:
		case err := <-exited:
			t.Fatalf("dunst exited: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("dunst did not take org.freedesktop.Notifications within 10 s")
		}
	}
	var name, vendor, version, spec string
	// No auto-start: the bus would start a dunst of its own (the package's
	// D-Bus service file), without the test's configuration.
	if err := busCall(d.server(), "org.freedesktop.Notifications.GetServerInformation", dbus.FlagNoAutoStart).Store(&name, &vendor, &version, &spec); err != nil {
		t.Fatal(err)
	}
	if name != "dunst" {
		t.Skipf("another notification server runs (%s %s); the test reads dunst's history", name, version)
	}
	t.Logf("notification server: %s %s (%s), spec %s", name, version, vendor, spec)
	return d
}

// stopBusDunst kills the dunst that owns org.freedesktop.Notifications,
// if a dunst owns it; it reports whether it did.
func stopBusDunst(t *testing.T, conn *dbus.Conn) bool {
	t.Helper()
	var pid uint32
	if err := busCall(conn.BusObject(), "org.freedesktop.DBus.GetConnectionUnixProcessID", 0, "org.freedesktop.Notifications").Store(&pid); err != nil {
		return false
	}
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if strings.TrimSpace(string(comm)) != "dunst" {
		return false
	}
	t.Logf("a dunst the bus started (pid %d) owns the notifications: stopping it", pid)
	return syscall.Kill(int(pid), syscall.SIGTERM) == nil
}

// busCall calls method on o, failing after busTimeout: a D-Bus call
// without one waits for ever for a peer that never answers (a dying
// notification server hung the suite for 10 minutes in CI).
func busCall(o dbus.BusObject, method string, flags dbus.Flags, args ...any) *dbus.Call {
	ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
	defer cancel()
	return o.CallWithContext(ctx, method, flags, args...)
}

// busTimeout bounds each D-Bus call of the tests.
const busTimeout = 10 * time.Second

// chooseAction invokes the action labelled label of the notification
// shown, through dunst's context menu: dunst sends ActionInvoked with its
// key, as when the user chooses it.
func (d *dunst) chooseAction(t *testing.T, label string) {
	t.Helper()
	if !d.ours {
		t.Skip("choosing an action needs the test's own dunst (its context menu)")
	}
	if err := os.WriteFile(d.pick, []byte(label), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(filepath.Dir(d.pick), "menu")
	os.Remove(path)
	dunstctl(t, "context") // dunst runs the menu on its own
	var menu []byte
	waitFor(t, "dunst's context menu", 5*time.Second, func() bool {
		menu, _ = os.ReadFile(path)
		return len(menu) > 0
	})
	t.Logf("dunst's context menu:\n%s", menu)
	if !strings.Contains(string(menu), label) {
		t.Fatalf("no action %q in dunst's context menu", label)
	}
}

// watchCloses reports the ID of every CloseNotification call on the
// session bus, from a connection of its own that monitors the bus.
func watchCloses(t *testing.T) <-chan notification.ID {
	t.Helper()
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	msgs := make(chan *dbus.Message, 16)
	t.Cleanup(func() {
		// godbus's Close closes the eavesdropping channel while its reader
		// may still send to it (a panic, seen when the test ended early):
		// the channel is taken back first, then closed here.
		conn.Eavesdrop(nil)
		close(msgs)
		conn.Close()
	})
	rule := "type='method_call',interface='org.freedesktop.Notifications',member='CloseNotification'"
	if err := busCall(conn.BusObject(), "org.freedesktop.DBus.Monitoring.BecomeMonitor", 0, []string{rule}, uint32(0)).Err; err != nil {
		t.Fatalf("BecomeMonitor: %v", err)
	}
	conn.Eavesdrop(msgs)
	ids := make(chan notification.ID, 16)
	go func() {
		for m := range msgs {
			if len(m.Body) == 1 {
				if id, ok := m.Body[0].(uint32); ok {
					ids <- notification.ID(id)
				}
			}
		}
	}()
	return ids
}

func (d *dunst) server() dbus.BusObject {
	return d.conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
}

// dunstctl runs dunstctl with args and returns its output.
func dunstctl(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("dunstctl", args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("dunstctl %s: %v: %s", strings.Join(args, " "), err, ee.Stderr)
		}
		t.Fatalf("dunstctl %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// waitDisplayed waits until dunst shows n notifications.
func waitDisplayed(t *testing.T, n int) {
	t.Helper()
	var got string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got = dunstctl(t, "count", "displayed"); got == strconv.Itoa(n) {
			return
		}
	}
	dunstctl(t, "close-all")
	var shown []string
	for _, e := range history(t) {
		shown = append(shown, e.Summary+" / "+e.Body)
	}
	t.Fatalf("dunst displays %s notifications, want %d; its history: %q", got, n, shown)
}

// historyEntry is a notification in `dunstctl history`: the texts as
// received, and Message, the Pango markup dunst renders (its format
// "<b>%s</b>\n%b": dunst escapes the summary, the body is markup).
type historyEntry struct {
	ID, Appname, Summary, Body, Message, DefaultAction string
}

// history reads dunst's history (the notifications closed), by ID.
func history(t *testing.T) map[notification.ID]historyEntry {
	t.Helper()
	var doc struct {
		Data [][]map[string]struct {
			Data any `json:"data"`
		} `json:"data"`
	}
	out := dunstctl(t, "history")
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Data) != 1 {
		t.Fatalf("dunstctl history: %v\n%s", err, out)
	}
	entries := map[notification.ID]historyEntry{}
	for _, e := range doc.Data[0] {
		s := func(k string) string { return fmt.Sprint(e[k].Data) }
		id, _ := strconv.ParseUint(s("id"), 10, 32)
		entries[notification.ID(id)] = historyEntry{s("id"), s("appname"), s("summary"), s("body"), s("message"), s("default_action_name")}
	}
	return entries
}

// A notification shown through package notify reaches the real dunst with
// its texts; invoking its default action (what a click does) calls OnClick,
// and dunst closes it; Dismiss closes another one.
func TestNotifyDunst(t *testing.T) {
	d := startDunst(t)
	dunstctl(t, "close-all")
	n, err := notification.New(notification.Config{Icon: assets.TrayIcon(0, false)})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	ctx := context.Background()

	clicked := make(chan struct{}, 1)
	closed := make(chan notification.CloseReason, 2)
	note := notification.Arrived("claude-code", "shop", "Use <b>bold</b> & <i>links</i>?\nsecond line")
	note.OnClick = func() { clicked <- struct{}{} }
	note.OnClosed = func(r notification.CloseReason) { closed <- r }
	id, err := n.Show(ctx, note)
	if err != nil {
		t.Fatal(err)
	}
	waitDisplayed(t, 1)
	screenshot(t, "notification")

	dunstctl(t, "action", "0")
	select {
	case <-clicked:
	case <-time.After(5 * time.Second):
		t.Fatal("invoking the default action did not call OnClick")
	}
	dunstctl(t, "close")
	wantClosed(t, closed, notification.ClosedByUser)
	h, ok := history(t)[id]
	if !ok {
		t.Fatalf("notification %d not in dunst's history: %v", id, history(t))
	}
	// The body went escaped, so dunst shows its markup characters as text.
	body := "shop — Use &lt;b&gt;bold&lt;/b&gt; &amp; &lt;i&gt;links&lt;/i&gt;?"
	want := historyEntry{fmt.Sprint(id), "feedback", "claude-code asks", body, "<b>claude-code asks</b>\n" + body, "default"}
	if h != want {
		t.Errorf("dunst's history has\n%+v\nwant\n%+v", h, want)
	}

	// A real click on the notification's window.
	if d.ours {
		again := notification.TimedOut("claude-code", "shop", "Deploy now?")
		again.OnClick = func() { clicked <- struct{}{} }
		again.OnClosed = func(r notification.CloseReason) { closed <- r }
		if _, err := n.Show(ctx, again); err != nil {
			t.Fatal(err)
		}
		waitDisplayed(t, 1)
		win := strings.Fields(xdotool(t, "search", "--class", "Dunst"))
		if len(win) == 0 {
			t.Fatal("no dunst window")
		}
		xdotool(t, "mousemove", "--window", win[0], "40", "20", "click", "1")
		select {
		case <-clicked:
		case <-time.After(5 * time.Second):
			t.Fatal("clicking the notification did not call OnClick")
		}
		wantClosed(t, closed, notification.ClosedByUser)
	}

	// Withdrawn: Dismiss closes it on screen.
	gone := notification.Withdrawn("codex", "web", "Which database?")
	gone.OnClosed = func(r notification.CloseReason) { closed <- r }
	id2, err := n.Show(ctx, gone)
	if err != nil {
		t.Fatal(err)
	}
	waitDisplayed(t, 1)
	if err := n.Dismiss(ctx, id2); err != nil {
		t.Fatal(err)
	}
	wantClosed(t, closed, notification.ClosedByCall)
	waitDisplayed(t, 0)
	if h := history(t)[id2]; h.Summary != "codex withdrew its question: Which database?" || h.Body != "web" {
		t.Errorf("dunst's history has %+v for the withdrawn question", h)
	}
}

// wantClosed waits for an OnClosed with reason want.
func wantClosed(t *testing.T, closed <-chan notification.CloseReason, want notification.CloseReason) {
	t.Helper()
	select {
	case r := <-closed:
		if r != want {
			t.Errorf("closed with reason %d, want %d", r, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no NotificationClosed (want reason %d)", want)
	}
}
