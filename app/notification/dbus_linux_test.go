//go:build linux

package notification

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// busConfig is a session bus with no .service files: nothing is started by
// activation, so "no notification server" can be tested on a machine that
// has one installed.
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// startBus runs a private bus for the test and returns its address.
func startBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("needs dbus-daemon (Debian: dbus)")
	}
	dir, err := os.MkdirTemp("", "nbus") // short: socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, busConfig, dir), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--print-address=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	return strings.TrimSpace(addr)
}

// notifyCall is one Notify the fake server received.
type notifyCall struct {
	AppName  string
	Replaces uint32
	Icon     string
	Summary  string
	Body     string
	Actions  []string
	Hints    map[string]dbus.Variant
	Expire   int32
}

// fakeServer is an org.freedesktop.Notifications exported by the test.
type fakeServer struct {
	conn   *dbus.Conn
	caps   []string
	calls  chan notifyCall
	closes chan uint32

	mu      sync.Mutex // guards the fields below
	nextID  uint32
	block   chan struct{} // when set, Notify waits for it to close
	closeAt bool          // when set, Notify emits NotificationClosed before replying
}

// startServer exports a fake notification server on the bus at addr.
func startServer(t *testing.T, addr string, caps ...string) *fakeServer {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	f := &fakeServer{conn: conn, caps: caps, calls: make(chan notifyCall, 64), closes: make(chan uint32, 16)}
	if err := conn.Export(f, objectPath, iface); err != nil {
		t.Fatal(err)
	}
	if r, err := conn.RequestName(busName, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName: %v %v", r, err)
	}
	return f
}

// Notify records the call; the hints are read from the raw message, as
// godbus's conversion of a{sv} loses each variant's signature.
func (f *fakeServer) Notify(msg dbus.Message, appName string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, expire int32) (uint32, *dbus.Error) {
	f.mu.Lock()
	block, closeAt := f.block, f.closeAt
	id := replaces
	if id == 0 {
		f.nextID++
		id = f.nextID
	}
	f.mu.Unlock()
	if block != nil {
		<-block
	}
	if raw, ok := msg.Body[6].(map[string]dbus.Variant); ok {
		hints = raw
	}
	f.calls <- notifyCall{appName, replaces, icon, summary, body, actions, hints, expire}
	if closeAt {
		f.conn.Emit(objectPath, iface+".NotificationClosed", id, uint32(ClosedExpired))
	}
	return id, nil
}

func (f *fakeServer) CloseNotification(id uint32) *dbus.Error {
	f.closes <- id
	f.conn.Emit(objectPath, iface+".NotificationClosed", id, uint32(ClosedByCall))
	return nil
}

func (f *fakeServer) GetCapabilities() ([]string, *dbus.Error) { return f.caps, nil }

func (f *fakeServer) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "fake", "feedback tests", "1", "1.2", nil
}

// click emits what a server sends when the user clicks notification id:
// ActionInvoked "default", then NotificationClosed (dismissed).
func (f *fakeServer) click(t *testing.T, id ID) {
	t.Helper()
	if err := f.conn.Emit(objectPath, iface+".ActionInvoked", uint32(id), "default"); err != nil {
		t.Fatal(err)
	}
	if err := f.conn.Emit(objectPath, iface+".NotificationClosed", uint32(id), uint32(ClosedByUser)); err != nil {
		t.Fatal(err)
	}
}

func (f *fakeServer) next(t *testing.T) notifyCall {
	t.Helper()
	select {
	case c := <-f.calls:
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("the server received no Notify")
		return notifyCall{}
	}
}

