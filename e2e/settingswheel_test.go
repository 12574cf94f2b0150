package e2e

import (
	"image"
	"strconv"
	"strings"
	"testing"
	"time"
)

// In the Settings window, the mouse wheel over a multi-line field (Quick
// replies, at the end of the first page) scrolls the page, as it does over
// the rest of the page; the field must not keep the wheel for its own few
// lines. The page is first scrolled to its end by the wheel over the label
// column, then wheeled back up over the field: the top of the page must
// change.
func TestSettingsWheelOverMultiLineFieldScrollsThePage(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	startApp(t, writeSettings(t, `{"ui_linger_seconds": 30}`))
	tray := openTray(t)
	tray.click(t, tray.labels(t)["Settings…"])
	sw := findWindow(t, "feedback settings")
	activate(t, sw)
	w, h := windowSize(t, sw)
	wheel := func(x, y, button, times int) {
		t.Helper()
		xdotool(t, "mousemove", "--window", sw, strconv.Itoa(x), strconv.Itoa(y))
		for range times {
			xdotool(t, "click", strconv.Itoa(button))
		}
		time.Sleep(300 * time.Millisecond) // a frame or two to draw
	}
	top := func() image.Image { // the page's upper part, under the tabs
		img := windowImage(t, sw)
		return crop(img, image.Rect(0, h/6, w, h/2))
	}
	wheel(30, h/2, 5, 30) // the label column, down to the page's end
	atEnd := top()
	windowShot(t, sw, "settings-wheel-at-end")
	// The Quick replies field: the page's last field, at its end; the
	// right column, just above the footer's buttons.
	wheel(w*2/3, h-h/5, 4, 6)
	windowShot(t, sw, "settings-wheel-over-field")
	if sameImage(atEnd, top()) {
		t.Fatal("the wheel over the multi-line Quick replies field did not scroll the page")
	}
}

// windowSize is window win's width and height, from xdotool.
func windowSize(t *testing.T, win string) (w, h int) {
	t.Helper()
	geo := xdotool(t, "getwindowgeometry", win)
	for _, f := range strings.Fields(geo) {
		if x, y, ok := strings.Cut(f, "x"); ok {
			w, _ = strconv.Atoi(x)
			h, _ = strconv.Atoi(y)
		}
	}
	if w == 0 || h == 0 {
		t.Fatalf("window geometry %q", geo)
	}
	return w, h
}

// crop is r of img, copied.
func crop(img image.Image, r image.Rectangle) image.Image {
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < r.Dx(); x++ {
			out.Set(x, y, img.At(r.Min.X+x, r.Min.Y+y))
		}
	}
	return out
}

// sameImage tells whether a and b have the same size and pixels.
func sameImage(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return false
			}
		}
	}
	return true
}
