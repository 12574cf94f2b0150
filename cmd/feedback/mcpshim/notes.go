package mcpshim

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// textUserNote starts each text block of a note the user wrote for the
// agent on their own (wire.Answer.Notes): it rides on this result but does
// not answer this question.
const textUserNote = "Note from the user (sent on their own, not an answer to this question): "

// userNotesKey is the structuredContent member that holds the notes.
const userNotesKey = "user_notes"

// withUserNotes adds the user's notes to res, whatever the dialect: after
// every other block, one text block each, marked as unsolicited; and, when
// res has structuredContent (a JSON object), as its "user_notes" array —
// in the text block too when that block is the same JSON (jsonToolResult).
func withUserNotes(res *mcp.CallToolResult, notes []string) {
	if res == nil || len(notes) == 0 {
		return
	}
	for _, n := range notes {
		res.Content = append(res.Content, mcp.NewTextContent(textUserNote+n))
	}
	if res.StructuredContent == nil {
		return
	}
	old, err := encodeJSON(res.StructuredContent)
	if err != nil || !strings.HasPrefix(old, "{") || !strings.HasSuffix(old, "}") {
		return
	}
	list, err := encodeJSON(notes)
	if err != nil {
		return
	}
	sep := ","
	if strings.TrimSpace(old[1:len(old)-1]) == "" {
		sep = ""
	}
	spliced := old[:len(old)-1] + sep + `"` + userNotesKey + `":` + list + "}"
	res.StructuredContent = json.RawMessage(spliced)
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(mcp.TextContent); ok && tc.Text == old {
			tc.Text = spliced
			res.Content[0] = tc
		}
	}
}

// encodeJSON encodes v as jsonToolResult does: <, > and & as they are, no
// trailing newline.
func encodeJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}