func newNotifier(t *testing.T, cfg Config) *Notifier {
	t.Helper()
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// The server receives exactly what the notification says: app name,
// icon, capped and cleaned summary, escaped body (the server parses
// markup), the default action, urgency, silence, image, desktop entry and
// expiry.
func TestShowSendsTheNotifyArguments(t *testing.T) {
	addr := startBus(t)
	srv := startServer(t, addr, "actions", "body", "body-markup")
	n := newNotifier(t, Config{Address: addr, Icon: pngOf(t, 128, 96), IconPath: "/opt/feed back/icon.png", DesktopEntry: "io.feedback.app"})
	id, err := n.Show(context.Background(), Notification{
		Summary: "claude-code asks\u202e\x07",
		Body:    "shop — Use <b>bold</b> & <a href='x'>links</a>?",
		Urgency: Critical,
		Expire:  5 * time.Second,
		OnClick: func() {},
	})
	if err != nil {
		t.Fatal(err)
	}
	if id != 1 {
		t.Errorf("id = %d, want the server's 1", id)
	}
	got := srv.next(t)
	image := got.Hints["image-data"]
	delete(got.Hints, "image-data")
	want := notifyCall{
		AppName: "feedback",
		Icon:    "file:///opt/feed%20back/icon.png",
		Summary: "claude-code asks",
		Body:    "shop — Use &lt;b&gt;bold&lt;/b&gt; &amp; &lt;a href='x'&gt;links&lt;/a&gt;?",
		Actions: []string{"default", "Show"},
		Hints: map[string]dbus.Variant{
			"urgency":        dbus.MakeVariant(byte(2)),
			"suppress-sound": dbus.MakeVariant(true),
			"desktop-entry":  dbus.MakeVariant("io.feedback.app"),
		},
		Expire: 5000,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Notify got\n%#v\nwant\n%#v", got, want)
	}
	if sig := image.Signature().String(); sig != "(iiibiiay)" {
		t.Fatalf("image-data signature %q, want (iiibiiay)", sig)
	}
	fields := image.Value().([]any)
	if w, h, stride, alpha, bits, ch, data := fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6].([]byte); w != int32(64) || h != int32(48) || stride != int32(256) || alpha != true || bits != int32(8) || ch != int32(4) || len(data) != 64*48*4 {
		t.Errorf("image-data = %v×%v stride %v alpha %v bits %v channels %v, %d bytes; want 64×48 stride 256 alpha 8 bits 4 channels, %d bytes", w, h, stride, alpha, bits, ch, len(data), 64*48*4)
	}
}

// Without the body-markup capability the body goes as it is; a sound,
// a replaced ID, no callback and the expiry's edges.
func TestShowPlainServerSoundReplaceExpiry(t *testing.T) {
	addr := startBus(t)
	srv := startServer(t, addr, "body")
	n := newNotifier(t, Config{Address: addr, AppName: "feedback-dev", IconPath: "dialog-question"})
	for _, tc := range []struct {
		name string
		note Notification
		want notifyCall
	}{
		{"sound", Notification{Summary: "s", Body: "a <b> & c", Sound: true, Urgency: Low},
			notifyCall{AppName: "feedback-dev", Icon: "dialog-question", Summary: "s", Body: "a <b> & c", Actions: []string{},
				Hints: map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(0)), "sound-name": dbus.MakeVariant("message-new-instant")}, Expire: -1}},
		{"replaces, never expires", Notification{Summary: "s", Replaces: 7, Expire: -1},
			notifyCall{AppName: "feedback-dev", Replaces: 7, Icon: "dialog-question", Summary: "s", Actions: []string{},
				Hints: map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1)), "suppress-sound": dbus.MakeVariant(true)}, Expire: 0}},
		{"sub-millisecond expiry", Notification{Summary: "s", Expire: time.Microsecond},
			notifyCall{AppName: "feedback-dev", Icon: "dialog-question", Summary: "s", Actions: []string{},
				Hints: map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1)), "suppress-sound": dbus.MakeVariant(true)}, Expire: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := n.Show(context.Background(), tc.note); err != nil {
				t.Fatal(err)
			}
			if got := srv.next(t); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Notify got\n%#v\nwant\n%#v", got, tc.want)
			}
		})
	}
}

// Long and hostile texts reach the server capped and cleaned.
func TestShowCapsTexts(t *testing.T) {
	addr := startBus(t)
	srv := startServer(t, addr)
	n := newNotifier(t, Config{Address: addr})
	body := strings.Repeat("line\n", 20) + strings.Repeat("x", 1000)
	if _, err := n.Show(context.Background(), Notification{Summary: strings.Repeat("é", 500) + "\n2nd line", Body: body + "\xff"}); err != nil {
		t.Fatal(err)
	}
	got := srv.next(t)
	if r := []rune(got.Summary); len(r) != MaxSummaryRunes || r[len(r)-1] != '…' || strings.Contains(got.Summary, "\n") {
		t.Errorf("summary of %d runes, want %d ending in …, one line: %q", len(r), MaxSummaryRunes, got.Summary)
	}
	if r := []rune(got.Body); len(r) != MaxBodyRunes || r[len(r)-1] != '…' {
		t.Errorf("body of %d runes, want %d ending in …", len(r), MaxBodyRunes)
	}
	if lines := strings.Count(got.Body, "\n") + 1; lines != MaxBodyLines {
		t.Errorf("body of %d lines, want %d", lines, MaxBodyLines)
	}
}

