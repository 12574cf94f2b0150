package imagepipe

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

func TestProcessDownscale(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		w, h         int
		wantW, wantH int
	}{
		{"wide 4000x1000 keeps aspect", 4000, 1000, 1568, 392},
		{"tall 1000x4000 keeps aspect", 1000, 4000, 392, 1568},
		{"square 1600x1600", 1600, 1600, 1568, 1568},
		{"odd 1601x1067", 1601, 1067, 1568, 1045},
		{"just over 1569x100", 1569, 100, 1568, 100},
		{"exactly the limit is untouched", 1568, 1000, 1568, 1000},
		{"small is untouched", 640, 480, 640, 480},
		{"one pixel", 1, 1, 1, 1},
		{"sliver keeps one row", 6000, 2, 1568, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := encPNG(t, quadrants(tt.w, tt.h))
			img, err := Process("shot.png", src, Default())
			if err != nil {
				t.Fatal(err)
			}
			if img.Width != tt.wantW || img.Height != tt.wantH {
				t.Errorf("got %d×%d, want %d×%d", img.Width, img.Height, tt.wantW, tt.wantH)
			}
			m := decodeOut(t, img)
			if img.OriginalBytes != len(src) || img.Name != "shot.png" {
				t.Errorf("OriginalBytes %d Name %q", img.OriginalBytes, img.Name)
			}
			if tt.wantH > 1 {
				if c := m.At(img.Width/4, img.Height/4); !near(c, color.RGBA{255, 0, 0, 255}, 8) {
					t.Errorf("top left quadrant is %v, want red", c)
				}
			}
		})
	}
}

// TestProcessDownscaleQuality checks the resampler filters rather than
// samples: a one-pixel checkerboard scaled down must become an even grey,
// not a moiré of light and dark bands. Measured worst deviation from grey
// for ApproxBiLinear: 123 of 128 at 1.63x, with or without box halving;
// CatmullRom: 1. (Near 1x no resampler fully removes a one-pixel
// checkerboard; at 1.1x CatmullRom leaves up to 76.)
func TestProcessDownscaleQuality(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		w, h, edge   int
		wantW, wantH int
	}{
		{"box halving then CatmullRom", 2000, 1500, 600, 600, 450},
		{"CatmullRom alone at 1.67x", 1000, 750, 600, 600, 450},
		{"CatmullRom alone at 1.63x, a 2560x1440 screenshot's ratio", 1280, 720, 784, 784, 441},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := image.NewGray(image.Rect(0, 0, tt.w, tt.h))
			for y := 0; y < tt.h; y++ {
				for x := 0; x < tt.w; x++ {
					if (x+y)%2 == 0 {
						m.Pix[y*m.Stride+x] = 255
					}
				}
			}
			img, err := Process("checker.png", encPNG(t, m), Limits{MaxEdge: tt.edge})
			if err != nil {
				t.Fatal(err)
			}
			if img.Width != tt.wantW || img.Height != tt.wantH {
				t.Fatalf("got %d×%d", img.Width, img.Height)
			}
			out := decodeOut(t, img)
			b := out.Bounds()
			// Edges are left out: the kernel is clamped there.
			for y := b.Min.Y + 4; y < b.Max.Y-4; y++ {
				for x := b.Min.X + 4; x < b.Max.X-4; x++ {
					if c := out.At(x, y); !near(c, color.RGBA{128, 128, 128, 255}, 24) {
						t.Fatalf("pixel %d,%d is %v, want mid grey", x, y, c)
					}
				}
			}
		})
	}
}

