package e2e

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/app/store"
	"feedback/ipc/wire"
)

// Many questions at once: a new window never takes the keyboard from the
// window the user types in, Ctrl+PageDown/Up move between open windows, and
// concurrent windows cascade.

// activeWindow is the window the window manager says is active, or "".
func activeWindow() string {
	out, err := xdo("getactivewindow").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// waitActive waits until win is the active window.
func waitActive(t *testing.T, win, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for activeWindow() != win {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the active window is %s, want %s", what, activeWindow(), win)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// askedAttention waits until win, a question's window that opened without
// the focus, asks for the user's attention: dialogs/place.go sets that
// once the focus is back with the window the user was in.
func askedAttention(t *testing.T, win string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if strings.Contains(xprop(t, win, "_NET_WM_STATE"), "_NET_WM_STATE_DEMANDS_ATTENTION") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("window %s does not ask for attention (the active window is %s)", win, activeWindow())
		}
	}
}

// xprop reads a property of win with xprop.
func xprop(t *testing.T, win, prop string) string {
	t.Helper()
	out, err := exec.Command("xprop", "-id", win, prop).CombinedOutput()
	if err != nil {
		t.Fatalf("xprop %s: %v: %s", prop, err, out)
	}
	return string(out)
}

// frame is win's frame on screen: the client window's rectangle in root
// coordinates, grown by the extents the window manager gives its frame
// (_NET_FRAME_EXTENTS). (xdotool getwindowgeometry adds the client's
// offset inside the frame to its position once more.)
func (s *xscreen) frame(t *testing.T, win string) image.Rectangle {
	t.Helper()
	id, err := strconv.ParseUint(win, 10, 32)
	if err != nil {
		t.Fatalf("window id %q: %v", win, err)
	}
	w := xproto.Window(id)
	g, err := xproto.GetGeometry(s.x, xproto.Drawable(w)).Reply()
	if err != nil {
		t.Fatalf("GetGeometry: %v", err)
	}
	tr, err := xproto.TranslateCoordinates(s.x, w, s.root, 0, 0).Reply()
	if err != nil {
		t.Fatalf("TranslateCoordinates: %v", err)
	}
	r := image.Rect(int(tr.DstX), int(tr.DstY), int(tr.DstX)+int(g.Width), int(tr.DstY)+int(g.Height))
	p, err := xproto.GetProperty(s.x, false, w, s.intern("_NET_FRAME_EXTENTS"), xproto.AtomCardinal, 0, 4).Reply()
	if err == nil && p.Format == 32 && p.ValueLen == 4 {
		e := make([]int, 4) // left, right, top, bottom
		for i := range e {
			e[i] = int(binary.LittleEndian.Uint32(p.Value[4*i:]))
		}
		r = image.Rect(r.Min.X-e[0], r.Min.Y-e[2], r.Max.X+e[1], r.Max.Y+e[3])
	}
	return r
}

func abs(n int) int { return max(n, -n) }

// stacking is the windows the window manager manages, bottom to top
// (_NET_CLIENT_LIST_STACKING), as xdotool's decimal ids.
func stacking(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("xprop", "-root", "_NET_CLIENT_LIST_STACKING").CombinedOutput()
	if err != nil {
		t.Fatalf("xprop: %v: %s", err, out)
	}
	_, list, _ := strings.Cut(string(out), "#")
	var ids []string
	for _, f := range strings.Split(list, ",") {
		if n, err := strconv.ParseUint(strings.TrimSpace(f), 0, 32); err == nil {
			ids = append(ids, strconv.FormatUint(n, 10))
		}
	}
	return ids
}

// above reports whether win a is stacked above win b.
func above(t *testing.T, a, b string) bool {
	t.Helper()
	ia, ib := -1, -1
	for i, id := range stacking(t) {
		switch id {
		case a:
			ia = i
		case b:
			ib = i
		}
	}
	if ia < 0 || ib < 0 {
		t.Fatalf("windows %s, %s not both in the stacking order %v", a, b, stacking(t))
	}
	return ia > ib
}

// A question arriving while the user types in another question's window
// opens without the keyboard: the rest of the sentence lands in the window
// the user was typing in, the new one asks for attention, and it gets the
// keyboard only when the user moves there (Ctrl+PageDown).
//
// Both ways a window opens: Fyne creating a native window (the window
// manager focuses it as it maps it, and the focus is given back while the
// keys are held for the window the user types in), and a hidden window of
// the pool shown again (it is mapped asking not to be focused).
func TestNewQuestionKeepsOffTheKeyboard(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	t.Run("new window", func(t *testing.T) { typeWhileAnotherArrives(t, "New") })
	// Two windows answered: the next two questions reuse them.
	for i := range 2 {
		q := textQuestion(fmt.Sprint("Warm", i))
		ch, _ := askApp(t, q)
		activate(t, findWindow(t, q.Title+" — feedback"))
		key(t, "Escape")
		awaitAsk(t, ch)
	}
	t.Run("reused window", func(t *testing.T) { typeWhileAnotherArrives(t, "Reused") })
}

func typeWhileAnotherArrives(t *testing.T, name string) {
	a, b := textQuestion(name+"TypingA"), textQuestion(name+"ArrivesB")
	cha, _ := askApp(t, a)
	wa := findWindow(t, a.Title+" — feedback")
	activate(t, wa)
	typeText(t, "I was saying ")

	// The rest of the sentence is typed while B arrives.
	rest := "that the new window must wait its turn."
	typing := xdo("type", "--delay", "40", rest)
	if err := typing.Start(); err != nil {
		t.Fatal(err)
	}
	chb, _ := askApp(t, b)
	wb := findWindow(t, b.Title+" — feedback")
	if err := typing.Wait(); err != nil {
		t.Fatalf("xdotool type: %v", err)
	}
	if got := activeWindow(); got != wa {
		t.Errorf("after B opened the active window is %s, want A (%s); B is %s", got, wa, wb)
	}
	if st := xprop(t, wb, "_NET_WM_STATE"); !strings.Contains(st, "_NET_WM_STATE_DEMANDS_ATTENTION") {
		t.Errorf("B does not ask for attention: %s", st)
	}
	if !above(t, wa, wb) {
		t.Errorf("B opened over A, the window the user types in: %v", stacking(t))
	}
	screenshot(t, "typing-keeps-focus-"+strings.ToLower(name))

	// Ctrl+PageDown moves to B, which takes typing from then on.
	key(t, "ctrl+Next")
	waitActive(t, wb, "Ctrl+PageDown from A")
	typeText(t, "b")
	key(t, "ctrl+Return")
	if r := awaitAsk(t, chb); r.err != nil || r.a.Status != wire.StatusAnswered || r.a.Replies[0].Text != "b" {
		t.Fatalf("B's answer: %+v, %v (want exactly \"b\": nothing of A's sentence)", r.a, r.err)
	}
	activate(t, wa)
	key(t, "ctrl+Return")
	if r := awaitAsk(t, cha); r.err != nil || r.a.Status != wire.StatusAnswered || r.a.Replies[0].Text != "I was saying "+rest {
		t.Fatalf("A's answer: %+v, %v (want the whole sentence)", r.a, r.err)
	}
}

// A window that asked for attention and ended unseen (its agent withdrew
// it) keeps nothing of it when the pool shows it again: the next question
// asks for attention (every question does) and stops once the user came
// to it.
func TestReusedWindowForgetsItsUrgency(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	a, b := textQuestion("UrgentA"), textQuestion("UrgentB")
	cha, _ := askApp(t, a)
	wa := findWindow(t, a.Title+" — feedback")
	activate(t, wa)
	typeText(t, "busy")
	_, cancelB := askApp(t, b)
	wb := findWindow(t, b.Title+" — feedback")
	// The focus comes back to A first, then B asks for attention.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st := xprop(t, wb, "_NET_WM_STATE")
		if strings.Contains(st, "_NET_WM_STATE_DEMANDS_ATTENTION") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("B does not ask for attention: %s", st)
		}
	}
	cancelB()
	windowGone(t, b.Title+" — feedback", 5*time.Second)
	key(t, "ctrl+Return")
	awaitAsk(t, cha)
	// The next two questions take the two hidden windows.
	for _, name := range []string{"CalmC", "CalmD"} {
		q := textQuestion(name)
		_, cancel := askApp(t, q)
		w := findWindow(t, q.Title+" — feedback")
		askedAttention(t, w)
		// The user comes to it with the shortcut. (No other application's
		// window is on screen here: the window manager may have given it
		// the keyboard as the last one closed, which is not the user
		// coming to it, and a click on a window that has the keyboard
		// already is not seen.)
		key(t, "ctrl+alt+f")
		activeIs(t, w)
		waitFor(t, name+" to stop asking for attention", 5*time.Second, func() bool {
			return !strings.Contains(xprop(t, w, "_NET_WM_STATE"), "DEMANDS_ATTENTION") && !strings.Contains(xprop(t, w, "WM_HINTS"), "urgency")
		})
		cancel()
		windowGone(t, q.Title+" — feedback", 5*time.Second)
	}
}

