package xgrab

import "errors"

// ErrTaken: another X client holds the chord already (the desktop's own
// shortcut, or another application's).
var ErrTaken = errors.New("another application or the desktop holds it")

// ErrNoKey: no key of the keyboard's layout produces the shortcut's key.
var ErrNoKey = errors.New("no key of the keyboard layout makes it")
