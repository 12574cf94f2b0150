package e2e

import (
	"image"
	"testing"
	"time"
)

// Settings and History open centred on the screen, whole on it, not where
// the window manager puts a new window (for Settings the bottom-left, 15 px
// off screen), and Escape closes History as it closes other windows.
func TestAppWindowsCentredAndHistoryClosesOnEscape(t *testing.T) {
	requireSession(t)
	s := openScreen(t)
	s.waitForWindowManager(t)
	startApp(t, "FEEDBACK_DB="+fillHistory(t), writeSettings(t, `{"ui_linger_seconds": 30}`))
	tray := openTray(t)
	ids := tray.labels(t)
	sw, sh := screenSize(t)
	screenRect := image.Rect(0, 0, sw, sh)
	for _, w := range []struct{ item, title string }{{"Settings…", "feedback settings"}, {"History…", "feedback history"}} {
		tray.click(t, ids[w.item])
		win := findWindow(t, w.title)
		f := s.frame(t, win)
		if !f.In(screenRect) {
			t.Errorf("%s: frame %v is not whole on the screen %v", w.title, f, screenRect)
		}
		c := f.Min.Add(f.Max).Div(2)
		if dx, dy := c.X-sw/2, c.Y-sh/2; dx*dx+dy*dy > 40*40 {
			t.Errorf("%s: frame %v is not centred on the screen %v (centre off by %d, %d)", w.title, f, screenRect, dx, dy)
		}
		windowShot(t, win, w.title)
	}
	activate(t, findWindow(t, "feedback history"))
	key(t, "Escape")
	windowGone(t, "feedback history", 5*time.Second)
}
