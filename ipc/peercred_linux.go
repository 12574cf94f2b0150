package ipc

import (
	"net"

	"golang.org/x/sys/unix"
)

// checkPeer reports an error unless c's peer runs as uid (SO_PEERCRED).
func checkPeer(c net.Conn, uid int) error {
	var cred *unix.Ucred
	if err := readPeer(c, func(fd int) (err error) {
		cred, err = unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
		return err
	}); err != nil {
		return err
	}
	return comparePeer(int(cred.Uid), int(cred.Pid), uid)
}
