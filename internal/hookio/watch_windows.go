//go:build windows

package hookio

import (
	"context"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// watchClient watches, until ctx ends, the parent process ppid: its exit
// is reported as ErrParentGone. The process is opened once, at the start,
// and waited on, so a later process given the same id is never mistaken
// for it; a parent that had already exited (or cannot be opened) is not
// watched. out is not watched: an anonymous pipe tells a writer that its
// reader went away only when a write fails, and a hook writes its answer
// once, at the end. Closing the hook's input still tells (ClientGone).
func watchClient(ctx context.Context, out *os.File, ppid int, every time.Duration) <-chan error {
	gone := make(chan error, 1)
	if ppid <= 0 {
		return gone
	}
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(ppid))
	if err != nil {
		return gone
	}
	go func() {
		defer windows.CloseHandle(h)
		for ctx.Err() == nil {
			ev, err := windows.WaitForSingleObject(h, uint32(every.Milliseconds()))
			switch {
			case err != nil:
				return
			case ev == windows.WAIT_OBJECT_0:
				gone <- ErrParentGone
				return
			}
		}
	}()
	return gone
}
