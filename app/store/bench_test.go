package store

import (
	"bytes"
	"fmt"
	"testing"

	"feedback/ipc/wire"
)

// BenchmarkSaveDraft is the cost of one keystroke's save of a text-only draft.
func BenchmarkSaveDraft(b *testing.B) {
	s, _ := newStore(b)
	must(b, s.SaveQuestion(question("q", ""), at(0)))
	text := "The user is typing a reasonably long reply, a sentence or two of it. "
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d := wire.Draft{Replies: []wire.Reply{{Selected: []string{"Left"}, Text: text + fmt.Sprint(i)}}}
		if err := s.SaveDraft("q", d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveDraftWithImage: typing while a 1 MiB image is attached (the
// image is hashed, not rewritten).
func BenchmarkSaveDraftWithImage(b *testing.B) {
	s, _ := newStore(b)
	must(b, s.SaveQuestion(question("q", ""), at(0)))
	img := []wire.Image{{MIME: "image/png", Data: bytes.Repeat([]byte{1, 2, 3, 4}, 1<<18)}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d := wire.Draft{Replies: []wire.Reply{{Text: fmt.Sprint("typing ", i)}}, Images: img}
		if err := s.SaveDraft("q", d); err != nil {
			b.Fatal(err)
		}
	}
}
