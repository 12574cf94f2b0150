package mcpshim

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"feedback/internal/settings"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
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
	connect := func(context.Context) (wire.Asker, error) {
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

// testKey is the form key of the tests (TestMain points formKeys at a
// file of the test's own, not the user's).
func testKey(t *testing.T) []byte {
	t.Helper()
	key, err := formKeys.get()
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// retryWith is a retry of ask_choice with state and the answer SQLite.
func retryWith(state string) map[string]any {
	return map[string]any{"name": "ask_choice", "arguments": choiceArgs, "requestState": state,
		"inputResponses": map[string]any{formInputKey: map[string]any{"action": "accept", "content": map[string]any{"answer": "SQLite"}}}}
}

// Issue 29: a retry whose state the shim did not sign, or that was edited,
// expired, belongs to another question or session, or cannot be read is
// refused with an error result that says why; nothing in it is taken as
// the user's answer, and the app is not asked. (Before, the state was
// unsigned and lived a day: an edited one was taken as an answer.)
func TestFormRetryRefused(t *testing.T) {
	key := testKey(t)
	other := call{tool: "ask_choice", client: "raw-client", p: prepared{question: wire.Question{Source: "ask_choice", Title: "another"}}}
	now := time.Now()
	var asked atomic.Int32
	connect := func(context.Context) (wire.Asker, error) {
		asked.Add(1)
		return nil, errors.New("no graphical display: neither DISPLAY nor WAYLAND_DISPLAY is set")
	}
	r := startRawShim(t, Options{Connect: connect, Settings: settings.Default(), Session: "client-1"})
	minted := modernCall(t, r, 1, map[string]any{"name": "ask_choice", "arguments": choiceArgs})
	good, _ := minted["requestState"].(string)
	if !strings.HasPrefix(good, formStatePrefix) {
		t.Fatalf("the form's state: %v", minted)
	}
	// tampered is good with its sending time moved an hour back: a longer
	// answer, signed as it was.
	payload, sig, _ := strings.Cut(strings.TrimPrefix(good, formStatePrefix), ".")
	raw, _ := base64.RawURLEncoding.DecodeString(payload)
	var fields map[string]any
	json.Unmarshal(raw, &fields)
	fields["t"] = fields["t"].(float64) - 3600e3
	raw, _ = json.Marshal(fields)
	tampered := formStatePrefix + base64.RawURLEncoding.EncodeToString(raw) + "." + sig
	otherSession := startRawShim(t, Options{Connect: connect, Settings: settings.Default(), Session: "client-2"})
	id := 10
	for _, tc := range []struct {
		name, state string
		shim        *rawShim
		want        error
	}{
		{"another server's", "opaque-state-of-another-server", r, errNoFormState},
		{"unsigned (v1)", "feedback-form-v1.eyJxIjoiYWJjIiwidCI6MX0", r, errNoFormState},
		{"garbage", formStatePrefix + "!!!", r, errBadFormState},
		{"oversize", formStatePrefix + strings.Repeat("A", 2*maxFormStateBytes), r, errBadFormState},
		{"tampered", tampered, r, errForgedFormState},
		{"signed with another key", formState{Question: "x", SentMS: now.UnixMilli(), ExpiresMS: now.Add(time.Hour).UnixMilli()}.encode(make([]byte, formKeySize)), r, errForgedFormState},
		{"other question", formState{Question: formFingerprint(other.tool, other.client, "client-1", other.p.question), SentMS: now.UnixMilli(), ExpiresMS: now.Add(time.Hour).UnixMilli()}.encode(key), r, errOtherQuestion},
		{"another session's", good, otherSession, errOtherQuestion},
		{"expired", formState{Question: "x", SentMS: now.Add(-time.Hour).UnixMilli(), ExpiresMS: now.Add(-time.Minute).UnixMilli()}.encode(key), r, errStaleFormState},
	} {
		id++
		res := modernCall(t, tc.shim, id, retryWith(tc.state))
		text := fmt.Sprint(res["content"])
		if res["isError"] != true || !strings.Contains(text, tc.want.Error()) || !strings.Contains(text, "without requestState") {
			t.Errorf("%s state: %v, want an error saying %q", tc.name, res, tc.want)
		}
	}
	// The state without the form's answer is no answer either.
	res := modernCall(t, r, 100, map[string]any{"name": "ask_choice", "arguments": choiceArgs, "requestState": good})
	if res["isError"] != true || !strings.Contains(fmt.Sprint(res["content"]), errNoFormAnswer.Error()) {
		t.Errorf("a retry without the form's answer: %v", res)
	}
	if n := asked.Load(); n != 1 { // the first call, which minted the state
		t.Errorf("the app was asked %d times, want 1: a refused retry asks nothing", n)
	}
	// The good state still answers, in its session.
	res = modernCall(t, r, 101, retryWith(good))
	if sc, _ := res["structuredContent"].(map[string]any); sc["answer"] != "SQLite" {
		t.Errorf("the untouched state: %v", res)
	}
}

// The state lives as long as the question's countdown (its own, else the
// settings'), at most formStateTTL: the answer after it is refused.
func TestFormStateExpiresWithTheQuestion(t *testing.T) {
	testKey(t)
	now := time.Now()
	s := settings.Default()
	s.TimeoutSeconds = 90
	c := call{tool: "ask_choice", client: "c", env: callEnv{settings: s, session: "s"},
		p: prepared{question: wire.Question{Source: "ask_choice", Prompts: []wire.Prompt{{Markdown: "Which?", Single: true, Options: []wire.Option{{Label: "A"}, {Label: "B"}}}}}}}
	rt := func(c call, at time.Time) error {
		res, err := formInputRequired(c, "Which?", map[string]any{"type": "object", "properties": map[string]any{}}, now)
		if err != nil {
			t.Fatal(err)
		}
		state := res.MultiRoundTripResult.RequestState
		_, err = formRetry(c, mcp.MultiRoundTripParams{RequestState: state, InputResponses: mcp.InputResponses{formInputKey: {Elicitation: &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"answer": "A"}}}}}}, at)
		return err
	}
	if err := rt(c, now.Add(89*time.Second)); err != nil {
		t.Errorf("within the settings' countdown: %v", err)
	}
	if err := rt(c, now.Add(91*time.Second)); !errors.Is(err, errStaleFormState) {
		t.Errorf("after the settings' countdown: %v", err)
	}
	c.p.question.TimeoutSeconds = 5
	if err := rt(c, now.Add(6*time.Second)); !errors.Is(err, errStaleFormState) {
		t.Errorf("after the question's own countdown: %v", err)
	}
	c.p.question.TimeoutSeconds, c.env.settings.TimeoutSeconds = 0, 0 // no countdown
	if err := rt(c, now.Add(formStateTTL-time.Minute)); err != nil {
		t.Errorf("no countdown, within a day: %v", err)
	}
	if err := rt(c, now.Add(formStateTTL+time.Minute)); !errors.Is(err, errStaleFormState) {
		t.Errorf("no countdown, after a day: %v", err)
	}
}

