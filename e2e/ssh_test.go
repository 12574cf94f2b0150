package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/e2e/internal/fakeapp"
	"feedback/ipc"
)

// The SSH test plays both machines on loopback: the "desktop" is a fake
// app on a private socket, the "remote host" is a real sshd on a high
// port, and the agent's MCP client runs the headless shim on that host
// through ssh, with FEEDBACK_SOCKET at the socket that `ssh -R` (written
// from `feedback setup ssh`'s own lines) forwards to the desktop.

// sshLab is a throw-away sshd and the keys to log into it.
type sshLab struct {
	dir  string // short: socket paths are limited to 108 bytes
	port int
	key  string // the client's private key
	user string
}

func newSSHLab(t *testing.T, streamLocalBindUnlink bool) *sshLab {
	t.Helper()
	sshd := "/usr/sbin/sshd"
	for _, p := range []string{sshd, "ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("the SSH test needs OpenSSH (%s not found; Debian: openssh-server openssh-client, installed by scripts/deps.sh test)", p)
		}
	}
	// sshd refuses to start without its privilege separation directory.
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Skipf("sshd cannot run here: %v", err)
	}
	dir, err := os.MkdirTemp("", "fbssh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	lab := &sshLab{dir: dir, key: filepath.Join(dir, "userkey"), user: me.Username}
	for _, k := range []string{"hostkey", "userkey"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, k)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, _ := os.ReadFile(lab.key + ".pub")
	os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o600)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lab.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	unlink := "no"
	if streamLocalBindUnlink {
		unlink = "yes"
	}
	conf := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s/hostkey
