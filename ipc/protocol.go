package ipc

import (
	"encoding/json"
	"errors"

	"feedback/wire"
)

// ProtocolVersion is the version of the wire protocol spoken on the socket.
// Every path is prefixed with /v<ProtocolVersion>/ and every response carries
// it in the HeaderProtocol header. A change that an older peer cannot
// understand bumps it.
const ProtocolVersion = 1

// HeaderProtocol is the response header that names the server's protocol
// version, so a client can tell a version mismatch from a broken server.
const HeaderProtocol = "Feedback-Protocol"

// Paths served by the app.
const (
	PathHello     = "/v1/hello"     // GET: Hello
	PathQuestions = "/v1/questions" // POST Question: a stream of Event (NDJSON)
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
	// EventPending is final: the caller's WaitMS ran out; the question
	// stays open for it to come back. CallerData is set.
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
}

// ErrPending is returned by an Asker and by Client.Ask when the caller's
// WaitMS ran out before an answer: the question stays open, and asking
// again with its ID attaches to it or collects its answer. The Answer
// returned with it carries only QuestionID and CallerData.
var ErrPending = errors.New("ipc: not answered within the caller's wait; the question stays open")
