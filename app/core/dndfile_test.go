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
// with until 9999 holds for an hour at most, not for ever; the inbox holds
// what it loads to it.
func TestDNDLoadedIsClampedToTheMode(t *testing.T) {
	now := time.Now()
	far := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	for _, tc := range []struct {
		d       DND
		longest time.Duration
	}{
		{DND{Mode: DNDHour, Until: far}, time.Hour},
		{DND{Mode: DNDTomorrow, Until: far}, 29 * time.Hour},
		{DND{Mode: DNDOff, ScheduleOffUntil: far}, 0},
	} {
		d := clampDND(tc.d, now)
		if limit := now.Add(tc.longest + time.Minute); d.Until.After(limit) {
			t.Errorf("%+v: until %v, want at most %v", tc.d, d.Until, limit)
		}
		if limit := now.Add(25 * time.Hour); d.ScheduleOffUntil.After(limit) {
			t.Errorf("%+v: schedule_off_until %v, want at most %v", tc.d, d.ScheduleOffUntil, limit)
		}
	}
	if d := clampDND(DND{Mode: DNDOn, Until: far}, now); d.Mode != DNDOn || !d.Until.IsZero() {
		t.Errorf("on: %+v", d)
	}

	path := filepath.Join(t.TempDir(), "dnd.json")
	os.WriteFile(path, []byte(`{"mode":"hour","until":"9999-12-31T23:59:59Z"}`), 0o600)
	in := New(Options{Presenter: newFakeUI()})
	in.Start()
	defer in.Close(time.Second)
	in.UseDND(DNDFile(path))
	if st := in.DND(); st.Mode != DNDHour || st.Until.After(time.Now().Add(time.Hour+time.Minute)) {
		t.Errorf("loaded from the file: %+v, want an hour at most", st)
	}
}
