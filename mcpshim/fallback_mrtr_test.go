package mcpshim

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"feedback/ipc"
	"feedback/settings"
	"feedback/wire"
)

// modernMeta is the _meta of a 2026-07-28 request from a client that
// declares form elicitation.
var modernMeta = map[string]any{
	"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
	"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "raw-client", "version": "1"},
	"io.modelcontextprotocol/clientCapabilities": map[string]any{"elicitation": map[string]any{"form": map[string]any{}}},
}

// modernCall sends tools/call id with params (plus modernMeta: a request
// of the stateless revision) and returns the result of its response.
func modernCall(t *testing.T, r *rawShim, id int, params map[string]any) map[string]any {
	t.Helper()
	params["_meta"] = modernMeta
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
	if err != nil {
		t.Fatal(err)
	}
	r.send(string(line))
	resp := r.response(strconv.Itoa(id))
	var res map[string]any
	if err := json.Unmarshal(resp.Result, &res); err != nil || res == nil {
		t.Fatalf("call %d: %s", id, resp.raw)
	}
	return res
}

var choiceArgs = map[string]any{"question": "Which DB?", "options": []any{"Postgres", "SQLite"}}

// The form's answer reaches the agent even when the retry is served by a
// shim that was restarted after it sent the form: the state travels with
// the request, nothing is kept in between.
func TestFormRetryAfterRestart(t *testing.T) {
	first := startRawShim(t, Options{Connect: noDisplay, Settings: settings.Default()})
	res := modernCall(t, first, 1, map[string]any{"name": "ask_choice", "arguments": choiceArgs})
	if res["resultType"] != "input_required" {
		t.Fatalf("without a window: %v", res)
	}
	state, _ := res["requestState"].(string)
	form, _ := res["inputRequests"].(map[string]any)[formInputKey].(map[string]any)
	if state == "" || form["method"] != "elicitation/create" {
		t.Fatalf("input-required result: %v", res)
	}
	first.closeAndDrain() // the client restarts the shim: the first has exited

	var asked atomic.Int32
	connect := func(context.Context) (ipc.Asker, error) {
		asked.Add(1)
		return nil, errors.New("no graphical display: neither DISPLAY nor WAYLAND_DISPLAY is set")
	}
	second := startRawShim(t, Options{Connect: connect, Settings: settings.Default()})
	res = modernCall(t, second, 2, map[string]any{"name": "ask_choice", "arguments": choiceArgs, "requestState": state,
		"inputResponses": map[string]any{formInputKey: map[string]any{"action": "accept", "content": map[string]any{"answer": "SQLite"}}}})
	sc, _ := res["structuredContent"].(map[string]any)
	if sc["status"] != "answered" || sc["answer"] != "SQLite" || sc["via"] != "elicitation" {
		t.Errorf("the retry after a restart: %v", res)
	}
	if asked.Load() != 0 {
		t.Errorf("the retry asked the app %d times, want 0: it carries the answer", asked.Load())
	}
}

// A retry whose state is not the shim's, belongs to another question or
// is stale is no answer: the call starts over, and without a window sends
// its form again. Nothing crashes, nothing is taken as the user's answer.
func TestFormRetryNotAnAnswer(t *testing.T) {
	other := call{tool: "ask_choice", client: "raw-client", p: prepared{question: wire.Question{Source: "ask_choice", Title: "another"}}}
	now := time.Now()
	states := map[string]string{
		"foreign":        "opaque-state-of-another-server",
		"garbage":        formStatePrefix + "!!!",
		"oversize":       formStatePrefix + strings.Repeat("A", 2*maxFormStateBytes),
		"other question": formState{Question: formFingerprint(other.tool, other.client, other.p.question), SentMS: now.UnixMilli()}.encode(),
		"stale":          formState{Question: "x", SentMS: now.Add(-formStateTTL - time.Minute).UnixMilli()}.encode(),
	}
	r := startRawShim(t, Options{Connect: noDisplay, Settings: settings.Default()})
	id := 10
	for name, state := range states {
		id++
		res := modernCall(t, r, id, map[string]any{"name": "ask_choice", "arguments": choiceArgs, "requestState": state,
			"inputResponses": map[string]any{formInputKey: map[string]any{"action": "accept", "content": map[string]any{"answer": "SQLite"}}}})
		if res["resultType"] != "input_required" || res["requestState"] == state {
			t.Errorf("%s state: %v, want the form sent again with a state of its own", name, res)
		}
	}
	// The state without the answer is no answer either.
	res := modernCall(t, r, 99, map[string]any{"name": "ask_choice", "arguments": choiceArgs})
	res = modernCall(t, r, 100, map[string]any{"name": "ask_choice", "arguments": choiceArgs, "requestState": res["requestState"]})
	if res["resultType"] != "input_required" {
		t.Errorf("a retry without the form's answer: %v", res)
	}
}

// A stateless client without elicitation gets the chat hand-off at once.
func TestStatelessWithoutElicitationGetsChat(t *testing.T) {
	r := startRawShim(t, Options{Connect: noDisplay, Settings: settings.Default()})
	saved := modernMeta["io.modelcontextprotocol/clientCapabilities"]
	modernMeta["io.modelcontextprotocol/clientCapabilities"] = map[string]any{}
	defer func() { modernMeta["io.modelcontextprotocol/clientCapabilities"] = saved }()
	res := modernCall(t, r, 1, map[string]any{"name": "ask_choice", "arguments": choiceArgs})
	sc, _ := res["structuredContent"].(map[string]any)
	if res["resultType"] == "input_required" || sc["status"] != "needs_user_input" || sc["fallback"] != "chat" {
		t.Errorf("no elicitation: %v", res)
	}
}

func TestDecodeFormState(t *testing.T) {
	now := time.Now()
	s := formState{Question: "abc", SentMS: now.Add(-time.Hour).UnixMilli()}
	got, err := decodeFormState(s.encode(), now)
	if err != nil || got != s {
		t.Errorf("round trip: %+v, %v", got, err)
	}
	for state, want := range map[string]error{
		"":                      errNoFormState,
		"x":                     errNoFormState,
		formStatePrefix:         errBadFormState,
		formStatePrefix + "e30": errBadFormState, // {}
		formState{Question: "abc", SentMS: now.Add(48 * time.Hour).UnixMilli()}.encode(): errStaleFormState,
	} {
		if _, err := decodeFormState(state, now); !errors.Is(err, want) {
			t.Errorf("decode %q: %v, want %v", state, err, want)
		}
	}
}
