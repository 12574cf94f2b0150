// Package assets holds the files the app embeds: its icon and the tray's
// icons. It imports no toolkit: the resident process uses it too.
package assets

import (
	_ "embed"
)

//go:generate go run ./genicon -dir .

// IconPNG is the app and tray icon, as PNG (tray hosts show SVG icons
// blank). The bytes are shared: do not modify them.
//
//go:embed icon.png
var IconPNG []byte
