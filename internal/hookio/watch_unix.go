//go:build unix

package hookio

import (
	"context"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// watchClient watches, until ctx ends, the two signs that the client
// stopped waiting that the OS shows: out's reader went away (poll(2)
// reports POLLERR or POLLHUP on the write end of a pipe whose read end is
// closed, and POLLHUP on a hung-up terminal) and the parent changed from
// ppid (it exited; the hook was re-parented to init or a subreaper). It
// reports the first on the channel it returns. A regular file or
// /dev/null as out never reports; a ppid of 1 or less (started by init,
// or already orphaned) is not watched. A shell between the client and the
// hook that does not exec it stays the parent until the hook exits: then
// only out tells.
func watchClient(ctx context.Context, out *os.File, ppid int, every time.Duration) <-chan error {
	gone := make(chan error, 1)
	var fds []unix.PollFd
	if out != nil {
		// Events 0: only the conditions poll always reports (error,
		// hang-up, invalid), never "writable", so the wait lasts its
		// timeout while the reader is there.
		fds = []unix.PollFd{{Fd: int32(out.Fd()), Events: 0}}
	}
	go func() {
		for ctx.Err() == nil {
			if len(fds) > 0 {
				fds[0].Revents = 0
				n, err := unix.Poll(fds, int(every.Milliseconds()))
				switch {
				case err == unix.EINTR:
				case err != nil, n > 0 && fds[0].Revents&unix.POLLNVAL != 0:
					fds = nil // not pollable: the parent alone is watched
				case n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0:
					gone <- ErrOutputGone
					return
				}
			} else {
				select {
				case <-time.After(every):
				case <-ctx.Done():
					return
				}
			}
			if ppid > 1 && os.Getppid() != ppid {
				gone <- ErrParentGone
				return
			}
		}
	}()
	return gone
}
