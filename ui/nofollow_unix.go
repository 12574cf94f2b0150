//go:build unix

package ui

import "syscall"

// oNoFollow makes an open fail on a symlink.
const oNoFollow = syscall.O_NOFOLLOW
