package e2e

import (
	"image"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// nineLines is an interactive_feedback message of nine lines at 1280x800
// and scale 1.5, the last one the ask.
const nineLines = "I finished the refactor of the session store. The old in-memory cache is gone; every read goes to SQLite directly, with prepared statements. " +
	"All 214 unit tests pass, and the 12 integration tests too. The migration adds an index on sessions(user_id) and drops the unused column last_seen_ip, which nothing has read since the move to the new audit log in March.\n\n" +
	"On the staging copy, with a dump of last week's production data, it took 40 seconds. Startup is 80 ms slower while the index warms up. " +
	"Nothing else in the public API changed; the two internal callers of the old cache now read through the store, and their tests were updated to match. " +
	"The changelog entry is written.\n\n" +
	"Should I go ahead?"

// nineLineOptions are its five options, one recommended, with descriptions.
func nineLineOptions() []any {
	return []any{
		map[string]any{"label": "Go ahead", "description": "Merge and deploy to staging", "default": true},
		map[string]any{"label": "Run the benchmarks first", "description": "About ten minutes"},
		map[string]any{"label": "Keep the cache for a release", "description": "Behind a flag"},
		map[string]any{"label": "Split the migration", "description": "Index in its own change"},
		map[string]any{"label": "Stop here", "description": "Leave the branch as it is"},
	}
}

// frameOf is a window's frame on the screen, the window manager's
// decorations included: the client window's (xwininfo) grown by its
// _NET_FRAME_EXTENTS (xprop).
func frameOf(t *testing.T, win string) image.Rectangle {
	t.Helper()
	out, err := exec.Command("xwininfo", "-id", win).Output()
	if err != nil {
		t.Fatalf("xwininfo: %v", err)
	}
	v := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		k, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if n, err := strconv.Atoi(strings.TrimSpace(val)); ok && err == nil {
			v[k] = n
		}
	}
	r := image.Rect(v["Absolute upper-left X"], v["Absolute upper-left Y"],
		v["Absolute upper-left X"]+v["Width"], v["Absolute upper-left Y"]+v["Height"])
	e := cardinals(t, "-id", win, "_NET_FRAME_EXTENTS") // left, right, top, bottom
	if len(e) == 4 {
		r.Min = r.Min.Sub(image.Pt(e[0], e[2]))
		r.Max = r.Max.Add(image.Pt(e[1], e[3]))
	}
	return r
}

// workArea is the root window's _NET_WORKAREA (the first desktop's).
func workArea(t *testing.T) image.Rectangle {
	t.Helper()
	e := cardinals(t, "-root", "_NET_WORKAREA")
	if len(e) < 4 {
		t.Fatalf("no _NET_WORKAREA: %v", e)
	}
	return image.Rect(e[0], e[1], e[0]+e[2], e[1]+e[3])
}

// cardinals reads a CARDINAL property with xprop (args name the window).
func cardinals(t *testing.T, args ...string) []int {
	t.Helper()
	out, err := exec.Command("xprop", args...).Output()
	if err != nil {
		t.Fatalf("xprop %v: %v", args, err)
	}
	_, vals, ok := strings.Cut(string(out), "=")
	if !ok {
		return nil
	}
	var ns []int
	for _, f := range strings.Split(vals, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			ns = append(ns, n)
		}
	}
	return ns
}

// The question window's whole frame, its title bar included, stays
// inside the work area less the 48 px margin, and a window whose content
// needs more height takes all of it: the first window too, sized before
// any frame was seen (with a guess), which grows once its frame is known.
// With the window manager's title bar uncounted the tallest window sits
// ~23 px into the bottom margin. It also shows the nine-line question
// (nineLines) at the screen's size (screenshot "ask-in-view": run it with
// XSESSION_SCREEN=1280x800 too).
func TestFrameStaysInTheWorkArea(t *testing.T) {
	requireSession(t)
	startApp(t, "FYNE_SCALE=1.5")
	c := newMCP(t, "workarea")
	inner := workArea(t).Inset(48)

	// The first window: sized with a guess for its frame.
	res := call(c, "interactive_feedback", map[string]any{"message": strings.Repeat("A line of the message.\n\n", 120) + "Should I go ahead?",
		"header_label": "Tall", "predefined_options": nineLineOptions()})
	win := findWindow(t, "Tall — feedback")
	fr := frameOf(t, win)
	for deadline := time.Now().Add(5 * time.Second); fr.Dy() < inner.Dy()-1 && time.Now().Before(deadline); fr = frameOf(t, win) {
		time.Sleep(50 * time.Millisecond) // polls the frame's height: it grows once the frame is known
	}
	_, _, w, h := geometry(t, win)
	waitPainted(t, win, w, h)
	screenshot(t, "tall-frame")
	fr = frameOf(t, win)
	if !fr.In(inner) {
		t.Errorf("the tallest window's frame %v leaves the work area less 48 px %v (by %d px at the bottom)", fr, inner, fr.Max.Y-inner.Max.Y)
	}
	if fr.Dy() < inner.Dy()-1 {
		t.Errorf("the tallest window's frame is %d high, want the %d the work area leaves", fr.Dy(), inner.Dy())
	}
	activate(t, win)
	key(t, "Escape")
	await(t, res)

	res = call(c, "interactive_feedback", map[string]any{"message": nineLines, "header_label": "Nine", "predefined_options": nineLineOptions()})
	win = findWindow(t, "Nine — feedback")
	_, _, w, h = geometry(t, win)
	waitPainted(t, win, w, h)
	screenshot(t, "ask-in-view")
	if fr := frameOf(t, win); !fr.In(inner) {
		t.Errorf("the nine-line question's frame %v leaves the work area less 48 px %v", fr, inner)
	}
	activate(t, win)
	key(t, "Escape")
	await(t, res)
}
