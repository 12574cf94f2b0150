package hookio

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

const event = `{"hook_event_name":"PermissionRequest","tool_name":"Bash"}` + "\n"

// After the event, standard input is still watched: its end, later than
// the grace that follows the event, says that the client stopped waiting.
func TestInputEndsAfterTheEvent(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(event))
	const grace = 50 * time.Millisecond
	data, ended, err := readEventWatching(context.Background(), r, 1<<20, time.Second, time.Second, grace)
	if err != nil || string(data) != event {
		t.Fatalf("read %q, %v", data, err)
	}
	select {
	case <-ended:
		t.Fatal("input reported ended while still open")
	default:
	}
	time.Sleep(2 * grace) // the client waits on the hook a while
	w.Close()
	select {
	case <-ended:
	case <-time.After(time.Second):
		t.Fatal("the end of input was not reported")
	}
}

// A client that writes its event and closes its end at once (Claude Code
// does: it ends the hook's input after the event) is still waiting: that
// end is the event's, not a departure.
func TestInputEndingWithTheEventIsNoDeparture(t *testing.T) {
	r, w := io.Pipe()
	go func() { w.Write([]byte(event)); w.Close() }()
	const grace = 200 * time.Millisecond
	_, ended, err := readEventWatching(context.Background(), r, 1<<20, time.Second, time.Second, grace)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-ended:
		t.Fatal("the end of the event's input read as the client's departure")
	case <-time.After(3 * grace):
	}
}

// ClientGone reports the end of input it is given, and whatever the
// OS-specific watcher reports.
func TestClientGoneInput(t *testing.T) {
	ended := make(chan struct{})
	gone := ClientGone(context.Background(), ended, nil)
	close(ended)
	select {
	case err := <-gone:
		if !errors.Is(err, ErrInputEnded) {
			t.Errorf("got %v, want ErrInputEnded", err)
		}
	case <-time.After(time.Second):
		t.Fatal("the end of input was not reported")
	}
}

// Nothing is reported while the client waits: an output nobody closes (a
// pipe still read, a regular file) and the same parent.
func TestClientStillWaiting(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, out := range []*os.File{w, f, nil} {
		select {
		case err := <-watchClient(ctx, out, os.Getppid(), 10*time.Millisecond):
			t.Errorf("%v: reported %v while the client waits", out, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
