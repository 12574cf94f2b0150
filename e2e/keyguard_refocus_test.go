package e2e

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
)

// The keyboard belongs to the decision: the input guard covers every moment
// a window takes the keyboard, not only its first opening. The user answers
// window Y; the window manager hands the keyboard back to window X; a key
// meant for Y (a second Enter, a Ctrl+Enter pressed twice) lands in X a
// quarter of a second later. It must not answer X: X waits, and answers
// when the user answers it deliberately.

// guardMS is the input guard of these tests: the app's default.
const guardMS = "600"

// guardSettles is how long after a window took the keyboard a key of the
// user's counts: the guard's time and a margin for a slow machine. It is the
// rule under test, not a wait for an event: nothing outside the app shows
// when the guard ends.
const guardSettles = 800 * time.Millisecond

// strayAfter is how long after the key that answered Y the stray key lands:
// a quarter of a second, as seen on a desktop.
const strayAfter = 250 * time.Millisecond

// activeIs waits until the window manager has made win the active window.
func activeIs(t *testing.T, win string) {
	t.Helper()
	waitFor(t, "window "+win+" to become the active window", 5*time.Second, func() bool {
		out, err := xdo("getactivewindow").Output()
		return err == nil && string(out) == win+"\n"
	})
}

// stillWaiting fails the test if the call on ch has returned within d:
// nothing the user meant for it happened. The wait is the point: it proves
// that no answer arrives late.
func stillWaiting(t *testing.T, what string, ch <-chan callResult, d time.Duration) {
	t.Helper()
	select {
	case r := <-ch:
		var got string
		if r.res != nil {
			got = text(r.res)
		}
		t.Fatalf("%s was answered by a key not meant to answer it: %s %v", what, got, r.err)
	case <-time.After(d):
	}
}

// answerThenStray has the user work in another application, opens x
// (asked first), does inX in it (nil: nothing), opens y, answers y with
// answerY after its guard, checks that the keyboard goes back to the
// application the user came from (never on to x), presses stray
// strayAfter after the answer, and checks that x is still waiting and the
// key went to the application. It returns x's call and window.
func answerThenStray(t *testing.T, c1, c2 callArgs, inX func(wx string), answerY func(), stray string) (x, y <-chan callResult, wx string) {
	t.Helper()
	ed := openEditor(t, "Terminal of the user "+c1.tool) // focusaway_test.go
	activate(t, ed.id)
	x = call(c1.c, c1.tool, c1.args)
	wx = findWindow(t, c1.title+" — feedback")
	activate(t, wx)
	if inX != nil {
		inX(wx)
	}
	y = call(c2.c, c2.tool, c2.args)
	wy := findWindow(t, c2.title+" — feedback")
	activate(t, wy)
	time.Sleep(guardSettles) // the user reads Y, then answers it
	answerY()
	answered := time.Now()
	activeIs(t, ed.id) // the keyboard goes back to the application, not on to X
	if d := time.Until(answered.Add(strayAfter)); d > 0 {
		time.Sleep(d) // the stray key lands strayAfter after the answer
	} else {
		t.Logf("the keyboard came back to the application %v after the answer", time.Since(answered))
	}
	before := ed.presses.Load()
	key(t, stray)
	screenshot(t, "keyguard-refocus-"+c1.tool)
	waitFor(t, "the stray key to reach the application", 5*time.Second, func() bool { return ed.presses.Load() > before })
	if got := strings.TrimSpace(xdotool(t, "getactivewindow")); got == wx {
		t.Errorf("the keyboard went on to X (%s)", wx)
	}
	stillWaiting(t, c1.title, x, 1500*time.Millisecond)
	return x, y, wx
}

// callArgs is one tool call and the title of its window.
type callArgs struct {
	c     *client.Client
	tool  string
	args  map[string]any
	title string
}

// clickMessage clicks the message of the window win, as a user does to
// come to a window: the reply box lets the keyboard go (Fyne unfocuses it),
// and nothing in the window has it.
func clickMessage(win string) {
	xdo("mousemove", "--window", win, "400", "100", "click", "1").Run()
}