// permissionArgs is a call of permission_prompt for a command that has an
// "Always allow" rule (Bash(npm test)).
var permissionArgs = map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "npm test"}, "tool_use_id": "toolu_29"}

// approvalLabels are the labels of the options of permissionArgs's
// approval: those that allow it, and Deny.
func approvalLabels(t *testing.T) (allows []string, deny string) {
	t.Helper()
	p, err := preparePermissionPrompt(permissionArgs, callEnv{client: "claude-code"})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range p.question.Prompts[0].Options {
		if o.Allows {
			allows = append(allows, o.Label)
		} else {
			deny = o.Label
		}
	}
	if len(allows) != 2 || deny == "" {
		t.Fatalf("the approval of %v offers %+v, want Allow, Always allow and Deny", permissionArgs, p.question.Prompts[0].Options)
	}
	return allows, deny
}

// Issue 29: a form never allows a tool call. Without a window, the
// stateless client's form for an approval offers Deny only; a retry that
// claims Allow or "Always allow in this project", with the shim's own
// state, is a denial and writes no rule; Deny with a reason denies with it.
func TestFormNeverAllowsAnApproval(t *testing.T) {
	allows, deny := approvalLabels(t)
	dir := t.TempDir()
	r := startRawShim(t, Options{Connect: noDisplay, Settings: settings.Default(), Dir: dir})
	res := modernCall(t, r, 1, map[string]any{"name": "permission_prompt", "arguments": permissionArgs})
	state, _ := res["requestState"].(string)
	form, _ := res["inputRequests"].(map[string]any)[formInputKey].(map[string]any)
	schema, _ := json.Marshal(form["params"])
	if res["resultType"] != "input_required" || state == "" {
		t.Fatalf("without a window: %v", res)
	}
	for _, label := range allows {
		if strings.Contains(string(schema), strconv.Quote(label)) {
			t.Errorf("the approval's form offers %q: %s", label, schema)
		}
	}
	if !strings.Contains(string(schema), strconv.Quote(deny)) {
		t.Errorf("the approval's form does not offer %q: %s", deny, schema)
	}
	if !strings.Contains(string(schema), "this form can only deny") {
		t.Errorf("the form does not say it can only deny: %s", schema)
	}
	for i, claim := range []map[string]any{
		{"answer": allows[1]}, // Always allow in this project
		{"answer": allows[0]},
		{"answer": allows[0], "answer_text": "fine"},
	} {
		res := modernCall(t, r, 10+i, map[string]any{"name": "permission_prompt", "arguments": permissionArgs, "requestState": state,
			"inputResponses": map[string]any{formInputKey: map[string]any{"action": "accept", "content": claim}}})
		if v := decision(t, res); v["behavior"] != "deny" {
			t.Errorf("a form claiming %v decided %v", claim, v)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".claude")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a form's claim wrote a rule: %v", err)
	}
	res = modernCall(t, r, 20, map[string]any{"name": "permission_prompt", "arguments": permissionArgs, "requestState": state,
		"inputResponses": map[string]any{formInputKey: map[string]any{"action": "accept", "content": map[string]any{"answer": deny, "answer_text": "use make test"}}}})
	if v := decision(t, res); v["behavior"] != "deny" || !strings.Contains(fmt.Sprint(v["message"]), "use make test") {
		t.Errorf("Deny through the form: %v", v)
	}
}