// A click calls OnClick, the close that follows calls OnClosed with the
// reason; signals for other notifications, other actions and a forger's
// signals call nothing.
func TestClickAndClose(t *testing.T) {
	addr := startBus(t)
	srv := startServer(t, addr, "actions")
	n := newNotifier(t, Config{Address: addr})
	type event struct {
		what   string
		id     int
		reason CloseReason
	}
	events := make(chan event, 16)
	show := func(i int) ID {
		id, err := n.Show(context.Background(), Notification{
			Summary:  fmt.Sprint("note ", i),
			OnClick:  func() { events <- event{"click", i, 0} },
			OnClosed: func(r CloseReason) { events <- event{"closed", i, r} },
		})
		if err != nil {
			t.Fatal(err)
		}
		srv.next(t)
		return id
	}
	first, second := show(1), show(2)

	// A forger on the bus sends a click for the first notification; the
	// Ping makes the bus route it before the server's signals below.
	forger, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer forger.Close()
	if err := forger.Emit(objectPath, iface+".ActionInvoked", uint32(first), "default"); err != nil {
		t.Fatal(err)
	}
	if err := forger.BusObject().Call("org.freedesktop.DBus.Peer.Ping", 0).Err; err != nil {
		t.Fatal(err)
	}
	srv.conn.Emit(objectPath, iface+".ActionInvoked", uint32(second), "other-action")
	srv.conn.Emit(objectPath, iface+".ActionInvoked", uint32(99), "default")
	srv.click(t, second)
	srv.click(t, first)

	var got []event
	for len(got) < 4 {
		select {
		case e := <-events:
			got = append(got, e)
		case <-time.After(5 * time.Second):
			t.Fatalf("events so far %v, want 4", got)
		}
	}
	want := []event{{"click", 2, 0}, {"closed", 2, ClosedByUser}, {"click", 1, 0}, {"closed", 1, ClosedByUser}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	// A notification replaced by one without callbacks calls nothing.
	fourth := show(4)
	if _, err := n.Show(context.Background(), Notification{Summary: "replacing", Replaces: fourth}); err != nil {
		t.Fatal(err)
	}
	srv.next(t)
	srv.click(t, fourth)
	// A late click on a closed notification calls nothing; a new one does.
	srv.click(t, first)
	third := show(3)
	srv.click(t, third)
	if e := <-events; e != (event{"click", 3, 0}) {
		t.Errorf("after a click on a closed notification: %v, want the third's click", e)
	}
}

// Dismiss closes the notification on the server and OnClosed reports it.
func TestDismiss(t *testing.T) {
	addr := startBus(t)
	srv := startServer(t, addr)
	n := newNotifier(t, Config{Address: addr})
	closed := make(chan CloseReason, 1)
	id, err := n.Show(context.Background(), Notification{Summary: "s", OnClosed: func(r CloseReason) { closed <- r }})
	if err != nil {
		t.Fatal(err)
	}
	srv.next(t)
	if err := n.Dismiss(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if got := <-srv.closes; got != uint32(id) {
		t.Errorf("CloseNotification(%d), want %d", got, id)
	}
	select {
	case r := <-closed:
		if r != ClosedByCall {
			t.Errorf("OnClosed(%d), want ClosedByCall", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("OnClosed was not called")
	}
}

// A server that closes a notification before Show has its ID (the signal
// arrives before the reply) still reaches OnClosed.
func TestClosedBeforeTheReply(t *testing.T) {
	addr := startBus(t)
	srv := startServer(t, addr)
	srv.mu.Lock()
	srv.closeAt = true
	srv.mu.Unlock()
	n := newNotifier(t, Config{Address: addr})
	closed := make(chan CloseReason, 1)
	if _, err := n.Show(context.Background(), Notification{Summary: "s", OnClosed: func(r CloseReason) { closed <- r }}); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-closed:
		if r != ClosedExpired {
			t.Errorf("OnClosed(%d), want ClosedExpired", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("OnClosed was not called for a close sent before the reply")
	}
}

// A bus without a notification server: a clear ErrNoServer, at once.
func TestNoServer(t *testing.T) {
	addr := startBus(t)
	n := newNotifier(t, Config{Address: addr, Timeout: 10 * time.Second})
	start := time.Now()
	_, err := n.Show(context.Background(), Notification{Summary: "s"})
	if !errors.Is(err, ErrNoServer) {
		t.Fatalf("Show = %v, want ErrNoServer", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to tell", d)
	}
	t.Log(err)
	// A server that appears later is used.
	srv := startServer(t, addr)
	if _, err := n.Show(context.Background(), Notification{Summary: "later"}); err != nil {
		t.Fatal(err)
	}
	if got := srv.next(t); got.Summary != "later" {
		t.Errorf("summary %q", got.Summary)
	}
}

// No bus at all: ErrNoBus, and no bus is launched.
func TestNoBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	for _, cfg := range []Config{{}, {Address: "unix:path=" + filepath.Join(t.TempDir(), "none")}} {
		n := newNotifier(t, cfg)
		if _, err := n.Show(context.Background(), Notification{Summary: "s"}); !errors.Is(err, ErrNoBus) {
			t.Errorf("Config%+v: Show = %v, want ErrNoBus", cfg, err)
		} else {
			t.Log(err)
		}
		if err := n.Dismiss(context.Background(), 1); !errors.Is(err, ErrNoBus) {
			t.Errorf("Config%+v: Dismiss = %v, want ErrNoBus", cfg, err)
		}
	}
}

// A server that does not answer: Show returns ErrTimeout after the
// timeout, not later; the next Show works once the server answers again.
func TestSlowServer(t *testing.T) {
	addr := startBus(t)
	srv := startServer(t, addr)
	release := make(chan struct{})
	srv.mu.Lock()
	srv.block = release
	srv.mu.Unlock()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	const timeout = 300 * time.Millisecond
	n := newNotifier(t, Config{Address: addr, Timeout: timeout})
	start := time.Now()
	_, err := n.Show(context.Background(), Notification{Summary: "slow"})
	took := time.Since(start)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Show = %v, want ErrTimeout", err)
	}
	if took < timeout || took > timeout+time.Second {
		t.Errorf("Show returned after %v, want about %v", took, timeout)
	}
	t.Log(err)
	srv.mu.Lock()
	srv.block = nil
	srv.mu.Unlock()
	close(release)
	srv.next(t) // the slow one
	if _, err := n.Show(context.Background(), Notification{Summary: "fast"}); err != nil {
		t.Fatal(err)
	}
	if got := srv.next(t); got.Summary != "fast" {
		t.Errorf("summary %q", got.Summary)
	}
}

// A bus that accepts the connection and never answers (a hung
// dbus-daemon): Show returns ErrTimeout after the timeout.
func TestHungBus(t *testing.T) {
	dir, err := os.MkdirTemp("", "nhung")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "bus")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c // held open, never answered
		}
	}()
	defer func() {
		l.Close()
		for c := range accepted {
			c.Close()
		}
	}()
	const timeout = 300 * time.Millisecond
	n := newNotifier(t, Config{Address: "unix:path=" + path, Timeout: timeout})
	start := time.Now()
	_, err = n.Show(context.Background(), Notification{Summary: "s"})
	took := time.Since(start)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Show = %v, want ErrTimeout", err)
	}
	if took < timeout || took > timeout+time.Second {
		t.Errorf("Show returned after %v, want about %v", took, timeout)
	}
	t.Log(err)
	// While that connection still hangs, the next Show says so at once
	// instead of opening another one.
	start = time.Now()
	if _, err := n.Show(context.Background(), Notification{Summary: "s"}); !errors.Is(err, ErrTimeout) {
		t.Fatalf("second Show = %v, want ErrTimeout", err)
	} else if took := time.Since(start); took >= timeout {
		t.Errorf("second Show took %v, want at once", took)
	} else {
		t.Log(err)
	}
}

