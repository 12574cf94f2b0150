package e2e

import (
	"strconv"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"feedback/wire"
)

// Another X client destroys a question's window (XDestroyWindow; any
// client may): the question is not lost — its window comes back, and the
// user's answer in it reaches the caller. (Today the UI process dies of
// it: Xlib's default handler exits on the BadDrawable of Mesa's next
// XShmPutImage into the destroyed window, and the app shows the window
// again in a new UI process, quietly, with its draft and countdown.)
func TestWindowDestroyedByAnotherClientComesBack(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	startApp(t)
	q := choiceQuestion("Destroyed")
	q.TimeoutSeconds = 600
	ch, _ := askApp(t, q)
	win := findWindow(t, "Destroyed — feedback")
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
	// The window is gone at once; another comes back (the X id may be
	// the same: a new client can get the old one's resource ids).
	windowGone(t, "Destroyed — feedback", 5*time.Second)
	again := findWindow(t, "Destroyed — feedback")
	activate(t, again)
	key(t, "ctrl+Return")
	if r := awaitAsk(t, ch); r.err != nil || r.a.Status != wire.StatusAnswered {
		t.Fatalf("answer = %+v, %v; want the answer given in the window that came back", r.a, r.err)
	}
}
