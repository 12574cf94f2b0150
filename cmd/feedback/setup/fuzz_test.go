package setup

import (
	"encoding/json"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

var fuzzFields = []field{{"type", "stdio"}, {"command", "/x/feedback"}, {"args", []string{"mcp"}},
	{"env", map[string]string{"FEEDBACK_SOCKET": "/s"}}}

// Whatever the file holds, merging either fails cleanly or yields a file
// that parses and holds the entry; a second merge changes nothing.
func FuzzMergeJSON(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"mcpServers": {"a": {}}}`, "// c\n{\"mcpServers\": {\"feedback\": {\"command\": 1,},},}", `[]`, `{"mcpServers": null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, _, err := mergeJSON(data, "mcpServers", "feedback", fuzzFields)
		if err != nil {
			return
		}
		std, err := hujson.Standardize(append([]byte(nil), out...))
		if err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, out)
		}
		var doc map[string]any
		if err := json.Unmarshal(std, &doc); err != nil {
			t.Fatal(err)
		}
		servers, _ := doc["mcpServers"].(map[string]any)
		if e, _ := servers["feedback"].(map[string]any); e["command"] != "/x/feedback" {
			t.Fatalf("no entry in %s", out)
		}
		if _, changes, err := mergeJSON(out, "mcpServers", "feedback", fuzzFields); err != nil || len(changes) != 0 {
			t.Fatalf("second merge: %v %v\n%s", changes, err, out)
		}
	})
}

func FuzzMergeTOML(f *testing.F) {
	for _, s := range []string{``, "a = 1", "[mcp_servers.feedback]\ncommand = 'x' # c\n[mcp_servers.feedback.env]\nA = 'b'\n", "[mcp_servers]\nx = 1\n", "[[mcp_servers]]\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, _, err := mergeTOML(data, "mcp_servers", "feedback", fuzzFields)
		if err != nil {
			return
		}
		var doc map[string]any
		if err := toml.Unmarshal(out, &doc); err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, out)
		}
		if e := subTable(doc, "mcp_servers", "feedback"); e["command"] != "/x/feedback" {
			t.Fatalf("no entry in %s", out)
		}
		if _, changes, err := mergeTOML(out, "mcp_servers", "feedback", fuzzFields); err != nil || len(changes) != 0 {
			t.Fatalf("second merge: %v %v\n%s", changes, err, out)
		}
	})
}
