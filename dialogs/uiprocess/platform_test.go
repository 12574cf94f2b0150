package uiprocess

import (
	"os"
	"testing"

	"feedback/internal/display"
)

// The X11 build keeps Fyne on the X server whatever FYNE_PLATFORM said; the
// Wayland build leaves it alone.
func TestKeepX11(t *testing.T) {
	t.Setenv("FYNE_PLATFORM", "wayland")
	keepX11()
	want := "x11"
	if display.NativeWayland {
		want = "wayland"
	}
	if got := os.Getenv("FYNE_PLATFORM"); got != want {
		t.Fatalf("FYNE_PLATFORM = %q, want %q", got, want)
	}
}
