package settingsfile

import (
	"feedback/internal/settings"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func noEnv(string) string { return "" }

func TestNewFieldsDefaultAndValidate(t *testing.T) {
	d := settings.Default()
	if d.Sound || d.UILingerSeconds != 120 {
		t.Fatalf("defaults: sound %v, ui_linger_seconds %d; want false, 120", d.Sound, d.UILingerSeconds)
	}
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"sound": true, "ui_linger_seconds": 0}`), 0o600)
	s, err := Load(path, noEnv)
	if err != nil || !s.Sound || s.UILingerSeconds != 0 {
		t.Fatalf("Load = %+v, %v; want sound on, linger 0", s, err)
	}
	os.WriteFile(path, []byte(`{"ui_linger_seconds": -1}`), 0o600)
	if _, err := Load(path, noEnv); err == nil || !strings.Contains(err.Error(), "ui_linger_seconds (settings file") {
		t.Fatalf("Load of a negative linger: %v", err)
	}
}

func TestValidateNamesEachField(t *testing.T) {
	s := settings.Default()
	s.TimeoutSeconds = -5
	s.Images.MaxTotalMiB = 1
	s.WaitSeconds = map[string]int{"claude-code": 0}
	var got []string
	for _, fe := range s.Validate() {
		got = append(got, fe.Field)
		if fe.Source != "" || fe.Problem == "" {
			t.Errorf("%+v: want no source and a problem", fe)
		}
	}
	want := []string{"timeout_seconds", "images.max_total_mib", `wait_seconds["claude-code"]`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("fields = %q, want %q", got, want)
	}
	if msg := s.Validate()[0].Error(); msg != "timeout_seconds must be 0 (no countdown) or more, not -5" {
		t.Fatalf("message = %q", msg)
	}
	if fes := settings.Default().Validate(); len(fes) != 0 {
		t.Fatalf("defaults invalid: %v", fes)
	}
}

func TestSaveKeepsUnknownKeysAndRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"$comment": "mine", "timeout_seconds": 5, "images": {"max_count": 2, "future": 1}, "later": [1]}`), 0o640)
	s, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s.TimeoutSeconds = 90
	s.Sound = true
	s.WaitSeconds = map[string]int{"cursor": 50}
	if aside, err := Save(path, s); err != nil || aside != "" {
		t.Fatalf("Save = %q, %v", aside, err)
	}
	back, err := Load(path, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if back.TimeoutSeconds != 90 || !back.Sound || back.Images.MaxCount != 2 || back.WaitSeconds["cursor"] != 50 {
		t.Fatalf("read back %+v", back)
	}
	var raw map[string]json.RawMessage
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	compact := func(k string) string {
		var b bytes.Buffer
		json.Compact(&b, raw[k])
		return b.String()
	}
	if compact("$comment") != `"mine"` || compact("later") != `[1]` || !strings.Contains(compact("images"), `"future":1`) {
		t.Fatalf("unknown keys lost:\n%s", data)
	}
	if _, ok := raw["ui_linger_seconds"]; !ok {
		t.Fatalf("known keys not all written:\n%s", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode = %v, want the file's 0640 kept", fi.Mode().Perm())
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".settings-*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

func TestSaveRefusesInvalidAndWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"timeout_seconds": 5}`), 0o600)
	s := settings.Default()
	s.ExtendSeconds = 0
	_, err := Save(path, s)
	var fe *settings.FieldError
	if !errors.As(err, &fe) || fe.Field != "extend_seconds" {
		t.Fatalf("Save = %v, want a FieldError naming extend_seconds", err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"timeout_seconds": 5}` {
		t.Fatalf("file changed: %s", data)
	}
}

func TestSaveMovesAMalformedFileAside(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	path := filepath.Join(dir, "settings.json")
	if _, err := Save(path, settings.Default()); err != nil { // creates the directory
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("new file mode %v, want 0600", fi.Mode().Perm())
	}
	os.WriteFile(path, []byte(`{"timeout_seconds": `), 0o600)
	aside, err := Save(path, settings.Default())
	if err != nil || !strings.HasPrefix(aside, path+".invalid-") {
		t.Fatalf("Save = %q, %v", aside, err)
	}
	if data, _ := os.ReadFile(aside); string(data) != `{"timeout_seconds": ` {
		t.Fatalf("moved-aside file holds %q", data)
	}
	if _, err := Load(path, noEnv); err != nil {
		t.Fatal(err)
	}
}

// watched collects Watch's reports.
func watched(t *testing.T, path string) chan error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	got := make(chan error, 16)
	Watch(ctx, path, noEnv, func(s settings.Settings, err error) {
		if err == nil {
			got <- errors.New("timeout_seconds=" + strconv.Itoa(s.TimeoutSeconds))
			return
		}
		got <- err
	})
	return got
}

func next(t *testing.T, got chan error) string {
	t.Helper()
	select {
	case err := <-got:
		return err.Error()
	case <-time.After(10 * time.Second):
		t.Fatal("no change reported within 10 s")
		return ""
	}
}

func TestWatchReportsSavesAndHandEdits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"timeout_seconds": 5}`), 0o600)
	got := watched(t, path)

	s := settings.Default()
	s.TimeoutSeconds = 42
	if _, err := Save(path, s); err != nil {
		t.Fatal(err)
	}
	if msg := next(t, got); msg != "timeout_seconds=42" {
		t.Fatalf("after Save: %s", msg)
	}
	// By hand, in place, with a value out of range: reported as an error.
	os.WriteFile(path, []byte(`{"timeout_seconds": -1}`), 0o600)
	if msg := next(t, got); !strings.Contains(msg, "timeout_seconds (settings file") {
		t.Fatalf("after a bad edit: %s", msg)
	}
	os.WriteFile(path, []byte(`{"timeout_seconds": 7}`), 0o600)
	if msg := next(t, got); msg != "timeout_seconds=7" {
		t.Fatalf("after the fix: %s", msg)
	}
}

func TestWatchPollsADirectoryCreatedLater(t *testing.T) {
	old := pollEvery
	pollEvery = 50 * time.Millisecond
	t.Cleanup(func() { pollEvery = old })
	path := filepath.Join(t.TempDir(), "later", "settings.json")
	got := watched(t, path)
	s := settings.Default()
	s.TimeoutSeconds = 11
	if _, err := Save(path, s); err != nil {
		t.Fatal(err)
	}
	if msg := next(t, got); msg != "timeout_seconds=11" {
		t.Fatalf("after Save into a new directory: %s", msg)
	}
}
