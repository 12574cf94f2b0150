//go:build (linux && !android) || freebsd || openbsd || netbsd || dragonfly

package clipimage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// Bounds for the wl-paste child processes. wl-paste gives no progress to
// watch, so these are whole-command limits; ctx still applies.
var (
	wlListTimeout = 2 * time.Second
	wlReadTimeout = 10 * time.Second
)

// readWayland reads the clipboard with wl-paste (wl-clipboard): the offered
// types with --list-types, then the chosen one with --type.
func readWayland(ctx context.Context, wlPaste string) ([]byte, string, error) {
	out, err := runWlPaste(ctx, wlListTimeout, wlPaste, "--list-types")
	if err != nil {
		return nil, "", err
	}
	target, mime, ok := chooseTarget(strings.Split(string(out), "\n"))
	if !ok {
		return nil, "", ErrNoImage
	}
	data, err := runWlPaste(ctx, wlReadTimeout, wlPaste, "--no-newline", "--type", target)
	if err != nil {
		return nil, "", err
	}
	if len(data) == 0 {
		return nil, "", fmt.Errorf("clipimage: wl-paste returned no data for %s", target)
	}
	return data, mime, nil
}

// runWlPaste runs wl-paste with args and returns its stdout, at most
// maxImageBytes of it. An empty clipboard becomes ErrNoImage.
func runWlPaste(ctx context.Context, timeout time.Duration, wlPaste string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, wlPaste, args...)
	cmd.WaitDelay = time.Second // do not hang on pipes a stray child keeps open
	var stdout limitedBuffer
	stdout.limit = maxImageBytes
	var stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := cmd.Run()
	if stdout.overflow {
		return nil, fmt.Errorf("clipimage: the clipboard image is larger than %d bytes", maxImageBytes)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if ctx.Err() != nil {
			return nil, fmt.Errorf("clipimage: wl-paste %s: %w", strings.Join(args, " "), context.Cause(ctx))
		}
		// wl-clipboard 2.x says "Nothing is copied", 1.x "No selection".
		if strings.Contains(msg, "Nothing is copied") || strings.Contains(msg, "No selection") {
			return nil, ErrNoImage
		}
		return nil, fmt.Errorf("clipimage: wl-paste %s: %w: %s", strings.Join(args, " "), err, msg)
	}
	return stdout.Bytes(), nil
}

// limitedBuffer is a bytes.Buffer that refuses to grow beyond limit.
type limitedBuffer struct {
	bytes.Buffer
	limit    int
	overflow bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.limit {
		b.overflow = true
		return 0, errors.New("output too large")
	}
	return b.Buffer.Write(p)
}

var _ io.Writer = (*limitedBuffer)(nil)
