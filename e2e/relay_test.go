package e2e

import (
	"context"
	"crypto/rand"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/internal/mqtttest"
	"feedback/ipc/relay"
)

// relayDesk starts the app with a config directory of its own and pairs
// a remote host named name with the broker through `feedback relay pair`;
// it returns the token and the app's environment (for more commands).
func relayDesk(t *testing.T, b *mqtttest.Broker, name string) (token string, appEnv []string) {
	t.Helper()
	token, appEnv, _ = relayDeskLog(t, b, name)
	return token, appEnv
}

// relayDeskLog is relayDesk that also returns the app's log (launchApp
// starts it again).
func relayDeskLog(t *testing.T, b *mqtttest.Broker, name string) (token string, appEnv []string, logPath string) {
	t.Helper()
	config := t.TempDir()
	appEnv = []string{"XDG_CONFIG_HOME=" + config, "FEEDBACK_DB=" + filepath.Join(t.TempDir(), "feedback.db")}
	logPath = startApp(t, appEnv...)
	return relayPair(t, b, appEnv, name), appEnv, logPath
}

// relayPair runs `feedback relay pair` and returns its one line.
func relayPair(t *testing.T, b *mqtttest.Broker, appEnv []string, name string) string {
	t.Helper()
	cmd := exec.Command(bin, "relay", "pair", "--broker", b.URL("desk"), "--broker-password-file", "-", "--name", name, "--remote-user", "remote")
	cmd.Env = append(append(os.Environ(), env...), appEnv...)
	cmd.Stdin = strings.NewReader(b.Password("desk") + "\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("feedback relay pair: %v: %s", err, stderr.String())
	}
	t.Logf("feedback relay pair said: %s", strings.TrimSpace(stderr.String()))
	if !strings.Contains(stderr.String(), "connected") {
		t.Fatalf("the app did not connect to the broker: %s", stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], relay.TokenPrefix) {
		t.Fatalf("pair printed %q, want one token line", out)
	}
	if strings.Contains(lines[0], b.Password("desk")) {
		t.Fatal("the token carries the broker password")
	}
	return lines[0]
}

// relayShim starts the headless shim as a remote host would run it: a
// HOME, runtime and config directory of its own, no display, no way to
// the app's socket, FEEDBACK_RELAY=token and its own broker user's
// password in a 0600 file.
func relayShim(t *testing.T, b *mqtttest.Broker, name, token string, args ...string) *client.Client {
	t.Helper()
	return startMCPClientEnv(t, name, "2025-11-25", headlessAlone(t), append([]string{"mcp"}, args...), nil, relayShimEnv(t, b, token))
}

// relayShimEnv is a remote host's whole environment (relayShim).
func relayShimEnv(t *testing.T, b *mqtttest.Broker, token string) []string {
	t.Helper()
	home := t.TempDir()
	pw := filepath.Join(home, "broker-password")
	if err := os.WriteFile(pw, []byte(b.Password("remote")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(home, "run"), 0o700)
	shimEnv := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_RUNTIME_DIR=" + filepath.Join(home, "run"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"), "LANG=en_US.UTF-8",
		"FEEDBACK_SOCKET=" + filepath.Join(home, "run", "feedback.sock"), // nothing listens there
		"FEEDBACK_RELAY=" + token, "FEEDBACK_RELAY_PASSWORD_FILE=" + pw,
	}
	return shimEnv
}

