package e2e

import (
	"testing"
	"time"
)

// ask_confirm with default false, at scale 1 and 1.5: a small window whose
// primary (highlighted) button is No, and Enter answers no. Screenshots
// confirm-default-no-scale*.
func TestAskConfirmDefaultNo(t *testing.T) {
	requireSession(t)
	for _, scale := range []string{"1", "1.5"} {
		t.Run("scale"+scale, func(t *testing.T) {
			startApp(t, "FYNE_SCALE="+scale)
			c := newMCP(t, "confirm-no")
			title := "Force-push to main? (scale " + scale + ")"
			res := call(c, "ask_confirm", map[string]any{"question": title, "default": false})
			win := findWindow(t, title+" — feedback")
			_, _, w, h := geometry(t, win)
			waitPainted(t, win, w, h)
			screenshot(t, "confirm-default-no-scale"+scale)
			activate(t, win)
			key(t, "Return")
			wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "no", "confirmed": false, "tool": "ask_confirm"})
			windowGone(t, title+" — feedback", 2*time.Second)
		})
	}
}
