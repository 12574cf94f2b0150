package supervisor

import (
	"feedback/app/clock/clocktest"
	"testing"
	"time"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// The inbox alone knows what is shown: after a crash the new UI process
// shows exactly the inbox's shown windows — not the answered, withdrawn
// or snoozed ones — oldest first, quietly, each with its latest draft and
// its countdown running to the inbox's deadline; a snoozed one comes back
// later, in the same process, with its draft.
func TestRestartShowsExactlyTheInboxWindows(t *testing.T) {
	clock := clocktest.New()
	f, u := newUI(Options{Linger: time.Hour, Clock: clock})
	defer u.Close(time.Second)
	ids := []string{"older", "answered", "snoozed", "withdrawn", "newer"}
	logs := map[string]*hookLog{}
	start := clock.Now()
	for _, id := range ids {
		l, h := newHooks()
		logs[id] = l
		showDraft(t, u, wire.Question{ID: id, TimeoutSeconds: 600, Prompts: []wire.Prompt{{Markdown: id}}}, nil, h)
	}
	ui := f.next(t)
	for range ids {
		expect[uiproto.Show](t, ui)
	}
	in := harnessOf(u).in
	ui.send(t, draftEvent("newer", draftOf("typed in newer")))
	receive(t, logs["newer"].drafts, "the newer window's draft")
	ui.send(t, draftEvent("snoozed", draftOf("typed before the snooze")))
	receive(t, logs["snoozed"].drafts, "the snoozed window's draft")
	ui.send(t, uiproto.Done{ID: "answered", Answer: wire.Answer{Status: wire.StatusAnswered}})
	receive(t, logs["answered"].done, "the answer")
	snoozed, ok := harnessOf(u).host.SetAside("snoozed", wire.Snooze{Until: clock.Now().Add(time.Second)}) // package snooze's part
	if !ok {
		t.Fatal("not snoozed")
	}
	expect[uiproto.Withdraw](t, ui)
	withdraw(u, "withdrawn")
	expect[uiproto.Withdraw](t, ui)
	if n := in.WindowsOpen(); n != 2 {
		t.Fatalf("%d windows shown, want 2", n)
	}
	ui.crash()

	waitUntil(t, "the restart", func() bool { clock.Advance(0); return len(f.started) > 0 })
	ui2 := f.next(t)
	var got []uiproto.Show
	for range 2 {
		got = append(got, expect[uiproto.Show](t, ui2))
	}
	if got[0].Question.ID != "older" || got[1].Question.ID != "newer" {
		t.Fatalf("shown again %q, %q; want older, newer", got[0].Question.ID, got[1].Question.ID)
	}
	deadline := start.Add(600 * time.Second)
	for _, m := range got {
		if !m.Quiet || m.Countdown == nil || !m.Countdown.Deadline.Equal(deadline) {
			t.Errorf("%s shown again quiet=%v countdown %+v; want quiet, running to %v", m.Question.ID, m.Quiet, m.Countdown, deadline)
		}
	}
	if got[0].Draft != nil || got[1].Draft == nil || got[1].Draft.Replies[0].Text != "typed in newer" {
		t.Errorf("drafts shown again: older %+v, newer %+v; want none and the one typed", got[0].Draft, got[1].Draft)
	}
	select {
	case m := <-ui2.cmds:
		t.Errorf("a third command %q after the two windows", m.Type())
	case <-time.After(50 * time.Millisecond):
	}
	// The snooze ends: it comes back, with its draft.
	harnessOf(u).host.BringBack(snoozed)
	m := expect[uiproto.Show](t, ui2)
	if m.Question.ID != "snoozed" || m.Draft == nil || m.Draft.Replies[0].Text != "typed before the snooze" {
		t.Errorf("came back as %+v (draft %+v)", m, m.Draft)
	}
}

// A draft's image crosses the channel once; the drafts after it refer to
// it. The inbox rebuilds each whole — the one copy of the draft — records
// it, and a new UI process gets it back with its image.
func TestDraftImagesRebuiltByTheInbox(t *testing.T) {
	f, u := newUI(Options{Linger: time.Hour})
	defer u.Close(time.Second)
	ui, l := showFirst(t, f, u, "a", "A")
	img := wire.Image{MIME: "image/png", Data: []byte("\x89PNG pixels"), Name: "shot.png"}
	var enc uiproto.DraftEncoder // the window's, as in the UI process
	first := wire.Draft{Replies: []wire.Reply{{Text: "see"}}, Images: []wire.Image{img}}
	ui.send(t, enc.Encode("a", first))
	receive(t, l.drafts, "the first draft")
	second := wire.Draft{Replies: []wire.Reply{{Text: "see this"}}, Images: first.Images}
	ev := enc.Encode("a", second)
	if len(ev.Images) != 1 || ev.Images[0].Image != nil {
		t.Fatalf("the second draft carries its image again: %+v", ev.Images)
	}
	ui.send(t, ev)
	d := receive(t, l.drafts, "the second draft")
	if d.Replies[0].Text != "see this" || len(d.Images) != 1 || string(d.Images[0].Data) != string(img.Data) {
		t.Fatalf("recorded %+v, want the text and the image", d)
	}
	ui.crash()
	m := expect[uiproto.Show](t, f.next(t))
	if m.Draft == nil || m.Draft.Replies[0].Text != "see this" || len(m.Draft.Images) != 1 || m.Draft.Images[0].Name != "shot.png" {
		t.Errorf("shown again with draft %+v", m.Draft)
	}
}
