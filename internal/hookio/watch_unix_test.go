//go:build unix

package hookio

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// The reader of the hook's output going away (the client closed its end
// of the pipe, or exited) is seen within a poll.
func TestWatchOutputGone(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gone := watchClient(ctx, w, os.Getppid(), 50*time.Millisecond)
	r.Close()
	select {
	case err := <-gone:
		if !errors.Is(err, ErrOutputGone) {
			t.Errorf("got %v, want ErrOutputGone", err)
		}
	case <-time.After(time.Second):
		t.Fatal("the output's reader going away was not reported")
	}
}

// A parent other than the one the hook started with (it exited, and the
// hook was re-parented) is seen within a tick.
func TestWatchParentGone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	select {
	case err := <-watchClient(ctx, nil, os.Getppid()+1, 20*time.Millisecond):
		if !errors.Is(err, ErrParentGone) {
			t.Errorf("got %v, want ErrParentGone", err)
		}
	case <-time.After(time.Second):
		t.Fatal("the parent's change was not reported")
	}
}
