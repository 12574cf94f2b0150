//go:build unix

package setup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/internal/safefile"
)

// AllowRule writes inside the project only: never through a link of
// .claude or of the file to somewhere else, never into a project folder
// that is gone, never into a FIFO, a directory or a huge file; each
// refusal is an error that says what is wrong, and nothing is written.
func TestAllowRuleStaysInTheProject(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	outside := func(t *testing.T) (string, string) {
		o := t.TempDir()
		f := filepath.Join(o, "settings.local.json")
		if err := os.WriteFile(f, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return o, f
	}
	unchanged := func(t *testing.T, f string) {
		t.Helper()
		if data, _ := os.ReadFile(f); string(data) != "{}\n" {
			t.Errorf("a file outside the project was changed: %q", data)
		}
	}
	t.Run(".claude is a link", func(t *testing.T) {
		dir := t.TempDir()
		o, f := outside(t)
		os.Symlink(o, filepath.Join(dir, ".claude"))
		_, _, err := AllowRule(dir, "Bash(npm test)", now)
		if !errors.Is(err, safefile.ErrSymlink) {
			t.Errorf("err %v", err)
		}
		unchanged(t, f)
	})
	t.Run("the file is a link", func(t *testing.T) {
		dir := t.TempDir()
		_, f := outside(t)
		os.Mkdir(filepath.Join(dir, ".claude"), 0o700)
		os.Symlink(f, filepath.Join(dir, ".claude", "settings.local.json"))
		_, _, err := AllowRule(dir, "Bash(npm test)", now)
		if !errors.Is(err, safefile.ErrSymlink) {
			t.Errorf("err %v", err)
		}
		unchanged(t, f)
	})
	t.Run("the project is gone", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "deleted")
		if _, _, err := AllowRule(dir, "Bash(npm test)", now); err == nil {
			t.Error("no error")
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the deleted project folder was created again: %v", err)
		}
	})
	t.Run("a FIFO", func(t *testing.T) {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, ".claude"), 0o700)
		if err := syscall.Mkfifo(filepath.Join(dir, ".claude", "settings.local.json"), 0o600); err != nil {
			t.Skip(err)
		}
		done := make(chan error, 1)
		go func() { _, _, err := AllowRule(dir, "Bash(npm test)", now); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, safefile.ErrNotRegular) {
				t.Errorf("err %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("AllowRule blocks on a FIFO")
		}
	})
	t.Run("a directory", func(t *testing.T) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, ".claude", "settings.local.json"), 0o700)
		if _, _, err := AllowRule(dir, "Bash(npm test)", now); !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("err %v", err)
		}
	})
	t.Run("a huge file", func(t *testing.T) {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, ".claude"), 0o700)
		f := filepath.Join(dir, ".claude", "settings.local.json")
		os.WriteFile(f, []byte(`{"x":"`+strings.Repeat("a", 2<<20)+`"}`), 0o600)
		if _, _, err := AllowRule(dir, "Bash(npm test)", now); !errors.Is(err, safefile.ErrTooLarge) {
			t.Errorf("err %v", err)
		}
	})
	t.Run("invalid JSON", func(t *testing.T) {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, ".claude"), 0o700)
		f := filepath.Join(dir, ".claude", "settings.local.json")
		os.WriteFile(f, []byte(`{"permissions": [`), 0o600)
		if _, _, err := AllowRule(dir, "Bash(npm test)", now); err == nil {
			t.Error("no error")
		}
		if data, _ := os.ReadFile(f); string(data) != `{"permissions": [` {
			t.Errorf("changed: %q", data)
		}
	})
	t.Run("a new .claude", func(t *testing.T) {
		dir := t.TempDir()
		path, changed, err := AllowRule(dir, "Bash(npm test)", now)
		data, _ := os.ReadFile(path)
		if err != nil || !changed || !strings.Contains(string(data), `"Bash(npm test)"`) {
			t.Errorf("%v %v %s", changed, err, data)
		}
		if fi, err := os.Stat(filepath.Join(dir, ".claude")); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf(".claude: %v %v", fi.Mode(), err)
		}
	})
}

// A rule is written as a person reads it: "Bash(echo hi > proof.txt &&
// cat <f)", not with <, > and & escaped as \u003c, \u003e, \u0026 —
// valid JSON, but not what the user expects to find in their settings;
// a second rule joins the list the same way.
func TestAllowRuleWrittenAsTyped(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	dir := t.TempDir()
	for _, rule := range []string{"Bash(echo hi > proof.txt && cat <f)", "Bash(a & b)"} {
		if _, _, err := AllowRule(dir, rule, now); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ".claude", "settings.local.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"Bash(echo hi > proof.txt && cat <f)"`, `"Bash(a & b)"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the file lacks %s:\n%s", want, data)
		}
	}
	if strings.Contains(string(data), `\u00`) {
		t.Errorf("escaped characters in:\n%s", data)
	}
}
