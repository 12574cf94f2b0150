package e2e

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"feedback/e2e/internal/fakeapp"
	"feedback/ipc"
)

// A dev container or a WSL2 distribution reaches the desktop's app through
// its socket directory mounted into it. The test plays the container with
// a mount namespace and a chroot holding nothing but the static headless
// binary: the desktop's socket directory is bind-mounted at
// /run/feedback, and `feedback ask` inside answers through it.
func TestContainerBindMountedSocket(t *testing.T) {
	headless := os.Getenv("FEEDBACK_HEADLESS_BIN")
	if headless == "" {
		t.Skip("needs FEEDBACK_HEADLESS_BIN (see `make e2e`)")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("needs unshare (util-linux)")
	}
	dir, err := os.MkdirTemp("", "fbct") // short: socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	desktop := filepath.Join(dir, "desktop")
	root := filepath.Join(dir, "root")
	mnt := filepath.Join(root, "run", "feedback")
	for _, d := range []string{desktop, mnt, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(t, headless, filepath.Join(root, "feedback"))
	probe := exec.Command("unshare", "--mount", "--fork", "true")
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("cannot make a mount namespace here (needs root or CAP_SYS_ADMIN): %v %s", err, out)
	}

	app, err := fakeapp.Start(desktop, &fakeapp.Presenter{}, ipc.ServerOptions{Version: "container"})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()

	msg := "From the container?"
	script := `mount --bind "$1" "$2" && exec chroot "$3" /feedback ask "$4"`
	cmd := exec.Command("unshare", "--mount", "--fork", "sh", "-c", script, "sh", desktop, mnt, root, msg)
	cmd.Env = []string{"FEEDBACK_SOCKET=/run/feedback/feedback.sock", "HOME=/tmp", "PATH=/usr/sbin:/usr/bin:/sbin:/bin"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("feedback ask in the container: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), reverse(msg)) {
		t.Errorf("the desktop's answer did not reach the container: %q", out)
	}
	if _, err := os.Stat(filepath.Join(mnt, "feedback.sock")); err == nil {
		t.Error("the bind mount leaked out of the test's mount namespace")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
