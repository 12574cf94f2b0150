package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"feedback/cmd/feedback/setup"
)

// Doctor, run in a project, says when a client set up for feedback will
// not use it there: the Gemini CLI in a folder not trusted yet or an entry
// without trust (set up by hand or by an older feedback), Claude Code in a
// folder whose trust dialog was not accepted with feedback in the
// project's settings; and says nothing once each is trusted.
func TestTrust(t *testing.T) {
	h := home(t)
	e, _ := env(t, h)
	e.Setup.Dir = filepath.Join(h, "shop")
	os.MkdirAll(e.Setup.Dir, 0o700)
	trust := func() string {
		var b strings.Builder
		for _, r := range checkTrust(context.Background(), e) {
			b.WriteString(r.Level.String() + " " + r.Msg + " | " + r.Fix + "\n")
		}
		return b.String()
	}
	if got := trust(); got != "" {
		t.Errorf("no client set up: %s", got)
	}

	gemini, _ := setup.Lookup("gemini")
	if _, err := setup.Configure(e.Setup, gemini, setup.ScopeUser, "", true); err != nil {
		t.Fatal(err)
	}
	if got := trust(); !strings.Contains(got, "has not been told to trust "+e.Setup.Dir) || strings.Contains(got, "does not trust feedback's server") {
		t.Errorf("gemini set up, the folder not trusted:\n%s", got)
	}
	os.WriteFile(filepath.Join(h, ".gemini", "trustedFolders.json"), []byte(`{"`+e.Setup.Dir+`": "TRUST_FOLDER"}`), 0o600)
	if got := trust(); got != "" {
		t.Errorf("gemini set up, the folder trusted: %s", got)
	}
	settings := filepath.Join(h, ".gemini", "settings.json")
	data, _ := os.ReadFile(settings)
	os.WriteFile(settings, []byte(strings.Replace(string(data), `"trust": true`, `"trust": false`, 1)), 0o600)
	if got := trust(); !strings.Contains(got, "does not trust feedback's server") || !strings.Contains(got, "| feedback setup gemini") {
		t.Errorf("the entry without trust:\n%s", got)
	}
	os.WriteFile(settings, data, 0o600)

	claude, _ := setup.Lookup("claude-code")
	if _, err := setup.ConfigureOwnTools(e.Setup, claude, setup.ScopeProject, true); err != nil {
		t.Fatal(err)
	}
	if got := trust(); !strings.Contains(got, "Claude Code has not trusted "+e.Setup.Dir) || !strings.Contains(got, "accept its trust dialog") {
		t.Errorf("claude-code set up in the project, not trusted:\n%s", got)
	}
	os.WriteFile(filepath.Join(h, ".claude.json"), []byte(`{"projects": {"`+e.Setup.Dir+`": {"hasTrustDialogAccepted": true}}}`), 0o600)
	if got := trust(); got != "" {
		t.Errorf("claude-code trusted: %s", got)
	}
}
