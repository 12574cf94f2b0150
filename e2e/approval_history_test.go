package e2e

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"feedback/app/store"
	"feedback/ipc/wire"
)

// approvalEvent is Claude Code's PermissionRequest event for a Bash
// command, without permission suggestions (the window offers Allow,
// Always allow and Deny).
func approvalEvent(command string) string {
	input, _ := json.Marshal(map[string]any{"command": command})
	return `{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/home/u/shop","permission_mode":"default","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":` + string(input) + `}`
}

// openOptions reads, from the app's database, the options of the open
// approval of command as the window shows them: the keys that choose them
// follow their order (Alt+1 the first), whatever their words.
func openOptions(t *testing.T, db, command string) []wire.Option {
	t.Helper()
	s, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	es, err := s.Find(store.Filter{Search: command})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.State == store.StateOpen && e.Question.IsApproval() && e.Question.Call != nil && e.Question.Call.Subject == command {
			return e.Question.Prompts[0].Options
		}
	}
	t.Fatalf("no open approval of %q in the database", command)
	return nil
}

// optionKey is the Alt+digit that chooses the first option ok accepts.
func optionKey(t *testing.T, opts []wire.Option, ok func(wire.Option) bool) string {
	t.Helper()
	for i, o := range opts {
		if ok(o) {
			return "alt+" + strconv.Itoa(i+1)
		}
	}
	t.Fatalf("no such option among %+v", opts)
	return ""
}

