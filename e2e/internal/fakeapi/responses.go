package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// serveResponses answers OpenAI's POST /v1/responses as server-sent
// events (Codex always streams): the turn's function calls, or a message.
func serveResponses(w http.ResponseWriter, req Request, n int, script Script) {
	turn := script(req)
	model, _ := req.Body["model"].(string)
	id := fmt.Sprintf("resp_%d", n)
	var items []map[string]any
	for i, tu := range turn.Tools {
		args, _ := json.Marshal(tu.Input)
		callID := tu.ID
		if callID == "" {
			callID = fmt.Sprintf("call_%d_%d", n, i)
		}
		item := map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d_%d", n, i), "call_id": callID,
			"name": tu.Name, "arguments": string(args), "status": "completed"}
		if tu.Namespace != "" {
			item["namespace"] = tu.Namespace
		}
		items = append(items, item)
	}
	if len(items) == 0 {
		items = append(items, map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", n), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": turn.Text, "annotations": []any{}}}})
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	f, _ := w.(http.Flusher)
	seq := 0
	event := func(name string, v map[string]any) {
		v["type"] = name
		v["sequence_number"] = seq
		seq++
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
		if f != nil {
			f.Flush()
		}
	}
	response := func(status string, output []map[string]any) map[string]any {
		r := map[string]any{"id": id, "object": "response", "created_at": 0, "status": status, "model": model, "output": output}
		if status == "completed" {
			r["usage"] = map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
				"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}
		}
		return r
	}
	event("response.created", map[string]any{"response": response("in_progress", []map[string]any{})})
	for i, it := range items {
		event("response.output_item.added", map[string]any{"output_index": i, "item": it})
		if it["type"] == "message" {
			event("response.output_text.delta", map[string]any{"output_index": i, "item_id": it["id"], "content_index": 0, "delta": turn.Text})
		}
		event("response.output_item.done", map[string]any{"output_index": i, "item": it})
	}
	event("response.completed", map[string]any{"response": response("completed", items)})
}

// responsesResults are the function_call_output items of req's input.
func responsesResults(req Request) []ToolResult {
	var out []ToolResult
	input, _ := req.Body["input"].([]any)
	for _, it := range input {
		im, _ := it.(map[string]any)
		if im["type"] != "function_call_output" && im["type"] != "custom_tool_call_output" {
			continue
		}
		r := ToolResult{}
		r.ID, _ = im["call_id"].(string)
		switch v := im["output"].(type) {
		case string:
			r.Text = v
		case []any:
			for _, e := range v {
				if em, ok := e.(map[string]any); ok {
					if s, ok := em["text"].(string); ok {
						r.Text += s
					}
				}
			}
		default:
			data, _ := json.Marshal(v)
			r.Text = string(data)
		}
		out = append(out, r)
	}
	return out
}
