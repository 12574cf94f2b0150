package e2e

import (
	"fmt"
	"image"
	"strings"
	"testing"
	"time"
)

// The question every subtest asks: a message with a table, and options,
// so that the Sending line ("Sending: Yes") shows, by Submit where it fits.
var sameFitQuestion = map[string]any{
	"message":            "Deploy the **staging** build now?\n\n| Check | Result |\n|---|---|\n| unit tests | 214 passed |\n| integration | 12 passed |\n",
	"header_label":       "Same",
	"predefined_options": []any{map[string]any{"label": "Yes", "default": true}, "No"},
}

// The first question window opens at the height its content needs, the
// height the same question opens at when asked again (in the window the
// first asking left hidden in the pool): no empty band under its options.
// Before the fix the first window, new or prepared by the UI process,
// counted the Sending line's row, which the line, by Submit, does not
// take: 480 px against 444, a 36 px band between the options and the
// reply box. Run it on a 1024x768 screen too: XSESSION_SCREEN=1024x768.
func TestSameQuestionOpensAtTheSameHeight(t *testing.T) {
	requireSession(t)
	for _, tc := range []struct {
		name    string
		scale   float64
		env     []string
		prepare bool // the UI process prepares its first window before the question (Pool.Warm)
	}{
		{"new window", 1, nil, false},
		{"prepared window", 1, []string{"FEEDBACK_UI_PREWARM="}, true},
		{"new window scale 1.5", 1.5, []string{"FYNE_SCALE=1.5"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := tc.env
			if tc.prepare {
				env = append(env, writeSettings(t, `{}`)) // "ui_prewarm": on, the default
			}
			startApp(t, env...)
			c := newMCP(t, "samefit", env...) // its greeting has the app prepare a window, when on
			if tc.prepare {
				preparedWindow(t, appPID(), 20*time.Second) // prewarm_test.go
			}
			var heights []int
			for i := range 2 {
				res := call(c, "interactive_feedback", sameFitQuestion)
				win := findWindow(t, "Same — feedback")
				_, _, w, h := geometry(t, win)
				waitPainted(t, win, w, h)
				screenshot(t, fmt.Sprintf("samefit-%s-%d", strings.ReplaceAll(tc.name, " ", "-"), i+1))
				heights = append(heights, h)
				if band := blankBand(t, win, w, h); float64(band) > 30*tc.scale {
					t.Errorf("asking %d: the %dx%d window has %d blank rows in a row, want at most %.0f: an empty band", i+1, w, h, band, 30*tc.scale)
				}
				activate(t, win)
				key(t, "Escape")
				await(t, res)
				windowGone(t, "Same — feedback", 10*time.Second)
			}
			if heights[0] != heights[1] {
				t.Errorf("the same question opened %d px high, then %d px: want the same height", heights[0], heights[1])
			}
		})
	}
}

// blankBand is the tallest run of rows of win (w×h) that show nothing but
// the window's background, its left and right 16 px (a pane's scrollbar)
// left out: the gap between two things the window shows.
func blankBand(t *testing.T, win string, w, h int) int {
	t.Helper()
	px := openScreen(t).pixels(t, win, image.Rect(0, 0, w, h)) // BGRX
	at := func(x, y int) [3]byte { i := (y*w + x) * 4; return [3]byte{px[i], px[i+1], px[i+2]} }
	bg := at(w-2, h/2) // the window's right padding: background
	best, run := 0, 0
	for y := 0; y < h; y++ {
		blank := true
		for x := 16; x < w-16 && blank; x++ {
			blank = at(x, y) == bg
		}
		if blank {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	t.Logf("background %v, the tallest blank band %d rows", bg, best)
	return best
}
