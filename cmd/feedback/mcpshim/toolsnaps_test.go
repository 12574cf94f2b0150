package mcpshim

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestToolSnapshots compares each tool of tools/list, as the server emits
// it, with testdata/toolsnaps/<tool>.json. UPDATE_TOOLSNAPS=true rewrites
// the files.
func TestToolSnapshots(t *testing.T) {
	listed := listTools(t)
	if len(listed) != len(tools) {
		t.Fatalf("tools/list has %d tools, want %d", len(listed), len(tools))
	}
	byName := make(map[string]json.RawMessage, len(listed)) // tools/list is sorted by name
	for _, raw := range listed {
		var tool struct{ Name string }
		if err := json.Unmarshal(raw, &tool); err != nil {
			t.Fatal(err)
		}
		byName[tool.Name] = raw
	}
	update := os.Getenv("UPDATE_TOOLSNAPS") == "true"
	for _, name := range ToolNames() {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			if err := json.Indent(&got, byName[name], "", "  "); err != nil {
				t.Fatal(err)
			}
			got.WriteByte('\n')
			path := filepath.Join("testdata", "toolsnaps", name+".json")
			if update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run UPDATE_TOOLSNAPS=true go test ./mcpshim/ to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("tools/list entry differs from %s (run UPDATE_TOOLSNAPS=true go test ./mcpshim/ if the change is intended)\n got: %s\nwant: %s", path, got.Bytes(), want)
			}
		})
	}
}

// listTools returns the tools of the server's tools/list answer, raw.
func listTools(t *testing.T) []json.RawMessage {
	t.Helper()
	s, err := NewServer(Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	resp := s.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &out); err != nil || len(out.Result.Tools) == 0 {
		t.Fatalf("tools/list answered %s (%v)", b, err)
	}
	return out.Result.Tools
}

// TestInteractiveFeedbackSchemaProperties checks that the schema offers
// every argument of the reference tool and requires none.
func TestInteractiveFeedbackSchemaProperties(t *testing.T) {
	var schema struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(interactiveFeedbackSchema, &schema); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"message", "summary", "prompt", "predefined_options", "options", "question_type", "header_label",
		"feedback_placeholder", "loop_id", "loop_phase", "loop_objective", "iteration_label", "success_criteria",
		"project_directory",
	}
	want = append(want, ignoredFields...)
	var got []string
	for k := range schema.Properties {
		got = append(got, k)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("properties = %v\nwant %v", got, want)
	}
	if schema.Type != "object" || len(schema.Required) != 0 {
		t.Errorf("type = %q, required = %v; want object with nothing required", schema.Type, schema.Required)
	}
	for k, v := range schema.Properties {
		var p struct {
			Description string `json:"description"`
		}
		if json.Unmarshal(v, &p); p.Description == "" {
			t.Errorf("property %s has no description", k)
		}
	}
}
