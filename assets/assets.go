// Package assets holds the files the app embeds: its icon (and, later, its
// translations).
package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

//go:generate go run ./genicon -dir .

//go:embed icon.png
var iconPNG []byte

// Icon is the app and tray icon, as PNG (tray hosts show SVG icons blank).
var Icon = fyne.NewStaticResource("icon.png", iconPNG)
