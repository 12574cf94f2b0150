package clipimage

import (
	"bytes"
	"encoding/hex"
	"fmt"
)

// On macOS the pasteboard is read by osascript (clipimage_darwin.go), which
// prints raw data in AppleScript's notation: «data PNGf89504E47…». Parsing it
// is plain Go, tested on every system.

// appleScriptClasses maps the four-letter classes the script asks for to MIME types.
var appleScriptClasses = map[string]string{"PNGf": "image/png", "TIFF": "image/tiff"}

// parseAppleScriptData decodes osascript's output of pasteboardScript: the
// image bytes and MIME type, or ErrNoImage for an empty result.
func parseAppleScriptData(out []byte) ([]byte, string, error) {
	out = bytes.TrimSpace(out)
	if len(out) == 0 {
		return nil, "", ErrNoImage
	}
	rest, ok := bytes.CutPrefix(out, []byte("«data "))
	if !ok {
		return nil, "", fmt.Errorf("clipimage: unexpected osascript output %.40q", out)
	}
	rest, ok = bytes.CutSuffix(rest, []byte("»"))
	if !ok || len(rest) < 4 {
		return nil, "", fmt.Errorf("clipimage: truncated osascript output (%d bytes)", len(out))
	}
	mime, ok := appleScriptClasses[string(rest[:4])]
	if !ok {
		return nil, "", fmt.Errorf("clipimage: osascript returned data of class %q, not an image", rest[:4])
	}
	data := make([]byte, hex.DecodedLen(len(rest)-4))
	if _, err := hex.Decode(data, rest[4:]); err != nil {
		return nil, "", fmt.Errorf("clipimage: osascript output: %w", err)
	}
	return data, mime, nil
}
