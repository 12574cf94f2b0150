package clipimage

import (
	"bytes"
	"errors"
	"testing"
)

func TestParseAppleScriptData(t *testing.T) {
	data, mime, err := parseAppleScriptData([]byte("«data PNGf89504E470D0A1A0A»\n"))
	if err != nil || mime != "image/png" || !bytes.Equal(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("PNGf: %q %q %v", data, mime, err)
	}
	data, mime, err = parseAppleScriptData([]byte("«data TIFF4D4D002A»"))
	if err != nil || mime != "image/tiff" || !bytes.Equal(data, []byte("MM\x00*")) {
		t.Errorf("TIFF: %q %q %v", data, mime, err)
	}
	if _, _, err := parseAppleScriptData([]byte("\n")); !errors.Is(err, ErrNoImage) {
		t.Errorf("empty: %v, want ErrNoImage", err)
	}
	for _, bad := range []string{"«data PNGf8950", "«data utf8414243»", "«data PNGf89ZZ»", "hello", "«data »"} {
		if _, _, err := parseAppleScriptData([]byte(bad)); err == nil || errors.Is(err, ErrNoImage) {
			t.Errorf("%q: err = %v, want a parse error", bad, err)
		}
	}
}
