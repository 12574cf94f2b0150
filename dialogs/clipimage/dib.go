package clipimage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/bits"
)

// The Windows clipboard hands out bitmaps as packed DIBs (CF_DIB, CF_DIBV5): a
// BITMAPINFOHEADER or one of its longer successors, optional colour masks and
// palette, then the rows of pixels. decodeDIB reads one on any system so the
// tests run everywhere; clipimage_windows.go only fetches the bytes.

// Compression values of a DIB that decodeDIB reads.
const (
	biRGB            = 0
	biBitfields      = 3
	biAlphaBitfields = 6
)

// maxDIBPixels bounds the size of a clipboard bitmap decodeDIB accepts
// (an 8K screen, 7680×4320, is 33.2 million pixels).
const maxDIBPixels = 1 << 25

// errDIB reports a DIB decodeDIB cannot read.
var errDIB = errors.New("clipimage: unreadable clipboard bitmap (DIB)")

// dibToPNG converts a packed DIB to PNG bytes.
func dibToPNG(b []byte) ([]byte, error) {
	img, err := decodeDIB(b)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed} // imagepipe re-encodes it anyway
	if err := enc.Encode(&out, img); err != nil {
		return nil, fmt.Errorf("clipimage: encode the clipboard bitmap: %w", err)
	}
	return out.Bytes(), nil
}

// decodeDIB decodes a packed DIB: header sizes 40 (BITMAPINFOHEADER), 52, 56,
// 108 (V4) and 124 (V5); 1, 4 and 8 bits per pixel with a palette; 16, 24 and
// 32 bits, uncompressed or with bit-field masks; rows bottom-up (positive
// height) or top-down. A 32-bit bitmap whose alpha is zero everywhere, as
// many programs write it, is taken as opaque. Anything else, or a truncated
// buffer, is an error wrapping errDIB.
func decodeDIB(b []byte) (image.Image, error) {
	bad := func(format string, args ...any) (image.Image, error) {
		return nil, fmt.Errorf("%w: %s", errDIB, fmt.Sprintf(format, args...))
	}
	if len(b) < 40 {
		return bad("%d bytes, shorter than a header", len(b))
	}
	le := binary.LittleEndian
	hs := le.Uint32(b[0:])
	switch hs {
	case 40, 52, 56, 108, 124:
	default:
		return bad("header size %d", hs)
	}
	if uint32(len(b)) < hs {
		return bad("truncated header")
	}
	w := int64(int32(le.Uint32(b[4:])))
	h := int64(int32(le.Uint32(b[8:])))
	bpp := int(le.Uint16(b[14:]))
	comp := le.Uint32(b[16:])
	clrUsed := int64(le.Uint32(b[32:]))
	topDown := h < 0
	if topDown {
		h = -h
	}
	if w <= 0 || h <= 0 || w*h > maxDIBPixels {
		return bad("size %d×%d", w, h)
	}

	off := int64(hs)
	var masks [4]uint32 // R, G, B, A
	switch comp {
	case biRGB:
		switch bpp {
		case 16:
			masks = [4]uint32{0x7c00, 0x03e0, 0x001f, 0}
		case 32:
			masks = [4]uint32{0xff0000, 0xff00, 0xff, 0xff000000}
		}
	case biBitfields, biAlphaBitfields:
		if bpp != 16 && bpp != 32 {
			return bad("bit fields with %d bits per pixel", bpp)
		}
		n := int64(3)
		if comp == biAlphaBitfields {
			n = 4
		}
		at := int64(40) // a 40-byte header is followed by the masks; longer ones hold them
		if hs == 40 {
			off += 4 * n
		} else if hs >= 56 {
			n = 4
		}
		if int64(len(b)) < at+4*n {
			return bad("truncated colour masks")
		}
		for i := int64(0); i < n; i++ {
			masks[i] = le.Uint32(b[at+4*i:])
		}
	default:
		return bad("compression %d", comp)
	}

	var palette color.Palette
	switch bpp {
	case 1, 4, 8:
		if comp != biRGB {
			return bad("compression %d with %d bits per pixel", comp, bpp)
		}
		n := int64(1) << bpp
		if clrUsed > 0 && clrUsed < n {
			n = clrUsed
		}
		if int64(len(b)) < off+4*n {
			return bad("truncated palette")
		}
		palette = make(color.Palette, n)
		for i := range palette {
			p := b[off+4*int64(i):]
			palette[i] = color.NRGBA{R: p[2], G: p[1], B: p[0], A: 0xff}
		}
		off += 4 * n
	case 16, 24, 32:
		if bpp == 24 && comp != biRGB {
			return bad("compression %d with 24 bits per pixel", comp)
		}
	default:
		return bad("%d bits per pixel", bpp)
	}

	stride := (w*int64(bpp) + 31) / 32 * 4
	if int64(len(b)) < off+stride*h {
		return bad("%d bytes of pixels, want %d", int64(len(b))-off, stride*h)
	}
	pix := b[off:]
	img := image.NewNRGBA(image.Rect(0, 0, int(w), int(h)))
	anyAlpha := false
	for y := int64(0); y < h; y++ {
		row := pix[y*stride : (y+1)*stride]
		dy := h - 1 - y
		if topDown {
			dy = y
		}
		out := img.Pix[dy*int64(img.Stride):]
		for x := int64(0); x < w; x++ {
			var c color.NRGBA
			switch bpp {
			case 1, 4, 8:
				bit := x * int64(bpp)
				v := int(row[bit/8]>>(8-uint(bpp)-uint(bit%8))) & (1<<bpp - 1)
				if v >= len(palette) {
					v = 0 // out of range: the first colour, as Windows draws it
				}
				c = palette[v].(color.NRGBA)
			case 24:
				p := row[3*x:]
				c = color.NRGBA{R: p[2], G: p[1], B: p[0], A: 0xff}
			case 16:
				v := uint32(le.Uint16(row[2*x:]))
				c = color.NRGBA{R: channel(v, masks[0]), G: channel(v, masks[1]), B: channel(v, masks[2]), A: 0xff}
			case 32:
				v := le.Uint32(row[4*x:])
				c = color.NRGBA{R: channel(v, masks[0]), G: channel(v, masks[1]), B: channel(v, masks[2]), A: 0xff}
				if masks[3] != 0 {
					c.A = channel(v, masks[3])
					anyAlpha = anyAlpha || c.A != 0
				}
			}
			o := out[4*x:]
			o[0], o[1], o[2], o[3] = c.R, c.G, c.B, c.A
		}
	}
	if bpp == 32 && masks[3] != 0 && !anyAlpha {
		for i := 3; i < len(img.Pix); i += 4 {
			img.Pix[i] = 0xff
		}
	}
	return img, nil
}

// channel extracts the bits of mask from v, scaled to 0–255.
func channel(v, mask uint32) uint8 {
	if mask == 0 {
		return 0
	}
	shift := bits.TrailingZeros32(mask)
	n := bits.OnesCount32(mask)
	x := (v & mask) >> shift
	if n >= 8 {
		return uint8(x >> (n - 8))
	}
	return uint8(x * 255 / (1<<n - 1))
}