// The same through elicitation/create (2025-11-25): the form offers Deny
// only, and a client that answers Allow anyway is denied.
func TestElicitedFormNeverAllowsAnApproval(t *testing.T) {
	allows, _ := approvalLabels(t)
	dir := t.TempDir()
	var schemas []string
	h := func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		raw, _ := json.Marshal(req.Params.RequestedSchema)
		schemas = append(schemas, string(raw))
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept,
			Content: map[string]any{"answer": allows[1]}}}, nil
	}
	c, _ := startShimAt(t, Options{Connect: noDisplay, Settings: settings.Default(), Dir: dir}, testProtocolVersion, "claude-code", client.WithElicitationHandler(elicitor(h)))
	res, err := callCtx(context.Background(), c, "permission_prompt", permissionArgs)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(allText(res)), &v); err != nil || v["behavior"] != "deny" {
		t.Errorf("a form answered Always allow: %s, %v", allText(res), err)
	}
	if len(schemas) != 1 || strings.Contains(schemas[0], strconv.Quote(allows[0])) || strings.Contains(schemas[0], strconv.Quote(allows[1])) {
		t.Errorf("the forms: %q, want one offering Deny only", schemas)
	}
	if _, err := os.Stat(filepath.Join(dir, ".claude")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a form's claim wrote a rule: %v", err)
	}
}

// Whatever path a form's answer takes, an option that allows is dropped
// before the dialect renders it (renderFormAnswer).
func TestFormAnswerDropsAllowing(t *testing.T) {
	p, err := preparePermissionPrompt(permissionArgs, callEnv{client: "claude-code"})
	if err != nil {
		t.Fatal(err)
	}
	c := call{tool: permissionPromptName, p: p}
	allows, _ := approvalLabels(t)
	for _, label := range allows {
		a := wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{label}}}}
		var v map[string]any
		json.Unmarshal([]byte(allText(c.renderFormAnswer(a))), &v)
		if v["behavior"] != "deny" {
			t.Errorf("a form's %q decided %v", label, v)
		}
	}
}

// decision reads permission_prompt's JSON from a raw result.
func decision(t *testing.T, res map[string]any) map[string]any {
	t.Helper()
	content, _ := res["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("result %v", res)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	var v map[string]any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("result %v: %v", res, err)
	}
	return v
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
	key := testKey(t)
	now := time.Now()
	s := formState{Question: "abc", SentMS: now.Add(-time.Hour).UnixMilli(), ExpiresMS: now.Add(time.Hour).UnixMilli()}
	got, err := decodeFormState(s.encode(key), key, now)
	if err != nil || got != s {
		t.Errorf("round trip: %+v, %v", got, err)
	}
	unsigned := func(payload string) string { // payload signed with key
		return formStatePrefix + payload + "." + base64.RawURLEncoding.EncodeToString(formMAC(key, payload))
	}
	for state, want := range map[string]error{
		"":                                  errNoFormState,
		"x":                                 errNoFormState,
		formStatePrefix:                     errBadFormState,
		formStatePrefix + "e30":             errBadFormState, // no signature
		formStatePrefix + "e30.!!":          errBadFormState,
		formStatePrefix + "e30.AAAA":        errForgedFormState,
		s.encode(make([]byte, formKeySize)): errForgedFormState,
		unsigned("e30"):                     errBadFormState, // {}
		unsigned("bm90IGpzb24"):             errBadFormState, // not JSON
		formState{Question: "abc", SentMS: now.Add(48 * time.Hour).UnixMilli(), ExpiresMS: now.Add(49 * time.Hour).UnixMilli()}.encode(key): errStaleFormState,
		formState{Question: "abc", SentMS: now.Add(-2 * time.Hour).UnixMilli(), ExpiresMS: now.Add(-time.Hour).UnixMilli()}.encode(key):     errStaleFormState,
		formState{Question: "abc", SentMS: now.UnixMilli(), ExpiresMS: now.UnixMilli()}.encode(key):                                         errBadFormState,
	} {
		if _, err := decodeFormState(state, key, now); !errors.Is(err, want) {
			t.Errorf("decode %q: %v, want %v", state, err, want)
		}
	}
}

// TestMain gives the package's tests a form key of their own: the shims
// they start never make one in the user's data directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "formkey")
	if err != nil {
		panic(err)
	}
	formKeys = &keyFile{path: filepath.Join(dir, formKeyFile)}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
