package hookio

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/ipc"
)

// ReadEvent returns the event as soon as it is whole, although the client
// keeps standard input open; it gives up on a silent or dribbling client
// and on a cancelled context, and takes an EOF as the end.
func TestReadEvent(t *testing.T) {
	const idle, total = 200 * time.Millisecond, time.Second
	for _, tc := range []struct {
		name    string
		write   []string // written one after the other, idle/2 apart
		close   bool
		cancel  bool
		want    string
		wantErr error
		within  time.Duration
	}{
		{name: "whole object, input left open", write: []string{`{"hook_event_name":"Stop"}` + "\n"}, want: `{"hook_event_name":"Stop"}` + "\n", within: idle / 2},
		{name: "object in pieces, input left open", write: []string{`{"a":`, ` "b"}`}, want: `{"a": "b"}`, within: idle},
		{name: "nothing, input left open", wantErr: ErrStalled, within: 2 * idle},
		{name: "half an object, then silence", write: []string{`{"a":`}, want: `{"a":`, wantErr: ErrStalled, within: 2 * idle},
		{name: "dribbling past the total", write: strings.Split(`["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]`, ","), wantErr: ErrStalled, within: total + idle},
		{name: "not an object, closed", write: []string{"[1,2]"}, close: true, want: "[1,2]", within: idle / 2},
		{name: "empty, closed", close: true, within: idle / 2},
		{name: "signal", cancel: true, wantErr: context.Canceled, within: idle / 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, w := io.Pipe()
			defer w.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				for i, s := range tc.write {
					if i > 0 {
						time.Sleep(idle / 2)
					}
					w.Write([]byte(s))
				}
				if tc.close {
					w.Close()
				}
				if tc.cancel {
					cancel()
				}
			}()
			start := time.Now()
			got, err := ReadEvent(ctx, r, 1<<20, idle, total)
			took := time.Since(start)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Errorf("error %v, want %v", err, tc.wantErr)
			}
			if tc.want != "" && string(got) != tc.want {
				t.Errorf("read %q, want %q", got, tc.want)
			}
			if took > tc.within+100*time.Millisecond {
				t.Errorf("took %v, want at most %v", took, tc.within)
			}
		})
	}
}

// At most max bytes are read, and then ReadEvent returns.
func TestReadEventMax(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(strings.Repeat("x", 100)))
	got, err := ReadEvent(context.Background(), r, 10, time.Second, time.Second)
	if err != nil || string(got) != strings.Repeat("x", 10) {
		t.Errorf("ReadEvent = %q, %v; want 10 bytes", got, err)
	}
}

// An app that accepts the connection and never answers (stopped by
// SIGSTOP: the kernel still accepts) is given up on within the wait; a
// socket nobody listens on is no reason to give up (the connect starts the
// app).
func TestAppAnswers(t *testing.T) {
	dir, err := os.MkdirTemp("", "hookio")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "s.sock")
	t.Setenv(ipc.EnvSocket, path)
	if err := AppAnswers(context.Background(), time.Second); err != nil {
		t.Errorf("nothing listening: %v, want nil", err)
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() { // accepts, reads, never answers
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go io.Copy(io.Discard, c)
		}
	}()
	start := time.Now()
	err = AppAnswers(context.Background(), 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "did not answer within 300ms") {
		t.Errorf("a silent app: %v", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("a silent app held AppAnswers %v", took)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := AppAnswers(ctx, time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
