//go:build unix

package core

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"feedback/internal/safefile"
	"feedback/internal/safefile/safefiletest"
)

// dnd.json is read only when regular: a FIFO or /dev/zero there is an
// error at once (the state is off), not a hang or a read without end.
func TestDNDFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	safefiletest.Mkfifo(t, fifo)
	zero := filepath.Join(dir, "zero.json")
	safefiletest.LinkDevZero(t, zero)
	for _, path := range []string{fifo, zero} {
		err := safefiletest.Returns(t, 2*time.Second, func() error { _, err := DNDFile(path).LoadDND(); return err })
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("%s: err = %v, want safefile.ErrNotRegular", path, err)
		}
	}
}

// A stored end beyond what the mode allows is brought back to it: "hour"
// with until 9999 holds for an hour at most, not for ever.
func TestDNDFileClampsTheEndToTheMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dnd.json")
	for _, tc := range []struct {
		file    string
		longest time.Duration
	}{
		{`{"mode":"hour","until":"9999-12-31T23:59:59Z"}`, time.Hour},
		{`{"mode":"tomorrow","until":"9999-12-31T23:59:59Z"}`, 29 * time.Hour},
		{`{"mode":"off","schedule_off_until":"9999-12-31T23:59:59Z"}`, 0},
	} {
		os.WriteFile(path, []byte(tc.file), 0o600)
		d, err := DNDFile(path).LoadDND()
		if err != nil {
			t.Fatal(err)
		}
		if limit := time.Now().Add(tc.longest + time.Minute); d.Until.After(limit) {
			t.Errorf("%s: until %v, want at most %v", tc.file, d.Until, limit)
		}
		if limit := time.Now().Add(25 * time.Hour); d.ScheduleOffUntil.After(limit) {
			t.Errorf("%s: schedule_off_until %v, want at most %v", tc.file, d.ScheduleOffUntil, limit)
		}
	}
	os.WriteFile(path, []byte(`{"mode":"on","until":"9999-12-31T23:59:59Z"}`), 0o600)
	if d, _ := DNDFile(path).LoadDND(); d.Mode != DNDOn || !d.Until.IsZero() {
		t.Errorf("on: %+v", d)
	}
}
