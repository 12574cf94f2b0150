package imagepipe

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// Images are generated in code; the only fixture is a 34-byte WebP.
//
// The tests that process large images call t.Parallel (they are slow under
// -race); TestProcessBombs measures allocation and must stay sequential, so
// that it runs while they are paused.

// photo returns an opaque, photo-like image: smooth colour gradients with
// sensor-like noise, which PNG compresses badly and JPEG well.
func photo(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := 0; y < h; y++ {
		fy := float64(y) / float64(h)
		for x := 0; x < w; x++ {
			fx := float64(x) / float64(w)
			i := m.PixOffset(x, y)
			base := [3]float64{
				128 + 100*math.Sin(fx*6+fy*2),
				128 + 90*math.Cos(fy*5-fx),
				128 + 80*math.Sin((fx+fy)*4),
			}
			for c := range 3 {
				m.Pix[i+c] = clamp8(base[c] + float64(r.IntN(17)-8))
			}
			m.Pix[i+3] = 0xff
		}
	}
	return m
}

// screenshot returns a flat, screenshot-like image: a title bar, a
// sidebar and a code editor whose lines of text-like glyphs (random hard
// strokes) vary in indentation and length, with blank lines between.
func screenshot(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	fill := func(r image.Rectangle, c color.RGBA) {
		r = r.Intersect(m.Rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for i := m.PixOffset(r.Min.X, y); i < m.PixOffset(r.Max.X, y); i += 4 {
				m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = c.R, c.G, c.B, c.A
			}
		}
	}
	fill(m.Rect, color.RGBA{250, 250, 250, 255})
	fill(image.Rect(0, 0, w, 28), color.RGBA{60, 63, 65, 255})      // title bar
	fill(image.Rect(0, 28, w/5, h), color.RGBA{235, 236, 240, 255}) // sidebar
	r := rand.New(rand.NewPCG(3, 4))
	inks := []color.RGBA{{30, 30, 30, 255}, {0, 92, 197, 255}, {215, 58, 73, 255}, {34, 134, 58, 255}}
	for line := 40; line+14 < h; line += 20 {
		if r.IntN(5) == 0 { // a blank line
			continue
		}
		x := w/5 + 16 + 8*4*r.IntN(4) // indentation
		end := min(w-16, x+8*(10+r.IntN(90)))
		ink := inks[0]
		for ; x+8 <= end; x += 8 {
			if r.IntN(7) == 0 { // a space, and maybe a new token colour
				ink = inks[r.IntN(len(inks))]
				continue
			}
			// A 7×12 glyph of random strokes.
			for s := 0; s < 3; s++ {
				if r.IntN(2) == 0 {
					gx := x + r.IntN(6)
					fill(image.Rect(gx, line, gx+1, line+12), ink)
				} else {
					gy := line + r.IntN(12)
					fill(image.Rect(x, gy, x+7, gy+1), ink)
				}
			}
		}
	}
	return m
}

// translucent returns a noisy image with an alpha gradient.
func translucent(w, h int) *image.NRGBA {
	p := photo(w, h)
	m := image.NewNRGBA(p.Rect)
	copy(m.Pix, p.Pix)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Pix[m.PixOffset(x, y)+3] = uint8(255 * x / w)
		}
	}
	return m
}

// quadrants returns a w×h image with red, green, blue and white
// quadrants (top left, top right, bottom left, bottom right).
func quadrants(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	colors := [2][2][4]uint8{
		{{255, 0, 0, 255}, {0, 255, 0, 255}},
		{{0, 0, 255, 255}, {255, 255, 255, 255}},
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			copy(m.Pix[m.PixOffset(x, y):], colors[2*y/h][2*x/w][:])
		}
	}
	return m
}

func clamp8(v float64) uint8 {
	return uint8(max(0, min(255, math.Round(v))))
}

func encPNG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encJPEG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encBMP(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := bmp.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encTIFF(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := tiff.Encode(&b, m, &tiff.Options{Compression: tiff.Deflate}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// encGIF encodes one frame per colour, each filling the whole w×h canvas.
func encGIF(t testing.TB, w, h int, frames ...color.Color) []byte {
	t.Helper()
	g := &gif.GIF{}
	for _, c := range frames {
		p := image.NewPaletted(image.Rect(0, 0, w, h), palette.Plan9)
		idx := uint8(p.Palette.Index(c))
		for i := range p.Pix {
			p.Pix[i] = idx
		}
		g.Image = append(g.Image, p)
		g.Delay = append(g.Delay, 10)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngChunk frames one PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	return b.Bytes()
}

// pngHeaderOnly is a PNG signature and a valid IHDR declaring w×h, 8-bit
// RGBA, and nothing else.
func pngHeaderOnly(w, h uint32) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // bit depth, colour type RGBA
	return append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr)...)
}

// insertPNGChunk puts a chunk right after IHDR (8-byte signature, 25-byte
// IHDR chunk).
func insertPNGChunk(p []byte, chunk []byte) []byte {
	out := append([]byte{}, p[:33]...)
	out = append(out, chunk...)
	return append(out, p[33:]...)
}

// exifTIFF builds a little-endian TIFF structure whose IFD0 holds an
// Orientation tag and an ImageDescription carrying secret.
func exifTIFF(orientation uint16, secret string) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteString("II")
	binary.Write(&b, le, uint16(42))
	binary.Write(&b, le, uint32(8)) // IFD0 offset
	binary.Write(&b, le, uint16(2)) // entries
	strOff := uint32(8 + 2 + 2*12 + 4)
	// 0x010e ImageDescription, ASCII, count, offset
	binary.Write(&b, le, []uint16{0x010e, 2})
	binary.Write(&b, le, []uint32{uint32(len(secret) + 1), strOff})
	// 0x0112 Orientation, SHORT, 1, value
	binary.Write(&b, le, []uint16{0x0112, 3})
	binary.Write(&b, le, uint32(1))
	binary.Write(&b, le, []uint16{orientation, 0})
	binary.Write(&b, le, uint32(0)) // no next IFD
	b.WriteString(secret)
	b.WriteByte(0)
	return b.Bytes()
}

// withExif inserts an Exif APP1 segment right after a JPEG's SOI.
func withExif(j []byte, tiffData []byte) []byte {
	payload := append([]byte("Exif\x00\x00"), tiffData...)
	seg := []byte{0xff, 0xe1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	seg = append(seg, payload...)
	out := append([]byte{}, j[:2]...)
	out = append(out, seg...)
	return append(out, j[2:]...)
}

// tinyWebP is a 1×1 lossless WebP.
var tinyWebP = []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00")

// decodeOut decodes a processed image and checks it agrees with its
// metadata.
func decodeOut(t *testing.T, img Image) image.Image {
	t.Helper()
	var (
		m   image.Image
		err error
	)
	switch img.MIME {
	case MIMEPNG:
		m, err = png.Decode(bytes.NewReader(img.Data))
	case MIMEJPEG:
		m, err = jpeg.Decode(bytes.NewReader(img.Data))
	default:
		t.Fatalf("MIME %q", img.MIME)
	}
	if err != nil {
		t.Fatalf("output does not decode as %s: %v", img.MIME, err)
	}
	if b := m.Bounds(); b.Dx() != img.Width || b.Dy() != img.Height {
		t.Fatalf("output is %v, Image says %d×%d", b.Size(), img.Width, img.Height)
	}
	return m
}

// near reports whether c is within tol of want in each channel.
func near(c color.Color, want color.RGBA, tol int) bool {
	r, g, b, _ := c.RGBA()
	d := func(a uint32, w uint8) bool { return abs(int(a>>8)-int(w)) <= tol }
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
