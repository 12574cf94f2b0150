package imagepipe

import (
	"bytes"
	"encoding/binary"
	"image"
)

// Re-encoding drops the EXIF block, and with it the orientation tag that
// tells viewers to rotate a phone photo taken in portrait. So the rotation
// is applied to the pixels first, as browsers and image viewers do.

// exifOrientation returns the EXIF orientation (1 to 8) of a JPEG or TIFF
// file, or 1 (as stored) when there is none or it cannot be read.
func exifOrientation(f *format, src []byte) int {
	switch f.name {
	case "JPEG":
		return tiffOrientation(jpegExif(src))
	case "TIFF":
		return tiffOrientation(src)
	}
	return 1
}

// jpegExif returns the TIFF structure inside a JPEG's Exif APP1 segment,
// or nil. It walks the marker segments up to the start of scan.
func jpegExif(b []byte) []byte {
	exifHeader := []byte("Exif\x00\x00")
	i := 2 // after SOI
	for i+4 <= len(b) {
		if b[i] != 0xff {
			return nil
		}
		marker := b[i+1]
		switch {
		case marker == 0xff: // fill byte
			i++
			continue
		case marker == 0x01 || marker >= 0xd0 && marker <= 0xd8: // no length
			i += 2
			continue
		case marker == 0xda || marker == 0xd9: // start of scan, end of image
			return nil
		}
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if n < 2 || i+2+n > len(b) {
			return nil
		}
		seg := b[i+4 : i+2+n]
		if marker == 0xe1 && bytes.HasPrefix(seg, exifHeader) {
			return seg[len(exifHeader):]
		}
		i += 2 + n
	}
	return nil
}

// tiffOrientation reads tag 0x0112 (Orientation) from IFD0 of a TIFF
// structure, returning 1 when it is absent or out of range.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	off := int64(bo.Uint32(t[4:]))
	if off < 8 || off+2 > int64(len(t)) {
		return 1
	}
	n := int64(bo.Uint16(t[off:]))
	for e := off + 2; e+12 <= int64(len(t)) && n > 0; e, n = e+12, n-1 {
		if bo.Uint16(t[e:]) != 0x0112 {
			continue
		}
		if bo.Uint16(t[e+2:]) != 3 { // SHORT
			return 1
		}
		if o := int(bo.Uint16(t[e+8:])); o >= 1 && o <= 8 {
			return o
		}
		return 1
	}
	return 1
}

// orient returns m transformed by EXIF orientation o (2 to 8), as
// orientations 5 to 8 swap width and height.
func orient(m *image.RGBA, o int) *image.RGBA {
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	// at maps a destination pixel to the source pixel it shows.
	var at func(x, y int) (int, int)
	switch o {
	case 2: // mirrored
		at = func(x, y int) (int, int) { return w - 1 - x, y }
	case 3: // upside down
		at = func(x, y int) (int, int) { return w - 1 - x, h - 1 - y }
	case 4: // mirrored upside down
		at = func(x, y int) (int, int) { return x, h - 1 - y }
	case 5: // transposed
		at = func(x, y int) (int, int) { return y, x }
	case 6: // rotate 90° clockwise to view
		at = func(x, y int) (int, int) { return y, h - 1 - x }
	case 7: // transversed
		at = func(x, y int) (int, int) { return w - 1 - y, h - 1 - x }
	case 8: // rotate 90° counter-clockwise to view
		at = func(x, y int) (int, int) { return w - 1 - y, x }
	default:
		return m
	}
	out := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		d := y * out.Stride
		for x := 0; x < dw; x, d = x+1, d+4 {
			sx, sy := at(x, y)
			s := m.PixOffset(b.Min.X+sx, b.Min.Y+sy)
			copy(out.Pix[d:d+4], m.Pix[s:s+4])
		}
	}
	return out
}
