package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"
)

// feedback doctor inside the test session (Xvfb, a private bus with a
// StatusNotifierWatcher, the running app): with no tray host registered
// (no panel draws the icons) the tray line warns; once a host registers,
// as a panel does, nothing fails and the lines that matter say OK.
func TestDoctorInSession(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	doctor := func() string {
		cmd := exec.Command(bin, "doctor")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("feedback doctor: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := doctor(); !strings.Contains(out, "WARN  tray          a StatusNotifierWatcher runs, but no tray host is registered") {
		t.Errorf("no tray host registered, doctor says:\n%s", out)
	}
	registerTrayHost(t)
	out := doctor()
	t.Logf("feedback doctor:\n%s", out)
	for _, want := range []string{"OK    display", "OK    session bus", "OK    tray", "OK    app           feedback ", "answers at " + socket} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// registerTrayHost registers a StatusNotifierItem host with the session's
// watcher, as a panel's tray does, until the test ends.
func registerTrayHost(t *testing.T) {
	t.Helper()
	c, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	name := "org.kde.StatusNotifierHost-e2e"
	if r, err := c.RequestName(name, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName %s: %v %v", name, r, err)
	}
	if err := c.Object("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher").Call("org.kde.StatusNotifierWatcher.RegisterStatusNotifierHost", 0, name).Err; err != nil {
		t.Fatalf("RegisterStatusNotifierHost: %v", err)
	}
}