func TestProcessEncodingChoice(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  func(t *testing.T) []byte
		want string
	}{
		{"noisy photo becomes JPEG", func(t *testing.T) []byte { return encPNG(t, photo(600, 450)) }, MIMEJPEG},
		{"photo given as JPEG stays JPEG", func(t *testing.T) []byte { return encJPEG(t, photo(600, 450)) }, MIMEJPEG},
		{"screenshot with text stays PNG", func(t *testing.T) []byte { return encPNG(t, screenshot(1400, 900)) }, MIMEPNG},
		{"screenshot downscaled 1.63x stays PNG", func(t *testing.T) []byte { return encPNG(t, screenshot(1280, 720)) }, MIMEPNG},
		{"noisy image with alpha stays PNG", func(t *testing.T) []byte { return encPNG(t, translucent(600, 400)) }, MIMEPNG},
		{"GIF stays PNG", func(t *testing.T) []byte { return encGIF(t, 300, 200, color.RGBA{255, 0, 0, 255}) }, MIMEPNG},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// MaxEdge 784 scales 1280×720 as 1568 scales 2560×1440.
			img, err := Process("in", tt.src(t), Limits{MaxEdge: 784})
			if err != nil {
				t.Fatal(err)
			}
			if img.MIME != tt.want {
				t.Fatalf("MIME %s (%d bytes), want %s", img.MIME, len(img.Data), tt.want)
			}
			m := decodeOut(t, img)
			if tt.want == MIMEJPEG {
				if png, _ := encodePNG(m, 0); len(img.Data)*2 > len(png) {
					t.Errorf("JPEG %d bytes is not under half the PNG's %d", len(img.Data), len(png))
				}
			}
		})
	}
}

// TestProcessStaysOpaque checks that resampling an opaque image cannot
// leave it with an alpha below 255 (which would make it a translucent PNG).
func TestProcessStaysOpaque(t *testing.T) {
	t.Parallel()
	// Odd sizes, box halving and CatmullRom: 1201×799 → 600×399 → 500×333.
	img, err := Process("shot.png", encPNG(t, screenshot(1201, 799)), Limits{MaxEdge: 500})
	if err != nil {
		t.Fatal(err)
	}
	m := decodeOut(t, img)
	if o, ok := m.(interface{ Opaque() bool }); !ok || !o.Opaque() {
		t.Fatalf("output %T is not opaque", m)
	}
}

func TestProcessStripsMetadata(t *testing.T) {
	const secret = "GPS 51.5007N 0.1246W owner Alice"
	tests := []struct {
		name string
		src  func(t *testing.T) []byte
	}{
		{"JPEG with Exif APP1", func(t *testing.T) []byte {
			return withExif(encJPEG(t, photo(320, 240)), exifTIFF(1, secret))
		}},
		{"PNG with tEXt and eXIf", func(t *testing.T) []byte {
			p := encPNG(t, screenshot(320, 240))
			p = insertPNGChunk(p, pngChunk("tEXt", []byte("Comment\x00"+secret)))
			return insertPNGChunk(p, pngChunk("eXIf", exifTIFF(1, secret)))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src(t)
			if !bytes.Contains(src, []byte(secret)) {
				t.Fatal("test input lacks the metadata")
			}
			img, err := Process("in.jpg", src, Default())
			if err != nil {
				t.Fatal(err)
			}
			decodeOut(t, img)
			for _, bad := range []string{secret, "Exif", "eXIf", "tEXt", "II*\x00"} {
				if bytes.Contains(img.Data, []byte(bad)) {
					t.Errorf("output still contains %q", bad)
				}
			}
			if img.MIME == MIMEJPEG && bytes.Contains(img.Data, []byte{0xff, 0xe1}) {
				t.Error("output has an APP1 segment")
			}
		})
	}
}