// Coming back to an open question, as an agent polling ask_human_result
// does (an attach-only ask) or a call made again after a "call again"
// result (the same id), neither raises its window nor takes the keyboard:
// the window the user is in stays active and on top.
func TestReattachLeavesTheKeyboardAlone(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	polled := textQuestion("Polled")
	ch, _ := askAppAs(t, wire.Ask{Question: polled, Wait: 200 * time.Millisecond})
	if r := awaitAsk(t, ch); !errors.Is(r.err, wire.ErrPending) {
		t.Fatalf("the first ask: %+v, %v; want pending", r.a, r.err)
	}
	wp := findWindow(t, polled.Title+" — feedback")
	activate(t, wp) // the user is in it
	other := textQuestion("InUse")
	cho, _ := askApp(t, other)
	wo := findWindow(t, other.Title+" — feedback")
	// The new window opens without the focus, which goes back to the polled
	// one. Only once that is done does the user move to the new one:
	// sooner, the give-back could land after the activation.
	askedAttention(t, wo)
	activate(t, wo)
	if !above(t, wo, wp) {
		t.Fatalf("the window in use is not on top: %v", stacking(t))
	}
	for _, attach := range []bool{true, false} {
		ch, _ := askAppAs(t, wire.Ask{Question: polled, Wait: 200 * time.Millisecond, AttachOnly: attach})
		if r := awaitAsk(t, ch); !errors.Is(r.err, wire.ErrPending) {
			t.Fatalf("attach-only %v: %+v, %v; want pending", attach, r.a, r.err)
		}
		if got := activeWindow(); got != wo {
			t.Errorf("attach-only %v: the active window is %s, want %s (the one in use); the polled one is %s", attach, got, wo, wp)
		}
		if !above(t, wo, wp) {
			t.Errorf("attach-only %v: the polled window was raised: %v", attach, stacking(t))
		}
	}
	key(t, "Escape")
	awaitAsk(t, cho)
	ch, _ = askAppAs(t, wire.Ask{Question: polled})
	activate(t, wp)
	key(t, "Escape")
	if r := awaitAsk(t, ch); r.err != nil || r.a.Status != wire.StatusDismissed {
		t.Errorf("closing the polled question: %+v, %v", r.a, r.err)
	}
}

