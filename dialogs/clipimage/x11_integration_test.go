//go:build (linux && !android) || freebsd || openbsd || netbsd || dragonfly

package clipimage

// Integration tests against a real X server. They run only when DISPLAY is
// set, e.g. inside the throw-away session of scripts/xsession.sh:
//
//	scripts/xsession.sh go test -count=1 -v ./clipimage/
//
// xclip (-quiet keeps it in the foreground) plays the clipboard owner.

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// needX skips the test without an X display or xclip, and makes Read take
// the X11 path.
func needX(t *testing.T) {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		t.Skip("DISPLAY is not set; run inside scripts/xsession.sh for the X11 integration tests")
	}
	if _, err := exec.LookPath("xclip"); err != nil {
		t.Skip("xclip is not installed")
	}
	t.Setenv("WAYLAND_DISPLAY", "")
	if w := clipboardOwner(t); w != 0 {
		// Only the tests' own owners should be around: a leftover one, or
		// another client on the same display, would make the results wrong.
		t.Logf("CLIPBOARD on %s is owned by window %#x, waiting for it to go", os.Getenv("DISPLAY"), w)
		waitOwner(t, false)
	}
}

// clipboardOwner returns the window owning CLIPBOARD (0 for none).
func clipboardOwner(t *testing.T) xproto.Window {
	t.Helper()
	conn, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	a, err := xproto.InternAtom(conn, false, 9, "CLIPBOARD").Reply()
	if err != nil {
		t.Fatal(err)
	}
	r, err := xproto.GetSelectionOwner(conn, a.Atom).Reply()
	if err != nil {
		t.Fatal(err)
	}
	return r.Owner
}

// waitOwner waits until CLIPBOARD has an owner (or none).
func waitOwner(t *testing.T, want bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for (clipboardOwner(t) != 0) != want {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for the clipboard owner to be present=%v (owner %#x on %s)", want, clipboardOwner(t), os.Getenv("DISPLAY"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// offer puts data on the clipboard with xclip, as target mime ("" for
// text), and removes it when the test ends.
func offer(t *testing.T, mime string, data []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "clip")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-quiet", "-selection", "clipboard", "-i", file}
	if mime != "" {
		args = append(args, "-t", mime)
	}
	cmd := exec.Command("xclip", args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		waitOwner(t, false)
	})
	waitOwner(t, true)
}

func encodePNG(t testing.TB, img image.Image, level png.CompressionLevel) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: level}
	if err := enc.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gradient(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255})
		}
	}
	return img
}

func TestX11PNG(t *testing.T) {
	needX(t)
	want := encodePNG(t, gradient(64, 48), png.DefaultCompression)
	offer(t, "image/png", want)

	data, mime, err := Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if mime != "image/png" {
		t.Errorf("mime %q, want image/png", mime)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if cfg.Width != 64 || cfg.Height != 48 {
		t.Errorf("decoded %d×%d, want 64×48", cfg.Width, cfg.Height)
	}
	if !bytes.Equal(data, want) {
		t.Errorf("bytes differ: got %d, want %d", len(data), len(want))
	}
}

// TestX11LargePNGIncr pastes a screenshot-sized, incompressible PNG: far above
// the X server's maximum request size, so xclip must use INCR.
func TestX11LargePNGIncr(t *testing.T) {
	needX(t)
	img := image.NewNRGBA(image.Rect(0, 0, 2000, 2000))
	_, _ = rand.NewChaCha8([32]byte{1}).Read(img.Pix)
	t0 := time.Now()
	want := encodePNG(t, img, png.NoCompression) // noise does not compress anyway
	offer(t, "image/png", want)
	t.Logf("PNG of %d bytes encoded and offered in %v", len(want), time.Since(t0))

	start := time.Now()
	r, err := readX11(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("read %d bytes in %v (incr=%v)", len(r.data), time.Since(start), r.incr)
	if !r.incr {
		t.Error("the owner did not use INCR; the test does not exercise it")
	}
	if r.mime != "image/png" || !bytes.Equal(r.data, want) {
		t.Fatalf("got %q and %d bytes, want image/png and the %d bytes unchanged", r.mime, len(r.data), len(want))
	}
}

func TestX11JPEGOnly(t *testing.T) {
	needX(t)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, gradient(30, 20), nil); err != nil {
		t.Fatal(err)
	}
	offer(t, "image/jpeg", buf.Bytes())

	data, mime, err := Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if mime != "image/jpeg" {
		t.Errorf("mime %q, want image/jpeg", mime)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != 30 || cfg.Height != 20 {
		t.Errorf("decoded %d×%d, %v; want 30×20", cfg.Width, cfg.Height, err)
	}
}

func TestX11BMPAlias(t *testing.T) {
	needX(t)
	offer(t, "image/x-MS-bmp", []byte("BM fake bitmap"))
	data, mime, err := Read(context.Background())
	if err != nil || mime != "image/bmp" || string(data) != "BM fake bitmap" {
		t.Fatalf("got %q %q, %v; want image/bmp", mime, data, err)
	}
}

func TestX11Text(t *testing.T) {
	needX(t)
	offer(t, "", []byte("just some text"))
	_, _, err := Read(context.Background())
	if !errors.Is(err, ErrNoImage) {
		t.Fatalf("error %v, want ErrNoImage", err)
	}
	t.Log(err)
}

func TestX11NoOwner(t *testing.T) {
	needX(t)
	start := time.Now()
	_, _, err := Read(context.Background())
	if !errors.Is(err, ErrNoImage) {
		t.Fatalf("error %v, want ErrNoImage", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("took %v with no owner, want fast", d)
	}
}

// silentOwner takes CLIPBOARD and never answers a request.
func silentOwner(t *testing.T) {
	t.Helper()
	conn, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); waitOwner(t, false) })
	win, err := xproto.NewWindowId(conn)
	if err != nil {
		t.Fatal(err)
	}
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	if err := xproto.CreateWindowChecked(conn, 0, win, root, 0, 0, 1, 1, 0, xproto.WindowClassInputOnly, 0, 0, nil).Check(); err != nil {
		t.Fatal(err)
	}
	a, err := xproto.InternAtom(conn, false, 9, "CLIPBOARD").Reply()
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.SetSelectionOwnerChecked(conn, win, a.Atom, xproto.TimeCurrentTime).Check(); err != nil {
		t.Fatal(err)
	}
	waitOwner(t, true)
}

func TestX11SilentOwnerTimesOut(t *testing.T) {
	needX(t)
	silentOwner(t)
	old := idleTimeout
	idleTimeout = 300 * time.Millisecond
	t.Cleanup(func() { idleTimeout = old })

	start := time.Now()
	_, _, err := Read(context.Background())
	if !errors.Is(err, errOwnerTimeout) {
		t.Fatalf("error %v, want %v", err, errOwnerTimeout)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestX11SilentOwnerContext(t *testing.T) {
	needX(t)
	silentOwner(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := Read(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want deadline exceeded", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v, want the context to cut the wait short", d)
	}
}

// TestX11NoLeaks reads many times and checks that connections and goroutines
// do not accumulate.
func TestX11NoLeaks(t *testing.T) {
	needX(t)
	offer(t, "image/png", encodePNG(t, gradient(8, 8), png.DefaultCompression))
	if _, _, err := Read(context.Background()); err != nil { // warm up
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	for range 30 {
		if _, _, err := Read(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before+2 {
		if time.Now().After(deadline) {
			t.Fatalf("goroutines: %d before, %d after 30 reads", before, runtime.NumGoroutine())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
