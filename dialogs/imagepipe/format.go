package imagepipe

import (
	"bytes"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"
)

// format is one readable image format. Decoders are called directly rather
// than through image.Decode, whose registry is global: a format some other
// package registers (an icon or SVG decoder pulled in by the GUI) must not
// become readable here by accident.
type format struct {
	name   string // for messages: "PNG"
	sniff  func(b []byte) bool
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
}

// formats is the complete list of readable formats, matched by content.
// http.DetectContentType would do for all but TIFF, which it does not know.
var formats = []format{
	{"PNG", prefix("\x89PNG\r\n\x1a\n"), png.DecodeConfig, png.Decode},
	{"JPEG", prefix("\xff\xd8\xff"), jpeg.DecodeConfig, jpeg.Decode},
	{"GIF", func(b []byte) bool { return prefix("GIF87a")(b) || prefix("GIF89a")(b) }, gif.DecodeConfig, gif.Decode},
	{"BMP", prefix("BM"), bmp.DecodeConfig, bmp.Decode},
	{"TIFF", func(b []byte) bool { return prefix("II*\x00")(b) || prefix("MM\x00*")(b) }, tiff.DecodeConfig, tiff.Decode},
	{"WebP", func(b []byte) bool { return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP" }, webp.DecodeConfig, webp.Decode},
}

// readableFormats is the list users see in the "not an image format"
// message.
const readableFormats = "PNG, JPEG, GIF, BMP, TIFF, WebP"

func prefix(p string) func([]byte) bool {
	return func(b []byte) bool { return bytes.HasPrefix(b, []byte(p)) }
}

// sniff returns the format of src judged by its first bytes, or nil.
func sniff(src []byte) *format {
	for i := range formats {
		if formats[i].sniff(src) {
			return &formats[i]
		}
	}
	return nil
}
