//go:build !linux

package notification

import (
	"context"
	"errors"
	"fmt"
	"runtime"
)

// Notifier is a stand-in on this system: Windows toasts and the macOS
// notification centre are not implemented yet, so Show and Dismiss report
// errors.ErrUnsupported.
type Notifier struct{ cfg Config }

// New returns a Notifier whose Show and Dismiss report
// errors.ErrUnsupported. It fails only on a Config.Icon that is not a
// usable PNG, as on Linux.
func New(cfg Config) (*Notifier, error) {
	if len(cfg.Icon) > 0 {
		if _, err := decodeIcon(cfg.Icon); err != nil {
			return nil, err
		}
	}
	return &Notifier{cfg: cfg}, nil
}

var errUnsupported = fmt.Errorf("notification: desktop notifications are not implemented on %s: %w", runtime.GOOS, errors.ErrUnsupported)

// Show reports errors.ErrUnsupported.
func (n *Notifier) Show(ctx context.Context, note Notification) (ID, error) { return 0, errUnsupported }

// Dismiss reports errors.ErrUnsupported.
func (n *Notifier) Dismiss(ctx context.Context, id ID) error { return errUnsupported }

// Supported reports whether this package shows notifications on this
// system: not here (the app has the UI process's toolkit show them).
func Supported() bool { return false }

// Close does nothing.
func (n *Notifier) Close() error { return nil }
