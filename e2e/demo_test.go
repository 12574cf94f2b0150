package e2e

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The demo question of make run (scripts/demo.sh) opens whole on a screen
// with room: its message needs no scroll bar — the mouse wheel over it
// moves nothing, its list and table included — and the script says it
// waits for the answer, and returns with it.
func TestDemoQuestionFits(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	ensureApp(t)
	cmd := exec.Command("bash", "../scripts/demo.sh", bin)
	cmd.Env = append(os.Environ(), env...)
	r := startAskCmd(t, cmd)
	win := findWindow(t, "Demo — feedback")
	_, _, w, h := geometry(t, win)
	waitPainted(t, win, w, h)
	// The message: below the bar of the countdown (which changes every
	// second), above the options.
	msg := image.Rect(0, h/8, w, h/2)
	region := func() []byte {
		img, err := png.Decode(bytes.NewReader(windowPNG(win)))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		for y := msg.Min.Y; y < msg.Max.Y; y++ {
			for x := msg.Min.X; x < msg.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				b.Write([]byte{byte(r >> 8), byte(g >> 8), byte(bl >> 8)})
			}
		}
		return b.Bytes()
	}
	before := region()
	xdotool(t, "mousemove", "--window", win, strconv.Itoa(w/2), strconv.Itoa((msg.Min.Y+msg.Max.Y)/2))
	for range 5 {
		xdotool(t, "click", "5") // the wheel, down
	}
	// This wait proves a negative: a message that scrolls is redrawn
	// within it.
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if !bytes.Equal(before, region()) {
			screenshot(t, "demo-scrolled")
			t.Fatal("the wheel scrolled the demo's message: it does not fit its window")
		}
	}
	activate(t, win)
	time.Sleep(800 * time.Millisecond) // past the window's guard against keys typed as it took the focus
	key(t, "ctrl+Return")
	if code := r.wait(t); code != 0 {
		t.Fatalf("demo.sh: exit %d\n%s%s", code, r.stdout.String(), r.stderr.String())
	}
	if !strings.Contains(r.stderr.String(), "answer it or close it") {
		t.Errorf("the demo did not say it waits for the answer: %q", r.stderr.String())
	}
}
