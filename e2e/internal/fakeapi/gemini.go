package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// serveGemini answers the Gemini API's POST
// /v1beta/models/{model}:generateContent, :streamGenerateContent (SSE with
// alt=sse) and :countTokens.
func serveGemini(w http.ResponseWriter, r *http.Request, req Request, script Script) {
	_, method, _ := strings.Cut(r.URL.Path, ":")
	switch method {
	case "countTokens":
		writeJSON(w, map[string]any{"totalTokens": 10})
	case "generateContent":
		writeJSON(w, geminiResponse(script(req)))
	case "streamGenerateContent":
		w.Header().Set("Content-Type", "text/event-stream")
		data, _ := json.Marshal(geminiResponse(script(req)))
		fmt.Fprintf(w, "data: %s\r\n\r\n", data)
	default:
		http.NotFound(w, r)
	}
}

// geminiResponse is turn as a GenerateContentResponse.
func geminiResponse(turn Turn) map[string]any {
	var parts []any
	for _, tu := range turn.Tools {
		call := map[string]any{"name": tu.Name, "args": tu.Input}
		if tu.ID != "" {
			call["id"] = tu.ID
		}
		parts = append(parts, map[string]any{"functionCall": call})
	}
	if len(parts) == 0 {
		parts = append(parts, map[string]any{"text": turn.Text})
	}
	return map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "fake",
	}
}

// geminiResults are the functionResponse parts of req's contents: Text is
// the response object as JSON, since that is what the model reads.
func geminiResults(req Request) []ToolResult {
	var out []ToolResult
	contents, _ := req.Body["contents"].([]any)
	for _, c := range contents {
		cm, _ := c.(map[string]any)
		parts, _ := cm["parts"].([]any)
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			fr, ok := pm["functionResponse"].(map[string]any)
			if !ok {
				continue
			}
			r := ToolResult{}
			r.ID, _ = fr["id"].(string)
			r.Name, _ = fr["name"].(string)
			data, _ := json.Marshal(fr["response"])
			r.Text = string(data)
			if resp, ok := fr["response"].(map[string]any); ok {
				_, r.IsError = resp["error"]
			}
			out = append(out, r)
		}
	}
	return out
}
