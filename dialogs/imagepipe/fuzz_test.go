package imagepipe

import (
	"errors"
	"image/color"
	"testing"
)

// FuzzProcess checks that Process never panics and keeps its contract on
// any input: an error is an *Error with a message and a known Kind; a
// result decodes, matches its metadata and fits the limits. The pixel
// limit is lowered so that each run stays fast; what is fuzzed is the
// parsing and the pipeline, not the allocator. Run with
//
//	go test -run '^$' -fuzz FuzzProcess -fuzztime 60s ./imagepipe/
func FuzzProcess(f *testing.F) {
	small := photo(12, 9)
	f.Add(encPNG(f, small))
	f.Add(encPNG(f, translucent(70, 5)))
	f.Add(encJPEG(f, small))
	f.Add(withExif(encJPEG(f, quadrants(8, 4)), exifTIFF(6, "x")))
	f.Add(encGIF(f, 6, 4, color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}))
	f.Add(encBMP(f, small))
	f.Add(encTIFF(f, small))
	f.Add(tinyWebP)
	p := encPNG(f, small)
	f.Add(p[:len(p)/2]) // truncated PNG
	f.Add(pngHeaderOnly(100000, 100000))
	f.Add([]byte("\x8c\x1f\x03\x7f\xee\x00\x91random bytes\xff\xd8"))

	l := Limits{MaxEdge: 64, MaxPixels: 1 << 20}
	kinds := []error{ErrUnsupported, ErrCorrupt, ErrTooManyPixels, ErrInputTooLarge, ErrImageTooLarge}
	f.Fuzz(func(t *testing.T, src []byte) {
		img, err := Process("fuzz.png", src, l)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || err.Error() == "" {
				t.Fatalf("error %T %q is not a user-facing *Error", err, err)
			}
			known := false
			for _, k := range kinds {
				known = known || e.Kind == k
			}
			if !known {
				t.Fatalf("unknown kind %v", e.Kind)
			}
			if img.Data != nil {
				t.Fatal("data returned with an error")
			}
			return
		}
		m := decodeOut(t, img)
		if b := m.Bounds(); b.Dx() > 64 || b.Dy() > 64 || b.Empty() {
			t.Fatalf("output %v exceeds MaxEdge", b)
		}
		if m == nil || img.OriginalBytes != len(src) {
			t.Fatal("bad metadata")
		}
	})
}
