// Command genicon draws the app icon, assets/icon.png: a blue rounded square
// holding a white speech bubble with three dots, a question waiting for its
// human; and the tray icons, assets/tray/*.png: the same drawing at 64×64
// with a badge counting the waiting questions (1..9, then "9+"), each also
// in its do-not-disturb form (a slate square, a crescent moon in the bubble
// and a slate badge). Run it with `go generate ./assets` after changing the
// drawing; its test fails while the committed files differ from it.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

const (
	appSize  = 256 // icon.png
	traySize = 64  // tray/*.png: sharp at 22–48 px on a 1× or 2× screen
	units    = 256 // the drawing's coordinate space, whatever the pixel size
	maxBadge = 9   // counts above it show as "9+"
)

var (
	blue      = color.NRGBA{0x25, 0x63, 0xeb, 0xff}
	slate     = color.NRGBA{0x64, 0x74, 0x8b, 0xff}
	white     = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	red       = color.NRGBA{0xdc, 0x26, 0x26, 0xff}
	darkSlate = color.NRGBA{0x1e, 0x29, 0x3b, 0xff}
)

func main() {
	dir := flag.String("dir", ".", "the assets directory: icon.png and tray/ are written there")
	flag.Parse()
	if err := writePNG(filepath.Join(*dir, "icon.png"), appIcon()); err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(*dir, "tray"), 0o755); err != nil {
		log.Fatal(err)
	}
	for _, v := range trayVariants() {
		if err := writePNG(filepath.Join(*dir, "tray", v.name), v.draw()); err != nil {
			log.Fatal(err)
		}
	}
}

// variant is one tray icon file.
type variant struct {
	name  string
	count int // 0: no badge; maxBadge+1: "9+"
	dnd   bool
}

func (v variant) draw() *image.NRGBA { return trayIcon(v.count, v.dnd) }

// TrayName is the file name of the tray icon for count waiting questions
// (0 or less: no badge; above maxBadge: "9+"), in its do-not-disturb form
// when dnd. The assets package keeps the same naming (assets/trayicon.go).
func trayName(count int, dnd bool) string {
	prefix := "tray"
	if dnd {
		prefix = "dnd"
	}
	switch {
	case count <= 0:
		return prefix + ".png"
	case count > maxBadge:
		return prefix + "-9plus.png"
	default:
		return fmt.Sprintf("%s-%d.png", prefix, count)
	}
}

func trayVariants() []variant {
	var vs []variant
	for _, dnd := range []bool{false, true} {
		for n := 0; n <= maxBadge+1; n++ {
			vs = append(vs, variant{trayName(n, dnd), n, dnd})
		}
	}
	return vs
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// appIcon is icon.png.
func appIcon() *image.NRGBA { return base(appSize, false) }

// trayIcon is the tray icon with the badge of count and, when dnd, the
// do-not-disturb form.
func trayIcon(count int, dnd bool) *image.NRGBA {
	img := base(traySize, dnd)
	if count > 0 {
		badge(img, count, dnd)
	}
	return img
}

// paint fills every pixel of img from shade, which gives the colour of a
// point in drawing units (ok false: transparent there), supersampled ss×ss
// per pixel and composited over what img holds.
func paint(img *image.NRGBA, ss int, shade func(x, y float64) (color.NRGBA, bool)) {
	size := img.Bounds().Dx()
	k := float64(units) / float64(size)
	n := ss * ss
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			var r, g, b, a int
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					px := (float64(x) + (float64(sx)+0.5)/float64(ss)) * k
					py := (float64(y) + (float64(sy)+0.5)/float64(ss)) * k
					if c, ok := shade(px, py); ok {
						r += int(c.R)
						g += int(c.G)
						b += int(c.B)
						a++
					}
				}
			}
			if a == 0 {
				continue
			}
			src := color.NRGBA{uint8(r / a), uint8(g / a), uint8(b / a), uint8(255 * a / n)}
			img.SetNRGBA(x, y, over(src, img.NRGBAAt(x, y)))
		}
	}
}

