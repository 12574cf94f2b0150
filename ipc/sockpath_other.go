//go:build !windows

package ipc

// systemSocketPath has no say outside Windows: the socket is a file, placed
// by defaultSocketPath. ok is false.
func systemSocketPath() (path string, ok bool, err error) { return "", false, nil }
