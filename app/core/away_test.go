package core

import (
	"context"
	"testing"

	"feedback/internal/settings"
	"feedback/ipc/wire"
)

// While the user is away with "proceed", a new question gets StatusAway at
// once, no window, and is recorded; with "wait" it opens as usual. Both are
// noted, and coming back tells OnBack what was asked and ends the snoozes
// until then. With "off" nothing changes.
func TestAway(t *testing.T) {
	p := newFakeStore()
	in, ui := inboxWith(p)
	var back [][]AwayItem
	in.OnBack(func(items []AwayItem) { back = append(back, items) })

	in.SetAwayMode(settings.AwayOff)
	in.SetAway(true)
	off := ask(context.Background(), in, q("off"))
	ui.waitShown(t, "off")
	ui.answer("off", wire.Answer{Status: wire.StatusAnswered})
	result(t, off)
	in.SetAway(false)
	if len(back) != 0 {
		t.Errorf("away off told OnBack %v", back)
	}

	in.SetAwayMode(settings.AwayProceed)
	in.SetAway(true)
	r := result(t, ask(context.Background(), in, q("deploy")))
	if r.err != nil || r.a.Status != wire.StatusAway || r.a.QuestionID != "deploy" {
		t.Fatalf("proceed: %+v, %v", r.a, r.err)
	}
	select {
	case id := <-ui.showCh:
		t.Fatalf("a window opened for %s while away with proceed", id)
	default:
	}
	in.SetAwayMode(settings.AwayWait)
	waiting := ask(context.Background(), in, q("rename"))
	ui.waitShown(t, "rename")
	if st := in.Away(); !st.On || len(st.Asked) != 2 || !st.Asked[0].Proceeded || st.Asked[1].Proceeded {
		t.Errorf("away state %+v", st)
	}
	in.SetAway(false)
	if len(back) != 1 || len(back[0]) != 2 || back[0][0].ID != "deploy" || back[0][1].ID != "rename" {
		t.Errorf("back: %+v", back)
	}
	ui.answer("rename", wire.Answer{Status: wire.StatusAnswered})
	if r := result(t, waiting); r.a.Status != wire.StatusAnswered {
		t.Errorf("the waiting question: %+v", r.a)
	}
	eventually(t, "the away outcome recorded", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.calls {
			if c == "answer deploy away delivered=true" {
				return true
			}
		}
		return false
	})
}