// over composites src over dst (non-premultiplied).
func over(src, dst color.NRGBA) color.NRGBA {
	sa, da := float64(src.A)/255, float64(dst.A)/255
	oa := sa + da*(1-sa)
	if oa == 0 {
		return color.NRGBA{}
	}
	mix := func(s, d uint8) uint8 {
		return uint8(math.Round((float64(s)*sa + float64(d)*da*(1-sa)) / oa))
	}
	return color.NRGBA{mix(src.R, dst.R), mix(src.G, dst.G), mix(src.B, dst.B), uint8(math.Round(oa * 255))}
}

// base is the square with its bubble: three dots in it, or, for
// do-not-disturb, a slate square and a crescent moon.
func base(size int, dnd bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	bg := blue
	if dnd {
		bg = slate
	}
	ss := 4
	if size < 128 {
		ss = 8
	}
	paint(img, ss, func(x, y float64) (color.NRGBA, bool) {
		if !roundedRect(x, y, 8, 8, 248, 248, 56) {
			return color.NRGBA{}, false
		}
		if !bubble(x, y) {
			return bg, true
		}
		if (dnd && moon(x, y)) || (!dnd && dot(x, y)) {
			return bg, true
		}
		return white, true
	})
	return img
}

// badge draws the count in a disc at the upper right corner (a pill for
// "9+"), ringed in white so it stands off the square and any panel colour:
// red, or dark slate under do-not-disturb.
func badge(img *image.NRGBA, count int, dnd bool) {
	const (
		r     = 62.0 // the disc's radius, in drawing units
		ring  = 9.0
		right = 256.0
		top   = 0.0
	)
	text := fmt.Sprint(count)
	left := right - 2*r // the disc
	if count > maxBadge {
		text = "9+"
		left = right - 2*r - 58 // the pill
	}
	fill := red
	if dnd {
		fill = darkSlate
	}
	paint(img, 8, func(x, y float64) (color.NRGBA, bool) {
		switch {
		case roundedRect(x, y, left+ring, top+ring, right-ring, top+2*r-ring, r-ring):
			return fill, true
		case roundedRect(x, y, left, top, right, top+2*r, r):
			return white, true
		}
		return color.NRGBA{}, false
	})
	// The text, centred on the badge by its glyphs' own bounds.
	px := float64(img.Bounds().Dx()) / units
	face := boldFace(0.62 * 2 * r * px)
	defer face.Close()
	d := &font.Drawer{Dst: img, Src: image.NewUniform(white), Face: face}
	b, _ := d.BoundString(text)
	cx, cy := (left+right)/2*px, (top+r)*px
	w := float64(b.Max.X-b.Min.X) / 64
	h := float64(b.Max.Y-b.Min.Y) / 64
	d.Dot = fixed.Point26_6{
		X: fixed.Int26_6(math.Round((cx-w/2)*64)) - b.Min.X,
		Y: fixed.Int26_6(math.Round((cy-h/2)*64)) - b.Min.Y,
	}
	d.DrawString(text)
}

// boldFace is Go Bold at size pixels.
func boldFace(size float64) font.Face {
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		log.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		log.Fatal(err)
	}
	return face
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

// moon is a crescent in the bubble, opening to the upper right: the
// do-not-disturb sign.
func moon(x, y float64) bool {
	in := func(cx, cy, r float64) bool { return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r }
	return in(104, 114, 42) && !in(128, 97, 36)
}

func inTriangle(px, py, ax, ay, bx, by, cx, cy float64) bool {
	d1 := (px-bx)*(ay-by) - (ax-bx)*(py-by)
	d2 := (px-cx)*(by-cy) - (bx-cx)*(py-cy)
	d3 := (px-ax)*(cy-ay) - (cx-ax)*(py-ay)
	neg := d1 < 0 || d2 < 0 || d3 < 0
	pos := d1 > 0 || d2 > 0 || d3 > 0
	return !(neg && pos)
}
