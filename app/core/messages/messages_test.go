package messages

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"feedback/app/core"
	"feedback/app/core/coretest"
	"feedback/ipc/wire"
)

// saved is a Store that keeps the messages it is given.
type saved struct {
	core.Store
	mu       sync.Mutex
	messages []wire.Message
}

func (s *saved) SaveMessage(m wire.Message, _ time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.messages = append(s.messages, m)
	return nil
}

// attached is a Control attached to an inbox recording in st; close closes
// the inbox, once what it recorded is written.
func attached(st *saved) (ms *Control, close func()) {
	ms = New(nil)
	in := core.New(core.Options{Presenter: coretest.NewUI(), Open: func() (core.Store, error) { return st, nil }, Features: []core.Feature{ms}})
	in.Start()
	return ms, func() { in.Close(time.Second) }
}

// Messages are recorded and listed newest first, at most
// MaxRecentMessages; a client sending more than MessageBurst in a row is
// refused with a wait to respect, while another client is not.
func TestMessagesRecordedAndLimited(t *testing.T) {
	p := &saved{Store: core.NewMemoryStore()}
	ms, closeInbox := attached(p)
	var got []wire.Message
	for i := range MessageBurst {
		m, err := ms.Message(wire.Message{Client: "loop", Text: fmt.Sprint("message ", i)})
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if m.ID == "" {
			t.Fatal("no id given")
		}
		got = append(got, m)
	}
	_, err := ms.Message(wire.Message{Client: "loop", Text: "one too many"})
	if !errors.Is(err, &wire.Error{Code: wire.CodeRateLimited}) || !strings.Contains(err.Error(), "the next one is shown in 12 s") {
		t.Errorf("a sixth message in a row: %v", err)
	}
	// The refusal's message is its cause: whoever passes it on says "not
	// shown" once (issue 30: "Not shown to the user: not shown: …").
	if we := (*wire.Error)(nil); errors.As(err, &we) && strings.Contains(strings.ToLower(we.Message), "not shown") {
		t.Errorf("the refusal says 'not shown' itself: %q", we.Message)
	}
	if _, err := ms.Message(wire.Message{Client: "other", Text: "from another agent"}); err != nil {
		t.Errorf("another client was limited too: %v", err)
	}
	recent := ms.Recent()
	if len(recent) != MessageBurst+1 || recent[0].Message.Text != "from another agent" || recent[len(recent)-1].Message.ID != got[0].ID {
		t.Errorf("recent: %+v", recent)
	}
	closeInbox() // what was queued is written
	p.mu.Lock()
	if n := len(p.messages); n != MessageBurst+1 {
		t.Errorf("%d messages recorded, want %d", n, MessageBurst+1)
	}
	p.mu.Unlock()
	for i := range 2 * MaxRecentMessages {
		ms.Message(wire.Message{Client: fmt.Sprint("c", i), Text: "x"})
	}
	if n := len(ms.Recent()); n != MaxRecentMessages {
		t.Errorf("%d recent messages kept, want %d", n, MaxRecentMessages)
	}
}

// Many clients cannot do together what one may not: 40 client names in a
// row get AllMessagesBurst messages shown, the rest are refused with a
// wait, and a message refused for the total takes nothing from its
// client's own rate (it is shown once the total allows one more).
func TestMessagesLimitedAcrossClients(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ms, closeInbox := attached(&saved{Store: core.NewMemoryStore()})
		defer closeInbox()
		shown := 0
		var refused error
		for i := range 40 {
			_, err := ms.Message(wire.Message{Client: fmt.Sprint("agent-", i), Text: "finished"})
			switch {
			case err == nil:
				shown++
			case refused == nil:
				refused = err
			}
		}
		if shown != AllMessagesBurst {
			t.Errorf("%d of 40 messages from 40 clients shown, want %d", shown, AllMessagesBurst)
		}
		if !errors.Is(refused, &wire.Error{Code: wire.CodeRateLimited}) || !strings.Contains(fmt.Sprint(refused), "agents together") {
			t.Errorf("a message beyond the total: %v", refused)
		}
		for range 2 * MessageBurst { // refused for the total, not for its client
			if _, err := ms.Message(wire.Message{Client: "patient", Text: "again"}); err == nil {
				t.Fatal("a message beyond the total was shown")
			}
		}
		deadline := time.Now().Add(AllMessagesEvery + 2*time.Second)
		for {
			_, err := ms.Message(wire.Message{Client: "patient", Text: "at last"})
			if err == nil {
				break
			}
			if strings.Contains(err.Error(), "patient sent more than") {
				t.Fatalf("refusals for the total used up the client's own rate: %v", err)
			}
			if time.Now().After(deadline) {
				t.Fatalf("still refused after %v: %v", AllMessagesEvery, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// A client's hooks (notify --from) and its agent (the notify tool) are
// rated apart: a few runs' "needs your attention" and "finished" fill the
// hooks' rate, and the agent's own message is still shown.
func TestHookMessagesLeaveTheAgentsRate(t *testing.T) {
	ms, closeInbox := attached(&saved{Store: core.NewMemoryStore()})
	defer closeInbox()
	for i := range MessageBurst {
		if _, err := ms.Message(wire.Message{Client: "claude-code", Hook: true, Text: fmt.Sprint("finished ", i)}); err != nil {
			t.Fatalf("hook message %d: %v", i, err)
		}
	}
	if _, err := ms.Message(wire.Message{Client: "claude-code", Hook: true, Text: "one too many"}); !errors.Is(err, &wire.Error{Code: wire.CodeRateLimited}) {
		t.Errorf("the hooks' own rate: %v", err)
	}
	if _, err := ms.Message(wire.Message{Client: "claude-code", Text: "blocked on credentials"}); err != nil {
		t.Errorf("the agent's notify after its hooks' messages: %v", err)
	}
}
