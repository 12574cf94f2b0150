package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/app/core/dnd"
)

func TestDNDFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	f := dndFile(filepath.Join(dir, "state", "dnd.json"))
	if d, err := f.Load(); err != nil || d.Mode != dnd.Off {
		t.Fatalf("no file: %+v, %v; want off", d, err)
	}
	want := dnd.State{Mode: dnd.Tomorrow, Until: time.Date(2026, 3, 11, 8, 0, 0, 0, time.Local)}
	if err := f.Save(want); err != nil {
		t.Fatal(err)
	}
	got, err := f.Load()
	if err != nil || got.Mode != want.Mode || !got.Until.Equal(want.Until) {
		t.Fatalf("read back %+v, %v; want %+v", got, err, want)
	}
	fi, err := os.Stat(string(f))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, %v; want 0600", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(string(f)))
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want only dnd.json", len(entries))
	}
	for _, bad := range []string{"{", `{"mode":"forever"}`} {
		os.WriteFile(string(f), []byte(bad), 0o600)
		if d, err := f.Load(); err == nil || !strings.Contains(err.Error(), string(f)) || d.Mode != dnd.Off {
			t.Errorf("file %q: %+v, %v; want off and an error naming the file", bad, d, err)
		}
	}
}

// The dnd.Off chosen inside the quiet hours is kept in dnd.json; "schedule"
// is never a state the file or the tray can set.
func TestDNDFileKeepsTheScheduleOff(t *testing.T) {
	f := dndFile(t.TempDir() + "/dnd.json")
	want := dnd.State{Mode: dnd.Off, ScheduleOffUntil: time.Date(2026, 6, 11, 8, 0, 0, 0, time.UTC)}
	if err := f.Save(want); err != nil {
		t.Fatal(err)
	}
	if got, err := f.Load(); err != nil || !got.ScheduleOffUntil.Equal(want.ScheduleOffUntil) {
		t.Fatalf("read back %+v, %v", got, err)
	}
	if _, err := dnd.For(dnd.Scheduled, time.Date(2026, 6, 10, 23, 0, 0, 0, time.UTC)); err == nil {
		t.Error(`dnd.For("schedule") is accepted`)
	}
}
