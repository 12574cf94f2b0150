//go:build (linux && !android) || freebsd || openbsd || netbsd || dragonfly

package clipimage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// read uses wl-paste on a Wayland session when it is installed and the X11
// CLIPBOARD selection otherwise. If wl-paste fails for a reason other than
// "no image" and an X display (XWayland) is available, it falls back to X11,
// whose clipboard the compositor keeps in sync.
func read(ctx context.Context) ([]byte, string, error) {
	if os.Getenv("WAYLAND_DISPLAY") != "" {
		if wlPaste, err := exec.LookPath("wl-paste"); err == nil {
			data, mime, werr := readWayland(ctx, wlPaste)
			if werr == nil || errors.Is(werr, ErrNoImage) || os.Getenv("DISPLAY") == "" || ctx.Err() != nil {
				return data, mime, werr
			}
			data, mime, xerr := readX11Image(ctx)
			if xerr != nil {
				return nil, "", fmt.Errorf("%w (and via X11: %w)", werr, xerr)
			}
			return data, mime, nil
		}
	}
	return readX11Image(ctx)
}

func readX11Image(ctx context.Context) ([]byte, string, error) {
	r, err := readX11(ctx)
	if err != nil {
		return nil, "", err
	}
	return r.data, r.mime, nil
}