// Ctrl+PageDown and Ctrl+PageUp move the keyboard between the open
// questions in the order they opened, wrapping around. The user comes to
// the first; the others open behind it and leave it the keyboard.
func TestCycleShortcutMovesTheKeyboard(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	var wins []string
	var chs []<-chan asked
	for i := range 3 {
		q := textQuestion(fmt.Sprintf("Cycle%d", i+1))
		ch, _ := askApp(t, q)
		chs = append(chs, ch)
		wins = append(wins, findWindow(t, q.Title+" — feedback"))
		if i == 0 {
			activate(t, wins[0])
		}
		waitActive(t, wins[0], "the first question, with the focus while the others open")
	}
	for _, step := range []struct {
		key  string
		want int
	}{{"ctrl+Next", 1}, {"ctrl+Next", 2}, {"ctrl+Next", 0}, {"ctrl+Prior", 2}} {
		key(t, step.key)
		waitActive(t, wins[step.want], step.key)
	}
	for i, w := range wins {
		activate(t, w)
		typeText(t, fmt.Sprint(i+1))
		key(t, "ctrl+Return")
		if r := awaitAsk(t, chs[i]); r.err != nil || r.a.Replies[0].Text != fmt.Sprint(i+1) {
			t.Errorf("window %d: %+v, %v", i+1, r.a, r.err)
		}
	}
}

