package markdown

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// testPictures is a picture loader whose results come back through a
// channel, to be applied on the test goroutine (the Fyne goroutine of the
// test app): it shows that rendering returned before anything was read.
type testPictures struct {
	*Pictures
	results chan func()
}

func newTestPictures(home string) *testPictures {
	tp := &testPictures{results: make(chan func(), 1024)}
	tp.Pictures = &Pictures{
		do:       func(f func()) { tp.results <- f },
		roots:    func() []string { return []string{home} },
		deadline: 5 * time.Minute, // -race on a busy machine decodes slowly
	}
	return tp
}

// settle applies the next n results. A result that never comes fails the
// test; the wait is a guard, not a synchronisation.
func (tp *testPictures) settle(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case f := <-tp.results:
			f()
		case <-time.After(tp.deadline + 10*time.Second): // a hang, not a slow machine (2× the deadline failed under load)
			t.Fatal("an image load never finished")
		}
	}
}

func pictures(segs []widget.RichTextSegment) []*PictureSegment {
	var out []*PictureSegment
	walkDisplay(segs, func(s widget.RichTextSegment) {
		if p, ok := s.(*PictureSegment); ok {
			out = append(out, p)
		}
	})
	return out
}

// shownPictures returns the pictures of a rendered Markdown, in order.
func shownPictures(md *Widget) []*PictureSegment {
	var out []*PictureSegment
	for _, rt := range md.texts {
		out = append(out, pictures(rt.Segments)...)
	}
	return out
}

func TestPictureIsReadOffTheFyneGoroutine(t *testing.T) {
	test.NewTempApp(t)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "shot.png"), pngOf(t, 2000, 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dest := range []string{filepath.Join(home, "shot.png"), "file://" + filepath.Join(home, "shot.png")} {
		tp := newTestPictures(home)
		md := newWidget("Before\n\n![shot]("+dest+")\n\nAfter", Options{Pictures: tp.Pictures})
		pics := shownPictures(md)
		if len(pics) != 1 || pics[0].state() != "loading" {
			t.Fatalf("%s: want one picture still loading when rendering returns, got %d", dest, len(pics))
		}
		w := test.NewTempWindow(t, container.NewVScroll(md))
		w.Resize(fyne.NewSize(400, 600))
		tp.settle(t, 1)
		if got := pics[0].state(); got != "image" {
			t.Fatalf("%s: state %q (%s), want image", dest, got, pics[0].noteText())
		}
		if pics[0].image.Width != 1568 || pics[0].image.Height != 784 {
			t.Errorf("decoded %dx%d, want 1568x784 (downscaled by imagepipe)", pics[0].image.Width, pics[0].image.Height)
		}
	}
}

func TestPictureFitsTheWidthAndAlignsWithText(t *testing.T) {
	test.NewTempApp(t)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "wide.png"), pngOf(t, 1000, 500), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	tp := newTestPictures(home)
	md := newWidget("Text\n\n![wide](~/wide.png)", Options{Pictures: tp.Pictures})
	w := test.NewTempWindow(t, container.NewVScroll(md))
	w.Resize(fyne.NewSize(300, 600))
	tp.settle(t, 1)
	w.Content().Refresh()
	pic := shownPictures(md)[0]
	if pic.state() != "image" {
		t.Fatalf("state %q: %s", pic.state(), pic.noteText())
	}
	v := pic.views[len(pic.views)-1]
	img := test.WidgetRenderer(v).(*pictureRenderer).img
	if img.Size().Width > v.Size().Width || img.Size().Width == 0 {
		t.Errorf("image %v wide in a view %v wide", img.Size().Width, v.Size().Width)
	}
	if img.Position().X != 0 {
		t.Errorf("image at x=%v in its view, want 0 (aligned with the text)", img.Position().X)
	}
	if r := img.Size().Width / img.Size().Height; r < 1.99 || r > 2.01 {
		t.Errorf("aspect %v, want 2", r)
	}
	if min := md.MinSize().Width; min > 100 {
		t.Errorf("the Markdown asks for %v px of width; images must not force the window wider", min)
	}
	// wider window: the image stops at its natural size (600 px at most)
	w.Resize(fyne.NewSize(1200, 900))
	w.Content().Refresh()
	if got := img.Size().Width; got != pictureMaxWidth {
		t.Errorf("in a wide window the image is %v wide, want %v", got, float32(pictureMaxWidth))
	}
}

