package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The demo of make run (scripts/demo.sh) says it waits for the answer,
// points at the tray icon only where doctor finds a tray host, and says to
// install before running setup — which writes the path of the feedback it
// runs into the client's config, so setup from the checkout would register
// bin/feedback-headless.
func TestDemoScript(t *testing.T) {
	for _, tray := range []string{"OK    tray          StatusNotifierWatcher found", "WARN  tray          no tray host (nothing owns org.kde.StatusNotifierWatcher)"} {
		dir := t.TempDir()
		fake := filepath.Join(dir, "feedback")
		stub := "#!/bin/sh\ncase \"$1\" in\nask) cat >/dev/null; echo 'Ship it';;\ndoctor) echo '" + tray + "';;\nesac\n"
		if err := os.WriteFile(fake, []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "../../scripts/demo.sh", fake)
		cmd.Env = append(os.Environ(), "DISPLAY=:999", "XDG_STATE_HOME="+dir)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("demo.sh: %v\n%s%s", err, out.String(), errb.String())
		}
		s := out.String()
		if !strings.Contains(errb.String(), "answer it or close it") {
			t.Errorf("the demo does not say it waits for the answer: %q", errb.String())
		}
		if inTray := strings.Contains(s, "icon is in your tray"); inTray != strings.HasPrefix(tray, "OK") {
			t.Errorf("doctor says %q, the demo says:\n%s", tray, s)
		}
		// Without a tray it is quit with feedback quit (this user's app,
		// as the tray's Quit), never a pkill matching everyone's.
		if !strings.HasPrefix(tray, "OK") && (!strings.Contains(s, "quit:                   "+fake+" quit") || strings.Contains(s, "pkill")) {
			t.Errorf("without a tray the demo says to quit:\n%s", s)
		}
		install, setup := strings.Index(s, "install it on PATH"), strings.Index(s, "setup claude-code")
		if install < 0 || setup < 0 || setup < install || strings.Contains(s, fake+" setup") {
			t.Errorf("the next steps do not install first, then run the installed setup:\n%s", s)
		}
	}
}
