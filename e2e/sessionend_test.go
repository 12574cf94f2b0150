package e2e

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/e2e/internal/procs"
	"feedback/ipc"
	"feedback/ipc/wire"
)

// ownApp is an app started by a test itself, on a socket of its own, with
// its exit status and output kept.
type ownApp struct {
	cmd    *exec.Cmd
	socket string
	out    *os.File // its stdout and stderr
	exited chan error
}

// startOwnApp starts the app with extraEnv (later entries win) on a socket
// of its own; it does not wait for it to answer.
func startOwnApp(t *testing.T, extraEnv ...string) *ownApp {
	t.Helper()
	return startOwnAppFrom(t, bin, extraEnv...)
}

// startOwnAppFrom is startOwnApp running the binary at exe.
func startOwnAppFrom(t *testing.T, exe string, extraEnv ...string) *ownApp {
	t.Helper()
	dir, err := os.MkdirTemp("", "fbown") // short: a socket path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	a := &ownApp{socket: filepath.Join(dir, "feedback.sock"), exited: make(chan error, 1)}
	a.out, err = os.Create(filepath.Join(t.TempDir(), "app.log"))
	if err != nil {
		t.Fatal(err)
	}
	a.cmd = exec.Command(exe)
	a.cmd.Env = append(append(append(os.Environ(), env...), "FEEDBACK_SOCKET="+a.socket, "FEEDBACK_DB=off"), extraEnv...)
	a.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	a.cmd.Stdout, a.cmd.Stderr = a.out, a.out
	if err := a.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { a.exited <- a.cmd.Wait() }()
	t.Cleanup(func() {
		a.cmd.Process.Kill()
		if t.Failed() {
			data, _ := os.ReadFile(a.out.Name())
			t.Logf("the app's output:\n%s", data)
		}
	})
	return a
}

func (a *ownApp) client() *ipc.Client { return &ipc.Client{Path: a.socket} }

// waitUp waits until the app answers on its socket.
func (a *ownApp) waitUp(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := a.client().Hello(ctx)
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the app does not answer on %s: %v", a.socket, err)
		}
	}
}

// waitUIProcess waits until the app has started a UI process and returns
// the pids of its UI processes.
func (a *ownApp) waitUIProcess(t *testing.T) []int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if pids := procs.UI(a.cmd.Process.Pid); len(pids) > 0 {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatal("no UI process started")
		}
	}
}

// waitExit waits up to within for the app to exit and checks that it
// exited 0 with no panic in its output.
func (a *ownApp) waitExit(t *testing.T, within time.Duration) {
	t.Helper()
	select {
	case err := <-a.exited:
		if err != nil {
			t.Errorf("the app exited with %v, want 0", err)
		}
	case <-time.After(within):
		t.Fatalf("the app is still running %v later", within)
	}
	data, _ := os.ReadFile(a.out.Name())
	for _, bad := range []string{"panic", "fatal error:", "GLFW library is not initialized"} {
		if strings.Contains(string(data), bad) {
			t.Errorf("the app's output has %q:\n%s", bad, data)
		}
	}
}

// SIGTERM at any moment — the app just started (its socket made, before
// its tray, inbox and server), its UI process starting for a first question, idle — ends the
// app cleanly: exit 0, no panic (once: "GLFW library is not initialized").
func TestSIGTERMAtAnyMoment(t *testing.T) {
	requireSession(t)
	t.Run("just started", func(t *testing.T) {
		a := startOwnApp(t)
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			if _, err := os.Stat(a.socket); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the app never made its socket")
			}
		}
		a.cmd.Process.Signal(syscall.SIGTERM)
		a.waitExit(t, 15*time.Second)
	})
	t.Run("UI process starting", func(t *testing.T) {
		a := startOwnApp(t)
		a.waitUp(t)
		go a.client().Ask(context.Background(), wire.Ask{Question: choiceQuestion("TermStarting")}, nil)
		a.waitUIProcess(t)
		a.cmd.Process.Signal(syscall.SIGTERM)
		a.waitExit(t, 15*time.Second)
	})
	// SIGTERM to the UI process itself (Fyne's own handler ends its loop):
	// it exits, and the app shows the open question again in a new one.
	t.Run("UI process", func(t *testing.T) {
		a := startOwnApp(t)
		a.waitUp(t)
		go a.client().Ask(context.Background(), wire.Ask{Question: choiceQuestion("TermUI")}, nil)
		first := a.waitUIProcess(t)
		syscall.Kill(first[0], syscall.SIGTERM)
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			pids := procs.UI(a.cmd.Process.Pid)
			if len(pids) == 1 && pids[0] != first[0] {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("UI processes %v 10 s after SIGTERM to %d, want another one", pids, first[0])
			}
		}
		a.cmd.Process.Signal(syscall.SIGTERM)
		a.waitExit(t, 15*time.Second)
	})
	t.Run("idle", func(t *testing.T) {
		a := startOwnApp(t)
		a.waitUp(t)
		a.cmd.Process.Signal(syscall.SIGTERM)
		a.waitExit(t, 15*time.Second)
	})
}

