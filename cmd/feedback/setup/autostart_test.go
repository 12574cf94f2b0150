package setup

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAutostartLinuxCreatesAndRemovesTheDesktopEntry(t *testing.T) {
	te := newEnv(t)
	te.Exe = "/opt/my apps/feedback"
	path := filepath.Join(te.Home, ".config", "autostart", "feedback.desktop")

	if code := Run([]string{"autostart"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no entry: %v", err)
	}
	keys := desktopKeys(t, data)
	if keys["Type"] != "Application" || keys["Exec"] != `"/opt/my apps/feedback"` || keys["X-GNOME-Autostart-enabled"] != "true" {
		t.Errorf("entry %v", keys)
	}
	if !strings.Contains(te.stdout.String(), "starts when you log in") {
		t.Errorf("stdout %q", te.stdout)
	}
	if in, cur, err := AutostartState(te.Env); !in || !cur || err != nil {
		t.Errorf("state %v %v %v", in, cur, err)
	}

	te.stdout.Reset()
	Run([]string{"autostart"}, te.Env)
	if !strings.Contains(te.stdout.String(), "already starts at login") {
		t.Errorf("second run: %q", te.stdout)
	}

	te.stdout.Reset()
	if code := Run([]string{"autostart", "--remove"}, te.Env); code != 0 {
		t.Fatalf("remove: exit %d", code)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("entry still there: %v", err)
	}
	te.stdout.Reset()
	Run([]string{"autostart", "--remove"}, te.Env)
	if !strings.Contains(te.stdout.String(), "nothing changed") {
		t.Errorf("second remove: %q", te.stdout)
	}
}

func TestAutostartFollowsXDGConfigHome(t *testing.T) {
	te := newEnv(t)
	te.vars["XDG_CONFIG_HOME"] = filepath.Join(te.Home, "cfg")
	if a := AutostartEntry(te.Env); a.Where != filepath.Join(te.Home, "cfg", "autostart", "feedback.desktop") {
		t.Errorf("where %s", a.Where)
	}
}

// desktopKeys parses the [Desktop Entry] group of a desktop file.
func desktopKeys(t *testing.T, data []byte) map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[0] != "[Desktop Entry]" {
		t.Fatalf("first line %q", lines[0])
	}
	keys := map[string]string{}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			t.Fatalf("bad line %q", l)
		}
		keys[k] = v
	}
	return keys
}

// unquoteExec undoes execQuote as a desktop environment does: the string
// escapes first (\\ → \), then the Exec quoting (\x → x inside quotes),
// then %% → %.
func unquoteExec(s string) string {
	s = strings.ReplaceAll(s, `\\`, "\x00")
	s = strings.ReplaceAll(s, "\x00", `\`)
	if strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) {
		s = s[1 : len(s)-1]
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
			}
			b.WriteByte(s[i])
		}
		s = b.String()
	}
	return strings.ReplaceAll(s, "%%", "%")
}

func TestExecQuoteRoundTrips(t *testing.T) {
	for _, p := range []string{"/usr/bin/feedback", "/opt/my apps/feedback", `/odd/"q"/$HOME/back\slash/100%/feedback`, "/a`b`/feedback"} {
		q := execQuote(p)
		if got := unquoteExec(q); got != p {
			t.Errorf("execQuote(%q) = %q, reads back as %q", p, q, got)
		}
	}
}

func TestAutostartMacOSWritesALaunchAgent(t *testing.T) {
	te := newEnv(t)
	te.GOOS = "darwin"
	te.Exe = "/Applications/feedback & co.app/Contents/MacOS/feedback"
	if code := Run([]string{"autostart"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	path := filepath.Join(te.Home, "Library", "LaunchAgents", "io.feedback.app.plist")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	plist := parsePlist(t, data)
	if plist["Label"] != "io.feedback.app" || plist["ProgramArguments"] != te.Exe || plist["RunAtLoad"] != "true" {
		t.Errorf("plist %v", plist)
	}
	if code := Run([]string{"autostart", "--remove"}, te.Env); code != 0 {
		t.Fatal(te.stderr)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("plist still there")
	}
}

// parsePlist reads the top-level dict of a property list: strings, the
// first string of an array, and booleans as "true"/"false".
func parsePlist(t *testing.T, data []byte) map[string]string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	out := map[string]string{}
	key, inArray := "", false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("plist does not parse: %v\n%s", err, data)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			switch el.Name.Local {
			case "key", "string":
				var s string
				if err := d.DecodeElement(&s, &el); err != nil {
					t.Fatal(err)
				}
				if el.Name.Local == "key" {
					key = s
				} else if _, seen := out[key]; !seen || !inArray {
					out[key] = s
				}
			case "true", "false":
				out[key] = el.Name.Local
			case "array":
				inArray = true
			}
		case xml.EndElement:
			if el.Name.Local == "array" {
				inArray = false
			}
		}
	}
	return out
}

func TestAutostartWindowsNamesTheRunKey(t *testing.T) {
	te := newEnv(t)
	te.GOOS = "windows"
	te.Exe = `C:\Program Files\feedback\feedback.exe`
	if code := Run([]string{"autostart", "--print"}, te.Env); code != 0 {
		t.Fatal(te.stderr)
	}
	want := `HKEY_CURRENT_USER\Software\Microsoft\Windows\CurrentVersion\Run\feedback:` + "\n" + `"C:\Program Files\feedback\feedback.exe"`
	if !strings.Contains(te.stdout.String(), want) {
		t.Errorf("stdout %q, want %q", te.stdout, want)
	}
}

// The start_at_login setting, applied when the app starts.
func TestApplyStartAtLogin(t *testing.T) {
	te := newEnv(t)
	a, changed, err := ApplyStartAtLogin(te.Env, true)
	if err != nil || !changed {
		t.Fatalf("on: %v %v", changed, err)
	}
	if _, err := os.Stat(a.Where); err != nil {
		t.Fatal(err)
	}
	if _, changed, _ := ApplyStartAtLogin(te.Env, true); changed {
		t.Error("on again changed something")
	}
	if _, changed, err := ApplyStartAtLogin(te.Env, false); err != nil || !changed {
		t.Fatalf("off: %v %v", changed, err)
	}
	if _, err := os.Stat(a.Where); !os.IsNotExist(err) {
		t.Errorf("entry still there: %v", err)
	}
}

func TestAutostartRefusesTheHeadlessBuild(t *testing.T) {
	te := newEnv(t)
	te.Headless = true
	if code := Run([]string{"autostart"}, te.Env); code != 1 || !strings.Contains(te.stderr.String(), "headless build") {
		t.Errorf("exit %d, stderr %q", code, te.stderr)
	}
	if _, err := os.Stat(AutostartEntry(te.Env).Where); !os.IsNotExist(err) {
		t.Errorf("an entry was written: %v", err)
	}
}
