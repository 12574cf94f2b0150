package e2e

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// writePNG writes a w×h test picture and returns its path.
func writePNG(t *testing.T, w, h int) string {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), 160, 255})
		}
	}
	path := filepath.Join(t.TempDir(), "screenshot.png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, m); err != nil {
		t.Fatal(err)
	}
	return path
}

// imageSizes decodes the image blocks of a result.
func imageSizes(t *testing.T, res *mcp.CallToolResult) []image.Point {
	t.Helper()
	var out []image.Point
	for _, c := range res.Content {
		ic, ok := c.(mcp.ImageContent)
		if !ok {
			continue
		}
		data, err := base64.StdEncoding.DecodeString(ic.Data)
		if err != nil {
			t.Fatalf("image block: %v", err)
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("image block (%s) does not decode: %v", ic.MIMEType, err)
		}
		out = append(out, image.Pt(cfg.Width, cfg.Height))
	}
	return out
}

// submitAttached waits until the window titled title (its question's
// title) holds n processed attachments (its draft, in the database, has
// them), takes a screenshot named shot, and submits with Ctrl+Enter.
func submitAttached(t *testing.T, title string, n int, shot string, res <-chan callResult) *mcp.CallToolResult {
	t.Helper()
	waitDraft(t, sessionDB(), title, hasImages(n))
	screenshot(t, shot)
	key(t, "ctrl+Return")
	return await(t, res)
}

// Ctrl+V with an image on the clipboard attaches it; it comes back as an
// image block, downscaled, after the text, which counts it.
func TestPasteImage(t *testing.T) {
	requireSession(t)
	src := writePNG(t, 2400, 1200)
	xclip := exec.Command("xclip", "-quiet", "-selection", "clipboard", "-t", "image/png", "-i", src)
	if err := xclip.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xclip.Process.Kill(); xclip.Wait() })

	c := newMCP(t, "paste")
	res := call(c, "interactive_feedback", map[string]any{"message": "Paste the screenshot", "header_label": "Paste"})
	activate(t, findWindow(t, "Paste — feedback"))
	typeText(t, "see the picture")
	key(t, "ctrl+v")
	r := submitAttached(t, "Paste", 1, "paste-thumbnail", res)
	if got := imageSizes(t, r); len(got) != 1 || got[0] != image.Pt(1568, 784) {
		t.Fatalf("image blocks = %v, want one of 1568×784", got)
	}
	if txt := text(r); !strings.Contains(txt, "see the picture") || !strings.Contains(txt, "Attached images: 1") {
		t.Errorf("text = %q", txt)
	}
	if _, ok := r.Content[0].(mcp.TextContent); !ok {
		t.Errorf("the first block is %T, want the text", r.Content[0])
	}
}

// Ctrl+V with text on the clipboard still pastes text into the reply box.
func TestPasteTextStillWorks(t *testing.T) {
	requireSession(t)
	xclip := exec.Command("xclip", "-quiet", "-selection", "clipboard", "-i")
	xclip.Stdin = strings.NewReader("pasted words")
	if err := xclip.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xclip.Process.Kill(); xclip.Wait() })
	c := newMCP(t, "pastetext")
	res := call(c, "interactive_feedback", map[string]any{"message": "Paste some text", "header_label": "PasteText"})
	activate(t, findWindow(t, "PasteText — feedback"))
	key(t, "ctrl+v")
	waitDraft(t, sessionDB(), "PasteText", hasText("pasted words")) // the paste is in the reply box
	key(t, "ctrl+Return")
	r := await(t, res)
	wantText(t, r, "User reply:\npasted words")
}
