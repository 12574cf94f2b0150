package clipimage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// dib builds a packed DIB: a header of hs bytes (40 or more), then extra
// (masks after a 40-byte header, or a palette), then rows as given (each
// already padded to 4 bytes), in the order given.
type dib struct {
	hs          uint32
	w, h        int32
	bpp         uint16
	comp        uint32
	headerMasks [4]uint32 // written into headers of 52 bytes and more
	extra       []byte
	rows        [][]byte
}

func (d dib) bytes() []byte {
	hdr := make([]byte, d.hs)
	le := binary.LittleEndian
	le.PutUint32(hdr[0:], d.hs)
	le.PutUint32(hdr[4:], uint32(d.w))
	le.PutUint32(hdr[8:], uint32(d.h))
	le.PutUint16(hdr[12:], 1)
	le.PutUint16(hdr[14:], d.bpp)
	le.PutUint32(hdr[16:], d.comp)
	for i := 0; i < 4 && 40+4*i+4 <= int(d.hs); i++ {
		le.PutUint32(hdr[40+4*i:], d.headerMasks[i])
	}
	out := append(hdr, d.extra...)
	for _, r := range d.rows {
		out = append(out, r...)
	}
	return out
}

func u32s(v ...uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func nrgba(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

var (
	red   = color.NRGBA{0xff, 0, 0, 0xff}
	green = color.NRGBA{0, 0xff, 0, 0xff}
	blue  = color.NRGBA{0, 0, 0xff, 0xff}
	white = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	black = color.NRGBA{0, 0, 0, 0xff}
)

func TestDecodeDIB(t *testing.T) {
	tests := []struct {
		name string
		dib  dib
		want [][]color.NRGBA // [y][x]
	}{
		{"24 bits, bottom-up, padded rows",
			dib{hs: 40, w: 3, h: 2, bpp: 24, rows: [][]byte{
				{0, 0, 0xff, 0, 0xff, 0, 0xff, 0, 0, 0, 0, 0}, // bottom row: red green blue + 3 bytes of padding
				{0xff, 0xff, 0xff, 0, 0, 0, 0xff, 0xff, 0xff, 0, 0, 0},
			}},
			[][]color.NRGBA{{white, black, white}, {red, green, blue}}},
		{"32 bits BI_RGB with zero alpha is opaque",
			dib{hs: 40, w: 2, h: 1, bpp: 32, rows: [][]byte{u32s(0x00ff0000, 0x000000ff)}},
			[][]color.NRGBA{{red, blue}}},
		{"V5, 32 bits with an alpha mask, top-down",
			dib{hs: 124, w: 2, h: -2, bpp: 32, comp: biBitfields,
				headerMasks: [4]uint32{0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000},
				rows:        [][]byte{u32s(0x80ff0000, 0xff00ff00), u32s(0x000000ff, 0xffffffff)}},
			[][]color.NRGBA{{{0xff, 0, 0, 0x80}, green}, {{0, 0, 0xff, 0}, white}}},
		{"40-byte header, 16 bits 5-6-5 with the masks after it",
			dib{hs: 40, w: 2, h: 1, bpp: 16, comp: biBitfields, extra: u32s(0xf800, 0x07e0, 0x001f),
				rows: [][]byte{{0x00, 0xf8, 0xe0, 0x07}}},
			[][]color.NRGBA{{red, green}}},
		{"16 bits BI_RGB is 5-5-5",
			dib{hs: 40, w: 2, h: 1, bpp: 16, rows: [][]byte{{0x1f, 0x00, 0xff, 0x7f}}},
			[][]color.NRGBA{{blue, white}}},
		{"8 bits with a palette of three",
			dib{hs: 40, w: 3, h: 1, bpp: 8, extra: append(u32s(0x00ff0000, 0x0000ff00, 0x000000ff), []byte{}...),
				rows: [][]byte{{2, 1, 0, 0}}},
			[][]color.NRGBA{{blue, green, red}}},
		{"1 bit, black and white",
			dib{hs: 40, w: 3, h: 1, bpp: 1, extra: u32s(0, 0xffffff), rows: [][]byte{{0b10100000, 0, 0, 0}}},
			[][]color.NRGBA{{white, black, white}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.dib.bytes()
			if tt.dib.bpp == 8 {
				binary.LittleEndian.PutUint32(b[32:], 3) // biClrUsed
			}
			img, err := decodeDIB(b)
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Bounds().Size(); got != image.Pt(len(tt.want[0]), len(tt.want)) {
				t.Fatalf("size %v", got)
			}
			for y, row := range tt.want {
				for x, want := range row {
					if got := nrgba(img, x, y); got != want {
						t.Errorf("pixel (%d,%d) = %v, want %v", x, y, got, want)
					}
				}
			}
		})
	}
}

func TestDecodeDIBRefuses(t *testing.T) {
	ok := dib{hs: 40, w: 1, h: 1, bpp: 24, rows: [][]byte{{0, 0, 0, 0}}}
	tests := map[string][]byte{
		"empty":           nil,
		"short header":    ok.bytes()[:20],
		"core header":     append(u32s(12), make([]byte, 40)...),
		"truncated rows":  ok.bytes()[:42],
		"huge":            dib{hs: 40, w: 1 << 16, h: 1 << 16, bpp: 24}.bytes(),
		"zero width":      dib{hs: 40, w: 0, h: 1, bpp: 24}.bytes(),
		"RLE8":            dib{hs: 40, w: 1, h: 1, bpp: 8, comp: 1, extra: make([]byte, 1024), rows: [][]byte{{0, 0, 0, 0}}}.bytes(),
		"embedded JPEG":   dib{hs: 40, w: 1, h: 1, bpp: 0, comp: 4}.bytes(),
		"2 bits":          dib{hs: 40, w: 1, h: 1, bpp: 2, rows: [][]byte{{0, 0, 0, 0}}}.bytes(),
		"24-bit fields":   dib{hs: 40, w: 1, h: 1, bpp: 24, comp: biBitfields, extra: u32s(1, 2, 3), rows: [][]byte{{0, 0, 0, 0}}}.bytes(),
		"missing palette": dib{hs: 40, w: 1, h: 1, bpp: 8}.bytes(),
	}
	for name, b := range tests {
		if _, err := decodeDIB(b); !errors.Is(err, errDIB) {
			t.Errorf("%s: err = %v, want errDIB", name, err)
		}
	}
}

func TestDIBToPNG(t *testing.T) {
	b := dib{hs: 124, w: 2, h: -1, bpp: 32, comp: biBitfields,
		headerMasks: [4]uint32{0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000},
		rows:        [][]byte{u32s(0x40ff0000, 0xff0000ff)}}.bytes()
	p, err := dibToPNG(b)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(p))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if got, want := nrgba(img, 0, 0), (color.NRGBA{0xff, 0, 0, 0x40}); got != want {
		t.Errorf("pixel 0 = %v, want %v (alpha kept)", got, want)
	}
	if got := nrgba(img, 1, 0); got != blue {
		t.Errorf("pixel 1 = %v, want blue", got)
	}
}

func FuzzDecodeDIB(f *testing.F) {
	f.Add(dib{hs: 40, w: 3, h: 2, bpp: 24, rows: [][]byte{make([]byte, 12), make([]byte, 12)}}.bytes())
	f.Add(dib{hs: 124, w: 1, h: -1, bpp: 32, comp: biBitfields, headerMasks: [4]uint32{0xff, 0xff00, 0xff0000, 0xff000000}, rows: [][]byte{u32s(7)}}.bytes())
	f.Add(dib{hs: 40, w: 9, h: 1, bpp: 1, extra: u32s(0, 0xffffff), rows: [][]byte{make([]byte, 4)}}.bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		img, err := decodeDIB(b)
		if err == nil && img.Bounds().Empty() {
			t.Fatal("an empty image without an error")
		}
	})
}
