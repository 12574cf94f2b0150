//go:build windows

package clipimage

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"testing"
	"unsafe"
)

var (
	procEmptyClipboard   = user32.NewProc("EmptyClipboard")
	procSetClipboardData = user32.NewProc("SetClipboardData")
	procGlobalAlloc      = kernel32.NewProc("GlobalAlloc")
)

// setClipboard puts data on the clipboard under format (no format: empty).
func setClipboard(t *testing.T, format uintptr, data []byte) {
	t.Helper()
	if err := openClipboard(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer procCloseClipboard.Call()
	procEmptyClipboard.Call()
	if data == nil {
		return
	}
	const gmemMoveable = 0x0002
	h, _, err := procGlobalAlloc.Call(gmemMoveable, uintptr(len(data)))
	if h == 0 {
		t.Fatalf("GlobalAlloc: %v", err)
	}
	p, _, err := procGlobalLock.Call(h)
	if p == 0 {
		t.Fatalf("GlobalLock: %v", err)
	}
	mem := *(*unsafe.Pointer)(unsafe.Pointer(&p))
	copy(unsafe.Slice((*byte)(mem), len(data)), data)
	procGlobalUnlock.Call(h)
	if r, _, err := procSetClipboardData.Call(format, h); r == 0 {
		t.Fatalf("SetClipboardData: %v", err)
	}
}

func TestWindowsClipboardDIB(t *testing.T) {
	d := dib{hs: 40, w: 2, h: 1, bpp: 24, rows: [][]byte{{0, 0, 0xff, 0xff, 0, 0, 0, 0}}}
	setClipboard(t, cfDIB, d.bytes())
	data, mime, err := Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if mime != "image/png" {
		t.Errorf("mime = %q, want image/png", mime)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := nrgba(img, 0, 0); got != red {
		t.Errorf("pixel 0 = %v, want red", got)
	}
	if got := nrgba(img, 1, 0); got != blue {
		t.Errorf("pixel 1 = %v, want blue", got)
	}
}

func TestWindowsClipboardPNGFormat(t *testing.T) {
	var buf bytes.Buffer
	d := dib{hs: 40, w: 1, h: 1, bpp: 24, rows: [][]byte{{0, 0xff, 0, 0}}}
	img, _ := decodeDIB(d.bytes())
	png.Encode(&buf, img)
	setClipboard(t, registeredFormat("PNG"), buf.Bytes())
	data, mime, err := Read(context.Background())
	if err != nil || mime != "image/png" || !bytes.HasPrefix(data, buf.Bytes()) {
		t.Fatalf("Read = %d bytes %q %v, want the PNG as put", len(data), mime, err)
	}
}

func TestWindowsClipboardWithoutImage(t *testing.T) {
	setClipboard(t, 0, nil)
	if _, _, err := Read(context.Background()); !errors.Is(err, ErrNoImage) {
		t.Fatalf("Read of an empty clipboard: %v, want ErrNoImage", err)
	}
}
