package mcpshim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"feedback/internal/settings"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// jsonResult checks that res is one text block holding the same JSON object
// as its structuredContent, and returns it decoded.
func jsonResult(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	var fromText map[string]any
	if err := json.Unmarshal([]byte(resultText(t, res)), &fromText); err != nil {
		t.Fatalf("text is not a JSON object: %q", resultText(t, res))
	}
	if !jsonEqual(fromText, res.StructuredContent) {
		t.Errorf("text %s differs from structuredContent %v", resultText(t, res), res.StructuredContent)
	}
	return fromText
}

// hookRecorder is an https server that records the callbacks it receives.
type hookRecorder struct {
	srv    *httptest.Server
	bodies chan map[string]any
}

func newHookRecorder(t *testing.T, status int) *hookRecorder {
	h := &hookRecorder{bodies: make(chan map[string]any, 8)}
	h.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		data, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" || json.Unmarshal(data, &body) != nil {
			t.Errorf("callback: %s %s %q", r.Method, r.Header.Get("Content-Type"), data)
		}
		h.bodies <- body
		w.WriteHeader(status)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hookRecorder) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case b := <-h.bodies:
		return b
	case <-time.After(10 * time.Second):
		t.Fatal("no callback within 10 s")
		return nil
	}
}

func (h *hookRecorder) none(t *testing.T) {
	t.Helper()
	select {
	case b := <-h.bodies:
		t.Errorf("unexpected callback %v", b)
	case <-time.After(200 * time.Millisecond):
	}
}

func humanSettings() settings.Settings {
	s := settings.Default()
	s.PendingWaitSeconds = 1
	return s
}

// The human does not answer within the wait: pending, then ask_human_result
// collects the kept answer once, with the pass-through fields, and the
// callback is posted once.
func TestE2EAskHumanPendingThenCollected(t *testing.T) {
	inbox := newFakeInbox()
	hook := newHookRecorder(t, http.StatusNoContent)
	c, logs := startShimLogged(t, Options{Connect: connectTo(inbox), Settings: humanSettings(), HTTPClient: hook.srv.Client()})
	start := time.Now()
	res := callNamed(t, c, "ask_human", map[string]any{
		"agent_name": "deployer", "title": "Ship v2?", "content": "Release notes: *fast*",
		"choices":            []any{map[string]any{"id": "yes", "label": "Ship it"}, map[string]any{"id": "no", "label": "Hold"}},
		"recommended_option": "yes", "run_id": "run-7", "trace_id": "tr-1", "metadata": map[string]any{"pr": 42.0},
		"callback_url": hook.srv.URL + "/hook", "timeout_seconds": 120,
	})
	if waited := time.Since(start); waited < time.Second || waited > 5*time.Second {
		t.Errorf("pending after %v, want about the 1 s pending wait", waited)
	}
	if res.IsError {
		t.Fatalf("isError: %s", resultText(t, res))
	}
	q := <-inbox.asked
	got := jsonResult(t, res)
	want := map[string]any{"status": "pending", "request_id": q.ID, "next_step": humanNextStep, "run_id": "run-7", "trace_id": "tr-1", "metadata": map[string]any{"pr": 42.0}}
	if !jsonEqual(got, want) {
		t.Errorf("pending result = %v\nwant %v", got, want)
	}
	if a := inbox.askOf(q.ID); a.KeepOpen || a.AttachOnly || a.Wait != time.Second || len(q.CallerData) == 0 || q.TimeoutSeconds != 120 || q.Client != "shim-test" || q.Prompts[0].Markdown != `Release notes\: \*fast\*` || !q.Prompts[0].Options[0].Default {
		t.Errorf("question = %+v", q)
	}
	hook.none(t)

	inbox.answer(t, q.ID, wire.Answer{Status: wire.StatusAnswered, ElapsedMS: 1500, Replies: []wire.Reply{{Selected: []string{"Hold"}}}})
	res = callNamed(t, c, "ask_human_result", map[string]any{"request_id": q.ID})
	got = jsonResult(t, res)
	if got["status"] != "answered" || got["choice_id"] != "no" || got["choice_label"] != "Hold" || got["run_id"] != "run-7" ||
		got["trace_id"] != "tr-1" || !jsonEqual(got["metadata"], map[string]any{"pr": 42.0}) || got["answered_at"] == nil || got["next_step"] != nil {
		t.Errorf("collected result = %v", got)
	}
	body := hook.next(t)
	wantBody := map[string]any{"request_id": q.ID, "status": "answered", "choice_id": "no", "choice_label": "Hold", "run_id": "run-7",
		"trace_id": "tr-1", "metadata": map[string]any{"pr": 42.0}, "answered_at": got["answered_at"]}
	if !jsonEqual(body, wantBody) {
		t.Errorf("callback body = %v\nwant %v", body, wantBody)
	}

	res = callNamed(t, c, "ask_human_result", map[string]any{"request_id": q.ID})
	if text := resultText(t, res); !res.IsError || !strings.HasPrefix(text, `unknown or already collected request_id "`+q.ID+`"`) {
		t.Errorf("second collection: isError = %v, %q", res.IsError, text)
	}
	hook.none(t)
	if !strings.Contains(logs.String(), "callback_url notified") {
		t.Errorf("no log line for the callback:\n%s", logs.String())
	}
}

