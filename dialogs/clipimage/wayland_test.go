//go:build (linux && !android) || freebsd || openbsd || netbsd || dragonfly

package clipimage

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeWlPaste installs a wl-paste stand-in first on PATH and makes Read take
// the Wayland path. It offers the types in $FAKE_WL_TYPES, serves
// $FAKE_WL_DATA for --type and records the requested type in $FAKE_WL_LOG.
// FAKE_WL_MODE=empty behaves like an empty clipboard, =broken like a failed
// connection, =hang never answers.
func fakeWlPaste(t *testing.T, mode, types string, data []byte) (logFile string) {
	t.Helper()
	dir := t.TempDir()
	script := `#!/bin/sh
case "$FAKE_WL_MODE" in
empty) echo "Nothing is copied" >&2; exit 1 ;;
broken) echo "Failed to connect to a Wayland server" >&2; exit 1 ;;
hang) exec sleep 30 ;;
esac
if [ "$1" = --list-types ]; then
	for t in $FAKE_WL_TYPES; do echo "$t"; done
	exit 0
fi
while [ $# -gt 0 ]; do
	if [ "$1" = --type ]; then echo "$2" >> "$FAKE_WL_LOG"; exec cat "$FAKE_WL_DATA"; fi
	shift
done
exit 2
`
	if err := os.WriteFile(filepath.Join(dir, "wl-paste"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	dataFile := filepath.Join(dir, "data")
	if err := os.WriteFile(dataFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	logFile = filepath.Join(dir, "log")
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("WAYLAND_DISPLAY", "wayland-fake")
	t.Setenv("DISPLAY", "") // no X11 fallback: these tests are about wl-paste
	t.Setenv("FAKE_WL_MODE", mode)
	t.Setenv("FAKE_WL_TYPES", types)
	t.Setenv("FAKE_WL_DATA", dataFile)
	t.Setenv("FAKE_WL_LOG", logFile)
	return logFile
}

func TestWaylandReadsBestImage(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n not really, but bytes are bytes\n\x00\xff")
	log := fakeWlPaste(t, "", "text/html image/jpeg image/png text/plain", png)
	data, mime, err := Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if mime != "image/png" || !bytes.Equal(data, png) {
		t.Errorf("got %q %q, want image/png and the bytes unchanged", mime, data)
	}
	requested, _ := os.ReadFile(log)
	if got := strings.TrimSpace(string(requested)); got != "image/png" {
		t.Errorf("requested %q, want image/png", got)
	}
}

func TestWaylandAlias(t *testing.T) {
	fakeWlPaste(t, "", "image/x-MS-bmp", []byte("BM..."))
	_, mime, err := Read(context.Background())
	if err != nil || mime != "image/bmp" {
		t.Fatalf("got %q, %v; want image/bmp", mime, err)
	}
}

func TestWaylandNoImage(t *testing.T) {
	for _, tt := range []struct{ name, mode, types string }{
		{"text", "", "text/plain;charset=utf-8 UTF8_STRING TEXT"},
		{"empty clipboard", "empty", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fakeWlPaste(t, tt.mode, tt.types, nil)
			if _, _, err := Read(context.Background()); !errors.Is(err, ErrNoImage) {
				t.Fatalf("error %v, want ErrNoImage", err)
			}
		})
	}
}

func TestWaylandFailures(t *testing.T) {
	t.Run("wl-paste fails", func(t *testing.T) {
		fakeWlPaste(t, "broken", "", nil)
		_, _, err := Read(context.Background())
		if err == nil || errors.Is(err, ErrNoImage) || !strings.Contains(err.Error(), "Failed to connect") {
			t.Fatalf("error %v, want wl-paste's own message and not ErrNoImage", err)
		}
	})
	t.Run("no data", func(t *testing.T) {
		fakeWlPaste(t, "", "image/png", nil)
		if _, _, err := Read(context.Background()); err == nil || errors.Is(err, ErrNoImage) {
			t.Fatalf("error %v, want a failure", err)
		}
	})
	t.Run("wl-paste hangs", func(t *testing.T) {
		fakeWlPaste(t, "hang", "", nil)
		old := wlListTimeout
		wlListTimeout = 200 * time.Millisecond
		t.Cleanup(func() { wlListTimeout = old })
		start := time.Now()
		_, _, err := Read(context.Background())
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error %v, want deadline exceeded", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("took %v", d)
		}
	})
}

func TestNoDisplay(t *testing.T) {
	empty := t.TempDir() // a PATH without wl-paste
	for _, tt := range []struct{ name, wayland, want string }{
		{"nothing set", "", "neither DISPLAY nor WAYLAND_DISPLAY"},
		{"wayland without wl-paste or XWayland", "wayland-0", "install wl-clipboard"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PATH", empty)
			t.Setenv("DISPLAY", "")
			t.Setenv("WAYLAND_DISPLAY", tt.wayland)
			_, _, err := Read(context.Background())
			if err == nil || errors.Is(err, ErrNoImage) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestReadHonoursDoneContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Read(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}
