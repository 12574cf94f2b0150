package e2e

import (
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// saveShot screenshots name; the window-size tests also save their screenshots
// when FEEDBACK_SHOTS names a directory (for a person to look at).
func saveShot(t *testing.T, name, win string) {
	t.Helper()
	screenshot(t, name)
	if dir := os.Getenv("FEEDBACK_SHOTS"); dir != "" {
		os.MkdirAll(dir, 0o755)
		if out, err := exec.Command("import", "-window", win, "-frame", filepath.Join(dir, name+".png")).CombinedOutput(); err != nil {
			t.Logf("import: %v: %s", err, out)
		}
	}
}

// waitHeight waits until win is at least h pixels high and its size is
// still for a moment, and returns its height.
func waitHeight(t *testing.T, win string, h int) int {
	t.Helper()
	last, still := -1, 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		_, _, _, got := geometry(t, win)
		if got == last {
			still++
		} else {
			last, still = got, 0
		}
		if got >= h && still >= 4 {
			return got
		}
	}
	return last
}

// Pasting an image grows the window by the attachment's card instead of
// squeezing the question (the window was 392 px on a 1000 px screen, the
// question a sliver, an option cut off); a second image beside it grows
// nothing (it grew by 39 px); both within the screen.
func TestPasteGrowsTheWindow(t *testing.T) {
	requireSession(t)
	src := writePNG(t, 800, 600)
	xclip := exec.Command("xclip", "-quiet", "-selection", "clipboard", "-t", "image/png", "-i", src)
	if err := xclip.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xclip.Process.Kill(); xclip.Wait() })
	c := newMCP(t, "room")
	res := call(c, "interactive_feedback", map[string]any{
		"message":      "## Which layout?\n\nThe sidebar moved to the right; see the screenshot I am about to paste.\n\nPick one, or tell me what to change.",
		"header_label": "RoomPaste", "predefined_options": []any{"Keep it", "Revert"},
	})
	win := findWindow(t, "RoomPaste — feedback")
	activate(t, win)
	_, _, w, h0 := geometry(t, win)
	waitPainted(t, win, w, h0)
	key(t, "ctrl+v")
	waitDraft(t, sessionDB(), "RoomPaste", hasImages(1))
	// The card: an 80-unit thumbnail over its size and remove button.
	h1 := waitHeight(t, win, h0+100)
	saveShot(t, "room-paste", win)
	if h1 < h0+100 {
		t.Errorf("after a paste the window is %d px high, was %d: want it grown by the card (>= 100 px)", h1, h0)
	}
	key(t, "ctrl+v")
	waitDraft(t, sessionDB(), "RoomPaste", hasImages(2))
	h2 := waitHeight(t, win, h1)
	if abs(h2-h1) > 2 {
		t.Errorf("a second image beside the first changed the window's height %d → %d", h1, h2)
	}
	_, sh := screenSize(t)
	if _, y, _, _ := geometry(t, win); y+h2 > sh {
		t.Errorf("the window (y %d, %d high) leaves the %d px screen", y, h2, sh)
	}
	key(t, "ctrl+Return")
	if r := await(t, res); len(imageSizes(t, r)) != 2 {
		t.Errorf("answer: %q, want two images", text(r))
	}
}

// An image in the question's Markdown loads after the window was sized:
// the window grows to show it instead of the options covering it.
func TestLateMarkdownImageGrowsTheWindow(t *testing.T) {
	requireSession(t)
	m := image.NewRGBA(image.Rect(0, 0, 320, 320))
	for y := range 320 {
		for x := range 320 {
			m.Set(x, y, color.RGBA{uint8(x * 255 / 320), 90, uint8(y * 255 / 320), 255})
		}
	}
	var buf strings.Builder
	enc := base64.NewEncoder(base64.StdEncoding, &buf)
	if err := png.Encode(enc, m); err != nil {
		t.Fatal(err)
	}
	enc.Close()
	c := newMCP(t, "room")
	res := call(c, "interactive_feedback", map[string]any{
		"message":      "Does the chart look right?\n\n![the chart](data:image/png;base64," + buf.String() + ")\n\nThe last line, under the chart.",
		"header_label": "RoomImage", "predefined_options": []any{"Yes", "No"},
	})
	win := findWindow(t, "RoomImage — feedback")
	// 320 px of image over the title row, the text, the options and the
	// reply box: well over 500 px once the window has made room.
	h := waitHeight(t, win, 500)
	_, _, w, _ := geometry(t, win)
	waitPainted(t, win, w, h)
	saveShot(t, "room-markdown-image", win)
	if h < 500 {
		t.Errorf("the window is %d px high once its 320 px image loaded, want >= 500", h)
	}
	activate(t, win)
	key(t, "Escape")
	await(t, res)
}