// After Close, Show and Dismiss report ErrClosed and no callback runs.
func TestClose(t *testing.T) {
	addr := startBus(t)
	srv := startServer(t, addr)
	n := newNotifier(t, Config{Address: addr})
	clicked := make(chan struct{}, 1)
	id, err := n.Show(context.Background(), Notification{Summary: "s", OnClick: func() { clicked <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	srv.next(t)
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	srv.click(t, id)
	if _, err := n.Show(context.Background(), Notification{Summary: "s"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Show after Close = %v, want ErrClosed", err)
	}
	if err := n.Dismiss(context.Background(), id); !errors.Is(err, ErrClosed) {
		t.Errorf("Dismiss after Close = %v, want ErrClosed", err)
	}
	select {
	case <-clicked:
		t.Error("OnClick ran after Close")
	default:
	}
}

// Many goroutines show at once; each click reaches its own callback.
func TestConcurrentShows(t *testing.T) {
	addr := startBus(t)
	srv := startServer(t, addr)
	n := newNotifier(t, Config{Address: addr})
	const count = 20
	clicked := make(chan int, count)
	ids := make([]ID, count)
	var wg sync.WaitGroup
	for i := range count {
		wg.Go(func() {
			id, err := n.Show(context.Background(), Notification{Summary: fmt.Sprint(i), OnClick: func() { clicked <- i }})
			if err != nil {
				t.Error(err)
			}
			ids[i] = id
		})
	}
	wg.Wait()
	for range count {
		srv.next(t)
	}
	for i := range count {
		srv.click(t, ids[i])
		select {
		case got := <-clicked:
			if got != i {
				t.Errorf("click on %d reached %d", i, got)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("click on %d reached no callback", i)
		}
	}
}

// Actions and an inline reply reach a server that supports them, in
// order after the default action, with labels capped; invoking one calls
// OnAction with its key, a reply calls OnReply with its text. A server
// without those capabilities gets the notification without them.
func TestActionsAndInlineReply(t *testing.T) {
	addr := startBus(t)
	srv := startServer(t, addr, "actions", "inline-reply")
	n := newNotifier(t, Config{Address: addr})
	got := make(chan string, 8)
	note := Notification{
		Summary:          "deploy?",
		OnClick:          func() { got <- "click" },
		Actions:          []Action{{"a0", "Yes"}, {"default", "forged"}, {"a1", strings.Repeat("n", 40)}, {"a2", "x"}, {"a3", "y"}, {"a4", "beyond the limit"}},
		OnAction:         func(key string) { got <- "action " + key },
		ReplyLabel:       "Reply",
		ReplyPlaceholder: "a short answer",
		OnReply:          func(text string) { got <- "reply " + text },
	}
	id, err := n.Show(context.Background(), note)
	if err != nil {
		t.Fatal(err)
	}
	c := srv.next(t)
	want := []string{"default", "Show", "a0", "Yes", "a1", strings.Repeat("n", MaxActionRunes-1) + "…", "a2", "x", "a3", "y", "inline-reply", "Reply"}
	if !reflect.DeepEqual(c.Actions, want) {
		t.Errorf("actions %q, want %q", c.Actions, want)
	}
	if p := c.Hints["x-kde-reply-placeholder-text"]; p.Value() != "a short answer" {
		t.Errorf("placeholder hint %v", p)
	}
	srv.conn.Emit(objectPath, iface+".ActionInvoked", uint32(id), "a1")
	srv.conn.Emit(objectPath, iface+".ActionInvoked", uint32(id), "inline-reply")
	srv.conn.Emit(objectPath, iface+".NotificationReplied", uint32(id), "ship it")
	srv.click(t, id)
	for _, w := range []string{"action a1", "reply ship it", "click"} {
		select {
		case g := <-got:
			if g != w {
				t.Errorf("got %q, want %q", g, w)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no %q", w)
		}
	}

	// A server with neither capability.
	addr = startBus(t)
	srv = startServer(t, addr, "body")
	n = newNotifier(t, Config{Address: addr})
	if _, err := n.Show(context.Background(), note); err != nil {
		t.Fatal(err)
	}
	c = srv.next(t)
	if want := []string{"default", "Show"}; !reflect.DeepEqual(c.Actions, want) {
		t.Errorf("without the capabilities: actions %q, want %q", c.Actions, want)
	}
	if _, ok := c.Hints["x-kde-reply-placeholder-text"]; ok {
		t.Error("placeholder hint sent to a server without inline replies")
	}
}

// The summary is inert on every server: a server that parses markup in
// it (dunst, mako) must not render <b> or <a href>, and one that escapes
// it itself (GNOME Shell) must not show entities, so < > & go as the
// look-alikes ‹ › ＆, whatever the server says it can do.
func TestSummaryIsInert(t *testing.T) {
	for _, caps := range [][]string{{"body", "body-markup", "body-hyperlinks"}, {"body"}} {
		t.Run(strings.Join(caps, ","), func(t *testing.T) {
			addr := startBus(t)
			srv := startServer(t, addr, caps...)
			n := newNotifier(t, Config{Address: addr})
			if _, err := n.Show(context.Background(), Notification{Summary: `<b>Done</b> & <a href="https://x.test">open</a>`, Body: "b"}); err != nil {
				t.Fatal(err)
			}
			want := `‹b›Done‹/b› ＆ ‹a href="https://x.test"›open‹/a›`
			if got := srv.next(t).Summary; got != want {
				t.Errorf("summary %q, want %q", got, want)
			}
		})
	}
}
