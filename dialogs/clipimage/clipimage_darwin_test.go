//go:build darwin

package clipimage

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// These run on a Mac with a logged-in session (the pasteboard server).

func TestDarwinPasteboardPNG(t *testing.T) {
	d := dib{hs: 40, w: 1, h: 1, bpp: 24, rows: [][]byte{{0xff, 0, 0, 0}}}
	img, _ := decodeDIB(d.bytes())
	var buf bytes.Buffer
	png.Encode(&buf, img)
	path := filepath.Join(t.TempDir(), "x.png")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	script := `set the clipboard to (read (POSIX file "` + path + `") as «class PNGf»)`
	if out, err := exec.Command("/usr/bin/osascript", "-e", script).CombinedOutput(); err != nil {
		t.Skipf("cannot set the pasteboard here: %v: %s", err, out)
	}
	data, mime, err := Read(context.Background())
	if err != nil || mime != "image/png" || !bytes.Equal(data, buf.Bytes()) {
		t.Fatalf("Read = %d bytes %q %v, want the PNG as put", len(data), mime, err)
	}
}

func TestDarwinPasteboardText(t *testing.T) {
	if out, err := exec.Command("/usr/bin/osascript", "-e", `set the clipboard to "just text"`).CombinedOutput(); err != nil {
		t.Skipf("cannot set the pasteboard here: %v: %s", err, out)
	}
	if _, _, err := Read(context.Background()); !errors.Is(err, ErrNoImage) {
		t.Fatalf("Read of text: %v, want ErrNoImage", err)
	}
}
