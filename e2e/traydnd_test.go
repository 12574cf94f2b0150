package e2e

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"feedback/assets"
)

// The tray as a tray host reads it: the icon's pixels, the tooltip and the
// whole menu, submenus included.

// trayEntry is one dbusmenu item.
type trayEntry struct {
	id       int32
	label    string
	enabled  bool
	checked  bool
	children []trayEntry
}

// entries reads the whole menu.
func (m *trayMenu) entries(t *testing.T) []trayEntry {
	t.Helper()
	return menuEntries(m.layout(t))
}

func menuEntries(vs []dbus.Variant) []trayEntry {
	var out []trayEntry
	for _, c := range vs {
		fields, ok := c.Value().([]any)
		if !ok || len(fields) < 3 {
			continue
		}
		e := trayEntry{enabled: true}
		e.id, _ = fields[0].(int32)
		props, _ := fields[1].(map[string]dbus.Variant)
		if v, ok := props["type"]; ok && v.Value() == "separator" {
			e.label = "---"
		}
		if v, ok := props["label"]; ok {
			e.label, _ = v.Value().(string)
		}
		if v, ok := props["enabled"]; ok {
			e.enabled, _ = v.Value().(bool)
		}
		if v, ok := props["toggle-state"]; ok {
			n, _ := v.Value().(int32)
			e.checked = n == 1
		}
		if v, ok := props["visible"]; ok {
			if vis, _ := v.Value().(bool); !vis {
				continue
			}
		}
		kids, _ := fields[2].([]dbus.Variant)
		e.children = menuEntries(kids)
		out = append(out, e)
	}
	return out
}

// find returns the entry, at any depth, whose label starts with prefix.
func findEntry(es []trayEntry, prefix string) (trayEntry, bool) {
	for _, e := range es {
		if strings.HasPrefix(e.label, prefix) {
			return e, true
		}
		if c, ok := findEntry(e.children, prefix); ok {
			return c, true
		}
	}
	return trayEntry{}, false
}

func dumpEntries(es []trayEntry, indent string) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(indent + e.label)
		if !e.enabled {
			b.WriteString(" (disabled)")
		}
		if e.checked {
			b.WriteString(" (checked)")
		}
		b.WriteString("\n")
		b.WriteString(dumpEntries(e.children, indent+"  "))
	}
	return b.String()
}

// pixmap is the icon's first pixmap, ARGB32 in network byte order.
func (m *trayMenu) pixmap(t *testing.T) []byte {
	t.Helper()
	v, err := m.item.GetProperty("org.kde.StatusNotifierItem.IconPixmap")
	if err != nil {
		t.Fatalf("IconPixmap: %v", err)
	}
	var px []struct {
		W, H int32
		Data []byte
	}
	if err := v.Store(&px); err != nil || len(px) == 0 {
		t.Fatalf("IconPixmap %v: %v", v, err)
	}
	return px[0].Data
}

func (m *trayMenu) tooltip(t *testing.T) string {
	t.Helper()
	v, err := m.item.GetProperty("org.kde.StatusNotifierItem.ToolTip")
	if err != nil {
		t.Fatalf("ToolTip: %v", err)
	}
	var tip struct {
		Name  string
		Icons []struct {
			W, H int32
			Data []byte
		}
		Title, Text string
	}
	if err := v.Store(&tip); err != nil {
		t.Fatalf("ToolTip %v: %v", v, err)
	}
	return tip.Title
}

// argb is a PNG as a StatusNotifierItem pixmap: ARGB32, network byte order.
func argb(t *testing.T, data []byte) []byte {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	out := make([]byte, 0, b.Dx()*b.Dy()*4)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			out = append(out, byte(a), byte(r), byte(g), byte(bl))
		}
	}
	return out
}

// trayState is what the tray shows at one moment.
type trayState struct {
	icon    []byte
	tooltip string
	menu    []trayEntry
}

// waitTray waits until the tray shows what ok accepts.
func waitTray(t *testing.T, m *trayMenu, what string, ok func(trayState) bool) trayState {
	t.Helper()
	var s trayState
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		s = trayState{icon: m.pixmap(t), tooltip: m.tooltip(t), menu: m.entries(t)}
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tray never showed %s; tooltip %q, menu:\n%s", what, s.tooltip, dumpEntries(s.menu, "  "))
		}
	}
}

// iconIs accepts the tray icon for count questions, dnd or not.
func iconIs(t *testing.T, count int, dnd bool) func(trayState) bool {
	want := argb(t, assets.TrayIcon(count, dnd))
	return func(s trayState) bool { return bytes.Equal(s.icon, want) }
}

