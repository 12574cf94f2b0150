//go:build windows || darwin || js || plan9

package xgrab

import (
	"errors"

	"feedback/internal/hotkey"
)

// Probe reports that feedback holds no global shortcut here yet: a
// question is brought by a click, the tray or its notification.
func Probe(hotkey.Shortcut) error {
	return errors.New("feedback has no global shortcut on this system yet")
}
