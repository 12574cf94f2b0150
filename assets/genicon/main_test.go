package main

import (
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// The committed icons are what genicon draws: run `go generate ./assets`
// after changing the drawing.
func TestCommittedIconsAreCurrent(t *testing.T) {
	check := func(path string, want *image.NRGBA) {
		t.Helper()
		f, err := os.Open(path)
		if err != nil {
			t.Fatalf("%v (run go generate ./assets)", err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got := image.NewNRGBA(img.Bounds())
		draw.Draw(got, got.Bounds(), img, img.Bounds().Min, draw.Src)
		if got.Bounds() != want.Bounds() || string(got.Pix) != string(want.Pix) {
			t.Errorf("%s differs from genicon's drawing: run go generate ./assets", path)
		}
	}
	check(filepath.Join("..", "icon.png"), appIcon())
	for _, v := range trayVariants() {
		check(filepath.Join("..", "tray", v.name), v.draw())
	}
	if n := len(trayVariants()); n != 22 {
		t.Errorf("%d tray variants, want 0..9 and 9+, each with and without do-not-disturb", n)
	}
}
