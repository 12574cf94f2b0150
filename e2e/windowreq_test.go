package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The History and Settings windows go through the app (package
// windowreq): while the History window lists the database, the UI process
// holds no file of it open; the Settings window's Save is written by the
// app, over the file as it is (its unknown keys kept), and the window
// closes once the app said it saved (screenshots settings-before-save,
// history-through-the-app).
func TestWindowsGoThroughTheApp(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	cfg := writeSettings(t, `{"ui_linger_seconds": 30, "timeout_seconds": 600, "$comment": "kept"}`)
	path := filepath.Join(strings.TrimPrefix(cfg, "XDG_CONFIG_HOME="), "feedback", "settings.json")
	logPath := startApp(t, "FEEDBACK_DB="+db, cfg)
	app := appPID()
	r := startAsk(t, "--yesno", "--title", "ThroughTheApp", "Listed?")
	activate(t, findWindow(t, "ThroughTheApp — feedback"))
	key(t, "alt+y")
	if code := r.wait(t); code != 0 {
		t.Fatalf("feedback ask: exit %d", code)
	}

	tray := openTray(t)
	ids := tray.labels(t)
	tray.click(t, ids["History…"])
	hw := findWindow(t, "feedback history")
	activate(t, hw)
	waitListed(t, hw)
	windowShot(t, hw, "history-through-the-app")
	for _, pid := range uiPIDs(app) {
		fds, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
		for _, fd := range fds {
			target, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd.Name())
			if strings.HasPrefix(target, db) || strings.HasPrefix(target, path) {
				t.Errorf("the UI process %d holds %s open", pid, target)
			}
		}
		if maps, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/maps"); err == nil && strings.Contains(string(maps), db) {
			t.Errorf("the UI process %d maps the database", pid)
		}
	}
	key(t, "alt+F4")
	windowGone(t, "feedback history", 5*time.Second)

	tray.click(t, ids["Settings…"])
	sw := findWindow(t, "feedback settings")
	activate(t, sw)
	key(t, "Tab") // the first field: Countdown (s), timeout_seconds
	key(t, "ctrl+a")
	typeText(t, "321")
	windowShot(t, sw, "settings-before-save")
	// Save, the window's last button: its bottom right corner.
	w, h := windowSize(t, sw)
	xdotool(t, "mousemove", "--window", sw, strconv.Itoa(w-45), strconv.Itoa(h-28), "click", "1")
	windowGone(t, "feedback settings", 10*time.Second) // closed once the app saved
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), `"timeout_seconds": 321`) || !strings.Contains(string(data), `"$comment": "kept"`) {
		t.Fatalf("settings.json after Save (%v):\n%s", err, data)
	}
	log, _ := os.ReadFile(logPath)
	if !strings.Contains(string(log), "settings saved from the Settings window") {
		t.Errorf("the app did not say it saved the file:\n%s", log)
	}
}
