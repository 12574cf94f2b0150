package settingsfile

import (
	"feedback/internal/settings"
	"strings"

	"os"
	"path/filepath"
	"testing"
)

// The settings file and the environment are checked with a message naming
// the field and its source.
func TestLoadDNDSchedule(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"dnd_schedule": "22:00-08:00"}`), 0o600)
	s, err := Load(path, func(string) string { return "" })
	if err != nil || s.DNDSchedule != "22:00-08:00" {
		t.Fatalf("%q, %v", s.DNDSchedule, err)
	}
	if settings.Default().DNDSchedule != "" {
		t.Error("a schedule by default")
	}
	os.WriteFile(path, []byte(`{"dnd_schedule": "late"}`), 0o600)
	if _, err := Load(path, func(string) string { return "" }); err == nil ||
		!strings.Contains(err.Error(), `dnd_schedule (settings file `+path+`) must be HH:MM-HH:MM (24-hour clock), e.g. 22:00-08:00, or empty for none, not "late"`) {
		t.Errorf("bad file value: %v", err)
	}
	_, err = Load(filepath.Join(t.TempDir(), "none.json"), func(k string) string {
		return map[string]string{"FEEDBACK_DND_SCHEDULE": "8:00-8:00"}[k]
	})
	if err == nil || !strings.Contains(err.Error(), "dnd_schedule (FEEDBACK_DND_SCHEDULE)") {
		t.Errorf("bad environment value: %v", err)
	}
	fes := settings.Settings{DNDSchedule: "x"}.Validate()
	found := false
	for _, fe := range fes {
		found = found || fe.Field == "dnd_schedule" && strings.HasPrefix(fe.Problem, "must be HH:MM-HH:MM") && strings.HasSuffix(fe.Problem, `not "x"`)
	}
	if !found {
		t.Errorf("Validate: %v", fes)
	}
}
