// Package fakeapi is a small fake of the model APIs the real agent CLIs
// speak, for driving them in tests: Anthropic's Messages API (Claude Code:
// ANTHROPIC_BASE_URL), Google's Gemini API (the Gemini CLI:
// GOOGLE_GEMINI_BASE_URL; gemini.go) and OpenAI's Responses API (Codex: a
// model provider's base_url; responses.go). It answers each request,
// streamed (SSE) or not, with the turn a script picks — text, or tool
// calls — and records every request, so a test reads exactly what the
// model was given (the tool results).
package fakeapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// ToolUse is one tool call of a turn.
type ToolUse struct {
	ID    string
	Name  string
	Input map[string]any
	// Namespace is the Responses API's namespace of a tool grouped under
	// one (Codex offers each MCP server's tools as "mcp__SERVER").
	Namespace string
}

// Turn is the model's answer to one request: tool calls, or else text.
type Turn struct {
	Text  string
	Tools []ToolUse
}

// Request is one request the server got.
type Request struct {
	Path string
	Body map[string]any // the JSON body; nil when it was none
}

// Script picks the turn that answers req.
type Script func(req Request) Turn

// Server is a running fake.
type Server struct {
	URL string // for ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL; URL+"/v1" for a Responses API base_url

	mu       sync.Mutex // guards requests
	requests []Request
}

// Start serves script until the test ends.
func Start(t testing.TB, script Script) *Server {
	s := &Server{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		req := Request{Path: r.URL.Path}
		json.Unmarshal(data, &req.Body)
		s.mu.Lock()
		s.requests = append(s.requests, req)
		n := len(s.requests)
		s.mu.Unlock()
		switch {
		case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1beta/models/"):
			serveGemini(w, r, req, script)
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/responses"):
			serveResponses(w, req, n, script)
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/v1/models"):
			writeJSON(w, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens"):
			writeJSON(w, map[string]any{"input_tokens": 10})
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages"):
			turn := script(req)
			model, _ := req.Body["model"].(string)
			if stream, _ := req.Body["stream"].(bool); stream {
				writeStream(w, fmt.Sprintf("msg_%d", n), model, turn)
			} else {
				writeJSON(w, message(fmt.Sprintf("msg_%d", n), model, turn))
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// Requests are the requests so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func blocks(turn Turn) []map[string]any {
	var out []map[string]any
	for _, tu := range turn.Tools {
		out = append(out, map[string]any{"type": "tool_use", "id": tu.ID, "name": tu.Name, "input": tu.Input})
	}
	if len(out) == 0 {
		out = append(out, map[string]any{"type": "text", "text": turn.Text})
	}
	return out
}

func stopReason(turn Turn) string {
	if len(turn.Tools) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

func usage() map[string]any { return map[string]any{"input_tokens": 10, "output_tokens": 5} }

// message is the non-streamed answer.
func message(id, model string, turn Turn) map[string]any {
	return map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
		"content": blocks(turn), "stop_reason": stopReason(turn), "stop_sequence": nil, "usage": usage()}
}

// writeStream writes turn as the Messages API's server-sent events.
func writeStream(w http.ResponseWriter, id, model string, turn Turn) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	f, _ := w.(http.Flusher)
	event := func(name string, v map[string]any) {
		v["type"] = name
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
		if f != nil {
			f.Flush()
		}
	}
	event("message_start", map[string]any{"message": map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
	for i, b := range blocks(turn) {
		if b["type"] == "tool_use" {
			input, _ := json.Marshal(b["input"])
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		} else {
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		}
		event("content_block_stop", map[string]any{"index": i})
	}
	event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stopReason(turn), "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	event("message_stop", map[string]any{})
}

// ToolResult is a tool_result block the client sent.
type ToolResult struct {
	ID      string
	Name    string // the tool's name, where the API repeats it (Gemini)
	Text    string
	IsError bool
}

// ToolResults are the tool results of req's conversation, in order, in
// whichever of the three APIs it came.
func ToolResults(req Request) []ToolResult {
	if _, ok := req.Body["contents"]; ok {
		return geminiResults(req)
	}
	if _, ok := req.Body["input"]; ok {
		return responsesResults(req)
	}
	var out []ToolResult
	msgs, _ := req.Body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		content, _ := mm["content"].([]any)
		for _, c := range content {
			b, _ := c.(map[string]any)
			if b["type"] != "tool_result" {
				continue
			}
			r := ToolResult{}
			r.ID, _ = b["tool_use_id"].(string)
			r.IsError, _ = b["is_error"].(bool)
			switch v := b["content"].(type) {
			case string:
				r.Text = v
			case []any:
				for _, e := range v {
					if eb, ok := e.(map[string]any); ok {
						if s, ok := eb["text"].(string); ok {
							r.Text += s
						}
					}
				}
			}
			out = append(out, r)
		}
	}
	return out
}

// HasTools reports whether req offers the model tools: a turn of the
// agent's loop, not a side request (a title, a summary).
func HasTools(req Request) bool {
	return len(ToolNames(req)) > 0
}

// ToolNames are the names of the tools req offers the model.
func ToolNames(req Request) []string {
	var names []string
	tools, _ := req.Body["tools"].([]any)
	for _, t := range tools {
		tm, _ := t.(map[string]any)
		if n, ok := tm["name"].(string); ok {
			names = append(names, n)
		}
		// Gemini: {"functionDeclarations": [{"name": …}]}
		decls, _ := tm["functionDeclarations"].([]any)
		for _, d := range decls {
			dm, _ := d.(map[string]any)
			if n, ok := dm["name"].(string); ok {
				names = append(names, n)
			}
		}
	}
	return names
}

// Calls is a Script that makes calls one after another, each once the
// result of the one before has come back, then says "done"; a side
// request is answered "ok".
func Calls(calls ...ToolUse) Script {
	return func(req Request) Turn {
		if !HasTools(req) {
			return Turn{Text: "ok"}
		}
		n := len(ToolResults(req))
		if n < len(calls) {
			return Turn{Tools: []ToolUse{calls[n]}}
		}
		return Turn{Text: "done"}
	}
}

// Results are the tool results of the request that carried the most: the
// whole conversation's, as the model last read them.
func (s *Server) Results() []ToolResult {
	var out []ToolResult
	for _, r := range s.Requests() {
		if rs := ToolResults(r); len(rs) > len(out) {
			out = rs
		}
	}
	return out
}
