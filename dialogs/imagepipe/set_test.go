package imagepipe

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

func fakeImage(name string, n int) Image {
	return Image{MIME: MIMEPNG, Data: make([]byte, n), Width: 1, Height: 1, Name: name, OriginalBytes: n}
}

func TestSetBudgets(t *testing.T) {
	type step struct {
		add     Image
		remove  int // when add.Name == ""
		kind    error
		msg     string
		wantLen int
	}
	l := Limits{MaxCount: 3, MaxTotalBytes: 1000, MaxImageBytes: 600}
	tests := []struct {
		name  string
		steps []step
	}{
		{"count", []step{
			{add: fakeImage("a.png", 10), wantLen: 1},
			{add: fakeImage("b.png", 10), wantLen: 2},
			{add: fakeImage("c.png", 10), wantLen: 3},
			{add: fakeImage("d.png", 10), kind: ErrTooMany, wantLen: 3,
				msg: "d.png was not attached: an answer can carry at most 3 images; remove one to make room"},
			{remove: 0, wantLen: 2},
			{add: fakeImage("d.png", 10), wantLen: 3},
		}},
		{"total", []step{
			{add: fakeImage("a.png", 400), wantLen: 1},
			{add: fakeImage("b.png", 400), wantLen: 2},
			{add: fakeImage("photo.jpg", 300), kind: ErrTotalTooLarge, wantLen: 2,
				msg: "photo.jpg (300 bytes) was not attached: the attachments would come to 1 KB; the limit for one answer is 1000 bytes"},
			{add: fakeImage("small.png", 200), wantLen: 3},
		}},
		{"per image", []step{
			{add: fakeImage("big.png", 601), kind: ErrImageTooLarge, wantLen: 0,
				msg: "big.png is 601 bytes after compression; the limit is 600 bytes"},
		}},
		{"remove out of range is ignored", []step{
			{add: fakeImage("a.png", 10), wantLen: 1},
			{remove: 5, wantLen: 1},
			{remove: -1, wantLen: 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSet(l)
			for i, st := range tt.steps {
				before := s.TotalBytes()
				if st.add.Name == "" {
					s.Remove(st.remove)
				} else {
					err := s.Add(st.add)
					if !errors.Is(err, st.kind) || (st.kind == nil) != (err == nil) {
						t.Fatalf("step %d: err = %v, want %v", i, err, st.kind)
					}
					if err != nil && err.Error() != st.msg {
						t.Errorf("step %d: message %q, want %q", i, err, st.msg)
					}
					if err != nil && s.TotalBytes() != before {
						t.Errorf("step %d: a refused image changed the total", i)
					}
				}
				if got := len(s.Images()); got != st.wantLen || s.Len() != st.wantLen {
					t.Fatalf("step %d: %d images, want %d", i, got, st.wantLen)
				}
				sum := 0
				for _, img := range s.Images() {
					sum += len(img.Data)
				}
				if sum != s.TotalBytes() {
					t.Fatalf("step %d: TotalBytes %d, images sum to %d", i, s.TotalBytes(), sum)
				}
			}
		})
	}
}

func TestSetDefaults(t *testing.T) {
	s := NewSet(Limits{})
	for i := range 8 {
		if err := s.Add(fakeImage(fmt.Sprintf("%d.png", i), 1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Add(fakeImage("9.png", 1)); !errors.Is(err, ErrTooMany) {
		t.Fatalf("ninth image: %v", err)
	}
	s = NewSet(Limits{})
	for i := range 4 {
		if err := s.Add(fakeImage(fmt.Sprintf("%d.png", i), 4<<20)); err != nil {
			t.Fatal(err)
		}
	}
	err := s.Add(fakeImage("5.png", 1))
	if want := "5.png (1 byte) was not attached: the attachments would come to just over 16 MB; the limit for one answer is 16 MB"; !errors.Is(err, ErrTotalTooLarge) || err.Error() != want {
		t.Fatalf("err = %v", err)
	}
}

func TestSetOrderAndCopy(t *testing.T) {
	s := NewSet(Default())
	for _, n := range []string{"a", "b", "c"} {
		if err := s.Add(fakeImage(n, 1)); err != nil {
			t.Fatal(err)
		}
	}
	s.Remove(1)
	got := s.Images()
	if len(got) != 2 || got[0].Name != "a" || got[1].Name != "c" {
		t.Fatalf("images %v", got)
	}
	got[0].Name = "changed"
	if s.Images()[0].Name != "a" {
		t.Error("Images does not return a copy")
	}
}

func TestSetConcurrent(t *testing.T) {
	s := NewSet(Limits{MaxCount: 50})
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			_ = s.Add(fakeImage(fmt.Sprint(i), 10))
			s.Images()
			s.TotalBytes()
		})
	}
	wg.Wait()
	if s.Len() != 50 || s.TotalBytes() != 500 {
		t.Fatalf("len %d total %d", s.Len(), s.TotalBytes())
	}
}
