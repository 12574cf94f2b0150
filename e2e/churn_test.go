package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/ipc"
	"feedback/ipc/wire"
)

// churnCycles is how many windows each churn test opens and closes:
// FEEDBACK_CHURN, else 500.
func churnCycles(t *testing.T) int {
	if v := os.Getenv("FEEDBACK_CHURN"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("FEEDBACK_CHURN=%q: want a positive number", v)
		}
		return n
	}
	return 500
}

// xscreen is an X connection for the tests' own look at the screen.
type xscreen struct {
	x    *xgb.Conn
	root xproto.Window
	w, h int
	atom map[string]xproto.Atom
}

func openScreen(t *testing.T) *xscreen {
	t.Helper()
	x, err := xgb.NewConn()
	if err != nil {
		t.Fatalf("X: %v", err)
	}
	t.Cleanup(x.Close)
	s := xproto.Setup(x).DefaultScreen(x)
	return &xscreen{x: x, root: s.Root, w: int(s.WidthInPixels), h: int(s.HeightInPixels), atom: map[string]xproto.Atom{}}
}

func (s *xscreen) intern(name string) xproto.Atom {
	if a, ok := s.atom[name]; ok {
		return a
	}
	r, err := xproto.InternAtom(s.x, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0
	}
	s.atom[name] = r.Atom
	return r.Atom
}

// mapped reports whether a viewable client window titled title is on
// screen, from the window manager's client list.
func (s *xscreen) mapped(title string) bool {
	r, err := xproto.GetProperty(s.x, false, s.root, s.intern("_NET_CLIENT_LIST"), xproto.AtomWindow, 0, 1024).Reply()
	if err != nil {
		return false
	}
	for i := 0; i+4 <= len(r.Value); i += 4 {
		w := xproto.Window(xgb.Get32(r.Value[i:]))
		name, err := xproto.GetProperty(s.x, false, w, s.intern("_NET_WM_NAME"), s.intern("UTF8_STRING"), 0, 256).Reply()
		if err != nil || string(name.Value) != title {
			continue
		}
		attr, err := xproto.GetWindowAttributes(s.x, w).Reply()
		if err == nil && attr.MapState == xproto.MapStateViewable {
			return true
		}
	}
	return false
}

// waitMapped waits until a window titled title is viewable; a call that
// ends first (on done) fails the test with its error.
func (s *xscreen) waitMapped(t *testing.T, title string, within time.Duration, done <-chan error) {
	t.Helper()
	for deadline := time.Now().Add(within); !s.mapped(title); time.Sleep(2 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("the question %q ended before its window showed: %v (did the app crash?)", title, err)
		default:
		}
		if time.Now().After(deadline) {
			if pid := appPID(); pid != 0 { // its goroutines, into its log
				syscall.Kill(pid, syscall.SIGQUIT)
				time.Sleep(time.Second) // the dump is being written; the test fails anyway
			}
			t.Fatalf("no window titled %q within %v; the windows: %s", title, within, s.describe())
		}
	}
}

// wiggle keeps the pointer moving in small circles over the centre of the
// screen, where question windows open (over the reply box, its edges and
// the buttons, so the cursor shape keeps changing), until stop is closed.
func (s *xscreen) wiggle(stop <-chan struct{}) {
	cx, cy := s.w/2, s.h/2
	tick := time.NewTicker(2 * time.Millisecond) // about a fast mouse's report rate
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		a := float64(i) / 7
		r := 60 + float64(i%5)*50
		x, y := cx+int(r*math.Cos(a)), cy+int(r*math.Sin(a))
		xproto.WarpPointer(s.x, 0, s.root, 0, 0, 0, 0, int16(x), int16(y))
		s.x.Sync()
	}
}

// Windows opened and closed in quick succession with the pointer moving
// over them never crash the app (fyne glfw processMouseMoved called
// SetInputMode on a destroyed window: a SIGSEGV in 3 of 5 runs of 100
// cycles). Over the socket: ask, wait for the window on screen, withdraw.
func TestWindowChurnOverIPC(t *testing.T) {
	requireSession(t)
	cycles := churnCycles(t)
	// Without a session bus: each of the 500 windows ends unseen and would
	// leave a notification, and that flood kept the session's dunst from
	// answering anyone for minutes (the notification tests after this one
	// timed out in CI). The windows are what is tested here.
	startApp(t, "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/churn-bus")
	pid := appPID()
	scr := openScreen(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); scr.wiggle(stop) }()
	defer func() { close(stop); wg.Wait() }()

	c := appClient()
	for i := range cycles {
		if i%100 == 50 {
			openBurst(t, scr, c, i) // more hidden windows than the pool keeps: some are closed later, mid-churn
		}
		title := fmt.Sprintf("Churn%d", i)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := c.Ask(ctx, wire.Ask{Question: wire.Question{ID: wire.NewID(), Title: title, Source: "e2e",
				Prompts: []wire.Prompt{{Markdown: "Churn " + strings.Repeat("text ", 40)}}}}, nil)
			done <- err
		}()
		scr.waitMapped(t, title+" — feedback", 10*time.Second, done)
		// A varied moment to close it: this is not synchronisation, it
		// spreads the withdrawals over the window's first frames.
		time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond)
		cancel()
		select {
		case err := <-done:
			if errors.Is(err, ipc.ErrAppGone) {
				t.Fatalf("cycle %d: the app went away: %v", i, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("cycle %d: the withdrawn question did not return", i)
		}
	}
	if got := appPID(); got != pid {
		t.Fatalf("the app (pid %d) is gone after %d cycles (now %d)", pid, cycles, got)
	}
	t.Logf("%d windows opened and closed under a moving pointer", cycles)
}

