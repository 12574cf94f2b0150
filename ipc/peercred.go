package ipc

import (
	"fmt"
	"net"
	"syscall"
)

// Each system supplies checkPeer(c net.Conn, uid int) error, which reports an
// error unless the process at the other end of c runs as uid: a *peerError
// when it runs as someone else, another error when the system cannot tell
// (a caller refuses the connection then). The server checks its callers with
// it, a Client the app it dialled (for a connected socket the system reports
// the credentials of the process that called listen).

// peerError is checkPeer's refusal of a peer that runs as another user.
type peerError struct {
	UID  int // the peer's uid
	PID  int // the peer's pid; -1 where the system does not tell
	Want int // the uid it had to be
}

func (e *peerError) Error() string {
	if e.PID < 0 {
		return fmt.Sprintf("the peer runs as uid %d, not uid %d", e.UID, e.Want)
	}
	return fmt.Sprintf("the peer (pid %d) runs as uid %d, not uid %d", e.PID, e.UID, e.Want)
}

// comparePeer is the verdict of checkPeer once the system has told who the
// peer is.
func comparePeer(uid, pid, want int) error {
	if uid != want {
		return &peerError{UID: uid, PID: pid, Want: want}
	}
	return nil
}

// rawConn returns c's descriptor access, for reading peer credentials.
func rawConn(c net.Conn) (syscall.RawConn, error) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil, fmt.Errorf("cannot read the peer credentials of a %T", c)
	}
	return sc.SyscallConn()
}
