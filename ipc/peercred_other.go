//go:build !linux

package ipc

import "net"

// checkPeer accepts every peer: outside Linux the socket's private directory
// is the only guard.
func checkPeer(net.Conn, int) error { return nil }
