package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// waylandOnlyEnv is a pure Wayland session as the X11 build sees it: a
// WAYLAND_DISPLAY, no DISPLAY (no XWayland), and no app running.
func waylandOnlyEnv(t *testing.T) []string {
	env := noGUIEnv(t)
	return append(env, "WAYLAND_DISPLAY=wayland-feedback-test")
}

// On Wayland without XWayland the X11 app exits at once with a message that
// names the Wayland build, instead of crashing in GLFW.
func TestWaylandOnlyAppExitsAtOnce(t *testing.T) {
	requireBinary(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), waylandOnlyEnv(t)...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the app ran on Wayland only: %s", out)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the app took %v to give up", d)
	}
	if !strings.Contains(string(out), "Wayland build") || strings.Contains(string(out), "panic") {
		t.Errorf("the app's message does not name the Wayland build:\n%s", out)
	}
}

// The shim does not start an app that cannot run there, nor wait 15 s for it:
// the agent gets the chat fallback at once, and the reason.
func TestWaylandOnlyShimFallsBackAtOnce(t *testing.T) {
	requireBinary(t)
	c := newMCP(t, "wayland-only", waylandOnlyEnv(t)...)
	start := time.Now()
	r := callNow(t, c, "interactive_feedback", map[string]any{"message": "Deploy now?"})
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the fallback took %v", d)
	}
	if sc := structured(t, r); sc["status"] != "needs_user_input" {
		t.Errorf("status = %v, want needs_user_input: %s", sc["status"], text(r))
	}
}
