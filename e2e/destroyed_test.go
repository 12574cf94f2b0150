package e2e

import (
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"feedback/ipc/wire"
)

// Another X client destroys a question's window (XDestroyWindow; any
// client may): the UI process survives it (its X error handler ignores
// the BadDrawable of Mesa's next frame into the destroyed window, where
// Xlib's default handler exited) and shows the question again in a new
// window, with the draft typed in the old one; the user's answer in it
// reaches the caller.
func TestWindowDestroyedByAnotherClientComesBack(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db)
	app := appPID()
	q := choiceQuestion("Destroyed")
	q.TimeoutSeconds = 600
	ch, _ := askApp(t, q)
	win := findWindow(t, "Destroyed — feedback")
	ui := waitUIPIDs(t, app, 1, 5*time.Second)[0]
	activate(t, win)
	typeText(t, "typed before the destroy")
	waitDraftOf(t, db, q.ID, hasText("typed before the destroy"))

	id, err := strconv.ParseUint(win, 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	x, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if err := xproto.DestroyWindowChecked(x, xproto.Window(id)).Check(); err != nil {
		t.Fatalf("destroying window %s: %v", win, err)
	}
	// The window is gone once the request is checked; another comes back.
	again := windowOtherThan(t, "Destroyed — feedback", win)
	if pids := uiPIDs(app); !slices.Equal(pids, []int{ui}) {
		t.Fatalf("the app's UI processes are %v, want %d still: an X error on a window we no longer own ended it", pids, ui)
	}
	screenshot(t, "destroyed-window-back")
	activate(t, again)
	key(t, "ctrl+Return")
	r := awaitAsk(t, ch)
	if r.err != nil || r.a.Status != wire.StatusAnswered || len(r.a.Replies) != 1 || r.a.Replies[0].Text != "typed before the destroy" {
		t.Fatalf("answer = %+v, %v; want the draft typed before the window was destroyed, answered in the window that came back", r.a, r.err)
	}
	if pids := uiPIDs(app); !slices.Equal(pids, []int{ui}) {
		t.Errorf("the app's UI processes are %v after the answer, want %d still", pids, ui)
	}
}
