package core

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"feedback/wire"
)

// Messages are recorded and listed newest first, at most
// MaxRecentMessages; a client sending more than MessageBurst in a row is
// refused with a wait to respect, while another client is not.
func TestMessagesRecordedAndLimited(t *testing.T) {
	p := newFakeStore()
	in, _ := inboxWith(p)
	var got []wire.Message
	for i := range MessageBurst {
		m, err := in.Message(wire.Message{Client: "loop", Text: fmt.Sprint("message ", i)})
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if m.ID == "" {
			t.Fatal("no id given")
		}
		got = append(got, m)
	}
	_, err := in.Message(wire.Message{Client: "loop", Text: "one too many"})
	if !errors.Is(err, &wire.Error{Code: wire.CodeRateLimited}) || !strings.Contains(err.Error(), "the next one is shown in 12 s") {
		t.Errorf("a sixth message in a row: %v", err)
	}
	if _, err := in.Message(wire.Message{Client: "other", Text: "from another agent"}); err != nil {
		t.Errorf("another client was limited too: %v", err)
	}
	recent := in.RecentMessages()
	if len(recent) != MessageBurst+1 || recent[0].Message.Text != "from another agent" || recent[len(recent)-1].Message.ID != got[0].ID {
		t.Errorf("recent: %+v", recent)
	}
	eventually(t, "the messages recorded", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return len(p.messages) == MessageBurst+1
	})
	for i := range 2 * MaxRecentMessages {
		in.Message(wire.Message{Client: fmt.Sprint("c", i), Text: "x"})
	}
	if n := len(in.RecentMessages()); n != MaxRecentMessages {
		t.Errorf("%d recent messages kept, want %d", n, MaxRecentMessages)
	}
}