func TestPictureRefusals(t *testing.T) {
	test.NewTempApp(t)
	home := t.TempDir()
	fifo := filepath.Join(home, "pipe.png")
	if err := mkfifo(fifo); errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no FIFOs here")
	} else if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id.png"), pngOf(t, 4, 4), 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(home, "big.png")
	if f, err := os.Create(big); err != nil {
		t.Fatal(err)
	} else {
		if err := f.Truncate(pictureMaxFileBytes + 1); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(home, "escape.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fifo, filepath.Join(home, "tofifo.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "text.png"), []byte("not an image"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, wpipe, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer wpipe.Close()
	procFD := "/proc/self/fd/" + strconv.Itoa(int(r.Fd()))

	tests := []struct{ name, dest, note string }{
		{"fifo", fifo, "not a regular file"},
		{"symlink to a fifo", filepath.Join(home, "tofifo.png"), "not a regular file"},
		{"/dev/zero", "/dev/zero", "home directory only"},
		{"/proc/self/fd", procFD, "home directory only"},
		{"/etc/shadow", "/etc/shadow", "home directory only"},
		{"symlink escaping home", filepath.Join(home, "escape.png"), "home directory only"},
		{"hidden directory", filepath.Join(home, ".ssh", "id.png"), "hidden files"},
		{"dot-dot out of home", home + "/../x.png", "home directory only"},
		{"oversize file", big, "larger than 16 MiB"},
		{"missing file", filepath.Join(home, "nope.png"), "no such file"},
		{"not an image", filepath.Join(home, "text.png"), "not an image format"},
		{"bad data URI", "data:image/png;base64,AAAA", "not an image format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tp := newTestPictures(home)
			md := newWidget("![alt text]("+tt.dest+")", Options{Pictures: tp.Pictures})
			pics := shownPictures(md)
			if len(pics) != 1 || pics[0].state() != "loading" {
				t.Fatalf("want a placeholder when rendering returns, got %d pictures", len(pics))
			}
			tp.settle(t, 1)
			note := pics[0].noteText()
			if pics[0].state() != "note" || !strings.HasPrefix(note, "alt text (image not shown: ") || !strings.Contains(note, tt.note) {
				t.Errorf("state %q, note %q; want a note containing %q", pics[0].state(), note, tt.note)
			}
		})
	}
	// Nothing opened the FIFO: opening its write end without a reader fails.
	if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
		t.Error("the FIFO has a reader: it was opened")
	}
}

func TestPicturesPerQuestionAreCapped(t *testing.T) {
	test.NewTempApp(t)
	tp := newTestPictures(t.TempDir())
	src := strings.Repeat("![z](/dev/zero)\n\n", 500)
	md := newWidget(src, Options{Pictures: tp.Pictures})
	pics := shownPictures(md)
	if len(pics) != 500 {
		t.Fatalf("%d pictures, want 500", len(pics))
	}
	for i, p := range pics {
		want := "loading"
		if i >= maxPictures {
			want = "note"
		}
		if p.state() != want {
			t.Fatalf("picture %d is %q, want %q", i+1, p.state(), want)
		}
	}
	if note := pics[maxPictures].noteText(); !strings.Contains(note, "at most 16 images") {
		t.Errorf("note %q", note)
	}
	tp.settle(t, maxPictures)
	select {
	case <-tp.results:
		t.Error("more than 16 images were loaded")
	default:
	}
	// the cap is per question: a second prompt of the same question shows none
	more := newWidget("![again](/dev/zero)", Options{Pictures: tp.Pictures})
	if p := shownPictures(more)[0]; p.state() != "note" {
		t.Errorf("the 501st image of the question is %q, want a note", p.state())
	}
}

// TestPictureDeadline: an image that cannot be read in time (here: every
// worker busy) ends as a note instead of waiting for good.
func TestPictureDeadline(t *testing.T) {
	test.NewTempApp(t)
	for range pictureWorkers {
		pictureSlots <- struct{}{}
	}
	defer func() {
		for range pictureWorkers {
			<-pictureSlots
		}
	}()
	tp := newTestPictures(t.TempDir())
	tp.deadline = 50 * time.Millisecond
	md := newWidget("![slow](data:image/png;base64,AAAA)", Options{Pictures: tp.Pictures})
	tp.settle(t, 1)
	if p := shownPictures(md)[0]; !strings.Contains(p.noteText(), "took too long") {
		t.Errorf("note %q", p.noteText())
	}
	// a path outside the home is refused at once, without a worker
	md = newWidget("![shadow](/etc/shadow)", Options{Pictures: tp.Pictures})
	tp.settle(t, 1)
	if p := shownPictures(md)[0]; !strings.Contains(p.noteText(), "home directory only") {
		t.Errorf("note %q", p.noteText())
	}
}

// pngOf returns a w×h PNG of a gradient.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x + y), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
