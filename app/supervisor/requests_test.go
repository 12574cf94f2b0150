package supervisor

import (
	"testing"
	"time"

	"feedback/ipc/uiproto"
)

// An app window's request is answered by Options.Requests, off
// the event loop, with the response of its number; the heartbeat and the
// windows go on meanwhile.
func TestUIProcessAnswersRequests(t *testing.T) {
	f := newFakeProcs()
	asked := make(chan uiproto.Request, 1)
	release := make(chan struct{})
	u := New(Options{Start: f.start, Linger: time.Hour, Requests: func(r uiproto.Request) uiproto.Response {
		asked <- r
		<-release // a slow read of the database
		return uiproto.HistoryPage{Req: r.RequestID(), More: true}
	}})
	defer u.Close(time.Second)
	u.OpenWindow(uiproto.WindowHistory)
	ui := f.next(t)
	if m := expect[uiproto.OpenWindow](t, ui); m.Window != uiproto.WindowHistory {
		t.Fatalf("opened %q", m.Window)
	}
	ui.send(t, uiproto.HistoryQuery{Req: 7, Search: "deploy", Limit: 10})
	if r := receive(t, asked, "the request"); r.(uiproto.HistoryQuery).Search != "deploy" {
		t.Fatalf("asked %+v", r)
	}
	u.Notify("t", "b") // the event loop is not held by the slow answer
	expect[uiproto.Notify](t, ui)
	close(release)
	if p := expect[uiproto.HistoryPage](t, ui); p.Req != 7 || !p.More {
		t.Fatalf("answer %+v", p)
	}
}
