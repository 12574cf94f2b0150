package e2e

import (
	"image"
	"strings"
	"testing"
)

// openMenu presses keys in win, which open a menu drawn inside it (Fyne's
// pop-up menus are part of the window's canvas, no window of their own),
// and waits until the window has been redrawn with it and holds still.
func openMenu(t *testing.T, win string, keys ...string) {
	t.Helper()
	s := openScreen(t)
	_, _, w, h := geometry(t, win)
	r := image.Rect(0, 0, w, h)
	before := s.pixels(t, win, r)
	key(t, keys...)
	s.waitRedrawn(t, win, r, before)
}

// A saved reply through a real window and a real MCP client: the window of
// a question with no options shows the replies as one-click answers; Alt+R
// opens the Quick reply menu and its first entry goes into the reply box,
// after what was typed; the agent gets both.
func TestQuickReply(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	c := newMCP(t, "quick-replier")
	res := call(c, "interactive_feedback", map[string]any{"message": "The QuickReply migration is ready. Go on?", "header_label": "QuickReply"})
	win := findWindow(t, "QuickReply — feedback")
	activate(t, win)
	typeText(t, "yes:")
	openMenu(t, win, "alt+r")
	screenshot(t, "quick-reply-menu")
	key(t, "Down", "Return")
	key(t, "ctrl+Return")
	if r := await(t, res); r.IsError || !strings.Contains(text(r), "yes:\nLooks good, continue") {
		t.Fatalf("result: %s", text(r))
	}
}
