package relay

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"feedback/ipc/wire"
)

// Someone on the broker keeps every frame of a question that was answered
// and publishes them again after the desktop's app restarted, while the
// question's caller could still be waiting: the app must not open it again.
// What the desktop took survives its restart (SeenFile).
func TestRelayReplayAfterRestartIsRefused(t *testing.T) {
	b := startBroker(t)
	fa := &fakeAsker{answer: echo}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "box")
	topic := TopicsOf(tok.ID).Questions

	c := brokerUser(t, b)
	frames := make(chan []byte, 64)
	if st := c.Subscribe(topic, 1, func(_ mqtt.Client, m mqtt.Message) { frames <- m.Payload() }); !st.WaitTimeout(10*time.Second) || st.Error() != nil {
		t.Fatal(st.Error())
	}
	r := dial(t, b, tok)
	if _, err := r.Ask(context.Background(), question("q-once", "Drop the staging database?", 10*time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	r.Shutdown()
	asked := func(text string) (n int) {
		fa.mu.Lock()
		defer fa.mu.Unlock()
		for _, a := range fa.asked {
			if a.Question.Prompts[0].Markdown == text {
				n++
			}
		}
		return n
	}
	if asked("Drop the staging database?") != 1 {
		t.Fatal("the question was not asked once")
	}

	ds.stop() // the app restarts
	ds.run(t, fa)
	var last mqtt.Token
	for n := len(frames); n > 0; n-- {
		last = c.Publish(topic, 1, false, <-frames)
	}
	if last == nil || !last.WaitTimeout(10*time.Second) || last.Error() != nil {
		t.Fatal("the captured frames were not published again")
	}
	// A question after the replay: once it is answered, the desktop has
	// taken every frame before it.
	r2 := dial(t, b, tok)
	if _, err := r2.Ask(context.Background(), question("q-after", "Still there?", time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	if n := asked("Drop the staging database?"); n != 1 {
		t.Fatalf("the answered question was asked %d times: a replay after the restart opened it again", n)
	}
}

// A frame may be dated up to MaxSkew ahead (clocks differ): its stream is
// remembered for as long as the frame is not stale, or a copy of it is
// taken again once the stream is forgotten.
func TestGuardRemembersAStreamDatedAheadWhileItIsValid(t *testing.T) {
	g := newGuard()
	admit := func(e envelope, now time.Time) error {
		_, err := g.admit(e, now, now.Add(-wire.MaxWait-grace), now.Add(wire.MaxWait+grace))
		return err
	}
	now := time.Now()
	e := envelope{Stream: "s", Time: now.Add(4 * time.Minute).UnixMilli(), Kind: kindCancel}
	if err := admit(e, now); err != nil {
		t.Fatal(err)
	}
	if err := admit(e, now.Add(wire.MaxWait+grace+time.Minute)); !errors.Is(err, ErrReplay) {
		t.Fatalf("a copy a day later, while it is not stale: %v, want a replay", err)
	}
}

// An app that cannot read its record of the questions taken cannot tell a
// copy of one it took from a new one: it refuses those sent before it
// started (the remote is told), and takes those sent after.
func TestRelayUnreadableRecordRefusesEarlierQuestions(t *testing.T) {
	b := startBroker(t)
	fa := &fakeAsker{answer: echo}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "box")
	ds.stop()
	if err := os.WriteFile(filepath.Join(ds.dir, SeenFile), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := dial(t, b, tok)
	res := askAsync(r, question("q-early", "asked while the app was stopped", time.Minute))
	time.Sleep(100 * time.Millisecond) // dated before the app starts
	ds.run(t, fa)
	if o := within(t, res, 10*time.Second, "the question sent before the start was neither taken nor refused"); !refused(o.err, "refused") {
		t.Fatalf("got %+v, %v; want a refusal", o.a, o.err)
	}
	if _, err := r.Ask(context.Background(), question("q-late", "asked after", time.Minute), nil); err != nil {
		t.Fatalf("a question sent after the start: %v", err)
	}
}
