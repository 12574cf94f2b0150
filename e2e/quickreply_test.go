package e2e

import (
	"image"
	"strconv"
	"strings"
	"testing"
	"time"
)

// openMenu presses keys in win, which open a menu drawn inside it (Fyne's
// pop-up menus are part of the window's canvas, no window of their own),
// and waits until the window's place on screen has been redrawn with it and
// holds still. (Read from the root window: the part of the window on
// screen, whatever the window manager is doing with it.)
func openMenu(t *testing.T, win string, keys ...string) {
	t.Helper()
	s := openScreen(t)
	r := s.frame(t, win).Intersect(image.Rect(0, 0, s.w, s.h))
	root := strconv.FormatUint(uint64(s.root), 10)
	before := s.pixels(t, root, r)
	key(t, keys...)
	s.waitRedrawn(t, root, r, before)
}

// A saved reply through a real window and a real MCP client: Alt+R opens
// the Quick reply menu and its first entry goes into the reply box at the
// caret, after what was typed; nothing is sent until Ctrl+Enter, and the
// agent gets both (TestQuickReplyChipIsNoAnswer: the chips).
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
	noResult(t, "a quick reply chosen from the menu", res, time.Second)
	key(t, "ctrl+Return")
	if r := await(t, res); r.IsError || !strings.Contains(text(r), "yes: Looks good, continue") {
		t.Fatalf("result: %s", text(r))
	}
}
