package historywin

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Escape and Ctrl+W close the History window, as they close other
// windows. Fyne hands a key to the focused widget, and to the canvas only
// when none is focused: the window's own handlers cover the latter, the
// search box and the list (what the keyboard is in) the former.

// ctrlW is Ctrl+W.
var ctrlW = &desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierControl}

// closeKeys closes win on Escape or Ctrl+W while nothing in it has the
// focus.
func closeKeys(win fyne.Window) {
	c := win.Canvas()
	prev := c.OnTypedKey()
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			win.Close()
		} else if prev != nil {
			prev(k)
		}
	})
	c.AddShortcut(ctrlW, func(fyne.Shortcut) { win.Close() })
}

// isCtrlW reports whether s is Ctrl+W.
func isCtrlW(s fyne.Shortcut) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	return ok && cs.KeyName == fyne.KeyW && cs.Modifier == fyne.KeyModifierControl
}

// closingEntry is the search box: Escape and Ctrl+W close the window.
type closingEntry struct {
	widget.Entry
	close func()
}

func newClosingEntry(close func()) *closingEntry {
	e := &closingEntry{close: close}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *closingEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape {
		e.close()
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut implements fyne.Shortcutable.
func (e *closingEntry) TypedShortcut(s fyne.Shortcut) {
	if isCtrlW(s) {
		e.close()
		return
	}
	e.Entry.TypedShortcut(s)
}

// closingList is the list of asks: Escape closes the window (Ctrl+W
// reaches the canvas, the list taking no shortcuts).
type closingList struct {
	widget.List
	close func()
}

func newClosingList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject), close func()) *closingList {
	l := &closingList{close: close}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey implements fyne.Focusable.
func (l *closingList) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape {
		l.close()
		return
	}
	l.List.TypedKey(k)
}
