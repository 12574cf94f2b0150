package away

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"feedback/app/core"
	"feedback/app/core/coretest"
	"feedback/internal/settings"
	"feedback/ipc/wire"
)

// recorded is a Store that notes the questions and answers it records.
type recorded struct {
	core.Store
	mu    sync.Mutex
	calls []string
}

func (r *recorded) SaveQuestionAs(q wire.Question, _ string, _ time.Time, _ bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, "question "+q.ID)
	return nil
}

func (r *recorded) SaveAnswer(a wire.Answer, _ time.Time, delivered bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, fmt.Sprintf("answer %s %s delivered=%v", a.QuestionID, a.Status, delivered))
	return nil
}

// awayInbox is an inbox with away attached, back hearing each return of
// the user.
func awayInbox(t *testing.T, back func([]Item)) (*core.Inbox, *Control, *coretest.UI, *recorded) {
	t.Helper()
	st := &recorded{Store: core.NewMemoryStore()}
	c := New(Options{Back: back})
	ui := coretest.NewUI()
	in := core.New(core.Options{Presenter: ui, Open: func() (core.Store, error) { return st, nil }, Features: []core.Feature{c}})
	in.Start()
	t.Cleanup(func() { in.Close(time.Second) })
	return in, c, ui, st
}

// While the user is away with "proceed", a new question gets StatusAway at
// once, no window, and is recorded; with "wait" it opens as usual. Both are
// noted, and coming back tells Options.Back what was asked (and the app
// ends the snoozes until then). With "off" nothing changes.
func TestAway(t *testing.T) {
	var back [][]Item
	in, c, ui, p := awayInbox(t, func(items []Item) { back = append(back, items) })

	c.SetMode(settings.AwayOff)
	c.SetAway(true)
	off := coretest.Ask(t.Context(), in, coretest.Q("off"))
	ui.WaitShown(t, "off")
	ui.Answer("off", wire.Answer{Status: wire.StatusAnswered})
	coretest.Wait(t, off)
	c.SetAway(false)
	if len(back) != 1 || len(back[0]) != 0 {
		t.Errorf("back with away off: told %v, want nothing asked", back)
	}
	back = nil

	c.SetMode(settings.AwayProceed)
	c.SetAway(true)
	r := coretest.Wait(t, coretest.Ask(t.Context(), in, coretest.Q("deploy")))
	if r.Err != nil || r.A.Status != wire.StatusAway || r.A.QuestionID != "deploy" {
		t.Fatalf("proceed: %+v, %v", r.A, r.Err)
	}
	ui.NoShow(t)
	c.SetMode(settings.AwayWait)
	waiting := coretest.Ask(t.Context(), in, coretest.Q("rename"))
	ui.WaitShown(t, "rename")
	if st := c.State(); !st.On || len(st.Asked) != 2 || !st.Asked[0].Proceeded || st.Asked[1].Proceeded {
		t.Errorf("away state %+v", st)
	}
	c.SetAway(false)
	if len(back) != 1 || len(back[0]) != 2 || back[0][0].ID != "deploy" || back[0][1].ID != "rename" {
		t.Errorf("back: %+v", back)
	}
	ui.Answer("rename", wire.Answer{Status: wire.StatusAnswered})
	if r := coretest.Wait(t, waiting); r.A.Status != wire.StatusAnswered {
		t.Errorf("the waiting question: %+v", r.A)
	}
	in.Close(time.Second) // what was queued is written
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.Contains(p.calls, "question deploy") || !slices.Contains(p.calls, "answer deploy away delivered=true") {
		t.Errorf("recorded %q, want the question deploy asked and answered away", p.calls)
	}
}
