package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// forceScreenSaver turns the X server's screen saver on or off, as the
// desktop does when the user leaves or comes back.
func forceScreenSaver(t *testing.T, on bool) {
	t.Helper()
	c, err := xgb.NewConnDisplay(os.Getenv("DISPLAY"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	mode := byte(xproto.ScreenSaverReset)
	if on {
		mode = xproto.ScreenSaverActive
	}
	if err := xproto.ForceScreenSaverChecked(c, mode).Check(); err != nil {
		t.Fatal(err)
	}
}

// Away with "agents proceed": once the screen saver is on, a question
// through a real MCP client gets at once the away result (no window), in
// words that say to proceed carefully; the tray shows the away state;
// back, one notification lists what was asked and what the agent was
// told, the tray lists it, and History records it as away.
func TestAwayAgentsProceed(t *testing.T) {
	requireSession(t)
	startDunst(t)
	dunstctl(t, "close-all")
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db, writeSettings(t, `{"away": "proceed", "away_after_minutes": 60}`))
	tray := openTray(t)
	forceScreenSaver(t, true)
	t.Cleanup(func() { forceScreenSaver(t, false) })
	waitTray(t, tray, "the away state", hasEntry("Away since"))

	c := newMCP(t, "away-agent", "FEEDBACK_DB="+db)
	start := time.Now()
	res := await(t, call(c, "ask_confirm", map[string]any{"question": "Drop the AwayTable?"}))
	sc := structured(t, res)
	if res.IsError || sc["status"] != "away" || sc["away"] != true || sc["answer"] != "" || sc["confirmed"] != nil {
		t.Errorf("away result: %v", sc)
	}
	if d := time.Since(start); d > 5*time.Second || !strings.Contains(sc["next_step"].(string), "do nothing destructive or irreversible") {
		t.Errorf("after %v: next_step %q", d, sc["next_step"])
	}
	noWindow(t, "Drop the AwayTable? — feedback")

	forceScreenSaver(t, false)
	e := notesWith(t, "While you were away: 1 question", "away-agent: Drop the AwayTable? — told to proceed")
	t.Logf("notification: %q / %q", e.Summary, e.Body)
	waitTray(t, tray, "what was asked while away", hasEntry("Asked while you were away (1)"))
	doc, out := readHistory(t, db)
	if qs := historyOf(doc.Loops, "Drop the AwayTable?"); len(qs) != 1 || qs[0].Outcome != "away" {
		t.Errorf("History: %+v\n%s", qs, out)
	}
}
