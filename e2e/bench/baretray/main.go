// Command baretray is the baseline of the idle benchmark (e2e/bench): a
// Fyne app with a tray icon and menu and no window — what the resident app
// was before its split, and what any Fyne tray utility costs while it
// waits (Fyne's GLFW driver ticks at 60 Hz even with no window: fyne issue
// 2506).
package main

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/driver/desktop"

	"feedback/assets"
)

func main() {
	a := app.NewWithID("io.feedback.bench.baretray")
	icon := fyne.NewStaticResource("icon.png", assets.IconPNG)
	a.SetIcon(icon)
	if desk, ok := a.(desktop.App); ok {
		desk.SetSystemTrayIcon(icon)
		desk.SetSystemTrayMenu(fyne.NewMenu("baretray", fyne.NewMenuItem("Nothing", nil)))
	} else {
		a.NewWindow("baretray") // no tray: a hidden window keeps it running, as the app did
	}
	a.Run()
}
