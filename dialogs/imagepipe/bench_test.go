package imagepipe

import (
	"image"
	"testing"

	"golang.org/x/image/draw"
)

// BenchmarkProcessPhoto processes a 4000×3000 JPEG photo (12 MP, a phone
// camera's size) with the default limits: decode, halve, CatmullRom to
// 1568×1176, the photo test on a 512×512 crop, JPEG encode.
func BenchmarkProcessPhoto(b *testing.B) {
	src := encJPEG(b, photo(4000, 3000))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		img, err := Process("photo.jpg", src, Default())
		if err != nil || img.MIME != MIMEJPEG || img.Width != 1568 || img.Height != 1176 {
			b.Fatalf("%v %s %d×%d", err, img.MIME, img.Width, img.Height)
		}
	}
}

// BenchmarkProcessScreenshot processes a 2560×1440 PNG screenshot.
func BenchmarkProcessScreenshot(b *testing.B) {
	src := encPNG(b, screenshot(2560, 1440))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Process("shot.png", src, Default()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResample compares the resamplers on the decoded 4000×3000 photo
// (a 4:2:0 YCbCr image, as the JPEG decoder returns it) scaled to
// 1568×1176. B/op shows CatmullRom's float64 scratch buffer.
func BenchmarkResample(b *testing.B) {
	m := decodeJPEGForBench(b, encJPEG(b, photo(4000, 3000)))
	for _, bc := range []struct {
		name     string
		k        draw.Interpolator
		prehalve bool
	}{
		{"ApproxBiLinear", draw.ApproxBiLinear, false},
		{"ApproxBiLinear/prehalve", draw.ApproxBiLinear, true},
		{"BiLinear", draw.BiLinear, false},
		{"CatmullRom", draw.CatmullRom, false},
		{"CatmullRom/prehalve", draw.CatmullRom, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				scaleTo(m, 1568, 1176, bc.k, bc.prehalve)
			}
		})
	}
}

// BenchmarkStages times decoding and encoding alone.
func BenchmarkStages(b *testing.B) {
	src := encJPEG(b, photo(4000, 3000))
	m := decodeJPEGForBench(b, src)
	small := scaleTo(m, 1568, 1176, draw.CatmullRom, true)
	b.Run("DecodeJPEG", func(b *testing.B) {
		for b.Loop() {
			decodeJPEGForBench(b, src)
		}
	})
	b.Run("EncodeJPEG", func(b *testing.B) {
		for b.Loop() {
			encodeJPEG(small)
		}
	})
	b.Run("EncodePNG", func(b *testing.B) {
		for b.Loop() {
			encodePNG(small, 0)
		}
	})
	b.Run("PhotoLike", func(b *testing.B) {
		for b.Loop() {
			if !photoLike(m) {
				b.Fatal("not photo-like")
			}
		}
	})
}

func decodeJPEGForBench(b *testing.B, src []byte) image.Image {
	m, err := decode(&formats[1], src)
	if err != nil {
		b.Fatal(err)
	}
	return m
}
