//go:build (linux || freebsd || netbsd || openbsd) && cgo && !ci && !wayland

package dialogs

import (
	"errors"
	"image"
	"time"

	"fyne.io/fyne/v2"

	"feedback/dialogs/internal/native"
	"feedback/internal/hotkey"
)

func init() {
	x := native.NewX11()
	desk = x11Desk{x}
	frameDecor = x.Decor // layout.go
}

// x11Desk is nativeDesk on X11: native.X11, method for method.
type x11Desk struct{ x *native.X11 }

func (d x11Desk) start()                                      { d.x.Start() }
func (d x11Desk) ready(w fyne.Window) bool                    { return d.x.Ready(w) }
func (d x11Desk) active(w fyne.Window) bool                   { return d.x.Active(w) }
func (d x11Desk) focused() uint32                             { return d.x.Focused() }
func (d x11Desk) activateID(id uint32)                        { d.x.ActivateID(id) }
func (d x11Desk) frame(w fyne.Window) (image.Rectangle, bool) { return d.x.Frame(w) }
func (d x11Desk) move(w fyne.Window, p image.Point)           { d.x.Move(w, p) }
func (d x11Desk) quiet(w fyne.Window, on bool)                { d.x.Quiet(w, on) }
func (d x11Desk) attention(w fyne.Window, on bool)            { d.x.Attention(w, on) }
func (d x11Desk) activate(w fyne.Window)                      { d.x.Activate(w) }
func (d x11Desk) stackBelow(w, sibling fyne.Window)           { d.x.StackBelow(w, sibling) }
func (d x11Desk) holdKeys(w fyne.Window) func()               { return d.x.HoldKeys(w) }
func (d x11Desk) ownsSelection() (bool, bool)                 { return d.x.OwnsSelection() }
func (d x11Desk) idle() (time.Duration, bool)                 { return d.x.Idle() }
func (d x11Desk) owner(id uint32) (int, bool)                 { return d.x.Owner(id) }
func (d x11Desk) activeBefore(skip func(uint32) bool) uint32  { return d.x.ActiveBefore(skip) }
func (d x11Desk) keysDown() ([]uint32, bool)                  { k := d.x.KeysDown(); return k, k != nil }
func (d x11Desk) activateAt(w fyne.Window, at uint32)         { d.x.ActivateAt(w, at) }
func (d x11Desk) raise(w fyne.Window)                         { d.x.Raise(w) }
func (d x11Desk) holdShortcut(sc hotkey.Shortcut, on func(uint32)) (func(), error) {
	release, err := d.x.HoldShortcut(sc, on)
	if errors.Is(err, native.ErrNotReady) {
		err = errNotYet
	}
	return release, err
}
func (d x11Desk) monitors() ([]image.Rectangle, image.Point, bool) {
	return d.x.Monitors()
}
