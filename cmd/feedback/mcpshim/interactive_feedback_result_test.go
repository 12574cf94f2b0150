package mcpshim

import (
	"context"
	"encoding/base64"
	"errors"
	"testing"

	"feedback/internal/settings"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// Answered results carry the images as image blocks after the text block,
// then the prompt suffix as the last text block; the text counts the images.
func TestRenderInteractiveFeedbackImagesAndSuffix(t *testing.T) {
	png, jpg := []byte("\x89PNG fake"), []byte("\xff\xd8 fake")
	images := []wire.Image{{MIME: "image/png", Data: png, Name: "a.png"}, {MIME: "image/jpeg", Data: jpg}}
	for _, tc := range []struct {
		name   string
		answer wire.Answer
		suffix string
		want   []mcp.Content
		images int
	}{
		{
			name:   "reply, images and suffix",
			answer: wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "see screenshots"}}, Images: images},
			suffix: "Keep asking me before each commit.",
			want: []mcp.Content{
				mcp.NewTextContent("User reply:\nsee screenshots\n\nAttached images: 2"),
				mcp.NewImageContent(base64.StdEncoding.EncodeToString(png), "image/png"),
				mcp.NewImageContent(base64.StdEncoding.EncodeToString(jpg), "image/jpeg"),
				mcp.NewTextContent("Keep asking me before each commit."),
			},
			images: 2,
		},
		{
			name:   "images only",
			answer: wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{}}, Images: images[:1]},
			want: []mcp.Content{
				mcp.NewTextContent("Attached images: 1"),
				mcp.NewImageContent(base64.StdEncoding.EncodeToString(png), "image/png"),
			},
			images: 1,
		},
		{
			name:   "suffix without images",
			answer: wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"A"}}}},
			suffix: "S",
			want:   []mcp.Content{mcp.NewTextContent("Selected options:\n- A"), mcp.NewTextContent("S")},
		},
		{
			name:   "no suffix and no images when dismissed",
			answer: wire.Answer{Status: wire.StatusDismissed, Images: images},
			suffix: "S",
			want:   []mcp.Content{mcp.NewTextContent(textDismissed)},
		},
		{
			name:   "the user quit the app",
			answer: wire.Answer{Status: wire.StatusDismissed, Reason: wire.ReasonQuit},
			suffix: "S",
			want:   []mcp.Content{mcp.NewTextContent(textQuit)},
		},
		{
			name:   "no suffix on timeout",
			answer: wire.Answer{Status: wire.StatusTimeout},
			suffix: "S",
			want:   []mcp.Content{mcp.NewTextContent(textTimeout())},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := renderInteractiveFeedback(tc.answer, feedbackMeta{questionID: "q1", suffix: tc.suffix})
			if !jsonEqual(res.Content, tc.want) {
				t.Errorf("content:\n got %v\nwant %v", res.Content, tc.want)
			}
			if got := res.StructuredContent.(feedbackResult).Images; got != tc.images {
				t.Errorf("structuredContent images = %d, want %d", got, tc.images)
			}
		})
	}
}

func TestResubmitResult(t *testing.T) {
	for _, tc := range []struct {
		name, prompt string
		err          error
		want         string
	}{
		{"default prompt", "", errors.New("dial: refused"), "The feedback window could not collect the user's answer (dial: refused). Nothing was answered. Call interactive_feedback again to ask the user."},
		{"custom prompt", "请重新调用 interactive_feedback。原因：{error}；{error}", errors.New("EOF"), "请重新调用 interactive_feedback。原因：EOF；EOF"},
		{"no placeholder", "Try again.", errors.New("EOF"), "Try again."},
		{"refusal", "{error}", &wire.Error{Code: wire.CodeTooMany, Message: "8 open"}, "the feedback app refused the question (too_many): 8 open"},
		{"protocol", "{error}", &wire.Error{Code: wire.CodeProtocol, Message: "v2"}, "the feedback app refused the question (protocol): v2; the feedback app and this MCP server are different versions: ask the user to update and restart them"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := resubmitResult(tc.prompt, tc.err)
			if got := resultText(t, res); !res.IsError || got != tc.want {
				t.Errorf("isError %v, %q; want %q", res.IsError, got, tc.want)
			}
		})
	}
}

// The settings reach the result: the suffix on answers, the resubmit
// prompt on failures.
func TestE2EInteractiveFeedbackSettings(t *testing.T) {
	s := settings.Default()
	s.PromptSuffix = "SUFFIX"
	s.ResubmitPrompt = "Resubmit: {error}"
	asker := askFunc(func(_ context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		if q.Prompts[0].Markdown == "fail" {
			return wire.Answer{}, errors.New("connection reset")
		}
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "ok"}},
			Images: []wire.Image{{MIME: "image/png", Data: []byte{1, 2}}}}, nil
	})
	c := startShim(t, Options{Connect: connectTo(asker), Settings: s})
	res := callNamed(t, c, "interactive_feedback", map[string]any{"message": "m"})
	if len(res.Content) != 3 {
		t.Fatalf("content = %#v", res.Content)
	}
	text, _ := mcp.AsTextContent(res.Content[0])
	img, _ := mcp.AsImageContent(res.Content[1])
	suffix, _ := mcp.AsTextContent(res.Content[2])
	if text == nil || text.Text != "User reply:\nok\n\nAttached images: 1" || img == nil || img.Data != "AQI=" || img.MIMEType != "image/png" ||
		suffix == nil || suffix.Text != "SUFFIX" {
		t.Errorf("content = %#v", res.Content)
	}
	if sc := res.StructuredContent.(map[string]any); sc["images"] != float64(1) {
		t.Errorf("structuredContent = %v", sc)
	}
	res = callNamed(t, c, "interactive_feedback", map[string]any{"message": "fail"})
	if got := resultText(t, res); !res.IsError || got != "Resubmit: connection reset" {
		t.Errorf("failure: isError %v, %q", res.IsError, got)
	}
}
