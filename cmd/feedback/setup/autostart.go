package setup

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"feedback/assets"
	"feedback/internal/atomicfile"
	"feedback/internal/safefile"
)

// AppID is the app's reverse-DNS identifier (FyneApp.toml's ID), the
// LaunchAgent's label.
const AppID = assets.AppID

// runValue is the name of the value under the Windows Run key.
const runValue = "feedback"

// Autostart is the start-at-login entry of this OS.
type Autostart struct {
	Kind    string // "XDG autostart entry", "LaunchAgent", "Run key value"
	Where   string // the file, or the registry value
	Content []byte // what the file holds, or the command of the Run value
}

// AutostartEntry returns the entry that starts this binary (e.Exe) at
// login: an XDG autostart .desktop file on Linux and the BSDs, a
// LaunchAgent on macOS, a value under the per-user Run key on Windows.
func AutostartEntry(e Env) Autostart {
	switch e.GOOS {
	case "windows":
		return Autostart{Kind: "Run key value", Where: `HKEY_CURRENT_USER\` + runKeyPath + `\` + runValue,
			Content: []byte(`"` + e.Exe + `"`)}
	case "darwin":
		return Autostart{Kind: "LaunchAgent", Where: filepath.Join(e.Home, "Library", "LaunchAgents", AppID+".plist"),
			Content: launchAgent(e.Exe)}
	}
	dir := filepath.Join(e.Home, ".config")
	if d := e.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		dir = d
	}
	return Autostart{Kind: "XDG autostart entry", Where: filepath.Join(dir, "autostart", "feedback.desktop"),
		Content: desktopEntry(e.Exe)}
}

// runKeyPath is the per-user Run key, under HKEY_CURRENT_USER.
const runKeyPath = `Software\Microsoft\Windows\CurrentVersion\Run`

// desktopEntry is an XDG autostart entry (Desktop Entry Specification 1.5)
// that runs exe.
func desktopEntry(exe string) []byte {
	return []byte("[Desktop Entry]\n" +
		"Type=Application\n" +
		"Name=feedback\n" +
		"Comment=Answer your AI coding agents' questions in a native window\n" +
		"Exec=" + execQuote(exe) + "\n" +
		"Icon=feedback\n" +
		"Terminal=false\n" +
		"X-GNOME-Autostart-enabled=true\n")
}

// execQuote quotes one argument of a desktop entry's Exec key: inside
// double quotes, `"`, "`", "$" and "\" are escaped with a backslash, and
// then, as in every string value, each backslash is doubled; "%" is
// doubled too, so that it is not a field code.
func execQuote(arg string) string {
	if arg != "" && !strings.ContainsAny(arg, " \t\n\"'\\><~|&;$*?#()`%=") {
		return arg
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range arg {
		switch r {
		case '"', '`', '$', '\\':
			b.WriteString(`\\`) // the quoting backslash, itself escaped in a string value
			if r == '\\' {
				b.WriteString(`\\`)
			} else {
				b.WriteRune(r)
			}
		case '%':
			b.WriteString("%%")
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// launchAgent is a LaunchAgent property list that runs exe at login.
func launchAgent(exe string) []byte {
	esc := func(s string) string {
		var b bytes.Buffer
		xml.EscapeText(&b, []byte(s))
		return b.String()
	}
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + AppID + `</string>
	<key>ProgramArguments</key>
	<array>
		<string>` + esc(exe) + `</string>
	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>ProcessType</key>
	<string>Interactive</string>
</dict>
</plist>
`)
}

// maxAutostartBytes bounds the autostart entry AutostartState reads (ours
// is under 1 KiB).
const maxAutostartBytes = 64 << 10

// AutostartState reports whether the entry is installed, and whether it
// runs this binary.
func AutostartState(e Env) (installed, current bool, err error) {
	a := AutostartEntry(e)
	if e.GOOS == "windows" {
		v, ok, err := runKeyGet(runValue)
		return ok, ok && v == string(a.Content), err
	}
	data, err := safefile.ReadFile(a.Where, maxAutostartBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	return true, bytes.Equal(data, a.Content), nil
}

// InstallAutostart makes this binary start at login; changed is false when
// it already did.
func InstallAutostart(e Env) (a Autostart, changed bool, err error) {
	a = AutostartEntry(e)
	if _, current, err := AutostartState(e); err != nil || current {
		return a, false, err
	}
	if e.GOOS == "windows" {
		return a, true, runKeySet(runValue, string(a.Content))
	}
	// Readable by the session's autostart (0644), in a folder others
	// may read (~/.config/autostart).
	return a, true, atomicfile.WriteFile(a.Where, a.Content, atomicfile.Options{Perm: 0o644, DirPerm: 0o755})
}

// RemoveAutostart removes the entry; removed is false when there was none.
func RemoveAutostart(e Env) (a Autostart, removed bool, err error) {
	a = AutostartEntry(e)
	if e.GOOS == "windows" {
		if _, ok, err := runKeyGet(runValue); err != nil || !ok {
			return a, false, err
		}
		return a, true, runKeyDelete(runValue)
	}
	err = os.Remove(a.Where)
	if errors.Is(err, fs.ErrNotExist) {
		return a, false, nil
	}
	return a, err == nil, err
}

// ApplyStartAtLogin makes the start-at-login entry match want (the
// start_at_login setting): installed for this binary, or removed. changed
// says whether anything was done.
func ApplyStartAtLogin(e Env, want bool) (a Autostart, changed bool, err error) {
	if want {
		return InstallAutostart(e)
	}
	return RemoveAutostart(e)
}

// runAutostart is `feedback setup autostart [--remove] [--print]`.
func runAutostart(args []string, e Env) int {
	fs := flag.NewFlagSet("feedback setup autostart", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	remove := fs.Bool("remove", false, "stop starting the app at login")
	print := fs.Bool("print", false, "show the entry, change nothing")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.Stderr, "feedback setup autostart: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *print {
		a := AutostartEntry(e)
		fmt.Fprintf(e.Stdout, "%s %s:\n%s", a.Kind, a.Where, a.Content)
		if e.GOOS == "windows" {
			fmt.Fprintln(e.Stdout)
		}
		return 0
	}
	if e.Headless && !*remove {
		fmt.Fprintln(e.Stderr, "feedback setup autostart: this is the headless build, which has no app to start; "+
			"run it with the desktop build of feedback")
		return 1
	}
	if *remove {
		a, removed, err := RemoveAutostart(e)
		switch {
		case err != nil:
			fmt.Fprintf(e.Stderr, "feedback setup autostart --remove: %v\n", err)
			return 1
		case removed:
			fmt.Fprintf(e.Stdout, "Removed the %s %s: feedback no longer starts at login.\n", a.Kind, tildePath(e, a.Where))
		default:
			fmt.Fprintf(e.Stdout, "feedback did not start at login (no %s); nothing changed.\n", tildePath(e, a.Where))
		}
		return 0
	}
	a, changed, err := InstallAutostart(e)
	switch {
	case err != nil:
		fmt.Fprintf(e.Stderr, "feedback setup autostart: %v\n", err)
		return 1
	case changed:
		fmt.Fprintf(e.Stdout, "Wrote the %s %s: feedback starts when you log in (runs %s).\nUndo with: feedback setup autostart --remove\n",
			a.Kind, tildePath(e, a.Where), e.Exe)
	default:
		fmt.Fprintf(e.Stdout, "feedback already starts at login (%s); nothing changed.\n", tildePath(e, a.Where))
	}
	return 0
}