// runWith runs command with args in the session's environment plus
// extra (or, for a remote host's, extra alone when it sets PATH), and
// returns what it printed; its exit code is not checked (doctor warns).
func runWith(t *testing.T, extra []string, command string, args ...string) string {
	t.Helper()
	cmd := exec.Command(command, args...)
	cmd.Env = append(append(os.Environ(), env...), extra...)
	if strings.HasPrefix(extra[0], "PATH=") {
		cmd.Env = extra
	}
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// A remote host's agent asks through the broker: the window opens on the
// desktop saying where the question comes from, the answer comes back,
// and the broker never sees the question's or the answer's text. Then a
// tampered token and a revoked pairing are refused.
func TestRelayRemoteAgentThroughBroker(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	b := startMQTTBroker(t)
	seen := b.Capture(t, "desk")
	token, appEnv := relayDesk(t, b, "build-box")
	agent := relayShim(t, b, "claude-code", token)

	res := call(agent, "interactive_feedback", map[string]any{
		"message": "Ship the zebra-4471 migration tonight?", "header_label": "RemoteAsk", "project_directory": "/srv/shop"})
	win := findWindow(t, "RemoteAsk — feedback")
	activate(t, win)
	typeText(t, "yes after lunch-9182")
	shot := screenshot(t, "relay-remote-window")
	t.Logf("look at %s: the window must say it comes from the relay pairing build-box", shot)
	key(t, "ctrl+Return")
	r := await(t, res)
	if r.IsError || !strings.Contains(text(r), "yes after lunch-9182") {
		t.Fatalf("the answer did not come back through the broker: %s", text(r))
	}
	// The desktop's History says where it came from.
	for _, secret := range []string{"zebra-4471", "lunch-9182", "Ship the", "RemoteAsk", "build-box", "/srv/shop"} {
		if strings.Contains(seen(), secret) {
			t.Errorf("the broker saw %q", secret)
		}
	}
	if !strings.Contains(seen(), "fbr/") {
		t.Error("the capture saw none of the relay's messages (is the capture blind?)")
	}

	// doctor on both sides, and relay list on the desktop, say how it stands.
	if out := runWith(t, appEnv, bin, "doctor"); !strings.Contains(out, "connected to mqtt://desk@127.0.0.1") {
		t.Errorf("the desktop's doctor does not report the broker connected:\n%s", out)
	}
	if out := runWith(t, appEnv, bin, "relay", "list"); !strings.Contains(out, "build-box") || !strings.Contains(out, "connected since") {
		t.Errorf("feedback relay list:\n%s", out)
	}
	if out := runWith(t, relayShimEnv(t, b, token), headlessAlone(t), "doctor"); !strings.Contains(out, `pairing "build-box" (FEEDBACK_RELAY): broker mqtt://remote@127.0.0.1`) || !strings.Contains(out, "the pairing is live") {
		t.Errorf("the remote's doctor does not report the relay:\n%s", out)
	}

	// A token with one character changed: refused where it is read.
	i := len(token) / 2
	c := byte('A')
	if token[i] == 'A' {
		c = 'B'
	}
	damaged := relayShim(t, b, "damaged", token[:i]+string(c)+token[i+1:])
	r = callNow(t, damaged, "interactive_feedback", map[string]any{"message": "from a damaged token", "header_label": "Damaged"})
	if !strings.Contains(text(r), "token") || visibleWindows("Damaged — feedback") != 0 {
		t.Errorf("a damaged token was not refused: %s", text(r))
	}
	// A well-formed token with another secret: the desktop refuses it.
	tok, err := relay.ParseToken(token)
	if err != nil {
		t.Fatal(err)
	}
	tok.RemotePrivate[0] ^= 0x20
	forged := relayShim(t, b, "forged", tok.String())
	r = callNow(t, forged, "interactive_feedback", map[string]any{"message": "from a forged token", "header_label": "Forged"})
	if !strings.Contains(text(r), "do not open") || visibleWindows("Forged — feedback") != 0 {
		t.Errorf("a forged token was not refused by the desktop: %s", text(r))
	}

	// Revoked: the same agent's next question is refused at once.
	cmd := exec.Command(bin, "relay", "revoke", "build-box")
	cmd.Env = append(append(os.Environ(), env...), appEnv...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("feedback relay revoke: %v: %s", err, out)
	}
	start := time.Now()
	r = callNow(t, agent, "interactive_feedback", map[string]any{"message": "after the revocation", "header_label": "AfterRevoke"})
	if !strings.Contains(text(r), "revoked on the desktop") || !strings.Contains(text(r), "pair again") || visibleWindows("AfterRevoke — feedback") != 0 {
		t.Errorf("a revoked pairing was not refused: %s", text(r))
	}
	if strings.Contains(text(r), "no_display") || strings.Contains(text(r), "cannot show windows") {
		t.Errorf("a revoked remote is told the desktop cannot show windows: %s", text(r))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the refusal took %v", d)
	}
}

// The broker stopped and started while a remote question is open: the
// answer given meanwhile reaches the remote agent when the broker is back.
func TestRelayBrokerRestartMidQuestion(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	b := startMQTTBroker(t)
	token, appEnv := relayDesk(t, b, "ci")
	agent := relayShim(t, b, "claude-code", token)
	res := call(agent, "interactive_feedback", map[string]any{"message": "Across a broker restart?", "header_label": "BrokerRestart"})
	win := findWindow(t, "BrokerRestart — feedback")
	b.Stop()
	waitFor(t, "the app to see the broker gone", 20*time.Second, func() bool {
		return strings.Contains(runWith(t, appEnv, bin, "relay", "list"), "not connected")
	})
	activate(t, win)
	typeText(t, "answered while the broker was down")
	key(t, "ctrl+Return")
	windowGone(t, "BrokerRestart — feedback", 5*time.Second)
	b.Start()
	r := await(t, res)
	if r.IsError || !strings.Contains(text(r), "answered while the broker was down") {
		t.Fatalf("the answer was lost across the broker's restart: %s", text(r))
	}
}

// The desktop's app is not running when the remote agent asks: the
// question waits at the broker (the app's session is persistent) and
// opens when the app starts again.
func TestRelayQuestionWaitsForTheDesktop(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	b := startMQTTBroker(t)
	token, appEnv, logPath := relayDeskLog(t, b, "laptop")
	stopApp()
	seen := b.Capture(t, "desk")
	agent := relayShim(t, b, "claude-code", token)
	res := call(agent, "interactive_feedback", map[string]any{"message": "Asked while you were away", "header_label": "WhileAway"})
	waitFor(t, "the question to reach the broker", 20*time.Second, func() bool { return strings.Contains(seen(), "/q ") })
	if n := visibleWindows("WhileAway — feedback"); n != 0 {
		t.Fatalf("%d window(s) with no app running", n)
	}
	launchApp(t, logPath, appEnv...)
	win := findWindow(t, "WhileAway — feedback")
	activate(t, win)
	typeText(t, "back now")
	key(t, "ctrl+Return")
	if r := await(t, res); r.IsError || !strings.Contains(text(r), "back now") {
		t.Fatalf("the question asked while the desktop was away: %s", text(r))
	}
}

// Long waits and cancellation work through the broker as they do
// locally: a call whose wait (--wait 2) runs out says "call again" and
// the window stays; calling again attaches to it and gets the answer;
// a call the client cancels closes its window.
func TestRelayCallAgainAndCancel(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	b := startMQTTBroker(t)
	token, _, logPath := relayDeskLog(t, b, "sandbox")
	agent := relayShim(t, b, "claude-code", token, "--wait", "2")
	opened := func() int {
		data, _ := os.ReadFile(logPath)
		return strings.Count(string(data), "relay: question open")
	}
	args := map[string]any{"message": "A long one", "header_label": "LongRemote"}
	first := call(agent, "interactive_feedback", args)
	win := findWindow(t, "LongRemote — feedback")
	r := await(t, first)
	if !strings.Contains(text(r), "again") {
		t.Fatalf("the wait ran out: want a call-again result, got %s", text(r))
	}
	if visibleWindows("LongRemote — feedback") != 1 {
		t.Fatal("the window closed when the caller's wait ran out")
	}
	second := call(agent, "interactive_feedback", args)
	waitFor(t, "the second call to reach the desktop", 20*time.Second, func() bool { return opened() == 2 })
	activate(t, win)
	typeText(t, "answer for the second call")
	key(t, "ctrl+Return")
	if r := await(t, second); r.IsError || !strings.Contains(text(r), "answer for the second call") {
		t.Fatalf("calling again: %s", text(r))
	}

	// Cancelled by the client: the window goes.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		req := mcp.CallToolRequest{}
		req.Params.Name = "interactive_feedback"
		req.Params.Arguments = map[string]any{"message": "Cancel me", "header_label": "CancelRemote"}
		agent.CallTool(ctx, req)
	}()
	findWindow(t, "CancelRemote — feedback")
	cancel()
	<-done
	windowGone(t, "CancelRemote — feedback", 10*time.Second)
}

