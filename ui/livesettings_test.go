package ui

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"feedback/dialogs"
	"feedback/settings"
)

// warnings passes the messages of warnings logged to a channel.
type warnings chan string

func (w warnings) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (w warnings) Handle(_ context.Context, r slog.Record) error {
	w <- r.Message
	return nil
}
func (w warnings) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w warnings) WithGroup(string) slog.Handler      { return w }

// A save of the settings file applies to the question windows opened from
// then on, without restarting the UI process; a bad edit changes nothing.
func TestSettingsSavedApplyToNewWindows(t *testing.T) {
	a := test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "settings.json")
	u := newWindows(a, windowOptions(settings.Default()))
	applied := make(chan dialogs.Options, 4)
	warned := make(warnings, 4)
	stop := watchSettings(u, path, 0, slog.New(warned), func(o dialogs.Options) { applied <- o })
	defer stop()

	s := settings.Default()
	s.ExtendSeconds = 77
	s.TimeoutSeconds = 45
	if _, err := settings.Save(path, s); err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-applied:
		if o.Extend != 77*time.Second || o.DefaultTimeout != 45*time.Second {
			t.Fatalf("applied %+v", o)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the saved settings were not applied within 10 s")
	}
	if o := u.options(); o.Extend != 77*time.Second {
		t.Fatalf("new windows get Extend %v, want 77s", o.Extend)
	}

	if err := os.WriteFile(path, []byte(`{"extend_seconds": 0}`), 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case msg := <-warned:
		if msg != "settings changed but not applied" {
			t.Fatalf("warned %q", msg)
		}
	case o := <-applied:
		t.Fatalf("a bad edit was applied: %+v", o)
	case <-time.After(10 * time.Second):
		t.Fatal("the bad edit was not reported within 10 s")
	}
	if o := u.options(); o.Extend != 77*time.Second {
		t.Fatalf("after a bad edit, new windows get Extend %v, want 77s kept", o.Extend)
	}
}
