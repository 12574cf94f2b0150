package e2e

import (
	"strings"
	"testing"
	"time"
)

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
	key(t, "alt+r")
	time.Sleep(300 * time.Millisecond)
	screenshot(t, "quick-reply-menu")
	key(t, "Down", "Return")
	key(t, "ctrl+Return")
	if r := await(t, res); r.IsError || !strings.Contains(text(r), "yes:\nLooks good, continue") {
		t.Fatalf("result: %s", text(r))
	}
}
