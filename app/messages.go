package app

import (
	"context"
	"time"

	"feedback/app/core"
	"feedback/app/core/messages"
	"feedback/ipc"
	"feedback/ipc/wire"
)

// permissionGrace is how long a client's "waits for your permission"
// (wire.Message.Permission) waits for feedback's approval window of the
// same prompt: Claude Code runs its PermissionRequest hook (feedback
// approve) and its Notification hook side by side.
const permissionGrace = 2 * time.Second

// messenger takes the agents' one-way messages (ipc.PathMessages): the
// messages record and list them (and limit each client's rate), and a
// desktop notification shows them unless do not disturb is on. A client's
// own "waits for your permission" shows none when feedback's approval
// window asks for that permission: one prompt, one signal, gone when
// answered (the window's own notification goes with it).
type messenger struct {
	messages    *messages.Control
	dnd         interface{ Active() bool }
	questions   interface{ Items() []core.Item } // the open questions (the inbox)
	notes       *notices
	openHistory func() // a click on the notification
	// approving reports whether an approval window of client's in
	// project is open (nil: one among questions).
	approving func(client, project string) bool
	grace     time.Duration // 0: permissionGrace
}

func (m messenger) Message(_ context.Context, msg wire.Message) (ipc.Receipt, error) {
	msg, err := m.messages.Message(msg)
	if err != nil {
		return ipc.Receipt{}, err
	}
	notified := m.notes.n != nil && !m.dnd.Active()
	switch {
	case !notified:
	case msg.Permission && m.approvingNow(msg.Client, msg.Project):
		notified = false
	case msg.Permission:
		// The approval window may open a moment later: the hook that
		// sent this returns now, and the notification waits for it.
		grace := m.grace
		if grace <= 0 {
			grace = permissionGrace
		}
		m.notes.wg.Go(func() {
			time.Sleep(grace)
			if !m.approvingNow(msg.Client, msg.Project) {
				m.notes.message(msg, m.openHistory)
			}
		})
	default:
		m.notes.message(msg, m.openHistory)
	}
	return ipc.Receipt{ID: msg.ID, Notified: notified}, nil
}

// approvingNow reports whether an approval window of client's in project
// is open.
func (m messenger) approvingNow(client, project string) bool {
	if m.approving != nil {
		return m.approving(client, project)
	}
	for _, it := range m.questions.Items() {
		if it.Approval && it.Client == client && it.Project == project {
			return true
		}
	}
	return false
}
