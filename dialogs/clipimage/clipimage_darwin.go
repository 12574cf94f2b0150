//go:build darwin

package clipimage

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// pasteboardScript returns the first image class on the pasteboard, PNG
// before TIFF (what screenshots and most Mac apps offer), or "" when there is
// none. One osascript run, so a text paste costs one process, not two.
const pasteboardScript = `try
	return the clipboard as «class PNGf»
end try
try
	return the clipboard as «class TIFF»
end try
return ""`

// read asks osascript for the pasteboard's PNG, else TIFF (pasteboardScript).
// The output is hex, twice the image's size, and capped accordingly.
func read(ctx context.Context) ([]byte, string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/usr/bin/osascript", "-e", pasteboardScript)
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{w: &stderr, n: 4096}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", fmt.Errorf("clipimage: osascript: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("clipimage: osascript: %w", err)
	}
	const limit = 2*maxImageBytes + 64
	out, rerr := io.ReadAll(io.LimitReader(stdout, limit+1))
	if len(out) > limit {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, "", fmt.Errorf("clipimage: the pasteboard's image is larger than %d MiB", maxImageBytes>>20)
	}
	if err := cmd.Wait(); err != nil {
		if ctx.Err() != nil {
			return nil, "", fmt.Errorf("clipimage: osascript did not answer: %w", ctx.Err())
		}
		return nil, "", fmt.Errorf("clipimage: osascript: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	if rerr != nil {
		return nil, "", fmt.Errorf("clipimage: osascript: %w", rerr)
	}
	return parseAppleScriptData(out)
}

// limitedBuffer keeps the first n bytes written to it and drops the rest.
type limitedBuffer struct {
	w *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