func TestProcessOrientation(t *testing.T) {
	red, green, blue, white := color.RGBA{255, 0, 0, 255}, color.RGBA{0, 255, 0, 255}, color.RGBA{0, 0, 255, 255}, color.RGBA{255, 255, 255, 255}
	// The source has red, green / blue, white quadrants; want is the
	// quadrants as the viewer should see them: top left, top right,
	// bottom left, bottom right.
	tests := []struct {
		orientation  uint16
		wantW, wantH int
		want         [4]color.RGBA
	}{
		{1, 80, 40, [4]color.RGBA{red, green, blue, white}},
		{2, 80, 40, [4]color.RGBA{green, red, white, blue}},
		{3, 80, 40, [4]color.RGBA{white, blue, green, red}},
		{4, 80, 40, [4]color.RGBA{blue, white, red, green}},
		{5, 40, 80, [4]color.RGBA{red, blue, green, white}},
		{6, 40, 80, [4]color.RGBA{blue, red, white, green}},
		{7, 40, 80, [4]color.RGBA{white, green, blue, red}},
		{8, 40, 80, [4]color.RGBA{green, white, red, blue}},
	}
	for _, tt := range tests {
		t.Run(string(rune('0'+tt.orientation)), func(t *testing.T) {
			src := withExif(encJPEG(t, quadrants(80, 40)), exifTIFF(tt.orientation, ""))
			img, err := Process("phone.jpg", src, Default())
			if err != nil {
				t.Fatal(err)
			}
			if img.Width != tt.wantW || img.Height != tt.wantH {
				t.Fatalf("got %d×%d, want %d×%d", img.Width, img.Height, tt.wantW, tt.wantH)
			}
			m := decodeOut(t, img)
			w, h := img.Width, img.Height
			at := []image.Point{{w / 4, h / 4}, {3 * w / 4, h / 4}, {w / 4, 3 * h / 4}, {3 * w / 4, 3 * h / 4}}
			for i, p := range at {
				if c := m.At(p.X, p.Y); !near(c, tt.want[i], 40) {
					t.Errorf("quadrant %d at %v is %v, want %v", i, p, c, tt.want[i])
				}
			}
		})
	}
}

func TestProcessImageBudget(t *testing.T) {
	t.Parallel()
	l := Default()
	l.MaxImageBytes = 10 << 10
	tests := []struct {
		name, file string
		src        func(t *testing.T) []byte
		wantPrefix string
	}{
		{"translucent PNG", "noise.png", func(t *testing.T) []byte { return encPNG(t, translucent(300, 200)) }, "noise.png is "},
		{"photo even as JPEG", "/home/alice/Pictures/photo.jpg", func(t *testing.T) []byte { return encJPEG(t, photo(800, 600)) }, "photo.jpg is "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Process(tt.file, tt.src(t), l)
			if !errors.Is(err, ErrImageTooLarge) {
				t.Fatalf("err = %v, want ErrImageTooLarge", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tt.wantPrefix) || !strings.HasSuffix(msg, " KB after compression; the limit is 10 KB") {
				t.Errorf("message %q", msg)
			}
		})
	}

	t.Run("opaque image falls back to JPEG to fit", func(t *testing.T) {
		// A downscaled screenshot: not a photo, so PNG is preferred, but
		// its antialiased edges make the JPEG smaller. When only the JPEG
		// fits, it beats refusing the image.
		src := encPNG(t, screenshot(1280, 720))
		l := Limits{MaxEdge: 784}
		img, err := Process("shot.png", src, l)
		if err != nil || img.MIME != MIMEPNG {
			t.Fatalf("baseline: %v %s", err, img.MIME)
		}
		j, _ := encodeJPEG(decodeOut(t, img))
		if len(j) >= len(img.Data) {
			t.Fatalf("test image unsuitable: JPEG %d bytes, PNG %d", len(j), len(img.Data))
		}
		l.MaxImageBytes = (len(j) + len(img.Data)) / 2
		img, err = Process("shot.png", src, l)
		if err != nil {
			t.Fatal(err)
		}
		if img.MIME != MIMEJPEG || len(img.Data) > l.MaxImageBytes {
			t.Errorf("%s of %d bytes, want a JPEG within %d", img.MIME, len(img.Data), l.MaxImageBytes)
		}
		decodeOut(t, img)
	})
}

