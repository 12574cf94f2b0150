//go:build darwin || freebsd

package ipc

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// checkPeer reports an error unless c's peer runs as uid (LOCAL_PEERCRED,
// what getpeereid reads).
func checkPeer(c net.Conn, uid int) error {
	raw, err := rawConn(c)
	if err != nil {
		return err
	}
	var cred *unix.Xucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return err
	}
	if credErr != nil {
		return fmt.Errorf("read peer credentials: %w", credErr)
	}
	return comparePeer(int(cred.Uid), -1, uid)
}
