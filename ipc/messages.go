package ipc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"feedback/ipc/wire"
)

// PathMessages takes one-way messages: POST wire.Message, answered at once
// with a Receipt.
const PathMessages = "/v2/messages"

// maxMessageBody bounds a message's request body: a wire.Message is a few
// KB at most.
const maxMessageBody = 64 << 10

// Receipt is the app's reply to a message.
type Receipt struct {
	ID string `json:"id"` // the message's id in History
	// Notified says whether a desktop notification showed it; false
	// under do not disturb, or without a notification server (it is in
	// History and the tray either way).
	Notified bool `json:"notified"`
}

// Messenger takes the messages that arrive at PathMessages.
type Messenger interface {
	// Message shows and records m; a *wire.Error refuses it
	// (wire.CodeRateLimited for a client sending too many).
	Message(ctx context.Context, m wire.Message) (Receipt, error)
}

func (s *Server) handleMessage(w http.ResponseWriter, r *http.Request) {
	if s.messenger == nil {
		writeError(w, http.StatusNotFound, &wire.Error{Code: wire.CodeProtocol, Message: "this app does not take messages"})
		return
	}
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.bodyTimeout))
	var m wire.Message
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxMessageBody))
	if err := dec.Decode(&m); err != nil {
		w.Header().Set("Connection", "close")
		status, e := decodeFailure(err)
		writeError(w, status, e)
		return
	}
	if err := m.Validate(); err != nil {
		var e *wire.Error
		if !errors.As(err, &e) {
			e = &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
		}
		writeError(w, http.StatusBadRequest, e)
		return
	}
	rec, err := s.messenger.Message(r.Context(), m)
	if err != nil {
		var e *wire.Error
		if !errors.As(err, &e) {
			e = &wire.Error{Code: wire.CodeInternal, Message: err.Error()}
		}
		status := http.StatusInternalServerError
		switch e.Code {
		case wire.CodeRateLimited:
			status = http.StatusTooManyRequests
		case wire.CodeInvalid:
			status = http.StatusBadRequest
		}
		s.log.Info("ipc: message refused", "client", m.Client, "err", err)
		writeError(w, status, e)
		return
	}
	writeJSON(w, http.StatusOK, rec)
}

// Message sends m to the app, which shows it and returns at once. It
// returns the app's *wire.Error when the app refuses it
// (wire.CodeRateLimited, wire.CodeInvalid).
func (c *Client) Message(ctx context.Context, m wire.Message) (Receipt, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return Receipt{}, fmt.Errorf("ipc: encode message: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+PathMessages, bytes.NewReader(body))
	if err != nil {
		return Receipt{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.do(req)
	if err != nil {
		return Receipt{}, err
	}
	defer resp.Body.Close()
	var rec Receipt
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&rec); err != nil {
		return Receipt{}, fmt.Errorf("ipc: malformed receipt from %s: %w", c.Path, err)
	}
	return rec, nil
}
