package ipc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"feedback/ipc/wire"
)

// bodyReadTimeout bounds reading a question's body; the answer that follows
// is not bounded.
const bodyReadTimeout = 30 * time.Second

// handleQuestion serves POST PathQuestions: it decodes and validates the
// wire.Ask, then streams Events while the Asker asks it.
func (s *Server) handleQuestion(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(s.bodyTimeout)) // unsupported in tests: ignore
	a, err := decodeAsk(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		// The read deadline stays, and the connection closes after the
		// reply: what is left of the body is read (to be discarded) only
		// until the deadline, so a caller whose body stalls is not held.
		w.Header().Set("Connection", "close")
		status, e := decodeFailure(err)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			status, e = http.StatusRequestTimeout, &wire.Error{Code: wire.CodeProtocol,
				Message: fmt.Sprintf("the question did not arrive within %v", s.bodyTimeout)}
		}
		writeError(w, status, e)
		return
	}
	rc.SetReadDeadline(time.Time{}) // the answer streams for as long as the user takes
	if err := a.Validate(); err != nil {
		var e *wire.Error
		if !errors.As(err, &e) {
			e = &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
		}
		writeError(w, http.StatusBadRequest, e)
		return
	}

	ctx := r.Context()
	q := a.Question
	log := s.log.With("id", q.ID, "source", q.Source, "client", q.Client)
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	st := &eventStream{ctx: ctx, w: w, rc: rc}
	st.write(wire.Event{Type: wire.EventQueued}, false)
	log.Info("ipc: question open")

	ans, err := s.ask(ctx, a, func(ev wire.Event) {
		if ev.Type == wire.EventAnswer || ev.Type == wire.EventError || ev.Type == wire.EventPending {
			log.Warn("ipc: Asker emitted a final event; dropped", "type", ev.Type)
			return
		}
		st.write(ev, false)
	})
	switch {
	case ctx.Err() != nil:
		st.close()
		log.Info("ipc: question withdrawn", "cause", context.Cause(ctx))
	case errors.Is(err, wire.ErrPending):
		st.write(wire.Event{Type: wire.EventPending, CallerData: ans.CallerData, Snooze: ans.Snooze}, true)
		log.Info("ipc: caller's wait ran out; the question stays open")
	case err != nil:
		var e *wire.Error
		if !errors.As(err, &e) {
			e = &wire.Error{Code: wire.CodeInternal, Message: err.Error()}
		}
		st.write(wire.Event{Type: wire.EventError, Error: e}, true)
		if e.Code == wire.CodeInternal {
			log.Warn("ipc: question failed", "err", err)
		} else { // the Asker refused it and said why: the caller's to act on
			log.Info("ipc: question refused", "err", err)
		}
	default:
		st.write(wire.Event{Type: wire.EventAnswer, Answer: &ans}, true)
		log.Info("ipc: question closed", "status", ans.Status)
	}
}

// ask calls the Asker, turning a panic into CodeInternal.
func (s *Server) ask(ctx context.Context, a wire.Ask, emit func(wire.Event)) (ans wire.Answer, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("ipc: Asker panicked", "id", a.Question.ID, "panic", p, "stack", string(debug.Stack()))
			err = &wire.Error{Code: wire.CodeInternal, Message: "the app failed while asking (see its log)"}
		}
	}()
	return s.asker.Ask(ctx, a, emit)
}

// decodeAsk decodes exactly one JSON wire.Ask from r. Unknown fields are
// ignored (a newer caller may send more); anything after the value is an error.
func decodeAsk(r io.Reader) (wire.Ask, error) {
	var a wire.Ask
	dec := json.NewDecoder(r)
	if err := dec.Decode(&a); err != nil {
		return a, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("unexpected data after the question")
		}
		return a, err
	}
	return a, nil
}

// decodeFailure maps an error of decodeAsk to a status and an *Error.
func decodeFailure(err error) (int, *wire.Error) {
	var tooLarge *http.MaxBytesError
	var te *json.UnmarshalTypeError
	var we *wire.Error
	switch {
	case errors.As(err, &we): // wire.Ask refused a field
		return http.StatusBadRequest, we
	case errors.As(err, &tooLarge):
		return http.StatusRequestEntityTooLarge, &wire.Error{Code: wire.CodeInvalid,
			Message: fmt.Sprintf("the question is larger than %d bytes", MaxBodyBytes)}
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the request body"
		}
		return http.StatusBadRequest, &wire.Error{Code: wire.CodeInvalid,
			Message: fmt.Sprintf("%s: expected %s, got JSON %s", field, te.Type, te.Value)}
	case err == io.EOF:
		return http.StatusBadRequest, &wire.Error{Code: wire.CodeProtocol, Message: "empty request body: expected a JSON question"}
	default:
		return http.StatusBadRequest, &wire.Error{Code: wire.CodeProtocol, Message: "malformed JSON question: " + err.Error()}
	}
}

// eventStream writes Events as NDJSON lines, one at a time, and nothing once
// the request has ended or the final event is written.
type eventStream struct {
	ctx context.Context
	mu  sync.Mutex // serialises writes to w; guards closed
	w   http.ResponseWriter
	rc  *http.ResponseController

	closed bool
}

// write writes and flushes ev, unless the stream is closed or the request
// has ended; final closes the stream after it.
func (st *eventStream) write(ev wire.Event, final bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed || st.ctx.Err() != nil {
		return
	}
	st.closed = final
	if err := json.NewEncoder(st.w).Encode(ev); err != nil {
		return // the caller went away; its context ends too
	}
	st.rc.Flush()
}

// close makes every later write a no-op.
func (st *eventStream) close() {
	st.mu.Lock()
	st.closed = true
	st.mu.Unlock()
}
