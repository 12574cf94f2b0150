package wire

import (
	"encoding/json"
	"time"
)

// MaxWait bounds Ask.Wait: MaxTimeoutSeconds, the longest a tool's timeout
// may be.
const MaxWait = MaxTimeoutSeconds * time.Second

// Ask is one caller's request: the question, and how this caller waits for
// it. The Question is what the window shows and the store records; the
// other fields belong to this call only (each ask sets its own) and are
// never part of the question.
//
// On the socket it is the JSON object {"question": …, "wait_ms": …,
// "attach_only": …, "keep_open": …, "key": …, "session": …} (ipc
// protocol 2; an app that predates key and session ignores them).
type Ask struct {
	Question Question
	// Wait, when positive, is how long this caller waits: with no answer
	// by then the app ends the call as pending and keeps the question open,
	// and its answer, for the caller to come back with the same ID ("call
	// again"). A caller that goes away before (cancels) withdraws the
	// question as usual. At most MaxWait; on the wire in whole
	// milliseconds.
	Wait time.Duration
	// AttachOnly never opens a window: the ask attaches to the open question
	// with Question.ID, or collects its kept answer, or fails with
	// CodeNotFound. Question.Prompts may then be empty.
	AttachOnly bool
	// KeepOpen keeps the window this ask opens open when every caller has
	// gone away, even by cancelling; its answer is then kept and handed to
	// the next ask with the same ID. A caller that can cancel uses Wait
	// instead.
	KeepOpen bool
	// Key, when set, names the question independently of the session
	// asking it: the same for the identical question asked by the same
	// client in the same project (the shim's hash of the tool, client,
	// project and normalised question), while Question.ID also names the
	// session. With Session it lets a client that starts a new session for
	// every call (a one-shot client) collect, in its next session, the
	// answer its ended session left: the app hands an answer kept, or a
	// window kept open, under Key to an ask of another session only once
	// the asking session has ended, never while it lives. At most MaxKeyBytes.
	Key string
	// Session identifies the asking session (the shim's ParentSession:
	// "pid@starttime" of the client process), for the app to tell when it
	// has ended. At most MaxKeyBytes.
	Session string
}

// MaxKeyBytes bounds Ask.Key and Ask.Session.
const MaxKeyBytes = 128

// askJSON is Ask on the wire.
type askJSON struct {
	Question   Question `json:"question"`
	WaitMS     int64    `json:"wait_ms,omitempty"`
	AttachOnly bool     `json:"attach_only,omitempty"`
	KeepOpen   bool     `json:"keep_open,omitempty"`
	Key        string   `json:"key,omitempty"`
	Session    string   `json:"session,omitempty"`
}

// MarshalJSON encodes a as its wire form; Wait is rounded up to a whole
// millisecond, so a positive Wait stays positive.
func (a Ask) MarshalJSON() ([]byte, error) {
	ms := a.Wait.Milliseconds()
	if a.Wait > 0 && a.Wait%time.Millisecond != 0 {
		ms++
	}
	return json.Marshal(askJSON{Question: a.Question, WaitMS: ms, AttachOnly: a.AttachOnly, KeepOpen: a.KeepOpen, Key: a.Key, Session: a.Session})
}

// UnmarshalJSON decodes the wire form. A wait_ms out of range is an *Error
// with CodeInvalid naming it (never an overflowed Wait); a body without a
// "question" object is an *Error with CodeProtocol.
func (a *Ask) UnmarshalJSON(data []byte) error {
	var w struct {
		askJSON
		Question *Question `json:"question"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if w.Question == nil {
		return &Error{Code: CodeProtocol, Message: `the request has no "question" object (a caller of another protocol version?)`}
	}
	if err := checkWaitMS(w.WaitMS); err != nil {
		return err
	}
	*a = Ask{Question: *w.Question, Wait: time.Duration(w.WaitMS) * time.Millisecond, AttachOnly: w.AttachOnly, KeepOpen: w.KeepOpen,
		Key: w.Key, Session: w.Session}
	return nil
}

func checkWaitMS(ms int64) error {
	if ms < 0 || ms > MaxWait.Milliseconds() {
		return invalid("wait_ms: must be from 0 to %d, got %d", MaxWait.Milliseconds(), ms)
	}
	return nil
}

// Validate reports the first problem that makes a unusable, as an *Error
// with CodeInvalid whose message names the field and the rule: the wait,
// the key and the session, then the question (whose prompts an AttachOnly ask may leave empty).
func (a *Ask) Validate() error {
	if a.Wait < 0 || a.Wait > MaxWait {
		return invalid("wait_ms: must be from 0 to %d, got %d", MaxWait.Milliseconds(), a.Wait.Milliseconds())
	}
	if len(a.Key) > MaxKeyBytes {
		return invalid("key: at most %d bytes, got %d", MaxKeyBytes, len(a.Key))
	}
	if len(a.Session) > MaxKeyBytes {
		return invalid("session: at most %d bytes, got %d", MaxKeyBytes, len(a.Session))
	}
	if a.AttachOnly && len(a.Question.Prompts) == 0 {
		return a.Question.validateFields()
	}
	return a.Question.Validate()
}
