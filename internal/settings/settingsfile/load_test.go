package settingsfile

import (
	"feedback/internal/settings"

	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		name    string
		file    string // "" means no file
		env     map[string]string
		want    int
		wantErr string
	}{
		{name: "defaults without a file", want: 600},
		{name: "file", file: `{"timeout_seconds": 120}`, want: 120},
		{name: "file silent on the field", file: `{}`, want: 600},
		{name: "zero disables", file: `{"timeout_seconds": 0}`, want: 0},
		{name: "environment wins", file: `{"timeout_seconds": 120}`, env: map[string]string{"FEEDBACK_TIMEOUT": "30"}, want: 30},
		{name: "bad environment", env: map[string]string{"FEEDBACK_TIMEOUT": "soon"}, want: 600, wantErr: "FEEDBACK_TIMEOUT"},
		{name: "negative", file: `{"timeout_seconds": -5}`, want: 600, wantErr: "timeout_seconds"},
		{name: "malformed file", file: `{"timeout_seconds": `, want: 600, wantErr: "settings.json"},
		{name: "images partly set", file: `{"images": {"max_count": 3}}`, want: 600},
		{name: "images out of range", file: `{"images": {"max_count": 0}}`, want: 600, wantErr: "max_count"},
		{name: "retention zero days", file: `{"retention_days": 0}`, want: 600, wantErr: "retention_days (settings file"},
		{name: "retention no images", file: `{"retention_image_mib": -1}`, want: 600, wantErr: "retention_image_mib (settings file"},
		{name: "unknown language", file: `{"timeout_seconds": 5, "language": "fr"}`, want: 600, wantErr: "language"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			if tc.file != "" {
				if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			s, err := Load(path, func(k string) string { return tc.env[k] })
			if tc.wantErr == "" && err != nil {
				t.Fatalf("error: %v", err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("error = %v, want one naming %s", err, tc.wantErr)
			}
			if s.TimeoutSeconds != tc.want {
				t.Errorf("TimeoutSeconds = %d, want %d", s.TimeoutSeconds, tc.want)
			}
		})
	}
}

func TestLoadOtherFields(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"language": "zh-Hans", "prompt_suffix": "file", "tools": ["a"], "resubmit_prompt": ""}`), 0o600)
	env := map[string]string{"FEEDBACK_PROMPT_SUFFIX": "env", "FEEDBACK_TOOLS": " x, y ,,", "FEEDBACK_PENDING_WAIT": "5"}
	s, err := Load(path, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if s.RetentionDays != 30 || s.RetentionImageMiB != 256 {
		t.Errorf("retention defaults: %d days, %d MiB; want 30, 256", s.RetentionDays, s.RetentionImageMiB)
	}
	if s.Language != settings.SimplifiedChinese || s.PromptSuffix != "env" || s.PendingWaitSeconds != 5 ||
		len(s.Tools) != 2 || s.Tools[0] != "x" || s.Tools[1] != "y" || s.ResubmitPrompt != settings.DefaultResubmitPrompt {
		t.Errorf("settings = %+v", s)
	}
}

func TestLoadStartAtLogin(t *testing.T) {
	for _, tc := range []struct {
		file string
		want string // "unset", "true", "false"
	}{{`{}`, "unset"}, {`{"start_at_login": null}`, "unset"}, {`{"start_at_login": true}`, "true"}, {`{"start_at_login": false}`, "false"}} {
		path := filepath.Join(t.TempDir(), "settings.json")
		os.WriteFile(path, []byte(tc.file), 0o600)
		s, err := Load(path, func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		got := "unset"
		if s.StartAtLogin != nil {
			got = strconv.FormatBool(*s.StartAtLogin)
		}
		if got != tc.want {
			t.Errorf("%s: start_at_login %s, want %s", tc.file, got, tc.want)
		}
	}
}

// A malformed environment variable used to return before the file's values
// were checked: FEEDBACK_MAX_WAIT=abc let timeout_seconds -5 through unnamed.
// Every bad value is reported, each naming its field and where it came from.
func TestLoadReportsEveryBadValue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"timeout_seconds": -5, "extend_seconds": 0, "language": "fr",
		"wait_seconds": {"cursor": 0}, "images": {"max_count": 0, "max_edge": 4}}`), 0o600)
	env := map[string]string{"FEEDBACK_MAX_WAIT": "abc", "FEEDBACK_PENDING_WAIT": "-1"}
	s, err := Load(path, func(k string) string { return env[k] })
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`FEEDBACK_MAX_WAIT="abc"`,
		"timeout_seconds (settings file " + path + ") must be 0 (no countdown) or more, not -5",
		"extend_seconds (settings file",
		`language (settings file ` + path + `) must be one of auto, en, zh-Hans, zh-Hant, not "fr"`,
		`wait_seconds["cursor"] (settings file`,
		"images.max_count (settings file",
		"images.max_edge (settings file",
		"pending_wait_seconds (FEEDBACK_PENDING_WAIT) must be 1 or more, not -1",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if s.TimeoutSeconds != 600 {
		t.Errorf("TimeoutSeconds = %d after a bad load, want the default 600", s.TimeoutSeconds)
	}
}

func TestLoadEnvSourceNamed(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "none.json"), func(k string) string {
		return map[string]string{"FEEDBACK_TIMEOUT": "-3", "FEEDBACK_LANGUAGE": "de"}[k]
	})
	if err == nil || !strings.Contains(err.Error(), "timeout_seconds (FEEDBACK_TIMEOUT) must be 0 (no countdown) or more, not -3") ||
		!strings.Contains(err.Error(), `language (FEEDBACK_LANGUAGE) must be one of auto, en, zh-Hans, zh-Hant, not "de"`) {
		t.Fatalf("error = %v", err)
	}
}

// ui_prewarm is on by default; the file turns it off, and
// FEEDBACK_UI_PREWARM (one client's shim, say) wins over the file; a value
// that is not a boolean is reported and the file's applies.
func TestLoadUIPrewarm(t *testing.T) {
	for _, tc := range []struct {
		file, env string
		want      bool
		wantErr   string
	}{
		{file: `{}`, want: true},
		{file: `{"ui_prewarm": false}`, want: false},
		{file: `{"ui_prewarm": false}`, env: "1", want: true},
		{file: `{}`, env: "false", want: false},
		{file: `{}`, env: "maybe", want: true, wantErr: `FEEDBACK_UI_PREWARM="maybe": want true or false (1 or 0)`},
	} {
		path := filepath.Join(t.TempDir(), "settings.json")
		os.WriteFile(path, []byte(tc.file), 0o600)
		s, err := Load(path, func(k string) string { return map[string]string{"FEEDBACK_UI_PREWARM": tc.env}[k] })
		if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s, env %q: error %v, want %q", tc.file, tc.env, err, tc.wantErr)
		}
		if s.UIPrewarm != tc.want {
			t.Errorf("%s, env %q: ui_prewarm %v, want %v", tc.file, tc.env, s.UIPrewarm, tc.want)
		}
	}
}
