package e2e

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lineShim is `feedback mcp` spoken to by hand, one JSON line per request
// of the stateless revision (2026-07-28: no initialize, the client's name
// and capabilities in each request's _meta), as a client that replays or
// edits a requestState would.
type lineShim struct {
	t    *testing.T
	in   io.WriteCloser
	out  *bufio.Reader
	next int
}

// startLineShim runs command with args (a shim, or a shell that runs one:
// then the shim's parent, its session, is another process than the
// test's) in dir, with the session's environment and extra, where no
// window can be shown.
func startLineShim(t *testing.T, dir, command string, args []string, extra ...string) *lineShim {
	t.Helper()
	cmd := exec.Command(command, args...)
	cmd.Dir = dir
	cmd.Env = append(append(append(os.Environ(), env...), "DISPLAY=", "WAYLAND_DISPLAY=",
		"FEEDBACK_SOCKET="+filepath.Join(t.TempDir(), "none.sock")), extra...)
	w := &testWriter{t: t, prefix: "shim: "}
	cmd.Stderr = w
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close() // the end of input stops it
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		w.stop()
	})
	return &lineShim{t: t, in: in, out: bufio.NewReaderSize(out, 1<<20), next: 1}
}

// call sends tools/call of tool with args from the client claude-code,
// which declares form elicitation, plus extra params (requestState,
// inputResponses), and returns the result of its response.
func (s *lineShim) call(tool string, args map[string]any, extra map[string]any) map[string]any {
	s.t.Helper()
	id := s.next
	s.next++
	params := map[string]any{"name": tool, "arguments": args, "_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "claude-code", "version": "2"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"elicitation": map[string]any{"form": map[string]any{}}},
	}}
	for k, v := range extra {
		params[k] = v
	}
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
	if _, err := s.in.Write(append(line, '\n')); err != nil {
		s.t.Fatal(err)
	}
	got := make(chan map[string]any, 1)
	go func() {
		for {
			l, err := s.out.ReadBytes('\n')
			if err != nil {
				close(got)
				return
			}
			var resp struct {
				ID     *int            `json:"id"`
				Result map[string]any  `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(l, &resp) == nil && resp.ID != nil && *resp.ID == id {
				if resp.Result == nil {
					resp.Result = map[string]any{"jsonrpc_error": string(resp.Error)}
				}
				got <- resp.Result
				return
			}
		}
	}()
	select {
	case r, ok := <-got:
		if !ok {
			s.t.Fatalf("the shim ended before answering %s", line)
		}
		return r
	case <-time.After(20 * time.Second):
		s.t.Fatalf("no answer to %s within 20 s", line)
		return nil
	}
}

// replay is the params of a retry with state and the form's content.
func replay(state string, content map[string]any) map[string]any {
	return map[string]any{"requestState": state, "inputResponses": map[string]any{
		"feedback_form": map[string]any{"action": "accept", "content": content}}}
}

// resultText is the text of a result's content blocks.
func resultText(res map[string]any) string {
	var b strings.Builder
	content, _ := res["content"].([]any)
	for _, c := range content {
		if m, ok := c.(map[string]any); ok {
			s, _ := m["text"].(string)
			b.WriteString(s)
		}
	}
	return b.String()
}

// formOptions are the options the form of an input-required result offers
// for its first answer (the enum of "answer").
func formOptions(t *testing.T, res map[string]any) []string {
	t.Helper()
	var v struct {
		Params struct {
			Schema struct {
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"requestedSchema"`
		} `json:"params"`
	}
	form, _ := res["inputRequests"].(map[string]any)["feedback_form"]
	raw, _ := json.Marshal(form)
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("the form %s: %v", raw, err)
	}
	return v.Params.Schema.Properties["answer"].Enum
}

