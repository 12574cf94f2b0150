package app

import (
	"context"

	"feedback/app/core/messages"
	"feedback/ipc"
	"feedback/ipc/wire"
)

// messenger takes the agents' one-way messages (ipc.PathMessages): the
// messages record and list them (and limit each client's rate), and a
// desktop notification shows them unless do not disturb is on.
type messenger struct {
	messages    *messages.Control
	dnd         interface{ Active() bool }
	notes       *notices
	openHistory func() // a click on the notification
}

func (m messenger) Message(_ context.Context, msg wire.Message) (ipc.Receipt, error) {
	msg, err := m.messages.Message(msg)
	if err != nil {
		return ipc.Receipt{}, err
	}
	notified := m.notes.n != nil && !m.dnd.Active()
	if notified {
		m.notes.message(msg, m.openHistory)
	}
	return ipc.Receipt{ID: msg.ID, Notified: notified}, nil
}
