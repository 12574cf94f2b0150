// Command genicon draws the app icon, assets/icon.png: a blue rounded square
// holding a white speech bubble with three dots, a question waiting for its
// human. Run it with `go generate ./assets` after changing the drawing.
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

const (
	size = 256
	ss   = 4 // supersampling per axis
)

func main() {
	out := "icon.png"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	bg := color.NRGBA{0x25, 0x63, 0xeb, 0xff}
	white := color.NRGBA{0xff, 0xff, 0xff, 0xff}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			var cov [2]int // background, white
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					px := float64(x) + (float64(sx)+0.5)/ss
					py := float64(y) + (float64(sy)+0.5)/ss
					if !roundedRect(px, py, 8, 8, 248, 248, 56) {
						continue
					}
					if bubble(px, py) && !dot(px, py) {
						cov[1]++
					} else {
						cov[0]++
					}
				}
			}
			img.SetNRGBA(x, y, blend(bg, white, cov[0], cov[1]))
		}
	}
	f, err := os.Create(out)
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// blend mixes a samples of a and b samples of b over transparency.
func blend(a, b color.NRGBA, na, nb int) color.NRGBA {
	n := na + nb
	if n == 0 {
		return color.NRGBA{}
	}
	mix := func(x, y uint8) uint8 { return uint8((int(x)*na + int(y)*nb) / n) }
	return color.NRGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), uint8(255 * n / (ss * ss))}
}

func roundedRect(x, y, x0, y0, x1, y1, r float64) bool {
	if x < x0 || x > x1 || y < y0 || y > y1 {
		return false
	}
	cx := math.Max(x0+r, math.Min(x, x1-r))
	cy := math.Max(y0+r, math.Min(y, y1-r))
	return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r
}

// bubble is a rounded rectangle with a tail at its lower left.
func bubble(x, y float64) bool {
	if roundedRect(x, y, 44, 56, 212, 170, 36) {
		return true
	}
	// tail: the triangle (76,160) (124,160) (64,212)
	return inTriangle(x, y, 76, 160, 124, 160, 64, 212)
}

func dot(x, y float64) bool {
	for _, cx := range []float64{88, 128, 168} {
		if (x-cx)*(x-cx)+(y-113)*(y-113) <= 15*15 {
			return true
		}
	}
	return false
}

func inTriangle(px, py, ax, ay, bx, by, cx, cy float64) bool {
	d1 := (px-bx)*(ay-by) - (ax-bx)*(py-by)
	d2 := (px-cx)*(by-cy) - (bx-cx)*(py-cy)
	d3 := (px-ax)*(cy-ay) - (cx-ax)*(py-ay)
	neg := d1 < 0 || d2 < 0 || d3 < 0
	pos := d1 > 0 || d2 > 0 || d3 > 0
	return !(neg && pos)
}
