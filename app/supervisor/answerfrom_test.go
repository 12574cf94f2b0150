package supervisor

import (
	"context"
	"feedback/app/core"
	"feedback/app/core/coretest"
	"testing"
	"time"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// Issue 30: a question answered from its notification (a quick answer, an
// inline reply) was seen there: its window closes without the "withdrew
// its question" notice that a window its agent withdrew unseen leaves.
func TestAnswerFromNotificationIsNoWithdrawal(t *testing.T) {
	unseen := make(chan string, 4)
	f := newFakeProcs()
	u := New(Options{Start: f.start, Linger: time.Hour})
	defer u.Close(time.Second)
	in := core.New(core.Options{Presenter: u, OnUnseenEnd: func(q wire.Question, _ bool) { unseen <- q.ID }})
	in.Start()
	coretest.Ask(t.Context(), in, coretest.Q("answered"))
	ctx, withdraw := context.WithCancel(t.Context())
	coretest.Ask(ctx, in, coretest.Q("withdrawn"))
	ui := f.next(t)
	for range 2 {
		expect[uiproto.Show](t, ui)
	}
	for _, id := range []string{"answered", "withdrawn"} {
		ui.send(t, uiproto.Shown{ID: id, Unfocused: true})
	}
	a := wire.Answer{Status: wire.StatusAnswered, Via: wire.ViaNotification, Replies: []wire.Reply{{Selected: []string{"Yes"}}}}
	if !in.AnswerFrom("answered", a) {
		t.Fatal("AnswerFrom refused an open question")
	}
	if w := expect[uiproto.Withdraw](t, ui); w.ID != "answered" {
		t.Fatalf("closed %q, want the answered window", w.ID)
	}
	// The notice of a real withdrawal comes; none came before it.
	withdraw() // its caller goes away: the inbox withdraws it
	if id := receive(t, unseen, "unseen end"); id != "withdrawn" {
		t.Errorf("a %q window was reported withdrawn unseen: it was answered from its notification", id)
	}
	select {
	case id := <-unseen:
		t.Errorf("a %q window was reported withdrawn unseen too", id)
	default:
	}
}