// The broker is down: the remote shim says so in its result and asks in
// the chat instead, at once, never hanging.
func TestRelayBrokerDownFallsBack(t *testing.T) {
	requireSession(t)
	b := startMQTTBroker(t)
	token, _ := relayDesk(t, b, "ci")
	b.Stop()
	agent := relayShim(t, b, "claude-code", token)
	start := time.Now()
	r := callNow(t, agent, "interactive_feedback", map[string]any{"message": "Is anyone there?", "header_label": "NoBroker"})
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the call took %v", d)
	}
	t.Logf("the result: %s", text(r))
	if !strings.Contains(text(r), "broker cannot be reached") || !strings.Contains(text(r), "Is anyone there?") {
		t.Errorf("want the broker named as the cause and the question handed to the chat: %s", text(r))
	}
}

// An image attached in the window reaches the remote agent through a
// broker whose messages are limited to 300 kB (hosted brokers have such
// limits): the answer travels in sealed parts.
func TestRelayImageThroughALimitedBroker(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	b := startMQTTBroker(t, "message_size_limit 300000")
	token, appEnv := relayDesk(t, b, "box")
	db := ""
	for _, kv := range appEnv {
		if v, ok := strings.CutPrefix(kv, "FEEDBACK_DB="); ok {
			db = v
		}
	}
	// Noise: it does not compress, so the answer is far above the limit.
	m := image.NewRGBA(image.Rect(0, 0, 1200, 800))
	rand.Read(m.Pix)
	for i := 3; i < len(m.Pix); i += 4 {
		m.Pix[i] = 255
	}
	src := filepath.Join(t.TempDir(), "noise.png")
	f, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	png.Encode(f, m)
	f.Close()
	xclip := exec.Command("xclip", "-quiet", "-selection", "clipboard", "-t", "image/png", "-i", src)
	if err := xclip.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xclip.Process.Kill(); xclip.Wait() })

	agent := relayShim(t, b, "claude-code", token)
	res := call(agent, "interactive_feedback", map[string]any{"message": "Send me the screenshot", "header_label": "RemoteImage"})
	activate(t, findWindow(t, "RemoteImage — feedback"))
	typeText(t, "here it is")
	key(t, "ctrl+v")
	waitDraft(t, db, "RemoteImage", hasImages(1))
	key(t, "ctrl+Return")
	r := await(t, res)
	var size int
	for _, c := range r.Content {
		if img, ok := c.(mcp.ImageContent); ok {
			size = len(img.Data) * 3 / 4
		}
	}
	if r.IsError || !strings.Contains(text(r), "here it is") || size < 300000 {
		t.Fatalf("want the text and an image larger than the broker's limit; got %d image bytes: %s", size, text(r))
	}
	t.Logf("an image of %d bytes came through a broker that takes 300000 per message", size)
}

// Another dialect through the broker: ask_choice and ask_confirm answer
// from the window as they do locally, countdown included.
func TestRelayChoiceDialects(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	b := startMQTTBroker(t)
	token, _ := relayDesk(t, b, "box")
	agent := relayShim(t, b, "cursor", token)
	res := call(agent, "ask_choice", map[string]any{
		"question": "Which queue for the remote job?", "options": []any{"kafka", "nats", "sqs"}, "default": "nats"})
	activate(t, findWindow(t, "Which queue for the remote job? — feedback"))
	key(t, "alt+3")
	key(t, "ctrl+Return")
	wantChoice(t, await(t, res), map[string]any{"via": "window", "tool": "ask_choice", "status": "answered", "answer": "sqs", "selected": []any{"sqs"}})

	res = call(agent, "ask_confirm", map[string]any{"question": "Nobody answers this remote one", "timeout_ms": 1500})
	findWindow(t, "Nobody answers this remote one — feedback")
	wantChoice(t, await(t, res), map[string]any{"status": "timeout", "answer": "", "confirmed": nil, "tool": "ask_confirm"})
}
