package e2e

import (
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/screensaver"
	"github.com/jezek/xgb/xproto"
	"github.com/mark3labs/mcp-go/client"
)

// Keys typed elsewhere stay there: a question that arrives while the user
// types in another application opens without taking the keyboard: every key
// goes on to that application, the question's reply stays empty, and the
// question asks for attention (the urgency hint) until the user goes to it.
// However long the user has been idle, a question does not take the
// keyboard.

// editorWindow is another application's window that takes typed keys: an
// X client of the test's own (not the app's process) that counts the key
// presses it receives.
type editorWindow struct {
	id      string // as xdotool prints it
	presses atomic.Int64
}

// openEditor maps an editor window titled title and returns it; it goes
// with the test.
func openEditor(t *testing.T, title string) *editorWindow {
	t.Helper()
	c, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	screen := xproto.Setup(c).DefaultScreen(c)
	win, err := xproto.NewWindowId(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.CreateWindowChecked(c, screen.RootDepth, win, screen.Root, 0, 0, 500, 300, 0,
		xproto.WindowClassInputOutput, screen.RootVisual, xproto.CwBackPixel|xproto.CwEventMask,
		[]uint32{screen.WhitePixel, xproto.EventMaskKeyPress | xproto.EventMaskFocusChange}).Check(); err != nil {
		t.Fatal(err)
	}
	xproto.ChangeProperty(c, xproto.PropModeReplace, win, xproto.AtomWmName, xproto.AtomString, 8, uint32(len(title)), []byte(title))
	// WM_HINTS: input (flag 1) true, so the window manager gives it the keyboard.
	hints := make([]byte, 36)
	hints[0], hints[4] = 1, 1
	xproto.ChangeProperty(c, xproto.PropModeReplace, win, xproto.AtomWmHints, xproto.AtomWmHints, 32, 9, hints)
	xproto.MapWindow(c, win)
	e := &editorWindow{}
	go func() {
		for {
			ev, err := c.WaitForEvent()
			if ev == nil && err == nil {
				return
			}
			if _, ok := ev.(xproto.KeyPressEvent); ok {
				e.presses.Add(1)
			}
		}
	}()
	e.id = findWindow(t, title)
	// In a corner, clear of the question windows, which open centred: a
	// click on a question must not land on the editor.
	xdotool(t, "windowmove", "--sync", e.id, "0", "0")
	return e
}

// idleSince reads the X server's idle time (MIT-SCREEN-SAVER): how long
// since the last key or pointer input anywhere.
type idleClock struct {
	c    *xgb.Conn
	root xproto.Window
}

func newIdleClock(t *testing.T) *idleClock {
	t.Helper()
	c, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if err := screensaver.Init(c); err != nil {
		t.Skipf("no MIT-SCREEN-SAVER: %v", err)
	}
	return &idleClock{c: c, root: xproto.Setup(c).DefaultScreen(c).Root}
}

func (k *idleClock) idle(t *testing.T) time.Duration {
	t.Helper()
	info, err := screensaver.QueryInfo(k.c, xproto.Drawable(k.root)).Reply()
	if err != nil {
		t.Fatal(err)
	}
	return time.Duration(info.MsSinceUserInput) * time.Millisecond
}

// typist types lowercase words into the focused window, over and over,
// until stopped; one key press per character.
type typist struct {
	stopped chan struct{}
	done    sync.WaitGroup
	typed   atomic.Int64 // characters typed
	rounds  atomic.Int64
}

const typistText = "hello world from my editor "

func startTyping(t *testing.T) *typist {
	ty := &typist{stopped: make(chan struct{})}
	ty.done.Add(1)
	go func() {
		defer ty.done.Done()
		for {
			select {
			case <-ty.stopped:
				return
			default:
			}
			if out, err := xdo("type", "--delay", "30", typistText).CombinedOutput(); err != nil {
				t.Errorf("xdotool type: %v: %s", err, out)
				return
			}
			ty.typed.Add(int64(len(typistText)))
			ty.rounds.Add(1)
		}
	}()
	return ty
}

func (ty *typist) stop() { close(ty.stopped); ty.done.Wait() }

// wmHints is win's WM_HINTS as xprop prints them.
func wmHints(t *testing.T, win string) string {
	t.Helper()
	out, err := exec.Command("xprop", "-id", win, "WM_HINTS", "_NET_WM_STATE").CombinedOutput()
	if err != nil {
		t.Fatalf("xprop: %v: %s", err, out)
	}
	return string(out)
}

// The window is made as the question arrives (the session's app, no
// prewarm), or was made ahead, hidden: the shim's greeting started the
// app, whose UI process prepared it (e2e TestFirstQuestionFindsItsWindowReady).
func TestQuestionDoesNotTakeTheKeyboardFromAnotherApplication(t *testing.T) {
	requireSession(t)
	t.Run("new window", func(t *testing.T) {
		startApp(t)
		questionWhileTyping(t, newMCP(t, "focus-away"))
	})
	t.Run("window made ahead", func(t *testing.T) {
		stopApp()
		config, state := writeSettings(t, `{}`), "XDG_STATE_HOME="+t.TempDir()
		t.Cleanup(stopApp) // before the directories go: the app writes there as it ends
		c := newMCP(t, "focus-away", config, state, "FEEDBACK_UI_PREWARM=")
		var app int
		waitFor(t, "the app the client started", 20*time.Second, func() bool { app = appPID(); return app != 0 })
		preparedWindow(t, app, 20*time.Second)
		questionWhileTyping(t, c)
	})
}

func questionWhileTyping(t *testing.T, c *client.Client) {
	idle := newIdleClock(t)
	ed := openEditor(t, "Editor of the user")
	activate(t, ed.id)

	ty := startTyping(t)
	waitFor(t, "the typist to type a round", 10*time.Second, func() bool { return ty.rounds.Load() > 0 })
	title := "Which port should the dev server use?"
	ch := call(c, "ask_text", map[string]any{"question": title})
	q := findWindow(t, title+" — feedback")
	// The user goes on typing for two rounds more after the window is on screen.
	for end := ty.rounds.Load() + 2; ty.rounds.Load() < end; time.Sleep(50 * time.Millisecond) {
		if got := strings.TrimSpace(xdotool(t, "getactivewindow")); got == q {
			ty.stop()
			screenshot(t, shotName(t, "stolen"))
			t.Fatalf("the question's window %s took the keyboard while the user typed in another application", q)
		}
	}
	ty.stop()
	screenshot(t, shotName(t, "typing"))
	if got := strings.TrimSpace(xdotool(t, "getactivewindow")); got != ed.id {
		t.Errorf("the active window is %s, want the editor %s", got, ed.id)
	}
	waitFor(t, "the editor to receive every key typed", 5*time.Second, func() bool { return ed.presses.Load() == ty.typed.Load() })
	hints := wmHints(t, q)
	if !strings.Contains(hints, "urgency hint") && !strings.Contains(hints, "_NET_WM_STATE_DEMANDS_ATTENTION") {
		t.Errorf("the question's window asks for no attention:\n%s", hints)
	}
	if ed.presses.Load() != ty.typed.Load() {
		t.Errorf("the editor received %d of %d keys", ed.presses.Load(), ty.typed.Load())
	}

	// The user goes to the question: its reply box holds only what they type there.
	activate(t, q)
	time.Sleep(guardSettles)
	typeText(t, "8080")
	key(t, "ctrl+Return")
	wantChoice(t, await(t, ch), map[string]any{"status": "answered", "answer": "8080"})

	activeIs(t, ed.id) // answered, the keyboard is back in the editor

	// Idle for long: a question does not take the keyboard either (the
	// user pauses to think, then goes on where they were).
	waitFor(t, "the user to be idle", 15*time.Second, func() bool { return idle.idle(t) > 4*time.Second })
	title2 := "Restart the dev server now?"
	ch2 := call(c, "ask_confirm", map[string]any{"question": title2, "default": true})
	q2 := findWindow(t, title2+" — feedback")
	screenshot(t, shotName(t, "idle"))
	before := ed.presses.Load()
	key(t, "Return")
	waitFor(t, "the Return to reach the editor", 5*time.Second, func() bool { return ed.presses.Load() > before })
	stillWaiting(t, title2, ch2, time.Second)
	activate(t, q2)
	time.Sleep(guardSettles)
	key(t, "Return")
	wantChoice(t, await(t, ch2), map[string]any{"status": "answered", "answer": "yes", "confirmed": true})
}

// shotName names a screenshot of test t (a subtest's too).
func shotName(t *testing.T, what string) string {
	return strings.ReplaceAll(t.Name(), "/", "-") + "-" + what
}
