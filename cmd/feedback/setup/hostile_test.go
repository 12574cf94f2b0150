//go:build unix

package setup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/internal/safefile/safefiletest"
)

// A FIFO at a client's configuration fails setup CLIENT and the listing at
// once, naming the file, instead of blocking on the FIFO for ever.
func TestFIFOClientConfigFailsAtOnce(t *testing.T) {
	te := newEnv(t)
	path := filepath.Join(te.Home, ".claude.json")
	safefiletest.Mkfifo(t, path)
	code := 0
	safefiletest.Returns(t, 3*time.Second, func() error { code = Run([]string{"claude-code"}, te.Env); return nil })
	if code != 1 || !strings.Contains(te.stderr.String(), path) || !strings.Contains(te.stderr.String(), "not a regular file") {
		t.Errorf("exit %d, stderr %q", code, te.stderr)
	}
	safefiletest.Returns(t, 3*time.Second, func() error { Statuses(te.Env); return nil }) // the listing
}

// A file another program rewrote after setup read it is not overwritten.
func TestWriteConfigRefusesAFileChangedMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	newer := `{"numStartups": 8, "mcpServers": {}}`
	os.WriteFile(path, []byte(newer), 0o600)
	stale := []byte(`{"numStartups": 7, "mcpServers": {}}`)
	_, err := writeConfig(path, stale, []byte(`{"mcpServers": {"feedback": {}}}`), 0o600, time.Now())
	if !errors.Is(err, ErrChangedMeanwhile) {
		t.Fatalf("err = %v, want ErrChangedMeanwhile", err)
	}
	if got, _ := os.ReadFile(path); string(got) != newer {
		t.Errorf("the newer file was replaced by %q", got)
	}
	if baks, _ := filepath.Glob(path + ".*.bak"); len(baks) > 0 {
		t.Errorf("backups left: %v", baks)
	}
	// Created meanwhile, where setup found none.
	fresh := filepath.Join(t.TempDir(), "new.json")
	os.WriteFile(fresh, []byte(newer), 0o600)
	if _, err := writeConfig(fresh, nil, []byte(`{}`), 0o600, time.Now()); !errors.Is(err, ErrChangedMeanwhile) {
		t.Fatalf("created meanwhile: err = %v", err)
	}
}

// A link planted at the backup's name is not written through.
func TestBackupNeverFollowsALink(t *testing.T) {
	te := newEnv(t)
	path := filepath.Join(te.Home, ".claude.json")
	os.WriteFile(path, []byte(`{}`), 0o600)
	victim := filepath.Join(te.Home, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	os.Symlink(victim, path+"."+te.Now().Format("20060102-150405")+".bak")
	if code := Run([]string{"claude-code"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep" {
		t.Errorf("the link's target now holds %q", got)
	}
	if !strings.Contains(te.stdout.String(), ".bak") {
		t.Errorf("no backup named: %s", te.stdout)
	}
}

// Duplicate keys on the path setup edits are refused by name: the client
// (JSON.parse keeps the last) would not see an edit of the first.
func TestRefusesDuplicateKeysOnItsPath(t *testing.T) {
	for name, tc := range map[string]struct{ content, want string }{
		"two mcpServers": {`{"mcpServers": {}, "x": 1, "mcpServers": {"other": {}}}`, "mcpServers appears 2 times"},
		"two entries":    {`{"mcpServers": {"feedback": {"command": "a"}, "feedback": {"command": "b"}}}`, "mcpServers.feedback appears 2 times"},
		"two commands":   {`{"mcpServers": {"feedback": {"command": "a", "command": "b"}}}`, "mcpServers.feedback.command appears 2 times"},
	} {
		t.Run(name, func(t *testing.T) {
			te := newEnv(t)
			path := filepath.Join(te.Home, ".claude.json")
			os.WriteFile(path, []byte(tc.content), 0o600)
			if code := Run([]string{"claude-code"}, te.Env); code != 1 || !strings.Contains(te.stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q, want %q", code, te.stderr, tc.want)
			}
			if got, _ := os.ReadFile(path); string(got) != tc.content {
				t.Errorf("file changed to %q", got)
			}
		})
	}
}
