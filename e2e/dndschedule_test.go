package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A dnd_schedule whose quiet hours cover now holds questions back from the
// app's start: a question opens no window (it waits in the tray) and the
// tray says the schedule holds; settings.json rewritten with
// no schedule releases it without anything else done: its window opens.
func TestDNDScheduleHoldsThenLiveChangeReleases(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	now := time.Now() // the app's local time too: same TZ
	schedule := now.Add(-time.Hour).Format("15:04") + "-" + now.Add(time.Hour).Format("15:04")
	cfg := writeSettings(t, `{"dnd_schedule": "`+schedule+`"}`)
	// A state directory of its own: a tray choice saved by another test
	// (dnd.json) plays no part.
	startApp(t, cfg, "XDG_STATE_HOME="+t.TempDir())
	tray := openTray(t)
	waitTray(t, tray, "the schedule set", all(iconIs(t, 0, true), hasEntry("Scheduled quiet hours (until ")))

	r := startAsk(t, "--title", "Scheduled", "asked in the quiet hours")
	s := waitTray(t, tray, "the schedule holding", all(iconIs(t, 1, true), func(s trayState) bool {
		return strings.HasPrefix(s.tooltip, "feedback — 1 question waiting; do not disturb until ") && strings.HasSuffix(s.tooltip, " (schedule)")
	}, hasEntry("Scheduled — "), hasEntry("Scheduled quiet hours (until ")))
	if e, _ := findEntry(s.menu, "Scheduled quiet hours (until "); !e.checked {
		t.Errorf("the schedule's entry is not checked:\n%s", dumpEntries(s.menu, "  "))
	}
	if off, _ := findEntry(s.menu, "Off"); off.checked {
		t.Errorf("Off is checked under the schedule:\n%s", dumpEntries(s.menu, "  "))
	}
	noWindowOpens(t, "Scheduled — feedback")
	if pids := uiPIDs(appPID()); len(pids) > 0 { // its window was never asked for
		t.Fatalf("the app started UI processes %v for a question held back", pids)
	}
	screenshot(t, "dnd-schedule-no-window")

	path := filepath.Join(strings.TrimPrefix(cfg, "XDG_CONFIG_HOME="), "feedback", "settings.json")
	if err := os.WriteFile(path+".tmp", []byte(`{"dnd_schedule": ""}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil { // as editors and the Settings window save
		t.Fatal(err)
	}
	w := findWindow(t, "Scheduled — feedback")
	waitTray(t, tray, "do not disturb off", all(iconIs(t, 1, false), tooltipIs("feedback — 1 question waiting")))
	activate(t, w)
	key(t, "Escape")
	if code := r.wait(t); code == 0 {
		t.Errorf("feedback ask exited 0 after Escape, want the dismissed exit code")
	}
}
