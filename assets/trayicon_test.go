package assets

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"testing"
)

func decode(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 64 {
		t.Fatalf("size %v, want 64×64", b.Size())
	}
	return img
}

// badgeBox is the bounding box of the badge's fill: red, or the dark slate
// of do-not-disturb.
func badgeBox(img image.Image, dnd bool) image.Rectangle {
	var box image.Rectangle
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			r, g, bl, a = r>>8, g>>8, bl>>8, a>>8
			fill := a == 255 && r > 200 && g < 60 && bl < 60 // red
			if dnd {
				fill = a == 255 && r < 40 && g < 50 && bl < 70 // dark slate
			}
			if fill {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// pixels returns the badge area's pixels, to compare what is written there.
func badgeArea(img image.Image) []uint32 {
	var out []uint32
	for y := 0; y < 32; y++ {
		for x := 16; x < 64; x++ {
			r, g, b, a := img.At(x, y).RGBA()
			out = append(out, r>>8<<24|g>>8<<16|b>>8<<8|a>>8)
		}
	}
	return out
}

func same(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Each count has its own badge: none for 0, a disc with the number for
// 1..9, a wider pill for "9+"; every one is different from every other.
func TestTrayIconBadgeByCount(t *testing.T) {
	for _, dnd := range []bool{false, true} {
		t.Run(fmt.Sprint("dnd=", dnd), func(t *testing.T) {
			if box := badgeBox(decode(t, TrayIcon(0, dnd)), dnd); !box.Empty() {
				t.Errorf("no question waiting, yet the icon has a badge at %v", box)
			}
			areas := map[int][]uint32{}
			var disc image.Rectangle
			for n := 1; n <= TrayBadgeMax+1; n++ {
				img := decode(t, TrayIcon(n, dnd))
				box := badgeBox(img, dnd)
				if box.Empty() {
					t.Fatalf("count %d: no badge", n)
				}
				if box.Max.X < 60 || box.Min.Y > 4 {
					t.Errorf("count %d: badge at %v, want it in the upper right corner", n, box)
				}
				if n == 1 {
					disc = box
				}
				switch {
				case n <= TrayBadgeMax && (box.Dx() != disc.Dx() || box.Dy() != disc.Dy()):
					t.Errorf("count %d: badge %v, want the same disc as count 1 (%v)", n, box, disc)
				case n > TrayBadgeMax && box.Dx() < disc.Dx()+8:
					t.Errorf(`"9+": badge %v, want a pill wider than the disc %v`, box, disc)
				}
				if box.Dx() < 24 || box.Dy() < 24 {
					t.Errorf("count %d: badge %v is too small to read at tray size", n, box)
				}
				a := badgeArea(img)
				for m, other := range areas {
					if same(a, other) {
						t.Errorf("counts %d and %d draw the same badge", n, m)
					}
				}
				areas[n] = a
			}
		})
	}
}

// Counts out of range: nothing below 0, "9+" for anything above 9.
func TestTrayIconClamps(t *testing.T) {
	if !bytes.Equal(TrayIcon(-3, false), TrayIcon(0, false)) {
		t.Error("a negative count is not drawn as no badge")
	}
	for _, n := range []int{10, 11, 99, 1 << 30} {
		if !bytes.Equal(TrayIcon(n, true), TrayIcon(TrayBadgeMax+1, true)) {
			t.Errorf("count %d is not drawn as 9+", n)
		}
	}
}

// Do not disturb has its own icon at every count: the square is slate, not
// blue, and the badge is not red.
func TestTrayIconDoNotDisturbIsDistinct(t *testing.T) {
	for n := 0; n <= TrayBadgeMax+1; n++ {
		on, off := decode(t, TrayIcon(n, true)), decode(t, TrayIcon(n, false))
		// A point of the square away from the bubble and the badge.
		r, g, b, _ := off.At(5, 32).RGBA()
		if !(b>>8 > 200 && r>>8 < 80) {
			t.Errorf("count %d: the normal square is %d,%d,%d, want blue", n, r>>8, g>>8, b>>8)
		}
		r, g, b, _ = on.At(5, 32).RGBA()
		if b>>8 > 160 || b-r > 0x4000 {
			t.Errorf("count %d: the do-not-disturb square is %d,%d,%d, want slate", n, r>>8, g>>8, b>>8)
		}
		if n > 0 && !badgeBox(on, false).Empty() {
			t.Errorf("count %d: the do-not-disturb badge is red", n)
		}
	}
}

// The ICO form holds the PNG itself behind a one-image directory.
func TestTrayIconICO(t *testing.T) {
	ico := TrayIconICO(3, false)
	le := binary.LittleEndian
	if le.Uint16(ico[2:]) != 1 || le.Uint16(ico[4:]) != 1 || ico[6] != 64 || ico[7] != 64 || le.Uint16(ico[12:]) != 32 {
		t.Fatalf("ICO header % x", ico[:22])
	}
	size, off := le.Uint32(ico[14:]), le.Uint32(ico[18:])
	if int(off)+int(size) != len(ico) || !bytes.Equal(ico[off:], TrayIcon(3, false)) {
		t.Fatalf("the ICO's image (offset %d, %d bytes) is not the PNG", off, size)
	}
}