// Five questions at once: each window's frame steps CascadeStep (32 px)
// right and down off the last one's, all inside the screen (an axis that
// would leave it starts again at its edge); none sits on another.
func TestFiveWindowsCascade(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	scr := openScreen(t)
	screen := image.Rect(0, 0, scr.w, scr.h) // openbox's work area: no panels here
	var frames []image.Rectangle
	var cancels []func()
	for i := range 5 {
		q := textQuestion(fmt.Sprintf("Cascade%d", i+1))
		q.Client = "claude-code"
		q.Project = "feedback"
		_, cancel := askApp(t, q)
		cancels = append(cancels, cancel)
		w := findWindow(t, q.Title+" — feedback")
		var f image.Rectangle
		placed := func() bool {
			f = scr.frame(t, w)
			if i == 0 { // centred (a window shown again from the pool too)
				c := f.Min.Add(f.Max).Div(2)
				return abs(c.X-scr.w/2) <= 1 && abs(c.Y-scr.h/2) <= 1
			}
			// 32 px on from the last, or back at an edge it would cross.
			want := frames[i-1].Min.Add(image.Pt(32, 32))
			if want.X+f.Dx() > scr.w {
				want.X = 0
			}
			if want.Y+f.Dy() > scr.h {
				want.Y = 0
			}
			return f.Min == want
		}
		// The window manager maps the window, then moves it: wait for the move.
		deadline := time.Now().Add(5 * time.Second)
		for !placed() && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		switch {
		case i == 0 && !placed():
			t.Errorf("the first window's frame %v is not centred on the %v screen", f, screen.Max)
		case i > 0 && !placed():
			t.Errorf("window %d's frame at %v: not a cascade step from window %d's at %v", i+1, f.Min, i, frames[i-1].Min)
		}
		for j, o := range frames {
			if o.Min == f.Min {
				t.Errorf("window %d sits exactly on window %d at %v", i+1, j+1, f.Min)
			}
		}
		if !f.In(screen) {
			t.Errorf("window %d's frame %v leaves the screen %v", i+1, f, screen)
		}
		frames = append(frames, f)
	}
	t.Logf("frames: %v", frames)
	last := findWindow(t, "Cascade5 — feedback")
	_, _, lw, lh := geometry(t, last)
	waitPainted(t, last, lw, lh)
	screenshot(t, "five-windows")
	for _, c := range cancels {
		c()
	}
}

// storedQuestion finds, in the app's database, the question whose title
// contains title, waiting for the app's writer to get there.
func storedQuestion(t *testing.T, title string) wire.Question {
	t.Helper()
	dir := ""
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "XDG_DATA_HOME="); ok {
			dir = v
		}
	}
	path := filepath.Join(dir, "feedback", "feedback.db")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if s, err := store.OpenReadOnly(path); err == nil {
			entries, err := s.Find(store.Filter{Search: title})
			s.Close()
			if err == nil {
				for _, e := range entries {
					if e.Question.Title == title {
						return e.Question
					}
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no question titled %q in %s", title, path)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// rootsHandler lists one root, as an editor lists its workspace.
type rootsHandler string

func (r rootsHandler) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: string(r)}}}, nil
}

// Through real shims: the window names the MCP client and the project,
// from interactive_feedback's project_directory or from the client's roots
// (the screenshot who-asks shows the context bars: "From claude-code ·
// Project website · Open 1 of 2 · Ctrl+PgDn").
func TestWindowSaysWhoAsks(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	a := newMCP(t, "claude-code")
	b := newMCPClient(t, "cursor", []client.ClientOption{client.WithRootsHandler(rootsHandler("file:///home/ann/src/feedback"))})
	ra := call(a, "interactive_feedback", map[string]any{"message": "Ship the site?", "header_label": "WhoA",
		"project_directory": "/home/ann/src/website/"})
	wa := findWindow(t, "WhoA — feedback")
	rb := call(b, "interactive_feedback", map[string]any{"message": "Merge the fix?", "header_label": "WhoB"})
	wb := findWindow(t, "WhoB — feedback")
	if qa := storedQuestion(t, "WhoA"); qa.Client != "claude-code" || qa.Project != "website" {
		t.Errorf("A: client %q, project %q; want claude-code, website", qa.Client, qa.Project)
	}
	if qb := storedQuestion(t, "WhoB"); qb.Client != "cursor" || qb.Project != "feedback" {
		t.Errorf("B: client %q, project %q; want cursor, feedback (its root)", qb.Client, qb.Project)
	}
	_, _, w, h := geometry(t, wb)
	waitPainted(t, wb, w, h)
	screenshot(t, "who-asks")
	for _, win := range []string{wb, wa} {
		activate(t, win)
		key(t, "Escape")
	}
	await(t, ra)
	await(t, rb)
}
