package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"feedback/e2e/internal/procs"
)

// A package upgrade replaces the binary under the running app (a new file
// renamed over the old one, as dpkg does). The questions asked afterwards —
// by the new binary's shim, as an MCP client started after the upgrade
// would — are shown by a UI process of the app's own build (started from
// the running binary, not from the new file), answered, and the same UI
// process shows the next one: no mismatch, no restart loop.
func TestUpgradeUnderARunningApp(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	dir := t.TempDir()
	exe := filepath.Join(dir, "feedback")
	copyFile(t, bin, exe)
	oldVersion := versionOf(t, exe)
	newVersion := oldVersion + "-upgraded"
	// Built first: it takes a while, and the app must be running its old
	// build when the file is replaced.
	built := filepath.Join(dir, "feedback.new")
	buildVersion(t, newVersion, built)

	a := startOwnAppFrom(t, exe)
	a.waitUp(t)
	app := a.cmd.Process.Pid
	if err := os.Rename(built, exe); err != nil {
		t.Fatal(err)
	}
	if v := versionOf(t, exe); v != newVersion {
		t.Fatalf("the replaced binary says %q, want %q", v, newVersion)
	}

	c := startMCPClient(t, "upgrade", "2025-11-25", exe, []string{"mcp"}, nil, "FEEDBACK_SOCKET="+a.socket)
	r := answerFeedback(t, c, "UpgradeFirst", "answered after the upgrade")
	if !strings.Contains(text(r), "answered after the upgrade") {
		t.Fatalf("result %q lacks the answer", text(r))
	}
	ui := procs.UI(app)
	if len(ui) != 1 {
		t.Fatalf("the app has UI processes %v, want one", ui)
	}
	if !sameFile(t, app, ui[0]) {
		t.Errorf("the UI process %d does not run the app's binary: the app's UI is another build", ui[0])
	}
	if sameFileAs(t, ui[0], exe) {
		t.Errorf("the UI process %d runs the new file, not the app's build", ui[0])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if h, err := a.client().Hello(ctx); err != nil || h.Version != oldVersion {
		t.Errorf("the app says version %+v (%v), want the build it started as, %q", h, err, oldVersion)
	}

	answerFeedback(t, c, "UpgradeSecond", "and again")
	if now := procs.UI(app); len(now) != 1 || now[0] != ui[0] {
		t.Errorf("UI processes %v after the second question, want the same one %d: it was restarted", now, ui[0])
	}
	if a.cmd.ProcessState != nil {
		t.Error("the app exited")
	}
}

// versionOf is what `exe version` prints after "feedback ".
func versionOf(t *testing.T, exe string) string {
	t.Helper()
	out, err := exec.Command(exe, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", exe, err)
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "feedback ")
}

// buildVersion builds the app as `make build` does, with version, at out.
func buildVersion(t *testing.T, version, out string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version, "-o", out, "./cmd/feedback")
	cmd.Dir = ".." // the module's root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the upgrade: %v\n%s", err, b)
	}
}

// sameFile reports whether processes a and b run the same executable file
// (the same inode, even one deleted or renamed over).
func sameFile(t *testing.T, a, b int) bool {
	t.Helper()
	return os.SameFile(exeInfo(t, a), exeInfo(t, b))
}

// sameFileAs reports whether process pid runs the file at path.
func sameFileAs(t *testing.T, pid int, path string) bool {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(exeInfo(t, pid), fi)
}

// exeInfo stats the executable process pid runs.
func exeInfo(t *testing.T, pid int) os.FileInfo {
	t.Helper()
	fi, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
