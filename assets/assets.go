// Package assets holds the files the app embeds: its icon and the tray's
// icons. It imports no toolkit: the resident process uses it too.
package assets

import (
	_ "embed"
)

//go:generate go run ./genicon -dir .

// The app's identity, as FyneApp.toml at the repository root says it (the
// one source of the app's metadata, which `fyne package` reads; a test
// checks these agree with it): Name, its reverse-DNS ID (the .desktop
// file's and the icon's name, the LaunchAgent's label, Fyne's preferences
// directory) and the icon, IconPNG below.
const (
	AppName = "feedback"
	AppID   = "io.feedback.app"
)

// IconPNG is the app and tray icon, as PNG (tray hosts show SVG icons
// blank). The bytes are shared: do not modify them.
//
//go:embed icon.png
var IconPNG []byte
