package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Snoozing through a real MCP client and a real window: Alt+Z and the
// menu's first entry (10 minutes) close the window, the agent's call
// returns at once with the call-again result saying it is snoozed and
// until when; the tray lists it as snoozed; the agent calls again and
// waits; clicking it in the tray brings the window back with what the user
// had typed, and the answer reaches the agent.
func TestSnoozeAQuestion(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	ensureApp(t)
	tray := openTray(t)
	c := newMCP(t, "snoozer")
	args := map[string]any{"message": "Merge the SnoozeMe branch?", "header_label": "SnoozeMe"}
	first := call(c, "interactive_feedback", args)
	win := findWindow(t, "SnoozeMe — feedback")
	activate(t, win)
	typeText(t, "half an answer")
	waitDraft(t, sessionDB(), "SnoozeMe", hasText("half an answer")) // the draft reached the app
	openMenu(t, win, "alt+z")
	screenshot(t, "snooze-menu")
	key(t, "Down", "Return")
	r := await(t, first)
	if r.IsError || !strings.Contains(text(r), "snoozed this question until") || !strings.Contains(text(r), "(10 min from now)") {
		t.Fatalf("snoozed: %s", text(r))
	}
	windowGone(t, "SnoozeMe — feedback", 5*time.Second)
	waitTray(t, tray, "the snoozed question", hasEntry("SnoozeMe — snoozed until"))

	again := call(c, "interactive_feedback", args)
	noWindowOpens(t, "SnoozeMe — feedback")
	clickEntry(t, tray, "SnoozeMe — snoozed until")
	win = findWindow(t, "SnoozeMe — feedback")
	activate(t, win)
	typeText(t, ", and the rest")
	key(t, "ctrl+Return")
	if r := await(t, again); r.IsError || !strings.Contains(text(r), "half an answer, and the rest") {
		t.Fatalf("after the snooze: %s", text(r))
	}
}

// The tray's Snooze names each waiting question: snoozing one closes its
// window only, and the tray lists it as snoozed.
func TestTraySnoozesOneQuestion(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	ensureApp(t)
	tray := openTray(t)
	a, b := textQuestion("TraySnoozeA"), textQuestion("TraySnoozeB")
	cha, _ := askApp(t, a)
	findWindow(t, a.Title+" — feedback")
	_, cancelB := askApp(t, b)
	findWindow(t, b.Title+" — feedback")
	waitTray(t, tray, "both questions", all(hasEntry("TraySnoozeA — "), hasEntry("TraySnoozeB — ")))
	snooze, _ := findEntry(tray.entries(t), "Snooze")
	one, ok := findEntry(snooze.children, "TraySnoozeB")
	if !ok || len(one.children) != 3 {
		t.Fatalf("no TraySnoozeB under Snooze:\n%s", dumpEntries(tray.entries(t), "  "))
	}
	tray.click(t, one.children[1].id) // For 1 hour
	windowGone(t, b.Title+" — feedback", 5*time.Second)
	waitTray(t, tray, "B snoozed", hasEntry("TraySnoozeB — snoozed until"))
	if visibleWindows(a.Title+" — feedback") != 1 {
		t.Error("snoozing B closed A too")
	}
	cancelB()
	activate(t, findWindow(t, a.Title+" — feedback"))
	key(t, "ctrl+Return")
	awaitAsk(t, cha)
}

// A snooze survives a restart of the app. Snoozed for 10 minutes through
// a real MCP client and a real window, the question is kept in the
// database with its snooze; the app stopped and started again does not
// show it (a restart does not end the snooze), and the tray lists it as
// snoozed.
func TestSnoozeSurvivesARestart(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	logPath := startApp(t, "FEEDBACK_DB="+db)
	c := newMCP(t, "snoozer")
	first := call(c, "interactive_feedback", map[string]any{"message": "Keep SnoozeKept snoozed?", "header_label": "SnoozeKept"})
	win := findWindow(t, "SnoozeKept — feedback")
	activate(t, win)
	openMenu(t, win, "alt+z")
	key(t, "Down", "Return") // 10 minutes
	if r := await(t, first); r.IsError || !strings.Contains(text(r), "snoozed this question until") {
		t.Fatalf("snoozed: %s", text(r))
	}
	windowGone(t, "SnoozeKept — feedback", 5*time.Second)
	waitStore(t, db, "the snoozed question kept open", keptOpen("SnoozeKept"))

	stopApp()
	launchApp(t, logPath, "FEEDBACK_DB="+db)
	noWindowOpens(t, "SnoozeKept — feedback")
	waitTray(t, openTray(t), "the question still snoozed", hasEntry("SnoozeKept — snoozed until"))
}