func all(fs ...func(trayState) bool) func(trayState) bool {
	return func(s trayState) bool {
		for _, f := range fs {
			if !f(s) {
				return false
			}
		}
		return true
	}
}

func tooltipIs(want string) func(trayState) bool {
	return func(s trayState) bool { return s.tooltip == want }
}

func hasEntry(prefix string) func(trayState) bool {
	return func(s trayState) bool { _, ok := findEntry(s.menu, prefix); return ok }
}

// clickEntry clicks the entry whose label starts with prefix.
func clickEntry(t *testing.T, m *trayMenu, prefix string) {
	t.Helper()
	e, ok := findEntry(m.entries(t), prefix)
	if !ok {
		t.Fatalf("no tray entry %q in\n%s", prefix, dumpEntries(m.entries(t), "  "))
	}
	m.click(t, e.id)
}

// trayOnDesktop is the app's tray on a desktop with a window manager; do
// not disturb is turned off when the test ends (turnDNDOff).
func trayOnDesktop(t *testing.T) *trayMenu {
	t.Helper()
	requireSession(t)
	scr := openScreen(t)
	scr.waitForWindowManager(t)
	ensureApp(t)
	tray := openTray(t)
	t.Cleanup(func() { turnDNDOff(t, tray) })
	return tray
}

// dndOn turns do not disturb on until it is turned off, and waits for the
// tray to say so.
func dndOn(t *testing.T, tray *trayMenu) {
	t.Helper()
	clickEntry(t, tray, "On until I turn it off")
	waitTray(t, tray, "do not disturb on", hasEntry("Do not disturb (on)"))
}

// turnDNDOff leaves do not disturb off for the tests that follow (it is
// kept across restarts).
func turnDNDOff(t *testing.T, m *trayMenu) {
	if e, ok := findEntry(m.entries(t), "Do not disturb"); ok {
		for _, c := range e.children {
			if c.label == "Off" {
				m.click(t, c.id)
			}
		}
	}
}

// The icon carries the count of waiting questions and its do-not-disturb
// form; the tooltip says both. Under do not disturb a new question opens
// no window: it waits in the tray menu and opens when do not disturb is
// turned off.
func TestTrayBadgeAndDoNotDisturb(t *testing.T) {
	tray := trayOnDesktop(t)

	waitTray(t, tray, "no questions", all(iconIs(t, 0, false), tooltipIs("feedback — no questions waiting"), hasEntry("No open questions")))

	a := startAsk(t, "--title", "BadgeA", "first question")
	wa := findWindow(t, "BadgeA — feedback")
	waitTray(t, tray, "one question", all(iconIs(t, 1, false), tooltipIs("feedback — 1 question waiting"), hasEntry("BadgeA — ")))

	clickEntry(t, tray, "On until I turn it off")
	s := waitTray(t, tray, "do not disturb on", all(iconIs(t, 1, true),
		tooltipIs("feedback — 1 question waiting; do not disturb is on"), hasEntry("Do not disturb (on)")))
	if on, _ := findEntry(s.menu, "On until I turn it off"); !on.checked {
		t.Errorf("the chosen mode is not checked:\n%s", dumpEntries(s.menu, "  "))
	}

	b := startAsk(t, "--title", "Quiet", "asked under do not disturb")
	waitTray(t, tray, "the held-back question", all(iconIs(t, 2, true), hasEntry("Quiet — "),
		tooltipIs("feedback — 2 questions waiting; do not disturb is on")))
	noWindowOpens(t, "Quiet — feedback") // the app has it (the tray says so) and shows no window
	screenshot(t, "tray-dnd-no-window")

	clickEntry(t, tray, "Off")
	wq := findWindow(t, "Quiet — feedback")
	s = waitTray(t, tray, "do not disturb off", all(iconIs(t, 2, false), tooltipIs("feedback — 2 questions waiting")))
	if off, _ := findEntry(s.menu, "Off"); !off.checked {
		t.Errorf("Off is not checked:\n%s", dumpEntries(s.menu, "  "))
	}
	if on, _ := findEntry(s.menu, "On until I turn it off"); on.checked {
		t.Errorf("On is still checked:\n%s", dumpEntries(s.menu, "  "))
	}

	for _, w := range []string{wq, wa} {
		activate(t, w)
		key(t, "Escape")
	}
	a.wait(t)
	b.wait(t)
	waitTray(t, tray, "no questions again", all(iconIs(t, 0, false), tooltipIs("feedback — no questions waiting")))
}

