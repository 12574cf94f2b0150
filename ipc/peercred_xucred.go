//go:build darwin || freebsd

package ipc

import (
	"net"

	"golang.org/x/sys/unix"
)

// checkPeer reports an error unless c's peer runs as uid (LOCAL_PEERCRED,
// what getpeereid reads).
func checkPeer(c net.Conn, uid int) error {
	var cred *unix.Xucred
	if err := readPeer(c, func(fd int) (err error) {
		cred, err = unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		return err
	}); err != nil {
		return err
	}
	return comparePeer(int(cred.Uid), -1, uid)
}