// ask_human_result waits on the open window: pending again when the human
// is still silent, the choice when they answer while it waits.
func TestE2EAskHumanResultWaits(t *testing.T) {
	inbox := newFakeInbox()
	c := startShim(t, Options{Connect: connectTo(inbox), Settings: humanSettings()})
	res := callNamed(t, c, "ask_human", humanArgs(t, nil))
	q := <-inbox.asked
	if got := jsonResult(t, res); got["status"] != "pending" {
		t.Fatalf("result = %v", got)
	}
	res = callNamed(t, c, "ask_human_result", map[string]any{"request_id": q.ID, "wait_seconds": 0})
	if got := jsonResult(t, res); got["status"] != "pending" || got["request_id"] != q.ID || got["next_step"] != humanNextStep {
		t.Errorf("still open: %v", got)
	}
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		done <- callNamed(t, c, "ask_human_result", map[string]any{"request_id": q.ID, "wait_seconds": 10})
	}()
	inbox.waitWaiters(t, q.ID, 1)
	inbox.answer(t, q.ID, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"Ship it"}}}})
	if got := jsonResult(t, <-done); got["status"] != "answered" || got["choice_id"] != "yes" {
		t.Errorf("answered while waiting: %v", got)
	}
}

// The human answers within the wait: the choice at once, and the callback.
func TestE2EAskHumanAnsweredAtOnce(t *testing.T) {
	inbox := newFakeInbox()
	inbox.auto = func(q wire.Question) wire.Answer {
		return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"Ship it"}}}}
	}
	hook := newHookRecorder(t, http.StatusInternalServerError) // a failing hook changes nothing
	c, logs := startShimLogged(t, Options{Connect: connectTo(inbox), Settings: humanSettings(), HTTPClient: hook.srv.Client()})
	res := callNamed(t, c, "ask_human", humanArgs(t, map[string]any{"callback_url": hook.srv.URL}))
	got := jsonResult(t, res)
	if res.IsError || got["status"] != "answered" || got["choice_id"] != "yes" || got["choice_label"] != "Ship it" {
		t.Errorf("result = %v", got)
	}
	if body := hook.next(t); body["status"] != "answered" || body["choice_id"] != "yes" || body["run_id"] != "" || body["metadata"] != nil {
		t.Errorf("callback body = %v", body)
	}
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "callback_url notification failed"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the failed callback was not logged:\n%s", logs.String())
		}
	}
}

// Declined and expired are final outcomes, posted too.
func TestE2EAskHumanDeclinedAndExpired(t *testing.T) {
	for _, tc := range []struct {
		status wire.Status
		want   string
	}{{wire.StatusDismissed, "declined"}, {wire.StatusTimeout, "expired"}} {
		t.Run(tc.want, func(t *testing.T) {
			inbox := newFakeInbox()
			inbox.auto = func(wire.Question) wire.Answer { return wire.Answer{Status: tc.status} }
			hook := newHookRecorder(t, http.StatusOK)
			c := startShim(t, Options{Connect: connectTo(inbox), Settings: humanSettings(), HTTPClient: hook.srv.Client()})
			res := callNamed(t, c, "ask_human", humanArgs(t, map[string]any{"callback_url": hook.srv.URL}))
			if got := jsonResult(t, res); res.IsError || got["status"] != tc.want || got["choice_id"] != nil || got["message"] == nil {
				t.Errorf("result = %v", got)
			}
			if body := hook.next(t); body["status"] != tc.want || body["choice_id"] != "" || body["answered_at"] != "" {
				t.Errorf("callback body = %v", body)
			}
		})
	}
}

