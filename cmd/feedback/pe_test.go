package main

import (
	"debug/pe"
	"os"
	"testing"
)

// TestWindowsSubsystems checks the cross-built Windows binaries (make
// build-windows sets the variables): the app is a GUI program, so starting
// it opens no console window, and the headless build, which has no window
// at all, is a console program. Skipped when the variables are unset.
func TestWindowsSubsystems(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want uint16
	}{
		{"FEEDBACK_WINDOWS_EXE", pe.IMAGE_SUBSYSTEM_WINDOWS_GUI},
		{"FEEDBACK_WINDOWS_HEADLESS_EXE", pe.IMAGE_SUBSYSTEM_WINDOWS_CUI},
	} {
		path := os.Getenv(tt.env)
		if path == "" {
			t.Logf("%s is not set: skipped", tt.env)
			continue
		}
		f, err := pe.Open(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
		f.Close()
		if !ok {
			t.Fatalf("%s: not a 64-bit PE", path)
		}
		if oh.Subsystem != tt.want {
			t.Errorf("%s: subsystem %d, want %d", path, oh.Subsystem, tt.want)
		}
	}
}
