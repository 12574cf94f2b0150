package mcpshim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// webhook is one callback_url notification.
type webhook struct {
	url  string
	body webhookBody
}

// webhookBody is the JSON POSTed to callback_url when the shim learns a
// request's final outcome. Every key is always present.
type webhookBody struct {
	RequestID   string         `json:"request_id"`
	Status      string         `json:"status"` // answered, declined or expired
	ChoiceID    string         `json:"choice_id"`
	ChoiceLabel string         `json:"choice_label"`
	RunID       string         `json:"run_id"`
	TraceID     string         `json:"trace_id"`
	Metadata    map[string]any `json:"metadata"`
	AnsweredAt  string         `json:"answered_at"` // RFC 3339, UTC; "" unless answered
}

func webhookBodyOf(r humanResult) webhookBody {
	return webhookBody{
		RequestID: r.RequestID, Status: r.Status, ChoiceID: r.ChoiceID, ChoiceLabel: r.ChoiceLabel,
		RunID: r.RunID, TraceID: r.TraceID, Metadata: r.Metadata, AnsweredAt: r.AnsweredAt,
	}
}

// webhookTimeout bounds one callback POST.
const webhookTimeout = 10 * time.Second

// webhookPoster returns the callEnv.notify of h: each call posts in its own
// goroutine with client (nil: a default client), bounded by webhookTimeout,
// following only https redirects. Failures are logged.
func (h *handler) webhookPoster(client *http.Client) func(webhook) {
	c := &http.Client{}
	if client != nil {
		*c = *client
	}
	c.Timeout = webhookTimeout
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != "https" {
			return errors.New("callback redirected to a non-https URL")
		}
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		return nil
	}
	return func(w webhook) {
		h.webhookMu.Lock()
		tracked := !h.webhooksClosed
		if tracked {
			h.webhooks.Add(1)
		}
		h.webhookMu.Unlock()
		go func() {
			if tracked {
				defer h.webhooks.Done()
			}
			log := h.log.With("request", w.body.RequestID, "status", w.body.Status)
			if err := postWebhook(c, w); err != nil {
				log.Warn("callback_url notification failed", "err", err)
				return
			}
			log.Info("callback_url notified")
		}()
	}
}

// postWebhook POSTs w's body as JSON; a status other than 2xx is an error.
func postWebhook(c *http.Client, w webhook) error {
	u, err := url.Parse(w.url)
	if err != nil || !strings.EqualFold(u.Scheme, "https") {
		return errors.New("callback_url is not an https URL") // the normaliser refuses it: not reached
	}
	data, err := json.Marshal(w.body)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), webhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "feedback-mcp")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return errors.New("callback answered " + resp.Status)
	}
	return nil
}

// waitWebhooks waits until the posts in flight end, at most d.
// Posts that start later are not waited for.
func (h *handler) waitWebhooks(d time.Duration) {
	h.webhookMu.Lock()
	h.webhooksClosed = true
	h.webhookMu.Unlock()
	done := make(chan struct{})
	go func() {
		h.webhooks.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
		h.log.Warn("callback_url notifications still in flight at exit")
	}
}
