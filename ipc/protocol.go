package ipc

import (
	"context"
	"encoding/json"
	"errors"

	"feedback/wire"
)

// ProtocolVersion is the version of the wire protocol spoken on the socket.
// Every path is prefixed with /v<ProtocolVersion>/ and every response carries
// it in the HeaderProtocol header. A change that an older peer cannot
// understand bumps it; peers of different versions refuse each other with
// ErrProtocolMismatch, naming both versions, and never exchange a question.
//
// Version 2: the body of POST PathQuestions is a wire.Ask, the question
// inside it, instead of the question with the caller's wait_ms,
// attach_only and keep_open among its fields.
const ProtocolVersion = 2

// HeaderProtocol is the response header that names the server's protocol
// version, so a client can tell a version mismatch from a broken server.
const HeaderProtocol = "Feedback-Protocol"

// Paths served by the app.
const (
	PathHello     = "/v2/hello"     // GET: Hello
	PathQuestions = "/v2/questions" // POST wire.Ask: a stream of Event (NDJSON)
)

// MaxBodyBytes: a request body larger than this is refused.
const MaxBodyBytes = 16 << 20

// Hello is the answer to GET PathHello: who is listening.
type Hello struct {
	Protocol int    `json:"protocol"` // ProtocolVersion of the server
	App      string `json:"app"`      // "feedback"
	Version  string `json:"version"`  // the app's build version
	PID      int    `json:"pid"`
}

// EventType names an Event in the stream answering POST PathQuestions.
type EventType string

const (
	EventQueued EventType = "queued" // accepted by the app
	EventShown  EventType = "shown"  // the window is on screen
	EventAnswer EventType = "answer" // final: Answer is set
	EventError  EventType = "error"  // final: Error is set
	// EventPending is final: the caller's wire.Ask.Wait ran out; the
	// question stays open for it to come back. CallerData is set.
	EventPending EventType = "pending"
)

// Event is one line of the NDJSON stream answering a question.
// The stream ends after an EventAnswer, EventError or EventPending.
type Event struct {
	Type   EventType    `json:"type"`
	Answer *wire.Answer `json:"answer,omitempty"`
	Error  *wire.Error  `json:"error,omitempty"`
	// CallerData is the question's CallerData, on EventPending.
	CallerData json.RawMessage `json:"caller_data,omitempty"`
	// Snooze, on EventPending, says the user snoozed the question.
	Snooze *wire.Snooze `json:"snooze,omitempty"`
}

// Asker asks a question on behalf of one caller. The app's inbox is the
// Asker a Server hands each request to; a *Client, which carries the
// request to the app, is one too, for the callers (the shim, `feedback
// ask`).
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
	// *wire.Error returned by Ask reaches the caller with its code; any
	// other error as CodeInternal.
	Ask(ctx context.Context, a wire.Ask, emit func(Event)) (wire.Answer, error)
}

// ErrPending is returned by an Asker and by Client.Ask when the caller's
// wire.Ask.Wait ran out before an answer: the question stays open, and
// asking again with its ID attaches to it or collects its answer. The
// Answer returned with it carries only QuestionID and CallerData.
var ErrPending = errors.New("ipc: not answered within the caller's wait; the question stays open")
