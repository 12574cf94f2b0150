//go:build !((linux && !android) || freebsd || openbsd || netbsd || dragonfly)

package clipimage

import (
	"context"
	"errors"
	"fmt"
	"runtime"
)

// read is not implemented here yet. macOS and Windows can come later through
// golang.design/x/clipboard (clipboard.Read(clipboard.FmtImage), PNG bytes),
// which works on those systems without extra packages; it is not used on Linux
// because it dlopens libX11.so there (see the package comment).
func read(context.Context) ([]byte, string, error) {
	return nil, "", fmt.Errorf("clipimage: pasting images is not supported on %s yet: %w", runtime.GOOS, errors.ErrUnsupported)
}
