package notification

import (
	"bytes"
	"fmt"
	"image"
	"image/png"

	"golang.org/x/image/draw"
)

// IconMaxSize is the largest side, in pixels, of the image sent with a
// notification; a larger Config.Icon is scaled down.
const IconMaxSize = 64

// maxIconBytes and maxIconSide bound the PNG Config.Icon may be.
const (
	maxIconBytes = 4 << 20
	maxIconSide  = 4096
)

// imageData is the "image-data" hint's (iiibiiay) structure: width,
// height, rowstride, has alpha, bits per sample, channels, then the
// non-premultiplied RGBA bytes.
type imageData struct {
	Width, Height, Rowstride int32
	HasAlpha                 bool
	BitsPerSample, Channels  int32
	Data                     []byte
}

// decodeIcon turns a PNG into image-data, scaled down to fit IconMaxSize.
func decodeIcon(p []byte) (*imageData, error) {
	if len(p) > maxIconBytes {
		return nil, fmt.Errorf("notification: Config.Icon is %d bytes, at most %d", len(p), maxIconBytes)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(p))
	if err != nil {
		return nil, fmt.Errorf("notification: Config.Icon is not a PNG: %w", err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > maxIconSide || cfg.Height > maxIconSide {
		return nil, fmt.Errorf("notification: Config.Icon is %d×%d, want 1..%d pixels a side", cfg.Width, cfg.Height, maxIconSide)
	}
	src, err := png.Decode(bytes.NewReader(p))
	if err != nil {
		return nil, fmt.Errorf("notification: Config.Icon is not a PNG: %w", err)
	}
	w, h := cfg.Width, cfg.Height
	if w > IconMaxSize || h > IconMaxSize {
		if w >= h {
			w, h = IconMaxSize, max(1, h*IconMaxSize/w)
		} else {
			w, h = max(1, w*IconMaxSize/h), IconMaxSize
		}
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return &imageData{
		Width: int32(w), Height: int32(h), Rowstride: int32(dst.Stride),
		HasAlpha: true, BitsPerSample: 8, Channels: 4,
		Data: dst.Pix,
	}, nil
}
