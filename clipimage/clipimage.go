// Package clipimage reads an image from the system clipboard.
//
// Fyne's clipboard is text only, so the question window asks this package
// when the user presses Ctrl+V: if the clipboard holds an image, the image is
// attached; otherwise (ErrNoImage) the paste falls through to text.
//
// Each platform has its own file behind the unexported read function:
//
//   - Linux and the BSDs (clipimage_unix.go): wl-paste on Wayland when it is
//     installed (clipimage_wayland.go), otherwise the X11 CLIPBOARD selection,
//     spoken directly over the X protocol in pure Go with github.com/jezek/xgb
//     (clipimage_x11.go). No cgo and no libX11: golang.design/x/clipboard is
//     deliberately not used on Linux because it dlopens "libX11.so", which only
//     the libx11-dev package provides.
//   - Everything else (clipimage_other.go): not supported yet.
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
