// Package clipimage reads an image from the system clipboard.
//
// Fyne's clipboard is text only, so the question window asks this package
// when the user presses Ctrl+V (Cmd+V on macOS): if the clipboard holds an
// image, the image is attached; otherwise (ErrNoImage) the paste falls
// through to text.
//
// Each platform has its own file behind the unexported read function:
//
//   - Linux and the BSDs (clipimage_unix.go): wl-paste on Wayland when it is
//     installed (clipimage_wayland.go), otherwise the X11 CLIPBOARD selection,
//     spoken directly over the X protocol in pure Go with github.com/jezek/xgb
//     (clipimage_x11.go). No cgo and no libX11: golang.design/x/clipboard is
//     deliberately not used on Linux because it dlopens "libX11.so", which only
//     the libx11-dev package provides.
//   - Windows (clipimage_windows.go): the Win32 clipboard through
//     golang.org/x/sys/windows, no cgo. A registered "PNG" format first (it
//     keeps transparency), else CF_DIBV5, else CF_DIB; a DIB is decoded by
//     dib.go, plain Go tested on every system, and handed on as PNG.
//   - macOS (clipimage_darwin.go): /usr/bin/osascript reads the pasteboard as
//     «class PNGf», else «class TIFF», in one run; applescript.go parses the
//     hex it prints. Chosen over NSPasteboard through cgo because a cgo file
//     needs the macOS SDK to compile, so it could be neither built nor vetted
//     in CI here and would rot unseen; osascript is on every Mac, adds no
//     build dependency, and its cost (one process, tens of milliseconds, per
//     Cmd+V) is invisible on a key press. Its price is the hex transfer,
//     twice the image's size, which the size cap bounds.
//   - Everything else (clipimage_other.go): not supported.
package clipimage

import (
	"context"
	"errors"
)

// ErrNoImage reports that the clipboard holds no image: it is empty, has no
// owner, or offers only other types such as text. Callers should fall back to
// a text paste. Test for it with errors.Is; it may be wrapped with detail.
var ErrNoImage = errors.New("clipimage: the clipboard holds no image")

// maxImageBytes bounds what Read accepts from a clipboard owner, so a broken
// or hostile owner cannot make the app allocate without limit. An uncompressed
// 8K screenshot as BMP is about 130 MB.
const maxImageBytes = 256 << 20

// Read returns the image currently on the system clipboard: its bytes and MIME
// type. Among the types the clipboard owner offers it picks, in order of
// preference, image/png, image/jpeg, image/bmp, image/tiff, image/webp and
// image/gif (common aliases such as image/x-ms-bmp are accepted and reported
// under the canonical name). The bytes are returned exactly as the owner sent
// them; they are not decoded or checked.
//
// Read returns an error wrapping ErrNoImage when the clipboard holds no image,
// errors.ErrUnsupported on platforms without support, and another error
// describing what failed otherwise (no display, an owner that stops
// answering, …). Every wait is bounded by ctx and by a timeout of a few
// seconds without progress.
func Read(ctx context.Context) ([]byte, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	return read(ctx)
}
