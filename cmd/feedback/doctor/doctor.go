// Package doctor is `feedback doctor`: it checks what the app and the shim
// need on this machine and prints one line per check, OK, WARN or FAIL,
// with what to do about anything that is not OK. It changes nothing: the
// database is opened read-only, the app is only greeted (ipc Hello), and
// the session bus is asked who owns a name.
//
// FAIL means feedback will not work as set up (the app's socket refuses
// us, the database or the settings file is damaged, no display on a
// desktop); WARN means it works with less (no tray icon, no notifications,
// no CJK font, a client not set up). Run returns 0 when nothing FAILs.
package doctor

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"feedback/cmd/feedback/setup"
	"feedback/internal/display"
	"feedback/internal/hotkey"
	"feedback/internal/hotkey/xgrab"
	"feedback/internal/termtext"
)

// Level is a check's verdict.
type Level int

const (
	OK Level = iota
	Warn
	Fail
)

func (l Level) String() string {
	return [...]string{"OK", "WARN", "FAIL"}[l]
}

// Result is one line of the report.
type Result struct {
	Level Level
	Check string // display, bus, tray, …
	Msg   string // what was found
	Fix   string // what to do, when Level is not OK
}

// Env is what the checks look at; StdEnv fills it from this process.
type Env struct {
	Version  string // this binary's version
	Headless bool   // this binary has no window app (go build -tags headless)
	GOOS     string
	Getenv   func(string) string
	// FCList is fontconfig's fc-list, "" when it is missing; then FontDirs
	// are searched for a CJK font by file name.
	FCList   string
	FontDirs []string
	Setup    setup.Env
	Stdout   io.Writer
	// Timeout bounds each check that talks to another process.
	Timeout time.Duration
	// ProbeDisplay connects to the X server of a DISPLAY value, briefly
	// (display.Probe); nil skips the connection.
	ProbeDisplay func(display string) error
	// ProbeShortcut takes and lets go of a global shortcut on the X
	// server of $DISPLAY (xgrab.Probe); nil skips it.
	ProbeShortcut func(hotkey.Shortcut) error
}

// check is one check; it may return several lines.
type check func(ctx context.Context, e Env) []Result

// checks runs in this order, which is the order of the report.
var checks = []check{
	checkDisplay,
	checkBus,
	checkTray,
	checkNotifications,
	checkShortcut, // shortcut.go
	checkCJKFont,
	checkApp,
	checkRelay, // relay.go
	checkDatabase,
	checkSettings,
	checkClients,
	checkTrust, // trust.go
	checkAutostart,
}

// Check runs every check.
func Check(ctx context.Context, e Env) []Result {
	if e.Timeout <= 0 {
		e.Timeout = 3 * time.Second
	}
	var out []Result
	for _, c := range checks {
		out = append(out, c(ctx, e)...)
	}
	return out
}

// Run prints the report and returns 0 when nothing failed, else 1.
func Run(ctx context.Context, args []string, e Env) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" {
			fmt.Fprintln(e.Stdout, "usage: feedback doctor   check this machine for what feedback needs; exit status 1 if a check FAILs")
			return 0
		}
		fmt.Fprintf(os.Stderr, "feedback doctor: unexpected argument %q\n", args[0])
		return 2
	}
	results := Check(ctx, e)
	fails, warns := 0, 0
	for _, r := range results {
		// Inert: a message can quote what others control (a path, a
		// file's content, what a process on the socket said).
		fmt.Fprintf(e.Stdout, "%-4s  %-13s %s\n", r.Level, r.Check, termtext.Inert(r.Msg))
		if r.Fix != "" && r.Level != OK {
			for _, l := range strings.Split(r.Fix, "\n") {
				fmt.Fprintf(e.Stdout, "%-4s  %-13s   → %s\n", "", "", termtext.Inert(l))
			}
		}
		switch r.Level {
		case Fail:
			fails++
		case Warn:
			warns++
		}
	}
	fmt.Fprintf(e.Stdout, "\n%s\n", summary(fails, warns))
	if fails > 0 {
		return 1
	}
	return 0
}

// StdEnv is the Env of this process, with se the setup.Env of this
// process. headless says that this binary has no window app.
func StdEnv(version string, headless bool, se setup.Env) (Env, error) {
	var dirs []string
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		dirs = append(dirs, filepath.Join(d, "fonts"))
	}
	dirs = append(dirs, filepath.Join(se.Home, ".local", "share", "fonts"), filepath.Join(se.Home, ".fonts"),
		"/usr/local/share/fonts", "/usr/share/fonts")
	fclist, _ := exec.LookPath("fc-list")
	return Env{Version: version, Headless: headless, GOOS: runtime.GOOS, Getenv: os.Getenv,
		FCList: fclist, FontDirs: dirs, Setup: se, Stdout: os.Stdout, ProbeDisplay: display.Probe, ProbeShortcut: xgrab.Probe}, nil
}

// summary is doctor's last line: "1 check failed, 2 warnings.", "No
// failures; 1 warning: feedback works, with less.", or "All good.".
func summary(fails, warns int) string {
	switch {
	case fails > 0 && warns > 0:
		return fmt.Sprintf("%s failed, %s.", count(fails, "check"), count(warns, "warning"))
	case fails > 0:
		return count(fails, "check") + " failed."
	case warns > 0:
		return "No failures; " + count(warns, "warning") + ": feedback works, with less."
	}
	return "All good."
}

// count is "1 warning", "2 warnings".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