PidFile %s/sshd.pid
AuthorizedKeysFile %s/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AllowStreamLocalForwarding yes
StreamLocalBindUnlink %s
`, lab.port, dir, dir, dir, unlink)
	os.WriteFile(filepath.Join(dir, "sshd_config"), []byte(conf), 0o600)
	cmd := exec.Command(sshd, "-D", "-f", filepath.Join(dir, "sshd_config"), "-E", filepath.Join(dir, "sshd.log"))
	if err := cmd.Start(); err != nil {
		t.Skipf("sshd does not start: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	exited := make(chan struct{})
	go func() { cmd.Process.Wait(); close(exited) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", lab.port), time.Second)
		if err == nil {
			c.Close()
			break
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "sshd.log"))
			t.Skipf("sshd exited at start: %s", log)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd did not listen on %d within 10 s", lab.port)
		}
	}
	return lab
}

// config writes an ssh client configuration: the connection settings of
// host, then lines (from feedback setup ssh).
func (l *sshLab) config(t *testing.T, host, lines string) string {
	t.Helper()
	p := filepath.Join(l.dir, "ssh_config")
	c := fmt.Sprintf("%s    HostName 127.0.0.1\n    Port %d\n    User %s\n    IdentityFile %s\n    IdentitiesOnly yes\n"+
		"    StrictHostKeyChecking no\n    UserKnownHostsFile /dev/null\n    BatchMode yes\n    LogLevel ERROR\n",
		strings.TrimRight(lines, "\n")+"\n", l.port, l.user, l.key)
	if err := os.WriteFile(p, []byte(c), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// forward starts `ssh -N HOST` with the configuration's RemoteForward and
// waits until sshd listens on the forwarded socket; stop ends that
// connection and waits until it no longer does.
func forward(t *testing.T, cfg, host, remoteSocket string) (stop func()) {
	t.Helper()
	cmd := exec.Command("ssh", "-F", cfg, "-N", "-o", "ExitOnForwardFailure=yes", host)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cmd.Process.Kill()
		<-done
		// sshd notices the dropped connection on its own time: wait until
		// nothing listens on the forwarded socket any more.
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			c, err := net.Dial("unix", remoteSocket)
			if err != nil {
				return
			}
			c.Close()
			time.Sleep(20 * time.Millisecond)
		}
		t.Errorf("sshd still listens on %s 10 s after the connection dropped", remoteSocket)
	}
	t.Cleanup(stop)
	deadline := time.After(15 * time.Second)
	for {
		if c, err := net.Dial("unix", remoteSocket); err == nil { // sshd listens: the forward is up
			c.Close()
			return stop
		}
		select {
		case err := <-done:
			stopped = true
			t.Fatalf("ssh -R exited (%v): %s", err, stderr.String())
		case <-deadline:
			t.Fatalf("the forwarded socket %s did not appear within 15 s: %s", remoteSocket, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// remoteShim is an MCP client whose server is the headless shim started on
// the remote host through ssh: its own connection, which forwards nothing
// (the user's session, forward, carries the socket).
func remoteShim(t *testing.T, cfg, host, headless, remoteSocket, home string) *client.Client {
	t.Helper()
	cmdline := fmt.Sprintf("env -i PATH=/usr/bin:/bin HOME=%[1]s XDG_CONFIG_HOME=%[1]s/config XDG_STATE_HOME=%[1]s/state FEEDBACK_SOCKET=%[2]s %[3]s mcp",
		home, remoteSocket, headless)
	w := &testWriter{t: t, prefix: "remote shim: "}
	t.Cleanup(w.stop)
	tr := transport.NewStdioWithOptions("ssh", os.Environ(), []string{"-F", cfg, "-T", "-o", "ClearAllForwardings=yes", host, cmdline}, transport.WithCommandStderrWriter(w))
	c := client.NewClient(tr, client.WithProtocolVersion("2025-11-25"))
	if err := c.Start(context.Background()); err != nil {
		t.Fatalf("starting the shim over ssh: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: "ssh-e2e", Version: "1.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize over ssh: %v", err)
	}
	return c
}

// sshRecipe runs `feedback setup ssh` on the desktop and returns the Host
// block it prints for ~/.ssh/config.
func sshRecipe(t *testing.T, headless, host, desktopSocket, remoteSocket string) string {
	t.Helper()
	cmd := exec.Command(headless, "setup", "ssh", host, "--remote-socket", remoteSocket)
	cmd.Env = append(os.Environ(), "FEEDBACK_SOCKET="+desktopSocket)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("feedback setup ssh: %v", err)
	}
	var block []string // the Host line and the one after it
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(l, "Host "):
			block = append(block, l)
		case len(block) == 1:
			block = append(block, "    "+l)
		}
	}
	want := fmt.Sprintf("    RemoteForward %s %s", remoteSocket, desktopSocket)
	if len(block) != 2 || block[0] != "Host "+host || block[1] != want {
		t.Fatalf("feedback setup ssh printed no usable Host block (want %q):\n%s", want, out)
	}
	if !strings.Contains(string(out), "StreamLocalBindUnlink yes") || !strings.Contains(string(out), "sshd_config") {
		t.Errorf("the recipe does not explain the server-side StreamLocalBindUnlink:\n%s", out)
	}
	return strings.Join(block, "\n") + "\n"
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func TestSSHForward(t *testing.T) {
	headless := headlessAlone(t) // revisions_test.go
	lab := newSSHLab(t, true)

	desktop := filepath.Join(lab.dir, "desktop")
	os.Mkdir(desktop, 0o700)
	app, err := fakeapp.Start(desktop, &fakeapp.Presenter{}, ipc.ServerOptions{Version: "ssh-e2e"})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()

	home := filepath.Join(lab.dir, "remote")
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	remoteSocket := filepath.Join(home, ".ssh", "feedback.sock")
	cfg := lab.config(t, "sshtest", sshRecipe(t, headless, "sshtest", app.Socket, remoteSocket))

	stop := forward(t, cfg, "sshtest", remoteSocket)
	c := remoteShim(t, cfg, "sshtest", headless, remoteSocket, home)
	doctor := func() (string, int) {
		cmdline := fmt.Sprintf("env -i PATH=/usr/bin:/bin HOME=%[1]s XDG_CONFIG_HOME=%[1]s/config XDG_DATA_HOME=%[1]s/data FEEDBACK_SOCKET=%[2]s %[3]s doctor",
			home, remoteSocket, headless)
		out, err := exec.Command("ssh", "-F", cfg, "-T", "-o", "ClearAllForwardings=yes", "sshtest", cmdline).Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("feedback doctor over ssh: %v", err)
		}
		return string(out), code
	}
	if out, code := doctor(); code != 0 || !strings.Contains(out, remoteSocket+" (FEEDBACK_SOCKET)") || strings.Contains(out, "FAIL") {
		t.Errorf("doctor on the host while connected: exit %d\n%s", code, out)
	}

	msg := "Deploy over ssh?"
	r := callNow(t, c, "interactive_feedback", map[string]any{"message": msg})
	if got := text(r); r.IsError || !strings.Contains(got, reverse(msg)) {
		t.Fatalf("the desktop's answer did not come back through the forward: isError=%v %q", r.IsError, got)
	}

	// The connection drops: the shim on the host falls back at once, and
	// says where the app is.
	stop()
	start := time.Now()
	r = callNow(t, c, "interactive_feedback", map[string]any{"message": "Still there?"})
	took := time.Since(start)
	if sc := structured(t, r); sc["status"] != "needs_user_input" {
		t.Errorf("after the connection dropped: %v %q", sc, text(r))
	}
	if got := text(r); !strings.Contains(got, remoteSocket) || !strings.Contains(got, "RemoteForward") || strings.Contains(got, "app.log") {
		t.Errorf("the fallback does not point at the desktop's forward: %q", got)
	}
	if took > 3*time.Second {
		t.Errorf("the fallback took %v", took)
	}
	t.Logf("fallback after %v: %s", took.Round(time.Millisecond), text(r))
	if out, code := doctor(); code != 1 || !strings.Contains(out, "FAIL  app") || !strings.Contains(out, "RemoteForward") {
		t.Errorf("doctor on the host after the connection dropped: exit %d\n%s", code, out)
	}

	// Reconnecting works over the socket file the first connection left,
	// because this sshd says StreamLocalBindUnlink yes.
	forward(t, cfg, "sshtest", remoteSocket)
	r = callNow(t, c, "interactive_feedback", map[string]any{"message": "Back again?"})
	if got := text(r); !strings.Contains(got, reverse("Back again?")) {
		t.Errorf("after reconnecting: %q", got)
	}
}

// Without StreamLocalBindUnlink in the server's sshd_config, the socket
// file left by a dropped connection blocks the next RemoteForward: the
// reason the recipe asks for it on the remote side.
func TestSSHReconnectNeedsServerSideUnlink(t *testing.T) {
	headless := headlessAlone(t) // revisions_test.go
	lab := newSSHLab(t, false)
	desktop := filepath.Join(lab.dir, "desktop")
	os.Mkdir(desktop, 0o700)
	app, err := fakeapp.Start(desktop, &fakeapp.Presenter{}, ipc.ServerOptions{Version: "ssh-e2e"})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	home := filepath.Join(lab.dir, "remote")
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	remoteSocket := filepath.Join(home, ".ssh", "feedback.sock")
	// Even with StreamLocalBindUnlink in the client's own configuration.
	cfg := lab.config(t, "sshtest", sshRecipe(t, headless, "sshtest", app.Socket, remoteSocket)+"    StreamLocalBindUnlink yes\n")
	forward(t, cfg, "sshtest", remoteSocket)()
	if _, err := os.Lstat(remoteSocket); err != nil {
		t.Skipf("this sshd removes the socket when the connection ends (%v): nothing to show", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "ssh", "-F", cfg, "-N", "-o", "ExitOnForwardFailure=yes", "sshtest")
	out, err := cmd.CombinedOutput() // exits at once when the forward cannot be set up
	if ctx.Err() != nil || err == nil || !strings.Contains(string(out), "forwarding failed") {
		t.Errorf("the second forward over a stale socket: %v %s; want it refused", err, out)
	}
}

// `feedback mcp --wait N` (what feedback setup writes for Codex and Gemini
// CLI) bounds every call's wait: past it the call says "call again" while
// the question stays open, well before the client's own timeout.
func TestShimWaitFlag(t *testing.T) {
	headless := headlessAlone(t) // revisions_test.go
	dir, err := os.MkdirTemp("", "fbwait")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p := &fakeapp.Presenter{Hold: true}
	app, err := fakeapp.Start(dir, p, ipc.ServerOptions{Version: "wait"})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	w := &testWriter{t: t, prefix: "shim: "}
	t.Cleanup(w.stop)
	shimEnv := append(os.Environ(), "FEEDBACK_SOCKET="+app.Socket, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
	tr := transport.NewStdioWithOptions(headless, shimEnv, []string{"mcp", "--wait", "2"}, transport.WithCommandStderrWriter(w))
	c := client.NewClient(tr, client.WithProtocolVersion("2025-11-25"))
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: "codex-mcp-client", Version: "1.0"} // 50 s by its profile
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := callNow(t, c, "interactive_feedback", map[string]any{"message": "Wait for me?"})
	took := time.Since(start)
	if !strings.Contains(text(r), "has not answered yet") || took < 2*time.Second || took > 10*time.Second {
		t.Errorf("after %v: %q; want \"not answered yet\" after about 2 s", took, text(r))
	}
	if st := p.Stats(); len(st.Pending) != 1 {
		t.Errorf("the question should stay open: %+v", st.Pending)
	}
}