// A callback to a server whose certificate is not trusted fails quietly.
func TestE2EAskHumanCallbackUntrusted(t *testing.T) {
	inbox := newFakeInbox()
	inbox.auto = func(wire.Question) wire.Answer {
		return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"Hold"}}}}
	}
	hook := newHookRecorder(t, http.StatusOK)
	hook.srv.Config.ErrorLog = log.New(io.Discard, "", 0)                                        // the refused handshake
	c, logs := startShimLogged(t, Options{Connect: connectTo(inbox), Settings: humanSettings()}) // default client
	res := callNamed(t, c, "ask_human", humanArgs(t, map[string]any{"callback_url": hook.srv.URL}))
	if got := jsonResult(t, res); got["choice_id"] != "no" {
		t.Errorf("result = %v", got)
	}
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "certificate"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the refused certificate was not logged:\n%s", logs.String())
		}
	}
}

func TestE2EAskHumanInvalid(t *testing.T) {
	c := startShim(t, Options{Connect: func(context.Context) (wire.Asker, error) { return nil, errors.New("unused") }})
	res := callNamed(t, c, "ask_human", humanArgs(t, map[string]any{"callback_url": "http://x"}))
	if text := resultText(t, res); !res.IsError || !strings.HasPrefix(text, "Invalid arguments for ask_human: callback_url: must be an absolute https:// URL") {
		t.Errorf("isError = %v, %q", res.IsError, text)
	}
	res = callNamed(t, c, "ask_human_result", map[string]any{"wait_seconds": 5})
	if text := resultText(t, res); !res.IsError || !strings.Contains(text, "request_id: required") {
		t.Errorf("isError = %v, %q", res.IsError, text)
	}
}

// ask_human_result when the app cannot be reached: an error that says the
// request is still pending.
func TestE2EAskHumanResultAppDown(t *testing.T) {
	c := startShim(t, Options{Connect: func(context.Context) (wire.Asker, error) { return nil, errors.New("dial: refused") }})
	res := callNamed(t, c, "ask_human_result", map[string]any{"request_id": "abc"})
	if text := resultText(t, res); !res.IsError || text != `The feedback app could not be asked about request_id "abc" (dial: refused). Nothing was collected: the request is still pending, call ask_human_result again later.` {
		t.Errorf("isError = %v, %q", res.IsError, text)
	}
}

// jsonEqual compares two JSON-decoded values.
func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// The client restarts the shim between ask_human and ask_human_result: the
// new shim, which did not ask, still returns the choice id, the
// pass-through fields, and posts the callback (the app keeps them with the
// question).
func TestE2EAskHumanCollectedByARestartedShim(t *testing.T) {
	inbox := newFakeInbox()
	hook := newHookRecorder(t, http.StatusNoContent)
	first := startShim(t, Options{Connect: connectTo(inbox), Settings: humanSettings(), HTTPClient: hook.srv.Client()})
	res := callNamed(t, first, "ask_human", humanArgs(t, map[string]any{"run_id": "run-9", "metadata": map[string]any{"k": "v"}, "callback_url": hook.srv.URL}))
	q := <-inbox.asked
	if got := jsonResult(t, res); got["status"] != "pending" {
		t.Fatalf("result = %v", got)
	}
	first.Close()
	inbox.answer(t, q.ID, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"Hold"}}}})

	second := startShim(t, Options{Connect: connectTo(inbox), Settings: humanSettings(), HTTPClient: hook.srv.Client()})
	res = callNamed(t, second, "ask_human_result", map[string]any{"request_id": q.ID})
	got := jsonResult(t, res)
	if got["status"] != "answered" || got["choice_id"] != "no" || got["run_id"] != "run-9" || !jsonEqual(got["metadata"], map[string]any{"k": "v"}) || got["message"] != nil {
		t.Errorf("collected by the new shim: %v", got)
	}
	if body := hook.next(t); body["choice_id"] != "no" || body["request_id"] != q.ID {
		t.Errorf("callback body = %v", body)
	}
}

