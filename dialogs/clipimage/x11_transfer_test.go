//go:build (linux && !android) || freebsd || openbsd || netbsd || dragonfly

package clipimage

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

const (
	testWin  xproto.Window = 0x200001
	testProp xproto.Atom   = 300
	testType xproto.Atom   = 301
)

func propertyNotify(win xproto.Window, prop xproto.Atom, state byte) xEvent {
	return xEvent{ev: xproto.PropertyNotifyEvent{Window: win, Atom: prop, State: state}}
}

// fakeOwner plays an INCR owner: each time the requestor takes (and so
// deletes) the property, it writes the next chunk, as xclip or GTK would.
type fakeOwner struct {
	t      *testing.T
	chunks [][]byte // still to send; the transfer ends with an empty one
	events chan xEvent
	takes  int
	stall  bool  // stop sending after the first chunk
	err    error // returned by takeProperty
}

func (f *fakeOwner) start() {
	// Noise the requestor must skip: other windows, other properties, the
	// deletion of the INCR property.
	f.events <- propertyNotify(testWin+1, testProp, xproto.PropertyNewValue)
	f.events <- propertyNotify(testWin, testProp+1, xproto.PropertyNewValue)
	f.events <- propertyNotify(testWin, testProp, xproto.PropertyDelete)
	f.events <- xEvent{ev: xproto.SelectionClearEvent{}}
	f.events <- propertyNotify(testWin, testProp, xproto.PropertyNewValue)
}

func (f *fakeOwner) takeProperty(prop xproto.Atom) (xproto.Atom, []byte, error) {
	if prop != testProp {
		f.t.Errorf("took property %d, want %d", prop, testProp)
	}
	if f.err != nil {
		return 0, nil, f.err
	}
	f.takes++
	chunk := f.chunks[0]
	f.chunks = f.chunks[1:]
	f.events <- propertyNotify(testWin, testProp, xproto.PropertyDelete)
	if len(f.chunks) > 0 && !f.stall {
		f.events <- propertyNotify(testWin, testProp, xproto.PropertyNewValue)
	}
	return testType, chunk, nil
}

func newFakeOwner(t *testing.T, chunks ...[]byte) *fakeOwner {
	f := &fakeOwner{t: t, chunks: chunks, events: make(chan xEvent, 2*len(chunks)+8)}
	f.start()
	return f
}

func TestReceiveIncrReassembles(t *testing.T) {
	var chunks [][]byte
	var want []byte
	for i := range 5 {
		c := bytes.Repeat([]byte{byte('a' + i)}, 1000+i)
		chunks = append(chunks, c)
		want = append(want, c...)
	}
	f := newFakeOwner(t, append(chunks, nil)...)
	got, err := receiveIncr(context.Background(), f, f.events, testWin, testProp, 4000, time.Second, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("got %d bytes, want %d in order", len(got), len(want))
	}
	if f.takes != 6 {
		t.Errorf("took the property %d times, want 6 (5 chunks and the terminator)", f.takes)
	}
}

func TestReceiveIncrEmpty(t *testing.T) {
	f := newFakeOwner(t, nil)
	got, err := receiveIncr(context.Background(), f, f.events, testWin, testProp, 0, time.Second, 1<<20)
	if err != nil || len(got) != 0 {
		t.Fatalf("got %d bytes, %v; want 0, nil", len(got), err)
	}
}