// Clicking a held-back question in the tray opens its window at once; do
// not disturb stays on for the others.
func TestTrayOpensAHeldBackQuestion(t *testing.T) {
	tray := trayOnDesktop(t)

	clickEntry(t, tray, "For 1 hour")
	waitTray(t, tray, "do not disturb for an hour", all(iconIs(t, 0, true), hasEntry("Do not disturb (until ")))
	one := startAsk(t, "--title", "HeldOne", "first held back")
	two := startAsk(t, "--title", "HeldTwo", "second held back")
	waitTray(t, tray, "both held back", all(iconIs(t, 2, true), hasEntry("HeldOne — "), hasEntry("HeldTwo — ")))
	noWindowOpens(t, "HeldOne — feedback")
	noWindow(t, "HeldTwo — feedback")

	clickEntry(t, tray, "HeldTwo — ")
	w := findWindow(t, "HeldTwo — feedback")
	noWindow(t, "HeldOne — feedback")
	waitTray(t, tray, "still on", iconIs(t, 2, true))
	activate(t, w)
	key(t, "Escape")
	two.wait(t)

	clickEntry(t, tray, "Off")
	w = findWindow(t, "HeldOne — feedback")
	activate(t, w)
	key(t, "Escape")
	one.wait(t)
}

// A held-back question's countdown does not run while nobody sees it: its
// window, opened after its whole time limit has passed under do not
// disturb, still takes an answer.
func TestDNDCountdownStartsWhenShown(t *testing.T) {
	tray := trayOnDesktop(t)

	dndOn(t, tray)
	r := startAsk(t, "--yesno", "--timeout", "2", "--title", "Unseen", "Still there?")
	waitTray(t, tray, "the held-back question", hasEntry("Unseen — "))
	// The subject is time passing: the whole 2 s limit, and more, goes by
	// while the question is held back.
	time.Sleep(3 * time.Second)
	noWindow(t, "Unseen — feedback")

	clickEntry(t, tray, "Off")
	activate(t, findWindow(t, "Unseen — feedback"))
	key(t, "alt+y")
	if code := r.wait(t); code != 0 || r.stdout.String() != "yes\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q: want the answer, not a time-out", code, r.stdout.String(), r.stderr.String())
	}
}

// Do not disturb is kept across a restart of the app.
func TestDNDSurvivesARestart(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	tray := openTray(t)
	dndOn(t, tray)

	stopApp()
	ensureApp(t)
	tray = openTray(t)
	t.Cleanup(func() { turnDNDOff(t, tray) })
	waitTray(t, tray, "do not disturb on after the restart", all(iconIs(t, 0, true), hasEntry("Do not disturb (on)"),
		tooltipIs("feedback — no questions waiting; do not disturb is on")))
	clickEntry(t, tray, "Off")
	waitTray(t, tray, "do not disturb off", all(iconIs(t, 0, false), tooltipIs("feedback — no questions waiting")))
}

// An agent asking under do not disturb gets its usual long wait: "not
// answered yet, call again", never an answer; its call made again joins
// the held-back question, which opens when do not disturb ends and
// returns the reply typed in it. The tray lists it under its client.
func TestDNDAgentCallsAgain(t *testing.T) {
	tray := trayOnDesktop(t)
	dndOn(t, tray)

	c := newMCP(t, "dndagent", "FEEDBACK_MAX_WAIT=2", "FEEDBACK_PROGRESS_INTERVAL=200ms")
	progress := watchProgress(c)
	args := map[string]any{"message": "Asked while you were away", "header_label": "AwayQ"}
	first := call(c, "interactive_feedback", args)
	s := waitTray(t, tray, "the agent's question under its client", all(hasEntry("dndagent"), hasEntry("AwayQ — ")))
	if h, _ := findEntry(s.menu, "dndagent"); h.enabled {
		t.Errorf("the client heading %q is clickable", h.label)
	}
	r := await(t, first)
	if r.IsError || !strings.HasPrefix(text(r), "The user has not answered yet") {
		t.Fatalf("first call under do not disturb: isError %v, %q; want the call-again result", r.IsError, text(r))
	}
	noWindow(t, "AwayQ — feedback")

	second := callWithProgress(c, "interactive_feedback", args, "again")
	clickEntry(t, tray, "Off")
	win := findWindow(t, "AwayQ — feedback")
	progress.waitShown(t, "again") // the window the call made again waits on is on screen
	if n := visibleWindows("AwayQ — feedback"); n != 1 {
		t.Fatalf("%d windows after do not disturb ended, want the one both calls asked for", n)
	}
	activate(t, win)
	typeText(t, "back now")
	key(t, "ctrl+Return")
	wantText(t, await(t, second), "User reply:\nback now")
}