// A stray Ctrl+Enter lands in a text question that got the keyboard back:
// it is not submitted empty. The user had clicked its message, so its
// reply box does not have the keyboard (the reply box arms the guard as it
// gets the keyboard back: the case the guard missed is the window where it
// does not have it).
func TestStrayCtrlEnterAfterAnsweringAnotherWindow(t *testing.T) {
	requireSession(t)
	startApp(t, "FEEDBACK_INPUT_GUARD_MS="+guardMS)
	c := newMCP(t, "refocus-text")
	xTitle, yTitle := "Name the release branch", "Push the release tag now?"
	x, y, wx := answerThenStray(t,
		callArgs{c, "ask_text", map[string]any{"question": xTitle}, xTitle},
		callArgs{c, "ask_confirm", map[string]any{"question": yTitle, "default": true}, yTitle},
		clickMessage, func() { key(t, "Return") }, "ctrl+Return")
	wantChoice(t, await(t, y), map[string]any{"status": "answered", "answer": "yes", "confirmed": true})
	// X answers when the user answers it: they click its reply box and type.
	activate(t, wx)
	_, _, w, h := geometry(t, wx)
	// The reply box: above the buttons and the line that says an empty
	// reply cannot be sent.
	xdotool(t, "mousemove", "--window", wx, strconv.Itoa(w/2), strconv.Itoa(h-112), "click", "1")
	time.Sleep(guardSettles)
	typeText(t, "release/2.5")
	key(t, "ctrl+Return")
	wantChoice(t, await(t, x), map[string]any{"status": "answered", "answer": "release/2.5"})
}

// A stray Enter lands in a yes/no question that got the keyboard back: it
// does not answer the recommended yes to "force-push to main?".
func TestStrayEnterAfterAnsweringAnotherWindow(t *testing.T) {
	requireSession(t)
	startApp(t, "FEEDBACK_INPUT_GUARD_MS="+guardMS)
	c := newMCP(t, "refocus-confirm")
	xTitle, yTitle := "Force-push to main?", "What should the binary be called?"
	x, y, wx := answerThenStray(t,
		callArgs{c, "ask_confirm", map[string]any{"question": xTitle, "default": true}, xTitle},
		callArgs{c, "ask_text", map[string]any{"question": yTitle}, yTitle},
		nil, func() { typeText(t, "fbk"); key(t, "ctrl+Return") }, "Return")
	wantChoice(t, await(t, y), map[string]any{"status": "answered", "answer": "fbk"})
	activate(t, wx)
	time.Sleep(guardSettles)
	key(t, "Return")
	wantChoice(t, await(t, x), map[string]any{"status": "answered", "answer": "yes", "confirmed": true})
}