// throwAwaySession starts an X server and a session bus of their own and
// returns them with the environment that names them.
func throwAwaySession(t *testing.T) (x, bus *exec.Cmd, env []string) {
	t.Helper()
	x, display := startXvfb(t, "800x600x24")
	bus = exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	out, err := bus.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := bus.Start(); err != nil {
		t.Skipf("no dbus-daemon: %v", err)
	}
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		bus.Process.Kill()
		bus.Wait()
		t.Fatalf("dbus-daemon gave no address: %v", err)
	}
	// A bus killed outright (the test kills one) leaves its socket behind.
	t.Cleanup(func() {
		bus.Process.Kill()
		bus.Wait()
		for _, kv := range strings.Split(strings.TrimPrefix(strings.TrimSpace(addr), "unix:"), ",") {
			if path, ok := strings.CutPrefix(kv, "path="); ok {
				os.Remove(path)
			}
		}
	})
	return x, bus, []string{"DISPLAY=:" + display, "DBUS_SESSION_BUS_ADDRESS=" + strings.TrimSpace(addr), "XAUTHORITY="}
}

// startXvfb starts an X server of the test's own and returns it with its
// display number, once it accepts connections. The number is drawn at random
// (Xvfb -displayfd alone takes the first free one from :0, the display other
// runs on the machine are likely to use too); one in use makes Xvfb exit, and
// another is tried. It is killed at the end of the test with its socket in
// /tmp/.X11-unix (and lock file, had it one) removed: a server killed outright
// leaves them behind, and the test kills one on purpose. (No Pdeathsig:
// Linux sends it when the thread that started the child exits, which a Go
// program's threads may do at any time: the server died under the test.
// A killed test binary's servers go with xsession.sh's process group.)
func startXvfb(t *testing.T, screen string) (*exec.Cmd, string) {
	t.Helper()
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Skipf("no Xvfb: %v", err)
	}
	for try := 0; try < 20; try++ {
		n := strconv.Itoa(1000 + rand.IntN(30000))
		if _, err := os.Stat("/tmp/.X11-unix/X" + n); err == nil {
			continue // in use, or left by a server killed outright
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		x := exec.Command("Xvfb", ":"+n, "-displayfd", "3", "-nolisten", "tcp", "-screen", "0", screen)
		x.ExtraFiles = []*os.File{w}
		if err := x.Start(); err != nil {
			t.Fatalf("Xvfb: %v", err)
		}
		w.Close()
		ready, _ := bufio.NewReader(r).ReadString('\n') // EOF: it exited
		r.Close()
		if strings.TrimSpace(ready) != n {
			x.Wait()
			continue
		}
		t.Cleanup(func() {
			x.Process.Kill()
			x.Wait()
			removeXLeftovers(n, x.Process.Pid)
		})
		return x, n
	}
	t.Fatal("Xvfb found no free display in 20 tries")
	return nil, ""
}

// removeXLeftovers removes the socket and lock file of display n that the
// server pid, now gone, left behind; not those of a server started on n since.
func removeXLeftovers(n string, pid int) {
	lock := "/tmp/.X" + n + "-lock"
	if b, err := os.ReadFile(lock); err == nil {
		owner, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if owner != pid && syscall.Kill(owner, 0) == nil {
			return // another server's
		}
		os.Remove(lock)
	}
	os.Remove("/tmp/.X11-unix/X" + n)
}

// The desktop session ends — its X server, or its session bus, goes away —
// and the resident app started in it exits within seconds (exit 0), its
// UI process with it, instead of living on with nothing to show windows on.
func TestAppExitsWithItsSession(t *testing.T) {
	requireSession(t)
	for _, end := range []string{"X server", "session bus"} {
		t.Run(end, func(t *testing.T) {
			x, bus, sessionEnv := throwAwaySession(t)
			a := startOwnApp(t, sessionEnv...)
			a.waitUp(t)
			q := choiceQuestion("SessionEnds")
			q.TimeoutSeconds = 600
			go a.client().Ask(context.Background(), wire.Ask{Question: q}, nil)
			a.waitUIProcess(t)
			victim := x
			if end == "session bus" {
				victim = bus
			}
			victim.Process.Kill()
			a.waitExit(t, 5*time.Second)
		})
	}
}