// History says what each approval decided, through the real hook, the
// real window, the permission prompt tool over a real MCP client, and the
// away setting: `feedback history` (Markdown and --json) names the call and
// the decision — allowed, always allowed with its rule, denied with the
// reason, timed out, denied while away — never a denial as merely
// "answered"; back at the desk, the notification and the tray say
// "Denied while you were away: Bash `rm -rf build`", not "told to
// proceed"; the History window marks the denied call red, and is
// screenshot in the dark and the light theme.
func TestApprovalHistory(t *testing.T) {
	requireSession(t)
	startDunst(t)
	dunstctl(t, "close-all")
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	settings := writeSettings(t, `{"away": "proceed", "away_after_minutes": 60}`)
	startApp(t, "FEEDBACK_DB="+db, settings, "FEEDBACK_TIMEOUT=5") // the session's 600 s otherwise

	const title = "Run a command? — feedback"
	decide := func(command string, ok func(wire.Option) bool, reason string) map[string]any {
		t.Helper()
		wait := runHook(t, approvalEvent(command))
		win := findWindow(t, title)
		k := optionKey(t, openOptions(t, db, command), ok)
		activate(t, win)
		if reason != "" {
			typeText(t, reason)
		}
		key(t, k)
		key(t, "ctrl+Return")
		d := wait()
		windowGone(t, title, 5*time.Second)
		return d
	}
	allowOnce := func(o wire.Option) bool { return o.Allows && o.Rule == "" }
	always := func(o wire.Option) bool { return o.Allows && o.Rule != "" }
	deny := func(o wire.Option) bool { return !o.Allows }
	if d := decide("go test ./...", allowOnce, ""); d["behavior"] != "allow" {
		t.Fatalf("allow: %v", d)
	}
	if d := decide("npm test", always, ""); d["behavior"] != "allow" || d["updatedPermissions"] == nil {
		t.Fatalf("always allow: %v", d)
	}
	if d := decide("rm -rf node_modules", deny, "use npm ci instead"); d["behavior"] != "deny" {
		t.Fatalf("deny: %v", d)
	}

	// Timed out: the permission prompt tool, under the app's 5 s countdown.
	c := newMCP(t, "claude-code", "FEEDBACK_DB="+db)
	res := call(c, "permission_prompt", map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "git push --force"}, "tool_use_id": "toolu_9"})
	findWindow(t, title)
	var pv map[string]any
	if err := json.Unmarshal([]byte(text(await(t, res))), &pv); err != nil || pv["behavior"] != "deny" {
		t.Fatalf("timed out: %v (%v)", pv, err)
	}
	notesWith(t, "Not answered in time — claude-code: Run a command?") // the timeout's notice, closed

	// Away, with agents proceeding: the hook is denied at once, no window.
	tray := openTray(t)
	forceScreenSaver(t, true)
	t.Cleanup(func() { forceScreenSaver(t, false) })
	waitTray(t, tray, "the away state", hasEntry("Away since"))
	if d := runHook(t, approvalEvent("rm -rf build"))(); d["behavior"] != "deny" {
		t.Fatalf("away: %v", d)
	}
	noWindow(t, title)
	forceScreenSaver(t, false)
	e := noteWith(t, "While you were away: 1 question", "Denied while you were away: Bash `rm -rf build`")
	if strings.Contains(e.Body, "told to proceed") {
		t.Errorf("the notification says the denied call was told to proceed: %q", e.Body)
	}
	waitTray(t, tray, "the denied call while away", hasEntry("Denied while you were away: Bash `rm -rf build`"))

	// feedback history, --json and Markdown.
	doc, out := readHistory(t, db)
	want := map[string]wire.Verdict{
		"go test ./...":       {Kind: wire.VerdictAllowed},
		"npm test":            {Kind: wire.VerdictAlways},
		"rm -rf node_modules": {Kind: wire.VerdictDenied, Reason: "use npm ci instead"},
		"git push --force":    {Kind: wire.VerdictTimedOut},
		"rm -rf build":        {Kind: wire.VerdictAway},
	}
	seen := 0
	for _, q := range historyOf(doc.Loops, "Run a command?") {
		if q.Call == nil || q.Decision == nil {
			t.Errorf("an approval without its call or decision: %+v", q)
			continue
		}
		w, ok := want[q.Call.Subject]
		if !ok {
			continue
		}
		seen++
		got := *q.Decision
		if w.Kind == wire.VerdictAlways {
			if got.Kind != w.Kind || !strings.Contains(got.Rule, "npm test") {
				t.Errorf("%s: %+v, want always allowed with its rule", q.Call.Subject, got)
			}
			continue
		}
		if got != w {
			t.Errorf("%s: %+v, want %+v", q.Call.Subject, got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d approvals listed with their decision:\n%s", seen, len(want), out)
	}
	hist := exec.Command(bin, "history")
	hist.Env = append(hist.Environ(), "FEEDBACK_DB="+db)
	md, err := hist.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"### Run a command? — denied\n", "Call: Bash `rm -rf node_modules`", "> use npm ci instead",
		"### Run a command? — always allowed\n", "### Run a command? — timed out\n", "### Run a command? — denied while away\n"} {
		if !bytes.Contains(md, []byte(s)) {
			t.Errorf("feedback history lacks %q:\n%s", s, md)
		}
	}

	// The History window, in both themes: the denied call's badge is red.
	for _, theme := range []string{"dark", "light"} {
		startApp(t, "FEEDBACK_DB="+db, "FYNE_THEME="+theme, settings)
		tray := openTray(t)
		tray.click(t, tray.labels(t)["History…"])
		hw := findWindow(t, "feedback history")
		activate(t, hw)
		waitListed(t, hw)
		// Newest first: away, timed out, denied, always, allowed; rows
		// 62 px apart from y 73. Open the denied one, then the always.
		for _, shot := range []struct {
			name string
			row  int
		}{{"denied", 2}, {"always", 3}} {
			before := windowPNG(hw)
			xdotool(t, "mousemove", "--window", hw, "300", strconv.Itoa(73+62*shot.row), "click", "1")
			for deadline := time.Now().Add(5 * time.Second); bytes.Equal(before, windowPNG(hw)) && time.Now().Before(deadline); {
				time.Sleep(100 * time.Millisecond)
			}
			windowShot(t, hw, "approval-history-"+theme+"-"+shot.name)
		}
		img, err := png.Decode(bytes.NewReader(windowPNG(hw)))
		if err != nil {
			t.Fatal(err)
		}
		if red, green := badgeHue(img, 73+62*2); red < 200 || green > red/4 {
			t.Errorf("%s theme: the denied approval's badge has %d red and %d green pixels, want red", theme, red, green)
		}
		if red, green := badgeHue(img, 73+62*4); green < 200 || red > green/4 {
			t.Errorf("%s theme: the allowed approval's badge has %d red and %d green pixels, want green", theme, red, green)
		}
		key(t, "alt+F4")
		windowGone(t, "feedback history", 5*time.Second)
	}
}

// badgeHue counts the red and the green pixels (by hue) of the badge
// in the list row centred at y (the badge sits in the left 110 px).
func badgeHue(img image.Image, y int) (red, green int) {
	b := img.Bounds()
	for yy := b.Min.Y + y - 10; yy <= b.Min.Y+y+10; yy++ {
		for x := b.Min.X + 4; x < b.Min.X+110; x++ {
			r, g, bl, _ := img.At(x, yy).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			switch { // by hue: the badges are tints, not the theme's full colours
			case r > 90 && r*10 > g*16 && r*10 > bl*16:
				red++
			case g > 90 && g*10 > r*14 && g*10 > bl*14:
				green++
			}
		}
	}
	return red, green
}

// noteWith waits until a notification holding every want has been shown,
// closing each shown meanwhile, and returns it.
func noteWith(t *testing.T, want ...string) historyEntry {
	t.Helper()
	var seen []string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		dunstctl(t, "close-all")
		seen = seen[:0]
		for _, e := range history(t) {
			all := true
			for _, w := range want {
				all = all && strings.Contains(e.Summary+"\n"+e.Body, w)
			}
			if all {
				return e
			}
			seen = append(seen, e.Summary+" / "+e.Body)
		}
	}
	t.Fatalf("no notification with %q; dunst showed %q", want, seen)
	return historyEntry{}
}
