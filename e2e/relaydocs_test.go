package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"feedback/internal/mqtttest"
)

// docsMarker starts the comment that stands above each block of the
// README and of docs/remote.md this file runs as written.
const docsMarker = "<!-- e2e/relaydocs_test.go runs this block"

// docBlocks returns the fenced code blocks of the page (from the
// repository's root) that a docsMarker line stands above, in order; the
// test fails unless there are want of them.
func docBlocks(t *testing.T, page string, want int) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", page))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], docsMarker) {
			continue
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			t.Fatalf("%s:%d: the marked line is not followed by a code block", page, i+1)
		}
		var b strings.Builder
		for i += 2; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			b.WriteString(lines[i] + "\n")
		}
		blocks = append(blocks, b.String())
	}
	if len(blocks) != want {
		t.Fatalf("%s has %d blocks marked %q, want %d", page, len(blocks), docsMarker, want)
	}
	return blocks
}

// replace replaces every old in s by new; old must be there (a page
// rewritten without it breaks the test, not the substitution).
func replace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("the block no longer holds %q:\n%s", old, s)
	}
	return strings.ReplaceAll(s, old, new)
}

// typed is what a person types at a prompt: answer and Return, once the
// output shows prompt.
type typed struct{ prompt, answer string }

// runTyping runs script with bash -e on a terminal (util-linux script(1)
// gives it a pseudo-terminal) in env, typing each answer once its prompt
// shows, as a person would, and returns everything the terminal showed
// and how bash exited.
func runTyping(t *testing.T, env []string, script string, answers ...typed) (string, error) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "steps.sh")
	if err := os.WriteFile(file, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("script", "-qefc", "/bin/bash -e "+file, "/dev/null")
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var out strings.Builder
	cmd.Stdout = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return out.Write(p) })
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	shown := func() string { mu.Lock(); defer mu.Unlock(); return out.String() }
	pos := 0
	for _, a := range answers {
		deadline := time.Now().Add(30 * time.Second)
		for {
			s := shown()
			if i := strings.Index(s[pos:], a.prompt); i >= 0 {
				pos += i + len(a.prompt)
				break
			}
			select {
			case err := <-done:
				return s, fmt.Errorf("ended before asking %q: %v", a.prompt, err)
			default:
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("no prompt %q within 30 s; the terminal showed:\n%s", a.prompt, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond) // a person reads the prompt before typing
		if _, err := stdin.Write([]byte(a.answer + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-done:
		return shown(), err
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the steps did not end within 90 s; the terminal showed:\n%s", shown())
		return "", nil
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// debianMosquittoConf is Debian's /etc/mosquitto/mosquitto.conf (package
// mosquitto 2.0.11), which `systemctl restart mosquitto` starts the
// broker with; the test puts its paths under its own root.
const debianMosquittoConf = `# Place your local configuration in /etc/mosquitto/conf.d/
pid_file /run/mosquitto/mosquitto.pid
persistence true
persistence_location /var/lib/mosquitto/
log_dest file /var/log/mosquitto/mosquitto.log
include_dir /etc/mosquitto/conf.d
`

// The remote steps of the README, and the broker's set-up of
// docs/remote.md, work as written. The broker block runs as root in a root
// of the test's own (its /etc/mosquitto, the certificate certbot would have
// made, a free port for 8883), mosquitto starts with Debian's configuration
// and drops to its user as it does in its package; the README's desktop
// block runs with the app running, typing the password at the prompt; its
// remote block runs on a host that has the system's tools and, of
// feedback's, only feedback-headless on its PATH, and an empty home. Then
// the client's configuration that setup wrote asks a question that the
// desktop's window answers, and after `feedback relay revoke` the remote's
// doctor fails, saying to pair again.
func TestRelayReadmeStepsAsWritten(t *testing.T) {
	requireSession(t)
	if os.Getenv("FEEDBACK_HEADLESS_BIN") == "" {
		t.Skip("needs FEEDBACK_HEADLESS_BIN (see `make e2e`)")
	}
	if os.Geteuid() != 0 {
		t.Skip("the broker's set-up runs as root (chown to the mosquitto user), as docs/remote.md says")
	}
	for _, p := range []string{"script", "mosquitto_passwd"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("needs %s (Debian: util-linux, mosquitto)", p)
		}
	}
	mosquitto, err := exec.LookPath("mosquitto")
	if err != nil {
		mosquitto = "/usr/sbin/mosquitto"
	}
	mq, err := user.Lookup("mosquitto")
	if err != nil {
		t.Skip("needs the mosquitto user of Debian's mosquitto package")
	}
	uid, _ := strconv.Atoi(mq.Uid)
	gid, _ := strconv.Atoi(mq.Gid)
	openScreen(t).waitForWindowManager(t)

	// The broker's host: a root as Debian's package and certbot leave it.
	root, err := os.MkdirTemp("", "fbdocs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	os.Chmod(root, 0o755) // the broker's user walks through it, as through /
	etc := filepath.Join(root, "etc", "mosquitto")
	live := filepath.Join(root, "etc", "letsencrypt", "live", "broker.example")
	for _, d := range []string{filepath.Join(etc, "conf.d"), filepath.Join(etc, "certs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(live, 0o700); err != nil { // certbot's live/ is root's alone
		t.Fatal(err)
	}
	// Its own folders, as the package and systemd (RuntimeDirectory) make them.
	data, run := filepath.Join(root, "var", "lib", "mosquitto"), filepath.Join(root, "run", "mosquitto")
	for _, d := range []string{data, run} {
		os.MkdirAll(d, 0o755)
		os.Chown(d, uid, gid)
	}
	certs := mqtttest.NewTLS(t, t.TempDir(), "localhost")
	ca := filepath.Join(root, "ca.pem")
	copyFile(t, certs.CAFile, ca)
	copyFile(t, certs.CertFile, filepath.Join(live, "fullchain.pem"))
	copyFile(t, certs.KeyFile, filepath.Join(live, "privkey.pem"))
	os.Chmod(filepath.Join(live, "privkey.pem"), 0o600)
	port := strconv.Itoa(mqtttest.FreePort(t))

	broker := docBlocks(t, "docs/remote.md", 1)[0]
	broker = replace(t, broker, "/etc/letsencrypt/live/broker.example", live)
	broker = replace(t, broker, "/etc/mosquitto", etc)
	broker = replace(t, broker, "8883", port)
	const restart = "systemctl restart mosquitto\n"
	if !strings.HasSuffix(broker, restart) {
		t.Fatalf("the broker's block no longer ends with %q:\n%s", restart, broker)
	}
	broker = strings.TrimSuffix(broker, restart)
	deskPW, boxPW := "desk-"+randomWord(t), "box-"+randomWord(t)
	if out, err := runTyping(t, append(os.Environ(), "SHELL=/bin/bash"), broker,
		typed{"Password:", deskPW}, typed{"Reenter password:", deskPW},
		typed{"Password:", boxPW}, typed{"Reenter password:", boxPW}); err != nil {
		t.Fatalf("the broker's set-up failed: %v\n%s", err, out)
	}
	conf := debianMosquittoConf
	conf = strings.ReplaceAll(conf, "/run/mosquitto/", run+"/")
	conf = strings.ReplaceAll(conf, "/var/lib/mosquitto/", data+"/")
	conf = strings.ReplaceAll(conf, "log_dest file /var/log/mosquitto/mosquitto.log", "log_dest stderr")
	conf = strings.ReplaceAll(conf, "/etc/mosquitto", etc)
	if err := os.WriteFile(filepath.Join(etc, "mosquitto.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	brokerLog := filepath.Join(root, "mosquitto.log")
	logf, _ := os.Create(brokerLog)
	mqd := exec.Command(mosquitto, "-c", filepath.Join(etc, "mosquitto.conf")) // as root: it drops to mosquitto
	mqd.Stdout, mqd.Stderr = logf, logf
	if err := mqd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { mqd.Wait(); close(exited) }()
	t.Cleanup(func() { mqd.Process.Signal(os.Interrupt); <-exited; logf.Close() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		log, _ := os.ReadFile(brokerLog)
		if strings.Contains(string(log), "Opening ipv4 listen socket on port "+port) {
			break
		}
		select {
		case <-exited:
			t.Fatalf("mosquitto did not start with the documented configuration:\n%s", log)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("mosquitto did not listen on %s within 10 s:\n%s", port, log)
		}
	}

	// The desktop, the app running: the README's desktop block, typing
	// desk's password at the prompt.
	blocks := docBlocks(t, "README.md", 2)
	appEnv := []string{"XDG_CONFIG_HOME=" + t.TempDir(), "FEEDBACK_DB=" + filepath.Join(t.TempDir(), "feedback.db"), "SSL_CERT_FILE=" + ca}
	startApp(t, appEnv...)
	deskBin := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(deskBin, "feedback")); err != nil {
		t.Fatal(err)
	}
	deskEnv := append(append(append(os.Environ(), env...), appEnv...), "PATH="+deskBin+":"+os.Getenv("PATH"), "SHELL=/bin/bash")
	desk := replace(t, blocks[0], "broker.example", "localhost")
	desk = replace(t, desk, "8883", port)
	out, err := runTyping(t, deskEnv, desk, typed{"Broker password for desk@localhost:" + port, deskPW})
	t.Logf("the desktop's steps showed:\n%s", out)
	if err != nil {
		t.Fatalf("the README's desktop steps failed: %v", err)
	}
	token := regexp.MustCompile(`(?m)^fbr1\.[A-Za-z0-9_-]+`).FindString(out)
	if token == "" || !strings.Contains(out, "the app is connected") || !regexp.MustCompile(`paired +build-box`).MatchString(out) {
		t.Fatalf("the desktop's steps printed no token, or the app did not connect, or list shows no build-box")
	}

	// The remote host: feedback-headless alone on its PATH, an empty home.
	remoteBin := t.TempDir()
	copyFile(t, os.Getenv("FEEDBACK_HEADLESS_BIN"), filepath.Join(remoteBin, "feedback-headless"))
	home := t.TempDir()
	path := remoteBin + ":/usr/bin:/bin" // the system's tools, and of feedback's only feedback-headless
	for _, d := range filepath.SplitList(path)[1:] {
		if _, err := os.Stat(filepath.Join(d, "feedback")); err == nil {
			t.Skipf("%s/feedback is installed here: the remote host must not have it", d)
		}
	}
	remoteEnv := []string{"HOME=" + home, "PATH=" + path, "USER=build", "LOGNAME=build", "SHELL=/bin/bash",
		"TERM=xterm", "LANG=en_US.UTF-8", "SSL_CERT_FILE=" + ca}
	remote := replace(t, blocks[1], "fbr1.…", token)
	out, err = runTyping(t, remoteEnv, remote, typed{"broker password (not echoed): ", boxPW})
	t.Logf("the remote host's steps showed:\n%s", out)
	if err != nil {
		t.Fatalf("the README's remote steps failed: %v", err)
	}
	if !strings.Contains(out, "the pairing is live") {
		t.Fatal("the remote's doctor does not say the pairing is live")
	}

	// The shim as the client's configuration says, in the remote's environment.
	cfg, err := os.ReadFile(filepath.Join(home, ".claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(cfg, &doc); err != nil {
		t.Fatal(err)
	}
	entry := doc.MCPServers["feedback"]
	if entry.Command != filepath.Join(remoteBin, "feedback-headless") || entry.Env["FEEDBACK_RELAY"] != token {
		t.Fatalf("setup wrote %+v", entry)
	}
	shimEnv := append([]string{}, remoteEnv...)
	for k, v := range entry.Env {
		shimEnv = append(shimEnv, k+"="+v)
	}
	agent := startMCPClientEnv(t, "claude-code", "2025-11-25", entry.Command, entry.Args, nil, shimEnv)
	res := call(agent, "interactive_feedback", map[string]any{"message": "Asked as the README says?", "header_label": "ReadmeRelay"})
	win := findWindow(t, "ReadmeRelay — feedback")
	activate(t, win)
	typeText(t, "as written-5521")
	key(t, "ctrl+Return")
	if r := await(t, res); r.IsError || !strings.Contains(text(r), "as written-5521") {
		t.Fatalf("the answer did not come back: %s", text(r))
	}

	// Revoked on the desktop: the remote's doctor fails and says to pair again.
	if out := runWith(t, append(appEnv, "SSL_CERT_FILE="+ca), bin, "relay", "revoke", "build-box"); !strings.Contains(out, "revoked build-box") {
		t.Fatalf("feedback relay revoke: %s", out)
	}
	doctor := exec.Command(filepath.Join(remoteBin, "feedback-headless"), "doctor")
	doctor.Env = remoteEnv
	dout, err := doctor.CombinedOutput()
	if err == nil || !strings.Contains(string(dout), "revoked on the desktop") || !strings.Contains(string(dout), "pair again") {
		t.Fatalf("the remote's doctor after the revocation (%v):\n%s", err, dout)
	}
}

// randomWord is 8 random bytes in hex.
func randomWord(t *testing.T) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}
