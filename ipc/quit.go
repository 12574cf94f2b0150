package ipc

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"feedback/ipc/wire"
)

// PathQuit ends the app as the tray's Quit does: POST, answered with a
// Quitting before the app goes. Its open questions end as dismissed by
// the user (wire.ReasonQuit), so every waiting caller hears that, not a
// dropped connection (which a shim takes for a crash and starts the app
// again for).
const PathQuit = "/v2/quit"

// Quitting is the app's reply to PathQuit.
type Quitting struct {
	PID       int `json:"pid"`       // the app's process, which exits now
	Questions int `json:"questions"` // the open questions ended as dismissed
}

func (s *Server) handleQuit(w http.ResponseWriter, _ *http.Request) {
	if s.quit == nil {
		writeError(w, http.StatusNotFound, &wire.Error{Code: wire.CodeProtocol, Message: "this app cannot be quit from here"})
		return
	}
	q, then := s.quit()
	writeJSON(w, http.StatusOK, q)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	if then != nil {
		go then() // the reply is out: the server may shut down now
	}
}

// Quit asks the app to quit (PathQuit) and returns what it said; the app
// exits right after.
func (c *Client) Quit(ctx context.Context) (Quitting, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+PathQuit, nil)
	if err != nil {
		return Quitting{}, err
	}
	resp, err := c.do(req)
	if err != nil {
		return Quitting{}, err
	}
	defer resp.Body.Close()
	var q Quitting
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&q); err != nil {
		return Quitting{}, fmt.Errorf("ipc: malformed reply to quit from %s: %w", c.Path, err)
	}
	return q, nil
}