// openBurst opens eight windows at once, waits until they are all on screen and
// withdraws them all.
func openBurst(t *testing.T, scr *xscreen, c *ipc.Client, n int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	dones := make([]chan error, 8)
	for j := range dones {
		dones[j] = make(chan error, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Ask(ctx, wire.Ask{Question: wire.Question{ID: wire.NewID(), Title: fmt.Sprintf("Burst%d-%d", n, j), Source: "e2e",
				Prompts: []wire.Prompt{{Markdown: "Burst"}}}}, nil)
			dones[j] <- err
		}()
	}
	for j := range dones {
		scr.waitMapped(t, fmt.Sprintf("Burst%d-%d — feedback", n, j), 10*time.Second, dones[j])
	}
	cancel()
	wg.Wait()
}

// The same over MCP: ask_text, then the client cancels the call
// (notifications/cancelled), as an agent that gives up does.
func TestWindowChurnAskCancel(t *testing.T) {
	requireSession(t)
	cycles := churnCycles(t)
	// Without a session bus: each of the 500 windows ends unseen and would
	// leave a notification, and that flood kept the session's dunst from
	// answering anyone for minutes (the notification tests after this one
	// timed out in CI). The windows are what is tested here.
	startApp(t, "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/churn-bus")
	pid := appPID()
	scr := openScreen(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); scr.wiggle(stop) }()
	defer func() { close(stop); wg.Wait() }()

	cl := quietMCP(t, "churn") // 500 calls' worth of shim logs would drown a failure
	for i := range cycles {
		question := fmt.Sprintf("Churn over MCP %d", i)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "ask_text"
			req.Params.Arguments = map[string]any{"question": question}
			_, err := cl.CallTool(ctx, req)
			done <- err
		}()
		scr.waitMapped(t, question+" — feedback", 10*time.Second, done)
		time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond) // spreads the cancels, as above
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("cycle %d: the cancelled call did not return", i)
		}
		if i%50 == 49 && appPID() != pid {
			t.Fatalf("the app (pid %d) went away by cycle %d", pid, i)
		}
	}
	if got := appPID(); got != pid {
		t.Fatalf("the app (pid %d) is gone after %d cycles (now %d)", pid, cycles, got)
	}
	t.Logf("%d calls asked and cancelled under a moving pointer", cycles)
}

// describe lists the root's children and their children, with names and
// map states, for a failure message.
func (s *xscreen) describe() string {
	var b strings.Builder
	var walk func(w xproto.Window, depth int)
	walk = func(w xproto.Window, depth int) {
		tree, err := xproto.QueryTree(s.x, w).Reply()
		if err != nil || depth > 2 {
			return
		}
		for _, c := range tree.Children {
			attr, err := xproto.GetWindowAttributes(s.x, c).Reply()
			if err != nil {
				continue
			}
			name, _ := xproto.GetProperty(s.x, false, c, s.intern("_NET_WM_NAME"), s.intern("UTF8_STRING"), 0, 256).Reply()
			if name != nil && len(name.Value) > 0 || attr.MapState != xproto.MapStateUnmapped {
				fmt.Fprintf(&b, "\n%s0x%x map=%d %q", strings.Repeat("  ", depth), c, attr.MapState, nameOf(name))
			}
			walk(c, depth+1)
		}
	}
	walk(s.root, 0)
	return b.String()
}

func nameOf(r *xproto.GetPropertyReply) string {
	if r == nil {
		return ""
	}
	return string(r.Value)
}

// activeWindow is the window manager's active window as an xdotool id
// ("" while there is none).
func (s *xscreen) activeWindow() string {
	r, err := xproto.GetProperty(s.x, false, s.root, s.intern("_NET_ACTIVE_WINDOW"), xproto.AtomWindow, 0, 1).Reply()
	if err != nil || len(r.Value) < 4 {
		return ""
	}
	w := xgb.Get32(r.Value)
	if w == 0 {
		return ""
	}
	return strconv.FormatUint(uint64(w), 10)
}

// waitForWindowManager waits until a window manager manages the screen
// (_NET_SUPPORTING_WM_CHECK on the root names a window that names it back).
func (s *xscreen) waitForWindowManager(t *testing.T) {
	t.Helper()
	check := s.intern("_NET_SUPPORTING_WM_CHECK")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r, err := xproto.GetProperty(s.x, false, s.root, check, xproto.AtomWindow, 0, 1).Reply()
		if err == nil && len(r.Value) >= 4 {
			w := xproto.Window(xgb.Get32(r.Value))
			back, err := xproto.GetProperty(s.x, false, w, check, xproto.AtomWindow, 0, 1).Reply()
			if err == nil && len(back.Value) >= 4 && xproto.Window(xgb.Get32(back.Value)) == w {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no window manager within 10 s")
		}
	}
}

// quietMCP is newMCP with the shim's stderr thrown away.
func quietMCP(t *testing.T, name string) *client.Client {
	t.Helper()
	tr := transport.NewStdioWithOptions(bin, env, []string{"mcp"}, transport.WithCommandStderrWriter(io.Discard))
	c := client.NewClient(tr, client.WithProtocolVersion("2025-11-25"))
	if err := c.Start(context.Background()); err != nil {
		t.Fatalf("starting feedback mcp: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c
}
