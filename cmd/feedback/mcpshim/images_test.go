package mcpshim

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"feedback/ipc/wire"
)

// Every dialect whose window has a reply box can come back with images;
// none may drop them.
func TestEveryDialectReturnsImages(t *testing.T) {
	img := wire.Image{MIME: "image/png", Data: []byte("\x89PNG fake"), Name: "shot.png"}
	app := askFunc(func(_ context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		replies := make([]wire.Reply, len(q.Prompts))
		for i, p := range q.Prompts {
			replies[i].Text = "typed"
			if len(p.Options) > 0 {
				replies[i].Selected = []string{p.Options[0].Label}
			}
		}
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: replies, Images: []wire.Image{img}}, nil
	})
	c := startShim(t, Options{Connect: connectTo(app)})
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"interactive_feedback", map[string]any{"message": "Look"}},
		{"ask_user_question", map[string]any{"questions": []any{map[string]any{"question": "What is wrong?"}}}},
		{"user_interact", map[string]any{"question": "What is wrong?"}},
		{"ask_text", map[string]any{"question": "What is wrong?"}},
		{"ask_choice", map[string]any{"question": "Which?", "options": []any{"a", "b"}, "allow_free_text": true}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			res := callNamed(t, c, tc.tool, tc.args)
			if res.IsError {
				t.Fatalf("isError: %+v", res.Content)
			}
			images, counted := 0, false
			for i, b := range res.Content {
				switch b := b.(type) {
				case mcp.ImageContent:
					images++
					if i == 0 {
						t.Error("an image block comes before the text")
					}
					if b.MIMEType != "image/png" {
						t.Errorf("MIME %q", b.MIMEType)
					}
				case mcp.TextContent:
					if strings.Contains(b.Text, "Attached images: 1") {
						counted = true
					}
				}
			}
			if images != 1 || !counted {
				t.Errorf("%d image blocks, counted %v: %+v", images, counted, res.Content)
			}
		})
	}
}
