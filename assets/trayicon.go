package assets

import (
	"embed"
	"encoding/binary"
	"fmt"
	"sync"
)

// The tray icons, drawn by genicon (`go generate ./assets`): 64×64 PNGs,
// tray.png without a badge, tray-1.png … tray-9.png and tray-9plus.png with
// the count of waiting questions, and the same set as dnd*.png for
// do-not-disturb (a slate square with a crescent moon, a slate badge).
//
//go:embed tray/*.png
var trayFS embed.FS

// TrayBadgeMax is the highest count the tray badge shows as a number;
// above it the badge reads "9+".
const TrayBadgeMax = 9

// trayIconName is the file of the tray icon for count and dnd; genicon's
// trayName names them the same way.
func trayIconName(count int, dnd bool) string {
	prefix := "tray"
	if dnd {
		prefix = "dnd"
	}
	switch {
	case count <= 0:
		return prefix + ".png"
	case count > TrayBadgeMax:
		return prefix + "-9plus.png"
	default:
		return fmt.Sprintf("%s-%d.png", prefix, count)
	}
}

// trayIcons holds every tray icon, read once: [dnd][count], count 0..10
// (10 is "9+"), as PNG and as ICO.
var trayIcons = sync.OnceValue(func() (t struct{ png, ico [2][TrayBadgeMax + 2][]byte }) {
	for d, dnd := range []bool{false, true} {
		for n := 0; n <= TrayBadgeMax+1; n++ {
			data, err := trayFS.ReadFile("tray/" + trayIconName(n, dnd))
			if err != nil {
				panic("assets: a tray icon is not embedded: " + err.Error()) // a build error, caught by the tests
			}
			t.png[d][n] = data
			t.ico[d][n] = pngToICO(data, 64)
		}
	}
	return t
})

// trayIndex maps a count and dnd to trayIcons' indexes.
func trayIndex(count int, dnd bool) (d, n int) {
	switch {
	case count < 0:
		count = 0
	case count > TrayBadgeMax:
		count = TrayBadgeMax + 1
	}
	if dnd {
		d = 1
	}
	return d, count
}

// TrayIcon is the tray icon, a 64×64 PNG, for count waiting questions: no
// badge for 0 (or less), a badge with the number for 1..9, "9+" above; in
// its do-not-disturb form (slate, a crescent moon) when dnd. The bytes are
// shared: do not modify them. It imports no toolkit, for the resident
// process's tray (fyne.io/systray on Linux and macOS takes PNG).
func TrayIcon(count int, dnd bool) []byte {
	d, n := trayIndex(count, dnd)
	return trayIcons().png[d][n]
}

// TrayIconICO is TrayIcon wrapped as a Windows .ico (the PNG stored as the
// icon's one image, as Windows Vista and later read it): fyne.io/systray's
// SetIcon on Windows takes ICO, not PNG. The bytes are shared: do not
// modify them.
func TrayIconICO(count int, dnd bool) []byte {
	d, n := trayIndex(count, dnd)
	return trayIcons().ico[d][n]
}

// pngToICO wraps a size×size PNG in an ICO container: the 6-byte ICONDIR,
// one 16-byte ICONDIRENTRY, then the PNG itself.
func pngToICO(png []byte, size int) []byte {
	const header = 6 + 16
	out := make([]byte, header+len(png))
	le := binary.LittleEndian
	le.PutUint16(out[0:], 0) // reserved
	le.PutUint16(out[2:], 1) // type: icon
	le.PutUint16(out[4:], 1) // one image
	dim := byte(size)        // 0 means 256
	if size >= 256 {
		dim = 0
	}
	out[6], out[7] = dim, dim
	out[8], out[9] = 0, 0     // no palette, reserved
	le.PutUint16(out[10:], 1) // colour planes
	le.PutUint16(out[12:], 32)
	le.PutUint32(out[14:], uint32(len(png)))
	le.PutUint32(out[18:], header)
	copy(out[header:], png)
	return out
}
