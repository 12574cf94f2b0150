package e2e

import (
	"image"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"

	"feedback/store"
	"feedback/wire"
)

// Waiting on facts instead of time: what the app wrote to its database,
// and what a window shows.

// sessionDB is the database of the session's app (XDG_DATA_HOME of env).
func sessionDB() string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_DATA_HOME="); ok {
			return filepath.Join(v, "feedback", "feedback.db")
		}
	}
	return ""
}

// waitDraft waits until the app's database at path holds, for an open
// question titled title, a draft that ok accepts, and returns it. A draft
// is written once the window has the user's edit (typed text, an attached
// image that has been processed).
func waitDraft(t *testing.T, path, title string, ok func(wire.Draft) bool) wire.Draft {
	t.Helper()
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatalf("opening the app's database: %v", err)
	}
	defer s.Close()
	var last wire.Draft
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		open, err := s.Open()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range open {
			if q.Title != title {
				continue
			}
			d, found, err := s.Draft(q.ID)
			if err != nil {
				t.Fatal(err)
			}
			if found {
				last = d
				if ok(d) {
					return d
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no draft as wanted for %q within 20 s; the last: %+v", title, last)
		}
	}
}

// hasImages accepts a draft with n images.
func hasImages(n int) func(wire.Draft) bool {
	return func(d wire.Draft) bool { return len(d.Images) == n }
}

// hasText accepts a draft whose first reply is text.
func hasText(text string) func(wire.Draft) bool {
	return func(d wire.Draft) bool { return len(d.Replies) > 0 && d.Replies[0].Text == text }
}

// waitDraftOf is waitDraft for a question id at path.
func waitDraftOf(t *testing.T, path, id string, ok func(wire.Draft) bool) wire.Draft {
	t.Helper()
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatalf("opening the app's database: %v", err)
	}
	defer s.Close()
	var last wire.Draft
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		d, found, err := s.Draft(id)
		if err != nil {
			t.Fatal(err)
		}
		if found {
			last = d
			if ok(d) {
				return d
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no draft as wanted for %s within 20 s; the last: %+v", id, last)
		}
	}
}

// pixels grabs the rectangle r of the window win (an xdotool id).
func (s *xscreen) pixels(t *testing.T, win string, r image.Rectangle) []byte {
	t.Helper()
	id, err := strconv.ParseUint(win, 10, 32)
	if err != nil {
		t.Fatalf("window id %q: %v", win, err)
	}
	img, err := xproto.GetImage(s.x, xproto.ImageFormatZPixmap, xproto.Drawable(id),
		int16(r.Min.X), int16(r.Min.Y), uint16(r.Dx()), uint16(r.Dy()), 0xffffffff).Reply()
	if err != nil {
		t.Fatalf("GetImage: %v", err)
	}
	return img.Data
}

// waitRedrawn waits until the rectangle r of win differs from before and
// then holds still for a few frames: what was asked for is drawn there.
func (s *xscreen) waitRedrawn(t *testing.T, win string, r image.Rectangle, before []byte) {
	t.Helper()
	var prev []byte
	same := 0
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		now := s.pixels(t, win, r)
		switch {
		case string(now) == string(before):
			same = 0
		case string(now) == string(prev):
			same++
		default:
			same = 0
		}
		if same >= 3 {
			return
		}
		prev = now
		if time.Now().After(deadline) {
			t.Fatalf("the window was not redrawn at %v within 20 s", r)
		}
	}
}
