//go:build linux

package uiprocess

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/internal/display"
	"feedback/ipc/uiproto"
)

// The X server goes away after the UI process checked it and before Fyne
// opens it (seen in a session-end test: "PlatformError: X11: Failed to open
// display", then a panic in Fyne's driver): the process ends with an error
// that says the display went away, and no panic. The UI process runs in a
// child of the test binary, on an Xvfb of its own that the child stops at
// that moment.
func TestUIProcessEndsQuietlyWhenTheDisplayGoesAway(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server")
	}
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("needs Xvfb")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	x := exec.Command(xvfb, "-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "640x480x24")
	x.ExtraFiles = []*os.File{w}
	if err := x.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer x.Process.Kill()
	go x.Wait()
	num, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("Xvfb said no display number: %v", err)
	}
	display := ":" + strings.TrimSpace(num)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	child := exec.CommandContext(ctx, os.Args[0])
	child.Env = append(os.Environ(), "FEEDBACK_TEST_SERVE_CHILD=1", "DISPLAY="+display, "WAYLAND_DISPLAY=",
		"FEEDBACK_TEST_XVFB_PID="+strconv.Itoa(x.Process.Pid))
	out, err := child.CombinedOutput()
	if err != nil || strings.Contains(string(out), "panic") || strings.Contains(string(out), "GLFW library is not initialized") || !strings.Contains(string(out), "ended quietly") {
		t.Fatalf("the UI process did not end quietly (%v):\n%s", err, out)
	}
}

// TestMain runs the UI process of the test above when asked to: on the main
// goroutine, as the real one runs (Fyne's loop must).
func TestMain(m *testing.M) {
	if os.Getenv("FEEDBACK_TEST_SERVE_CHILD") != "1" {
		os.Exit(m.Run())
	}
	if err := serveWhileTheDisplayGoes(); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("ended quietly")
}

func serveWhileTheDisplayGoes() error {
	pid, err := strconv.Atoi(os.Getenv("FEEDBACK_TEST_XVFB_PID"))
	if err != nil {
		return err
	}
	afterDisplayCheck = func() {
		syscall.Kill(pid, syscall.SIGKILL)
		for deadline := time.Now().Add(10 * time.Second); display.Check() == nil; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				panic("the X server did not go away")
			}
		}
	}
	app, ui := net.Pipe()
	go func() { // the app's side: the Hello, then the settings
		c := uiproto.NewAppConn(app)
		if _, err := c.Receive(); err != nil {
			return
		}
		c.Send(uiproto.Settings{})
		for {
			if _, err := c.Receive(); err != nil {
				return
			}
		}
	}()
	err = Serve(ui, Config{})
	if !errors.Is(err, display.ErrNone) || !strings.Contains(err.Error(), "display went away") {
		return fmt.Errorf("Serve = %v, want an error saying the display went away", err)
	}
	return nil
}