// The client restarts the shim and asks ask_human_result before the human
// answered: the new shim's pending result still carries run_id, trace_id
// and metadata, which the app keeps with the question (issue 19).
func TestE2EAskHumanPendingAfterARestartedShim(t *testing.T) {
	inbox := newFakeInbox()
	first := startShim(t, Options{Connect: connectTo(inbox), Settings: humanSettings()})
	pass := map[string]any{"run_id": "run-9", "trace_id": "trace-3", "metadata": map[string]any{"k": "v"}}
	res := callNamed(t, first, "ask_human", humanArgs(t, pass))
	q := <-inbox.asked
	if got := jsonResult(t, res); got["status"] != "pending" || got["run_id"] != "run-9" {
		t.Fatalf("ask_human: %v", got)
	}
	first.Close()

	second := startShim(t, Options{Connect: connectTo(inbox), Settings: humanSettings()})
	got := jsonResult(t, callNamed(t, second, "ask_human_result", map[string]any{"request_id": q.ID, "wait_seconds": 0}))
	if got["status"] != "pending" || got["request_id"] != q.ID || got["run_id"] != "run-9" || got["trace_id"] != "trace-3" || !jsonEqual(got["metadata"], map[string]any{"k": "v"}) {
		t.Errorf("pending from the new shim: %v", got)
	}
}

// An ask_human call the client cancels while it waits withdraws its window,
// like any other question.
func TestE2EAskHumanCancelledWithdraws(t *testing.T) {
	inbox := newFakeInbox()
	s := humanSettings()
	s.PendingWaitSeconds = 60
	c := startShim(t, Options{Connect: connectTo(inbox), Settings: s})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := callCtx(ctx, c, "ask_human", humanArgs(t, nil))
		errc <- err
	}()
	q := <-inbox.asked
	inbox.waitWaiters(t, q.ID, 1)
	cancel()
	select {
	case id := <-inbox.withdrawn:
		if id != q.ID {
			t.Errorf("withdrawn %s, want %s", id, q.ID)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled ask_human window was not withdrawn")
	}
	<-errc
}

// Metadata too large for the app to keep with the question is the
// caller's error, naming the field and the limit.
func TestE2EAskHumanMetadataTooLarge(t *testing.T) {
	c := startShim(t, Options{Connect: connectTo(newFakeInbox()), Settings: humanSettings()})
	res := callNamed(t, c, "ask_human", humanArgs(t, map[string]any{"metadata": map[string]any{"blob": strings.Repeat("x", wire.MaxCallerDataBytes)}}))
	if text := resultText(t, res); !res.IsError || !strings.Contains(text, "metadata: too large") || !strings.Contains(text, fmt.Sprint(wire.MaxCallerDataBytes)) {
		t.Errorf("isError = %v, %q", res.IsError, text)
	}
}

// The request lives in one place, the app's copy with the question: the
// shim that asked it keeps none, so ask_human_result renders what the app
// returns (here changed behind the shim's back), in the shim that asked as
// in any other.
func TestE2EAskHumanResultReadsTheAppsRequest(t *testing.T) {
	inbox := newFakeInbox()
	c := startShim(t, Options{Connect: connectTo(inbox), Settings: humanSettings()})
	res := callNamed(t, c, "ask_human", humanArgs(t, map[string]any{"run_id": "run-asked"}))
	if got := jsonResult(t, res); got["status"] != "pending" || got["run_id"] != "run-asked" {
		t.Fatalf("first call: %v", got)
	}
	q := <-inbox.asked
	inbox.keepCallerData(t, q.ID, `{"choices":[{"id":"yes","label":"Ship it"},{"id":"app-no","label":"Hold"}],"run_id":"run-kept","asked_at":"2026-01-02T09:00:00Z","timeout_seconds":0}`)
	got := jsonResult(t, callNamed(t, c, "ask_human_result", map[string]any{"request_id": q.ID, "wait_seconds": 0}))
	if got["status"] != "pending" || got["run_id"] != "run-kept" {
		t.Errorf("pending again: %v; want the app's run_id", got)
	}
	inbox.answer(t, q.ID, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"Hold"}}}})
	got = jsonResult(t, callNamed(t, c, "ask_human_result", map[string]any{"request_id": q.ID}))
	if got["status"] != "answered" || got["choice_id"] != "app-no" || got["run_id"] != "run-kept" {
		t.Errorf("collected: %v; want the app's choice id and run_id", got)
	}
}
