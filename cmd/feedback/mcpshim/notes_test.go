package mcpshim

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// Every dialect that asks the app ends its result with the user's notes
// (wire.Answer.Notes), one text block each marked as not an answer, for
// every outcome; structuredContent, when there is one, holds them as
// user_notes, and so does a JSON text block that mirrors it. A result
// without notes has none of this. (ask_human_result collects through the
// same path; it needs an ask_human request first and is left out.)
func TestE2EUserNotesRideOnEveryDialect(t *testing.T) {
	notes := []string{"Use the staging database from now on.", "<b>and</b> & \"quotes\""}
	for _, d := range tools {
		name := d.tool.Name
		seeds := fuzzSeeds[name]
		if name == "ask_human_result" || len(seeds) == 0 {
			continue
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(seeds[0]), &args); err != nil {
			t.Fatal(err)
		}
		for _, status := range []wire.Status{wire.StatusAnswered, wire.StatusDismissed, wire.StatusTimeout} {
			for _, with := range [][]string{notes, nil} {
				asker := askFunc(func(ctx context.Context, q wire.Question, onEvent func(wire.Event)) (wire.Answer, error) {
					a := wire.Answer{QuestionID: q.ID, Status: status, Notes: with}
					if status == wire.StatusAnswered {
						for range q.Prompts {
							a.Replies = append(a.Replies, wire.Reply{Text: "ok"})
						}
					}
					return a, nil
				})
				c := startShim(t, Options{Connect: connectTo(asker), Tools: []string{name}})
				res := callNamed(t, c, name, args)
				checkUserNotes(t, name+"/"+string(status), res, with)
				c.Close()
			}
		}
	}
}

func checkUserNotes(t *testing.T, what string, res *mcp.CallToolResult, notes []string) {
	t.Helper()
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	var marked []string
	for _, s := range texts {
		if strings.HasPrefix(s, textUserNote) {
			marked = append(marked, strings.TrimPrefix(s, textUserNote))
		}
	}
	if !reflect.DeepEqual(marked, notes) {
		t.Errorf("%s: note blocks %q, want %q", what, marked, notes)
	}
	if len(notes) > 0 && len(texts) > len(notes) {
		tail := texts[len(texts)-len(notes):]
		for i, s := range tail {
			if s != textUserNote+notes[i] {
				t.Errorf("%s: the notes are not the last blocks: %q", what, texts)
				break
			}
		}
	}
	sc, ok := res.StructuredContent.(map[string]any)
	if !ok {
		return
	}
	got, has := sc[userNotesKey]
	if len(notes) == 0 {
		if has {
			t.Errorf("%s: user_notes %v without notes", what, got)
		}
		return
	}
	list, _ := got.([]any)
	if len(list) != len(notes) || list[0] != notes[0] || list[1] != notes[1] {
		t.Errorf("%s: structuredContent user_notes = %#v, want %q", what, got, notes)
	}
	if len(texts) > 0 && strings.HasPrefix(texts[0], "{") {
		var first map[string]any
		if err := json.Unmarshal([]byte(texts[0]), &first); err != nil || !reflect.DeepEqual(first, sc) {
			t.Errorf("%s: the JSON text block differs from structuredContent:\n%s\n%#v", what, texts[0], sc)
		}
	}
}

// withUserNotes keeps an empty structured object valid and leaves a result
// without notes alone.
func TestWithUserNotesShapes(t *testing.T) {
	res := &mcp.CallToolResult{StructuredContent: struct{}{}}
	withUserNotes(res, []string{"n"})
	if got := string(res.StructuredContent.(json.RawMessage)); got != `{"user_notes":["n"]}` {
		t.Errorf("empty object → %s", got)
	}
	res = &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("x")}, StructuredContent: map[string]any{"a": 1}}
	withUserNotes(res, nil)
	if len(res.Content) != 1 || !reflect.DeepEqual(res.StructuredContent, map[string]any{"a": 1}) {
		t.Errorf("no notes changed the result: %+v", res)
	}
}