// windowImage is window win as drawn now.
func windowImage(t *testing.T, win string) image.Image {
	t.Helper()
	out, err := exec.Command("import", "-window", win, "png:-").Output()
	if err != nil {
		t.Fatalf("import -window %s: %v", win, err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// primaryBox is the bounding box of the primary button's fill (the
// theme's blue) in the lower third of img: in a yes/no window, the
// recommended answer's button.
func primaryBox(img image.Image) image.Rectangle {
	b := img.Bounds()
	var box image.Rectangle
	for y := b.Max.Y - b.Dy()/3; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 < 80 && g>>8 >= 80 && g>>8 <= 150 && bl>>8 > 200 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// wcag is the WCAG contrast ratio of two colours.
func wcag(a, b color.Color) float64 {
	lum := func(c color.Color) float64 {
		r, g, bl, _ := c.RGBA()
		lin := func(v uint32) float64 {
			s := float64(v) / 0xffff
			if s <= 0.03928 {
				return s / 12.92
			}
			return math.Pow((s+0.055)/1.055, 2.4)
		}
		return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(bl)
	}
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// ringOutside measures the focus ring on one side of box in img: walking
// outwards from the box's edge along the middle of the side (dx, dy), the
// pixels close to the background bg (the gap), then the run that reaches
// 3:1 against it (the ring).
func ringOutside(img image.Image, box image.Rectangle, dx, dy int, bg color.Color) (gap, run int) {
	x, y := (box.Min.X+box.Max.X)/2, (box.Min.Y+box.Max.Y)/2
	switch {
	case dx < 0:
		x = box.Min.X - 1
	case dx > 0:
		x = box.Max.X
	case dy < 0:
		y = box.Min.Y - 1
	default:
		y = box.Max.Y
	}
	for i := 0; i < 16 && (image.Point{x, y}).In(img.Bounds()); i, x, y = i+1, x+dx, y+dy {
		switch c := wcag(img.At(x, y), bg); {
		case c >= 3:
			run++
		case run > 0:
			return gap, run
		case c < 1.5:
			gap++
		}
	}
	return gap, run
}

// ask_confirm with yes recommended opens with the keyboard on Yes, and it
// is seen: in the window as drawn, dark and light, at scale 1 and 1.5, the
// primary button is outlined on its four sides by a ring of 2 px or more at
// 3:1 or more against the window's background, apart from the button.
// Enter, pressed once the guard is over, answers yes. Screenshots
// yesno-focus-*.
func TestYesNoOpensOnTheRecommendedButton(t *testing.T) {
	requireSession(t)
	for _, look := range []struct{ theme, scale string }{{"dark", "1"}, {"light", "1"}, {"dark", "1.5"}, {"light", "1.5"}} {
		name := look.theme + "-scale" + look.scale
		t.Run(name, func(t *testing.T) {
			startApp(t, "FEEDBACK_INPUT_GUARD_MS="+guardMS, "FYNE_THEME="+look.theme, "FYNE_SCALE="+look.scale)
			c := newMCP(t, "yesno-focus")
			title := "Force-push to main? (" + name + ")"
			res := call(c, "ask_confirm", map[string]any{"question": title, "default": true})
			win := findWindow(t, title+" — feedback")
			_, _, w, h := geometry(t, win)
			waitPainted(t, win, w, h)
			activate(t, win)
			time.Sleep(guardSettles) // the user reads it; the top bar's flash fades
			windowShot(t, win, "yesno-focus-"+name)
			img := windowImage(t, win)
			box := primaryBox(img)
			if box.Dx() < 20 || box.Dy() < 10 {
				t.Fatalf("no primary button found (%v)", box)
			}
			bg := img.At(img.Bounds().Min.X+1, img.Bounds().Max.Y-2) // the window's padding
			for _, side := range []struct {
				name   string
				dx, dy int
			}{{"left", -1, 0}, {"right", 1, 0}, {"top", 0, -1}, {"bottom", 0, 1}} {
				if gap, run := ringOutside(img, box, side.dx, side.dy, bg); run < 2 || gap < 1 {
					t.Errorf("%s of Yes: a ring of %d px after a gap of %d px, want 2 px or more apart from the button", side.name, run, gap)
				}
			}
			key(t, "Return")
			wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "yes", "confirmed": true})
		})
	}
}

// ask_confirm without a recommendation: no button has the keyboard, and
// Enter, even once the guard is over, answers nothing (a submit without a
// choice would decline the question for the user); Alt+N answers no.
// Screenshot yesno-no-recommendation.
func TestYesNoWithoutRecommendationEnterAnswersNothing(t *testing.T) {
	requireSession(t)
	startApp(t, "FEEDBACK_INPUT_GUARD_MS="+guardMS)
	c := newMCP(t, "yesno-none")
	title := "Rebase onto main?"
	res := call(c, "ask_confirm", map[string]any{"question": title})
	win := findWindow(t, title+" — feedback")
	activate(t, win)
	time.Sleep(guardSettles)
	windowShot(t, win, "yesno-no-recommendation")
	if box := primaryBox(windowImage(t, win)); !box.Empty() {
		t.Errorf("a primary button at %v in a window that recommends nothing", box)
	}
	key(t, "Return")
	stillWaiting(t, title, res, 1500*time.Millisecond)
	key(t, "alt+n")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "no", "confirmed": false})
}
