package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"feedback/internal/hookio"
	"feedback/ipc/wire"
)

// goneWithin is how soon an approval's window must close once its client
// stopped waiting.
const goneWithin = 1500 * time.Millisecond

// When Claude Code stops waiting for its PermissionRequest hook — the user
// answered in its own dialog, or it went away — the hook notices and the
// approval window closes within about a second, History says the call was
// answered elsewhere, and the hook exits: (a) the hook's standard input
// closes after the event, (b) the reader of its standard output goes away,
// (c) its parent exits, leaving it orphaned. The test plays Claude Code.
func TestApprovalHookClientGone(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db)
	const title = "Run a command? — feedback"

	for _, tc := range []struct {
		name, command string
		run           func(t *testing.T, event string) (stopWaiting func(), exited func() bool)
	}{
		{"stdin closed", "make stdin-closed", func(t *testing.T, event string) (func(), func() bool) {
			h := spawnHook(t, event)
			return func() {
				// An end of input within the grace after the event is the
				// event's own end (Claude Code closes it at once); a client
				// that kept it open closes it later.
				if d := time.Until(h.wrote.Add(hookio.EventEndGrace + 100*time.Millisecond)); d > 0 {
					time.Sleep(d)
				}
				h.stdin.Close()
			}, h.exited
		}},
		{"stdout's reader gone", "make stdout-gone", func(t *testing.T, event string) (func(), func() bool) {
			h := spawnHook(t, event)
			return func() { h.stdout.Close() }, h.exited
		}},
		{"parent exited", "make orphaned", func(t *testing.T, event string) (func(), func() bool) {
			return spawnOrphanHook(t, event)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stopWaiting, exited := tc.run(t, approvalEvent(tc.command))
			findWindow(t, title)
			stopWaiting() // its last step is the client's leaving
			start := time.Now()
			windowGone(t, title, goneWithin)
			t.Logf("the window closed %v after the client stopped waiting", time.Since(start).Round(time.Millisecond))
			waitFor(t, "the hook to exit", 5*time.Second, exited)
			elsewhere(t, db, tc.command)
		})
	}
}

// The permission prompt tool's call, cancelled by its client
// (notifications/cancelled) or ended with its input (the client quit),
// closes its approval window, and History says answered elsewhere.
func TestPermissionPromptClientGone(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db)
	const title = "Run a command? — feedback"
	prompt := func(command string) mcp.CallToolRequest {
		req := mcp.CallToolRequest{}
		req.Params.Name = "permission_prompt"
		req.Params.Arguments = map[string]any{"tool_name": "Bash", "input": map[string]any{"command": command}, "tool_use_id": "toolu_1"}
		return req
	}

	c := newMCP(t, "claude-code", "FEEDBACK_DB="+db)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := c.CallTool(ctx, prompt("make cancelled")); done <- err }()
	findWindow(t, title)
	cancel() // mcp-go's client sends notifications/cancelled
	windowGone(t, title, goneWithin)
	<-done
	elsewhere(t, db, "make cancelled")

	c = newMCP(t, "claude-code", "FEEDBACK_DB="+db)
	go func() { _, err := c.CallTool(context.Background(), prompt("make quit")); done <- err }()
	findWindow(t, title)
	c.Close() // the shim's standard input ends
	windowGone(t, title, goneWithin)
	<-done
	elsewhere(t, db, "make quit")
}

// elsewhere waits until `feedback history --json` lists the approval of
// command as answered elsewhere, and checks that the Markdown says so.
func elsewhere(t *testing.T, db, command string) {
	t.Helper()
	var got string
	waitFor(t, "History to list "+command+" as answered elsewhere", 5*time.Second, func() bool {
		doc, _ := readHistory(t, db)
		for _, q := range historyOf(doc.Loops, "Run a command?") {
			if q.Call != nil && q.Call.Subject == command {
				got = q.Outcome
				if q.Decision != nil {
					got = string(q.Decision.Kind)
				}
				return q.Decision != nil && q.Decision.Kind == wire.VerdictElsewhere
			}
		}
		return false
	})
	hist := exec.Command(bin, "history")
	hist.Env = append(hist.Environ(), "FEEDBACK_DB="+db)
	md, err := hist.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "### Run a command? — answered elsewhere\n") {
		t.Errorf("feedback history does not say answered elsewhere (%s):\n%s", got, md)
	}
}

type hookProc struct {
	stdin, stdout *os.File // the test's ends: it writes the event, reads the decision
	wrote         time.Time
	exited        func() bool
}

// spawnHook starts `feedback approve --from claude-code` as Claude Code
// does, writes event on its standard input and keeps both pipes open.
func spawnHook(t *testing.T, event string) hookProc {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "approve", "--from", "claude-code")
	cmd.Env = append(cmd.Environ(), env...)
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	t.Cleanup(func() { cmd.Process.Kill(); inW.Close(); outR.Close() })
	if _, err := inW.WriteString(event + "\n"); err != nil {
		t.Fatal(err)
	}
	wrote := time.Now()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	return hookProc{stdin: inW, stdout: outR, wrote: wrote, exited: func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}}
}

// spawnOrphanHook starts the hook through a shell that is then killed, so
// that the hook's parent exits while its standard input and output stay
// open (held here): only its parent tells it that its client went away.
func spawnOrphanHook(t *testing.T, event string) (kill func(), exited func() bool) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	// A background job's input is /dev/null unless redirected: fd 3 keeps it.
	sh := exec.Command("sh", "-c", `exec 3<&0; "$0" approve --from claude-code <&3 3<&- & echo $! > "$1"; wait`, bin, pidFile)
	sh.Env = append(sh.Environ(), env...)
	sh.Stdin, sh.Stdout = inR, outW
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	shDone := make(chan struct{})
	go func() { sh.Wait(); close(shDone) }()
	if _, err := inW.WriteString(event + "\n"); err != nil {
		t.Fatal(err)
	}
	var pid int
	waitFor(t, "the hook's pid", 5*time.Second, func() bool {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return pid > 0
	})
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL); sh.Process.Kill(); inW.Close(); outR.Close() })
	return func() {
			sh.Process.Kill()
			<-shDone
		}, func() bool {
			stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			if err != nil {
				return true
			}
			// After its command, in parentheses: the state; Z is a zombie.
			s := string(stat)
			return strings.HasPrefix(strings.TrimSpace(s[strings.LastIndexByte(s, ')')+1:]), "Z")
		}
}
