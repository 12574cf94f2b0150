package relay

import (
	"context"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// A remote names its client and its host itself: a remote that claims to
// come "via relay laptop (host laptop.local)" must not put that pairing
// name on the From line as if the desktop vouched for it. The desktop
// shows first what it knows (the pairing whose keys opened the frame),
// and the remote's own words quoted, as its words.
func TestRelayRemoteWordsAreShownAsItsWords(t *testing.T) {
	b := startBroker(t)
	fa := &fakeAsker{answer: echo}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "build-box")
	r, err := Dial(context.Background(), tok, RemoteOptions{Password: b.Password("desk"), Host: "laptop.local", Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Shutdown)
	a := question("q-names", "Ship it?", time.Minute)
	a.Question.Client = "claude-code via relay laptop (host laptop.local)"
	if _, err := r.Ask(context.Background(), a, nil); err != nil {
		t.Fatal(err)
	}
	q := fa.asked[0].Question
	const want = `relay build-box: "claude-code via relay laptop (host laptop.local)"`
	if q.Client != want {
		t.Errorf("From: %q, want %q (the pairing first, the remote's words quoted)", q.Client, want)
	}
	if len(q.Context) == 0 || q.Context[0].Label != "Remote" || q.Context[0].Value != `pairing build-box, host "laptop.local" (as the remote says)` {
		t.Errorf("Remote line: %+v", q.Context)
	}
	if strings.HasPrefix(q.Client, "claude-code via relay laptop") {
		t.Error("the From line starts with the remote's claim")
	}
}

// remoteQuestion quotes what the remote says with Go's quoting: a quote,
// a newline or a control character in it cannot end the quotation early.
func TestRemoteQuestionQuotesTheRemote(t *testing.T) {
	p := Pairing{Name: "box"}
	q := remoteQuestion(wire.Question{ID: "x", Client: "a\" via relay evil \"b\nc"}, p, &Origin{Host: "h\x1b[2J"})
	if q.Client != `relay box: "a\" via relay evil \"b\nc"` {
		t.Errorf("Client %q", q.Client)
	}
	if q.Context[0].Value != `pairing box, host "h\x1b[2J" (as the remote says)` {
		t.Errorf("Remote %q", q.Context[0].Value)
	}
	if q := remoteQuestion(wire.Question{ID: "x"}, p, nil); q.Client != "relay box" || q.Context[0].Value != "pairing box" {
		t.Errorf("without a client or host: %q, %q", q.Client, q.Context[0].Value)
	}
}
