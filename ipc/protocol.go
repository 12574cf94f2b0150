package ipc

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
