package mcpshim

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// Claude Code reads the rule "Always allow" saved about a second later:
// an identical call made meanwhile is allowed at once, without a window
// (the user's answer stands), while another call is asked, and once the
// hold is over the identical call is asked again (the rule in the file
// decides from then on, or the user, if they took it out).
func TestPermissionPromptAlwaysStands(t *testing.T) {
	defer func(h time.Duration) { alwaysHold = h }(alwaysHold)
	alwaysHold = 600 * time.Millisecond
	app := newFakeInbox()
	asked := 0
	app.auto = func(q wire.Question) wire.Answer {
		asked++
		return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{q.Prompts[0].Options[1].Label}}}}
	}
	c, _ := startShimAt(t, Options{Connect: connectTo(app), Dir: t.TempDir()}, testProtocolVersion, "claude-code")
	decide := func(cmd string) string {
		t.Helper()
		res, err := callCtx(context.Background(), c, "permission_prompt", map[string]any{"tool_name": "Bash", "input": map[string]any{"command": cmd}, "tool_use_id": "toolu_01"})
		if err != nil || res.IsError {
			t.Fatalf("%+v %v", res, err)
		}
		var v map[string]any
		json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &v)
		b, _ := v["behavior"].(string)
		return b
	}
	if b := decide("npm test"); b != "allow" || asked != 1 {
		t.Fatalf("always: %s, asked %d", b, asked)
	}
	if b := decide("npm test"); b != "allow" || asked != 1 {
		t.Errorf("the identical call at once: %s, asked %d times (want 1)", b, asked)
	}
	if decide("npm run lint"); asked != 2 {
		t.Errorf("another call was not asked (asked %d)", asked)
	}
	time.Sleep(700 * time.Millisecond)
	if decide("npm test"); asked != 3 {
		t.Errorf("after the hold the call was not asked (asked %d)", asked)
	}
}
