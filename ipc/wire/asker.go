package wire

import (
	"context"
	"encoding/json"
	"errors"
)

// What one caller's ask is, whatever carries it: the app's inbox answers
// it (an Asker), the transport (package ipc) carries it between the
// processes as a stream of Events, and the callers (the shim, `feedback
// ask`) ask through an Asker too. No I/O here: the domain (package core)
// uses these types without importing a transport.

// EventType names an Event of the stream that answers an ask.
type EventType string

const (
	EventQueued EventType = "queued" // accepted by the app
	EventShown  EventType = "shown"  // the window is on screen
	EventAnswer EventType = "answer" // final: Answer is set
	EventError  EventType = "error"  // final: Error is set
	// EventPending is final: the caller's Ask.Wait ran out; the
	// question stays open for it to come back. CallerData is set.
	EventPending EventType = "pending"
)

// Event is one line of the NDJSON stream answering a question.
// The stream ends after an EventAnswer, EventError or EventPending.
type Event struct {
	Type   EventType `json:"type"`
	Answer *Answer   `json:"answer,omitempty"`
	Error  *Error    `json:"error,omitempty"`
	// CallerData is the question's CallerData, on EventPending.
	CallerData json.RawMessage `json:"caller_data,omitempty"`
	// Snooze, on EventPending, says the user snoozed the question; on
	// EventShown, that the question's window was shown before and is
	// closed now, until the snooze ends.
	Snooze *Snooze `json:"snooze,omitempty"`
}

// Asker asks a question on behalf of one caller. The app's inbox is the
// Asker an ipc.Server hands each request to; an *ipc.Client, which
// carries the request to the app, is one too, for the callers (the shim,
// `feedback ask`).
type Asker interface {
	// Ask shows a.Question (or attaches to its open window, as a says) and
	// blocks until the user answers, the question times out, a.Wait runs
	// out (ErrPending), or ctx ends. When ctx ends the caller has gone
	// away: the question is withdrawn (its window closed) unless another
	// caller waits or a.KeepOpen, and Ask returns promptly; its result is
	// dropped.
	//
	// emit reports progress (EventShown) to the caller. It may be called
	// from any goroutine, is safe after Ask returned (it does nothing
	// then), and ignores final events (EventAnswer, EventError,
	// EventPending): the final event comes from Ask's result. An
	// *Error returned by Ask reaches the caller with its code; any
	// other error as CodeInternal.
	Ask(ctx context.Context, a Ask, emit func(Event)) (Answer, error)
}

// ErrPending is returned by an Asker (ipc.Client.Ask too) when the caller's
// Ask.Wait ran out before an answer: the question stays open, and
// asking again with its ID attaches to it or collects its answer. The
// Answer returned with it carries only QuestionID and CallerData.
var ErrPending = errors.New("not answered within the caller's wait; the question stays open")
