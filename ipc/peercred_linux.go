package ipc

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// checkPeer reports an error unless c's peer runs as uid (SO_PEERCRED).
func checkPeer(c net.Conn, uid int) error {
	raw, err := rawConn(c)
	if err != nil {
		return err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if credErr != nil {
		return fmt.Errorf("read peer credentials: %w", credErr)
	}
	return comparePeer(int(cred.Uid), int(cred.Pid), uid)
}