// A 2026-07-28 client without a window gets the approval as a form and an
// opaque requestState, which anyone holding it can replay. Were that state
// unsigned, bound to no session and good for a day, another client process
// replaying it with inputResponses claiming "Always allow in this project"
// would be answered allow at once, with no window, and the rule written.
// So the approval's form offers Deny only, and no retry allows: not from
// another client process (refused: another session's state), not from the
// same one (a form can only deny); no rule is written.
func TestApprovalStateReplayNeverAllows(t *testing.T) {
	alone := headlessAlone(t)
	proj := filepath.Join(t.TempDir(), "shop")
	if err := os.Mkdir(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "npm test"}, "tool_use_id": "toolu_29"}
	first := startLineShim(t, proj, alone, []string{"mcp"})
	minted := first.call("permission_prompt", args, nil)
	state, _ := minted["requestState"].(string)
	if minted["resultType"] != "input_required" || state == "" {
		t.Fatalf("without a window: %v", minted)
	}
	if opts := formOptions(t, minted); len(opts) != 1 {
		t.Errorf("the approval's form offers %q: want its one option that does not allow (Deny)", opts)
	}
	claim := replay(state, map[string]any{"answer": "Always allow in this project"})
	rule := filepath.Join(proj, ".claude", "settings.local.json")

	// Another client process (a shell runs its shim) replays the state.
	other := startLineShim(t, proj, "sh", []string{"-c", `"$0" mcp; exit $?`, alone})
	t0 := time.Now()
	res := other.call("permission_prompt", args, claim)
	t.Logf("another client's replay, %v: %v", time.Since(t0).Round(time.Millisecond), res)
	if text := resultText(res); strings.Contains(text, `"allow"`) || res["isError"] != true || !strings.Contains(text, "another question, client or session") {
		t.Errorf("another client process replaying the state got %v, want it refused", res)
	}
	// The same client process (a restarted shim) claims Allow, then
	// Always allow: a form can only deny.
	again := startLineShim(t, proj, alone, []string{"mcp"})
	for _, answer := range []string{"Allow", "Always allow in this project"} {
		res := again.call("permission_prompt", args, replay(state, map[string]any{"answer": answer}))
		var v map[string]any
		if err := json.Unmarshal([]byte(resultText(res)), &v); err != nil || v["behavior"] != "deny" {
			t.Errorf("the same session's form claiming %q: %v", answer, res)
		}
	}
	if _, err := os.Stat(rule); !errors.Is(err, fs.ErrNotExist) {
		data, _ := os.ReadFile(rule)
		t.Errorf("a replayed state wrote a rule: %s %v", data, err)
	}
}

// The state is signed with a per-user key (HMAC-SHA256, a 0600 file in the
// data directory made by the first shim that needs it) and expires with its
// question's countdown. An edited state is refused with an error that says
// so; an expired one too; an untouched one still answers, even when its
// retry is served by a restarted shim.
func TestFormStateSignedAndExpiring(t *testing.T) {
	alone := headlessAlone(t)
	dir := t.TempDir()
	args := map[string]any{"question": "Which database?", "options": []any{"Postgres", "SQLite"}}
	sqlite := map[string]any{"answer": "SQLite"}
	shim := startLineShim(t, dir, alone, []string{"mcp"})
	minted := shim.call("ask_choice", args, nil)
	state, _ := minted["requestState"].(string)
	if minted["resultType"] != "input_required" || state == "" {
		t.Fatalf("without a window: %v", minted)
	}

	// Edited: the payload's sending time an hour earlier, re-encoded, the
	// rest kept.
	head, rest, _ := strings.Cut(state, ".")
	payload, sig, signed := strings.Cut(rest, ".")
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	var fields map[string]any
	if err != nil || json.Unmarshal(raw, &fields) != nil || fields["t"] == nil {
		t.Fatalf("the state's payload %q: %v", payload, err)
	}
	fields["t"] = fields["t"].(float64) - 3600e3
	raw, _ = json.Marshal(fields)
	tampered := head + "." + base64.RawURLEncoding.EncodeToString(raw)
	if signed {
		tampered += "." + sig
	}
	res := shim.call("ask_choice", args, replay(tampered, sqlite))
	if text := resultText(res); res["isError"] != true || !strings.Contains(text, "signature does not match") {
		t.Errorf("an edited state: %v, want it refused for its signature", res)
	}

	// Untouched, through a restarted shim of the same session.
	restarted := startLineShim(t, dir, alone, []string{"mcp"})
	res = restarted.call("ask_choice", args, replay(state, sqlite))
	if sc, _ := res["structuredContent"].(map[string]any); sc["answer"] != "SQLite" {
		t.Errorf("the untouched state: %v", res)
	}

	// The key: 32 bytes only its owner reads.
	data := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_DATA_HOME="); ok {
			data = v
		}
	}
	if fi, err := os.Stat(filepath.Join(data, "feedback", "form-state.key")); err != nil || fi.Size() != 32 || fi.Mode().Perm() != 0o600 {
		t.Errorf("the form key: %v, %v", fi, err)
	}

	// A question with a countdown of 2 s: its state expires with it.
	short := startLineShim(t, dir, alone, []string{"mcp"}, "FEEDBACK_TIMEOUT=2")
	minted = short.call("ask_choice", args, nil)
	sent := time.Now()
	state, _ = minted["requestState"].(string)
	waitFor(t, "the question's countdown to end", 10*time.Second, func() bool { return time.Since(sent) > 3*time.Second })
	res = short.call("ask_choice", args, replay(state, sqlite))
	if text := resultText(res); res["isError"] != true || !strings.Contains(text, "expired") {
		t.Errorf("a state whose question's countdown ended: %v, want it refused as expired", res)
	}
	t.Log(fmt.Sprint("refusal: ", resultText(res)))
}