func TestProcessBombs(t *testing.T) {
	gifHeader := func(w, h uint16) []byte {
		return []byte{'G', 'I', 'F', '8', '9', 'a', byte(w), byte(w >> 8), byte(h), byte(h >> 8), 0, 0, 0, ';'}
	}
	bmpHeader := func(t *testing.T) []byte {
		b := encBMP(t, image.NewRGBA(image.Rect(0, 0, 2, 2)))
		copy(b[18:], []byte{0xa0, 0x86, 0x01, 0x00, 0xa0, 0x86, 0x01, 0x00}) // 100000×100000
		return b[:54]
	}
	tests := []struct {
		name, file string
		src        func(t *testing.T) []byte
		want       string
	}{
		{"PNG declaring 100000x100000", "huge.png", func(*testing.T) []byte { return pngHeaderOnly(100000, 100000) },
			"huge.png is 100000×100000 pixels; the limit is 50 megapixels"},
		{"PNG declaring 4 billion by 1", "thin.png", func(*testing.T) []byte { return pngHeaderOnly(1<<31-1, 1) },
			"thin.png is 2147483647×1 pixels; the limit is 50 megapixels"},
		{"GIF declaring 65535x65535", "huge.gif", func(*testing.T) []byte { return gifHeader(65535, 65535) },
			"huge.gif is 65535×65535 pixels; the limit is 50 megapixels"},
		{"BMP declaring 100000x100000", "huge.bmp", bmpHeader,
			"huge.bmp is 100000×100000 pixels; the limit is 50 megapixels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src(t)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Process(tt.file, src, Default())
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrTooManyPixels) {
				t.Fatalf("err = %v, want ErrTooManyPixels", err)
			}
			if err.Error() != tt.want {
				t.Errorf("message %q, want %q", err, tt.want)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Errorf("allocated %d bytes before refusing", n)
			}
		})
	}

	t.Run("limit is a setting", func(t *testing.T) {
		l := Default()
		l.MaxPixels = 1_500_000
		_, err := Process("a.png", encPNG(t, screenshot(1500, 1001)), l)
		if !errors.Is(err, ErrTooManyPixels) || err.Error() != "a.png is 1500×1001 pixels; the limit is 1.5 megapixels" {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestProcessBadInput(t *testing.T) {
	goodPNG := encPNG(t, photo(64, 64))
	goodJPEG := encJPEG(t, photo(64, 64))
	random := make([]byte, 4096)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	badCRC := bytes.Clone(goodPNG)
	badCRC[40] ^= 0xff // inside the first IDAT
	bmp16 := encBMP(t, photo(8, 8))
	bmp16[28] = 16 // bits per pixel: valid BMP, unsupported by the decoder
	small := Default()
	small.MaxInputBytes = 1000

	tests := []struct {
		name, file string
		src        []byte
		l          Limits
		kind       error
		want       string
	}{
		{"empty", "empty.png", nil, Default(), ErrCorrupt, "empty.png is empty"},
		{"random bytes", "noise.png", random, Default(), ErrUnsupported,
			"noise.png is not an image format feedback can read (PNG, JPEG, GIF, BMP, TIFF, WebP)"},
		{"HEIC", "photo.heic", []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), Default(), ErrUnsupported,
			"photo.heic is not an image format feedback can read (PNG, JPEG, GIF, BMP, TIFF, WebP)"},
		{"text named .png", "notes.png", []byte("just some text, not a picture"), Default(), ErrUnsupported,
			"notes.png is not an image format feedback can read (PNG, JPEG, GIF, BMP, TIFF, WebP)"},
		{"truncated PNG", "broken.png", goodPNG[:len(goodPNG)/2], Default(), ErrCorrupt, "broken.png is damaged and cannot be read"},
		{"PNG signature only", "broken.png", goodPNG[:8], Default(), ErrCorrupt, "broken.png is damaged and cannot be read"},
		{"PNG header without data", "broken.png", pngHeaderOnly(10, 10), Default(), ErrCorrupt, "broken.png is damaged and cannot be read"},
		{"PNG with a bad CRC", "broken.png", badCRC, Default(), ErrCorrupt, "broken.png is damaged and cannot be read"},
		{"PNG declaring 0x0", "zero.png", pngHeaderOnly(0, 0), Default(), ErrCorrupt, "zero.png is damaged and cannot be read"},
		{"truncated JPEG", "cut.jpg", goodJPEG[:len(goodJPEG)/2], Default(), ErrCorrupt, "cut.jpg is damaged and cannot be read"},
		{"GIF with a 0x0 screen", "zero.gif", []byte("GIF89a\x00\x00\x00\x00\x00\x00\x00;"), Default(), ErrCorrupt, "zero.gif is damaged and cannot be read"},
		{"16-bit BMP", "old.bmp", bmp16, Default(), ErrUnsupported, "old.bmp is a kind of BMP that feedback cannot read; convert it to PNG or JPEG"},
		{"input over MaxInputBytes", "big.png", goodPNG, small, ErrInputTooLarge, ""},
		{"unnamed paste", "", []byte("xx"), Default(), ErrUnsupported,
			"The image is not an image format feedback can read (PNG, JPEG, GIF, BMP, TIFF, WebP)"},
		{"control characters in name", "a\nb\x1b.png", nil, Default(), ErrCorrupt, "ab.png is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img, err := Process(tt.file, tt.src, tt.l)
			if !errors.Is(err, tt.kind) {
				t.Fatalf("err = %v, want %v", err, tt.kind)
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != tt.kind {
				t.Fatalf("err %T is not an *Error of kind %v", err, tt.kind)
			}
			if tt.want != "" && err.Error() != tt.want {
				t.Errorf("message %q, want %q", err, tt.want)
			}
			if img.Data != nil {
				t.Error("data returned with an error")
			}
		})
	}

	t.Run("cause is kept for logs", func(t *testing.T) {
		_, err := Process("cut.jpg", goodJPEG[:len(goodJPEG)/2], Default())
		var e *Error
		if !errors.As(err, &e) || e.Cause == nil {
			t.Fatalf("no cause in %#v", err)
		}
	})
}

func TestProcessInputTooLargeMessage(t *testing.T) {
	l := Default()
	l.MaxInputBytes = 64 << 20
	_, err := Process("scan.tiff", make([]byte, 64<<20+1), l)
	if !errors.Is(err, ErrInputTooLarge) {
		t.Fatalf("err = %v", err)
	}
	if want := "scan.tiff is just over 64 MB; feedback reads image files up to 64 MB"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestProcessGIFFirstFrame(t *testing.T) {
	src := encGIF(t, 120, 80, color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}, color.RGBA{0, 255, 0, 255})
	img, err := Process("anim.gif", src, Default())
	if err != nil {
		t.Fatal(err)
	}
	m := decodeOut(t, img)
	if img.Width != 120 || img.Height != 80 {
		t.Errorf("got %d×%d", img.Width, img.Height)
	}
	if c := m.At(60, 40); !near(c, color.RGBA{255, 0, 0, 255}, 2) {
		t.Errorf("pixel is %v, want the first frame's red", c)
	}
}

func TestProcessFormats(t *testing.T) {
	t.Parallel()
	q := quadrants(200, 100)
	tests := []struct {
		name         string
		src          func(t *testing.T) []byte
		wantW, wantH int
	}{
		{"PNG", func(t *testing.T) []byte { return encPNG(t, q) }, 200, 100},
		{"JPEG", func(t *testing.T) []byte { return encJPEG(t, q) }, 200, 100},
		{"BMP", func(t *testing.T) []byte { return encBMP(t, q) }, 200, 100},
		{"TIFF", func(t *testing.T) []byte { return encTIFF(t, q) }, 200, 100},
		{"large BMP is downscaled", func(t *testing.T) []byte { return encBMP(t, quadrants(1600, 500)) }, 400, 125},
		{"large TIFF is downscaled", func(t *testing.T) []byte { return encTIFF(t, quadrants(800, 1600)) }, 200, 400},
		{"WebP", func(*testing.T) []byte { return tinyWebP }, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img, err := Process("img", tt.src(t), Limits{MaxEdge: 400})
			if err != nil {
				t.Fatal(err)
			}
			if img.Width != tt.wantW || img.Height != tt.wantH {
				t.Fatalf("got %d×%d, want %d×%d", img.Width, img.Height, tt.wantW, tt.wantH)
			}
			m := decodeOut(t, img)
			if tt.wantW > 1 {
				if c := m.At(tt.wantW/4, tt.wantH/4); !near(c, color.RGBA{255, 0, 0, 255}, 40) {
					t.Errorf("top left is %v, want red", c)
				}
				if c := m.At(3*tt.wantW/4, 3*tt.wantH/4); !near(c, color.RGBA{255, 255, 255, 255}, 40) {
					t.Errorf("bottom right is %v, want white", c)
				}
			}
		})
	}
}

func TestFit(t *testing.T) {
	tests := []struct{ w, h, edge, wantW, wantH int }{
		{4000, 1000, 1568, 1568, 392},
		{1000, 4000, 1568, 392, 1568},
		{100, 100, 1568, 100, 100},
		{1 << 30, 1, 1568, 1568, 1},
		{3, 2, 2, 2, 1},
	}
	for _, tt := range tests {
		if w, h := fit(tt.w, tt.h, tt.edge); w != tt.wantW || h != tt.wantH {
			t.Errorf("fit(%d, %d, %d) = %d, %d; want %d, %d", tt.w, tt.h, tt.edge, w, h, tt.wantW, tt.wantH)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	tests := []struct {
		n, limit       int
		wantN, wantLim string
	}{
		{9 * mib, 4 * mib, "9 MB", "4 MB"},
		{9*mib + mib/3, 4 * mib, "9.3 MB", "4 MB"},
		{4*mib + 30_000, 4 * mib, "4.03 MB", "4 MB"},
		{46_000, 10 << 10, "45 KB", "10 KB"},
		{10<<10 + 200, 10 << 10, "10.2 KB", "10 KB"},
		{1200, 1000, "1 KB", "1000 bytes"},
		{1001, 1000, "1001 bytes", "1000 bytes"},
		{16*mib + 1, 16 * mib, "just over 16 MB", "16 MB"},
	}
	for _, tt := range tests {
		if n, lim := formatOver(tt.n, tt.limit); n != tt.wantN || lim != tt.wantLim {
			t.Errorf("formatOver(%d, %d) = %q, %q; want %q, %q", tt.n, tt.limit, n, lim, tt.wantN, tt.wantLim)
		}
	}
}

func TestLimitsDefaults(t *testing.T) {
	if got := (Limits{}).withDefaults(); got != Default() {
		t.Errorf("zero Limits → %+v, want %+v", got, Default())
	}
	d := Default()
	if d.MaxEdge != 1568 || d.MaxImageBytes != 4<<20 || d.MaxTotalBytes != 16<<20 || d.MaxPixels != 50_000_000 || d.MaxCount != 8 || d.MaxInputBytes != 64<<20 {
		t.Errorf("Default() = %+v", d)
	}
}

// TestProcessHugeEdgeSetting covers a MaxEdge above JPEG's 65535-pixel
// limit: a wide photo-like strip must still encode (as PNG).
func TestProcessHugeEdgeSetting(t *testing.T) {
	img, err := Process("strip.png", encPNG(t, photo(70000, 2)), Limits{MaxEdge: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if img.MIME != MIMEPNG || img.Width != 70000 || img.Height != 2 {
		t.Fatalf("%s %d×%d", img.MIME, img.Width, img.Height)
	}
	decodeOut(t, img)
}
