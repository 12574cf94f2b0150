package ipc

import (
	"fmt"
	"net"
	"syscall"
)

// checkPeer reports an error unless c's peer runs as uid (SO_PEERCRED).
func checkPeer(c net.Conn, uid int) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a unix socket connection: %T", c)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if credErr != nil {
		return fmt.Errorf("read peer credentials: %w", credErr)
	}
	if int(cred.Uid) != uid {
		return fmt.Errorf("peer pid %d runs as uid %d, not uid %d", cred.Pid, cred.Uid, uid)
	}
	return nil
}
