package uiprocess

import (
	"log/slog"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"feedback/ipc/uiproto"
)

// The app's settings, sent again when they changed, apply to the question
// windows opened from then on, without restarting the UI process.
func TestSettingsApplyToNewWindows(t *testing.T) {
	a := test.NewTempApp(t)
	u := newWindows(a, windowOptions(uiproto.Settings{Extend: time.Minute}, 0))
	u.applySettings(uiproto.Settings{Extend: 77 * time.Second, DefaultTimeout: 45 * time.Second,
		Images: uiproto.ImageLimits{MaxCount: 3, MaxImageBytes: 1 << 20}}, time.Second, slog.New(slog.DiscardHandler))
	o := u.options()
	if o.Extend != 77*time.Second || o.DefaultTimeout != 45*time.Second || o.Images.MaxCount != 3 ||
		o.Images.MaxImageBytes != 1<<20 || o.InputGuard != time.Second || o.PasteImage == nil {
		t.Fatalf("new windows get %+v", o)
	}
}
