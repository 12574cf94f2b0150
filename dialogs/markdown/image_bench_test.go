package markdown

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// writeNoisePNG writes a w×h PNG of noise (it compresses badly, so it is
// as large and as slow to decode as a real screenshot or photo).
func writeNoisePNG(b *testing.B, path string, w, h int) {
	b.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, uint64(w)))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(r.Uint32()), uint8(r.Uint32()), uint8(r.Uint32()), 255
	}
	img.Set(0, 0, color.NRGBA{A: 255})
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		b.Fatal(err)
	}
	f.Close()
}

// BenchmarkQuestionWithLargeImages: a question that shows eight large local
// images (2400×1600 PNG of noise, ~11.5 MB each, under the 16 MiB a question's image may be) costs the Fyne goroutine
// what the same question without images costs — rendering and layout
// return with placeholders, the images are read and decoded by two
// workers off it. "until images in" is how long the pictures take to be
// swapped in after that; "longest swap-in" the most one swap (on the Fyne
// goroutine) took: what another window could wait for a frame.
func BenchmarkQuestionWithLargeImages(b *testing.B) {
	home := b.TempDir()
	const n = 8
	var md strings.Builder
	md.WriteString("## Screens\n\nWhich layout is better?\n\n")
	for i := range n {
		path := filepath.Join(home, fmt.Sprintf("shot%d.png", i))
		writeNoisePNG(b, path, 2400, 1600)
		fmt.Fprintf(&md, "![shot %d](%s)\n\n", i, path)
	}
	src := md.String()
	noImages := strings.ReplaceAll(src, "![", "[")
	for _, in := range []struct {
		name, src string
		images    int
	}{{"without images", noImages, 0}, {"8 large images", src, n}} {
		b.Run(in.name, func(b *testing.B) {
			test.NewTempApp(b)
			var settled, fyneTime, longestSwap time.Duration
			for b.Loop() {
				results := make(chan func(), n)
				p := &Pictures{do: func(f func()) { results <- f }, roots: func() []string { return []string{home} }, deadline: time.Minute}
				t0 := time.Now()
				w := test.NewTempWindow(b, container.NewVScroll(newWidget(in.src, Options{Pictures: p})))
				w.Resize(fyne.NewSize(560, 600))
				w.Content().Refresh()
				onFyne := time.Since(t0)
				fyneTime += onFyne
				for range in.images {
					f := <-results
					t1 := time.Now()
					f() // on this, the test's Fyne goroutine, as fyne.Do would
					longestSwap = max(longestSwap, time.Since(t1))
				}
				settled += time.Since(t0) - onFyne
			}
			b.ReportMetric(float64(fyneTime.Microseconds())/1000/float64(b.N), "ms-on-fyne/op")
			if in.images > 0 {
				b.ReportMetric(float64(settled.Milliseconds())/float64(b.N), "ms-until-images-in/op")
				b.ReportMetric(float64(longestSwap.Microseconds())/1000, "ms-longest-swap-in")
			}
		})
	}
}
