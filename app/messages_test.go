package app

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"feedback/app/core"
	"feedback/app/core/coretest"
	"feedback/app/core/dnd"
	"feedback/app/core/messages"
	"feedback/ipc/wire"
)

// With feedback's approval window asking for a permission, the client's
// own "needs your permission" (its Notification hook) shows no second
// notification — whether the window opened before the message came or
// within the grace after; without a window it is shown; any other
// message is shown at once.
func TestPermissionOneSignal(t *testing.T) {
	permission := wire.Message{Client: "claude-code", Project: "shop", Text: "Claude needs your permission to use Bash", Urgent: true, Hook: true, Permission: true}
	for _, tc := range []struct {
		name      string
		msg       wire.Message
		openAfter time.Duration // the approval window opens this long after the message; -1: never, 0: already open
		shown     int
	}{
		{"the approval window is open", permission, 0, 0},
		{"the approval window opens a moment later", permission, 30 * time.Millisecond, 0},
		{"no approval window", permission, -1, 1},
		{"another project's approval window", func() wire.Message { m := permission; m.Project = "web"; return m }(), 0, 1},
		{"not a permission", wire.Message{Client: "claude-code", Project: "shop", Text: "Finished", Hook: true}, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeNotifier{}
			notes := &notices{n: f, log: slog.New(slog.DiscardHandler)}
			msgs, quiet := messages.New(nil), dnd.New(nil)
			in := core.New(core.Options{Presenter: coretest.NewUI(), Features: []core.Feature{quiet, msgs}})
			in.Start()
			defer in.Close(time.Second)
			var open atomic.Bool
			open.Store(tc.openAfter == 0)
			if tc.openAfter > 0 {
				time.AfterFunc(tc.openAfter, func() { open.Store(true) })
			}
			m := messenger{messages: msgs, dnd: quiet, questions: in, notes: notes, openHistory: func() {}, grace: 300 * time.Millisecond,
				approving: func(client, project string) bool {
					return open.Load() && client == "claude-code" && project == "shop"
				}}
			if _, err := m.Message(context.Background(), tc.msg); err != nil {
				t.Fatal(err)
			}
			notes.wait()
			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.shown) != tc.shown {
				t.Errorf("%d notifications shown, want %d", len(f.shown), tc.shown)
			}
			if got := msgs.Recent(); len(got) != 1 {
				t.Errorf("%d messages recorded, want 1 (History keeps it)", len(got))
			}
		})
	}
}
