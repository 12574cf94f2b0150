//go:build unix

package markdown

import "syscall"

// mkfifo makes a named pipe at path (the tests' hostile "image").
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
