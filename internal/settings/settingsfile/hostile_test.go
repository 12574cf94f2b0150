//go:build unix

package settingsfile

import (
	"feedback/internal/settings"

	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/internal/safefile"
	"feedback/internal/safefile/safefiletest"
)

// A FIFO, /dev/zero or a huge file at the settings path is an error at
// once, from Load (every command), ReadFile (the Settings window) and Save;
// nothing blocks or reads without bound.
func TestHostileSettingsFileIsRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	safefiletest.Mkfifo(t, fifo)
	zero := filepath.Join(dir, "zero.json")
	safefiletest.LinkDevZero(t, zero)
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, []byte(`{"language": "`+strings.Repeat("x", MaxFileBytes)+`"}`), 0o600)
	for path, want := range map[string]error{fifo: safefile.ErrNotRegular, zero: safefile.ErrNotRegular, big: safefile.ErrTooLarge} {
		for name, fn := range map[string]func() error{
			"Load":     func() error { _, err := Load(path, func(string) string { return "" }); return err },
			"ReadFile": func() error { _, err := ReadFile(path); return err },
			"Save": func() error {
				_, err := Save(path, settings.Default())
				return err
			},
		} {
			err := safefiletest.Returns(t, 2*time.Second, fn)
			if !errors.Is(err, want) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s(%s): err = %v, want %v naming the file", name, filepath.Base(path), err, want)
			}
		}
	}
}

// Every duration and count has an upper bound: values that would overflow
// a time.Duration (or show as "no time limit") are reported by field.
func TestDurationsAndCountsAreBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"timeout_seconds": 10000000000, "pending_wait_seconds": 9223372036,
		"max_wait_seconds": 100000, "extend_seconds": 86401, "wait_seconds": {"claude-code": 10000000000},
		"images": {"max_count": 100000, "max_edge": 100000, "max_mib": 100000, "max_total_mib": 100000}}`), 0o600)
	_, err := Load(path, func(string) string { return "" })
	if err == nil {
		t.Fatal("no error")
	}
	for _, field := range []string{"timeout_seconds", "pending_wait_seconds", "max_wait_seconds", "extend_seconds",
		`wait_seconds["claude-code"]`, "images.max_count", "images.max_edge", "images.max_mib", "images.max_total_mib"} {
		if !strings.Contains(err.Error(), field+" ("+"settings file") {
			t.Errorf("no message for %s in %v", field, err)
		}
	}
	_, err = Load(filepath.Join(t.TempDir(), "none"), func(k string) string {
		return map[string]string{"FEEDBACK_TIMEOUT": "10000000000"}[k]
	})
	if err == nil || !strings.Contains(err.Error(), "timeout_seconds (FEEDBACK_TIMEOUT) must be at most 86400, not 10000000000") {
		t.Errorf("env: %v", err)
	}
	s := settings.Default()
	s.TimeoutSeconds = settings.MaxSeconds
	s.WaitSeconds = map[string]int{"x": settings.MaxSeconds}
	if fes := s.Validate(); len(fes) != 0 {
		t.Errorf("the bounds themselves are refused: %v", fes)
	}
}

// EnvVars names the variables at fault, and only those, so doctor's fix
// names them instead of the file.
func TestEnvVarsNamesTheVariablesAtFault(t *testing.T) {
	env := map[string]string{"FEEDBACK_TIMEOUT": "-3", "FEEDBACK_MAX_WAIT": "abc"}
	_, err := Load(filepath.Join(t.TempDir(), "none"), func(k string) string { return env[k] })
	vars, file := settings.EnvVars(err)
	if strings.Join(vars, ",") != "FEEDBACK_MAX_WAIT,FEEDBACK_TIMEOUT" || file {
		t.Errorf("vars %v, file %v; err %v", vars, file, err)
	}
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"extend_seconds": 0}`), 0o600)
	_, err = Load(path, func(k string) string { return env[k] })
	if vars, file := settings.EnvVars(err); len(vars) != 2 || !file {
		t.Errorf("vars %v, file %v; err %v", vars, file, err)
	}
}

// The watcher of a running app reports a settings file replaced by a link
// to /dev/zero as an error instead of reading it without end.
func TestWatchReportsALinkToDevZero(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	os.WriteFile(path, []byte(`{"timeout_seconds": 5}`), 0o600)
	got := watched(t, path)
	tmp := filepath.Join(dir, "zero")
	safefiletest.LinkDevZero(t, tmp)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if msg := next(t, got); !strings.Contains(msg, "not a regular file") {
		t.Fatalf("after the link: %s", msg)
	}
}