func TestReceiveIncrFailures(t *testing.T) {
	chunk := make([]byte, 100)
	tests := []struct {
		name    string
		owner   func(*testing.T) *fakeOwner
		ctx     func() context.Context
		hint    uint32
		limit   int
		wantErr error  // checked with errors.Is when set
		wantMsg string // substring of the error otherwise
	}{
		{
			name:    "owner stalls mid-transfer",
			owner:   func(t *testing.T) *fakeOwner { f := newFakeOwner(t, chunk, chunk, nil); f.stall = true; return f },
			wantErr: errOwnerTimeout,
		},
		{
			name:    "too large in total",
			owner:   func(t *testing.T) *fakeOwner { return newFakeOwner(t, chunk, chunk, nil) },
			limit:   150,
			wantMsg: "larger than 150 bytes",
		},
		{
			name:    "announced size too large",
			owner:   func(t *testing.T) *fakeOwner { return newFakeOwner(t, chunk, nil) },
			hint:    1000,
			limit:   150,
			wantMsg: "announced 1000",
		},
		{
			name:  "context cancelled",
			owner: func(t *testing.T) *fakeOwner { f := newFakeOwner(t, chunk, chunk, nil); f.stall = true; return f },
			ctx: func() context.Context {
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(20*time.Millisecond, cancel)
				return ctx
			},
			wantErr: context.Canceled,
		},
		{
			name:    "reading the property fails",
			owner:   func(t *testing.T) *fakeOwner { f := newFakeOwner(t, chunk, nil); f.err = errors.New("boom"); return f },
			wantMsg: "boom",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			if tt.ctx != nil {
				ctx = tt.ctx()
			}
			limit := tt.limit
			if limit == 0 {
				limit = 1 << 20
			}
			f := tt.owner(t)
			idle := 100 * time.Millisecond
			if tt.wantErr == context.Canceled {
				idle = time.Hour
			}
			start := time.Now()
			_, err := receiveIncr(ctx, f, f.events, testWin, testProp, tt.hint, idle, limit)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("error %v, want %v", err, tt.wantErr)
			}
			if tt.wantMsg != "" && !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not mention %q", err, tt.wantMsg)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestWaitFor(t *testing.T) {
	isSelectionNotify := func(ev xgb.Event) bool { _, ok := ev.(xproto.SelectionNotifyEvent); return ok }

	t.Run("skips other events", func(t *testing.T) {
		ch := make(chan xEvent, 3)
		ch <- propertyNotify(testWin, testProp, xproto.PropertyNewValue)
		ch <- xEvent{ev: xproto.SelectionNotifyEvent{Property: testProp}}
		ev, err := waitFor(context.Background(), ch, time.Second, isSelectionNotify)
		if err != nil || ev.(xproto.SelectionNotifyEvent).Property != testProp {
			t.Fatalf("got %v, %v", ev, err)
		}
	})
	t.Run("X error", func(t *testing.T) {
		ch := make(chan xEvent, 1)
		ch <- xEvent{err: xproto.AtomError{BadValue: 7}}
		if _, err := waitFor(context.Background(), ch, time.Second, isSelectionNotify); err == nil || !strings.Contains(err.Error(), "X error") {
			t.Fatalf("error %v, want an X error", err)
		}
	})
	t.Run("connection closed", func(t *testing.T) {
		ch := make(chan xEvent)
		close(ch)
		if _, err := waitFor(context.Background(), ch, time.Second, isSelectionNotify); err == nil || !strings.Contains(err.Error(), "closed") {
			t.Fatalf("error %v, want connection closed", err)
		}
	})
	t.Run("idle timeout", func(t *testing.T) {
		ch := make(chan xEvent, 1)
		ch <- propertyNotify(testWin, testProp, xproto.PropertyNewValue) // not a match
		start := time.Now()
		if _, err := waitFor(context.Background(), ch, 50*time.Millisecond, isSelectionNotify); !errors.Is(err, errOwnerTimeout) {
			t.Fatalf("error %v, want %v", err, errOwnerTimeout)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("took %v", d)
		}
	})
	t.Run("context deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		if _, err := waitFor(ctx, make(chan xEvent), time.Hour, isSelectionNotify); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error %v, want deadline exceeded", err)
		}
	})
}

func TestAtomList(t *testing.T) {
	data := []byte{1, 0, 0, 0, 0x2c, 0x01, 0, 0, 0xff, 0xff} // two atoms and a stray half
	got := atomList(32, data)
	if len(got) != 2 || got[0] != 1 || got[1] != 300 {
		t.Errorf("atomList = %v, want [1 300]", got)
	}
	if got := atomList(8, data); got != nil {
		t.Errorf("atomList of format 8 = %v, want nil", got)
	}
}
