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
	var again string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		out, _ := xdo("search", "--onlyvisible", "--name", "^Destroyed — feedback$").Output()
		if f := string(out); f != "" && f != win+"\n" {
			again = findWindow(t, "Destroyed — feedback")
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the destroyed question's window did not come back within 30 s")
		}
	}
	activate(t, again)
	key(t, "ctrl+Return")
	if r := awaitAsk(t, ch); r.err != nil || r.a.Status != wire.StatusAnswered {
		t.Fatalf("answer = %+v, %v; want the answer given in the window that came back", r.a, r.err)
	}
}
