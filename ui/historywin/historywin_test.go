package historywin

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/history"
	"feedback/store"
	"feedback/wire"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// The detail shows local times: the golden is drawn in UTC wherever it runs.
func init() { time.Local = time.UTC }

func q(id, client, loop, phase, text string) wire.Question {
	qq := wire.Question{ID: id, Source: "interactive_feedback", Client: client,
		Prompts: []wire.Prompt{{Markdown: text, Options: []wire.Option{{Label: "Merge"}, {Label: "Rebase", Description: "linear history"}}}}}
	if loop != "" {
		qq.Context = []wire.Field{{Label: "Loop", Value: loop}, {Label: "Phase", Value: phase},
			{Label: "Objective", Value: "Ship " + loop}, {Label: "Iteration", Value: "2/5"}, {Label: "Project", Value: "webapp"}}
		qq.Project = "webapp"
	}
	return qq
}

func pngBytes(t *testing.T, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for y := 0; y < 30; y++ {
		for x := 0; x < 40; x++ {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// fill writes one question of each outcome through the store's own API.
func fill(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	must(s.SaveQuestion(q("q1", "claude-code", "L1", "plan", "How should I **integrate** main?"), at(0)))
	must(s.SaveAnswer(wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered,
		Replies: []wire.Reply{{Selected: []string{"Rebase"}, Text: "keep history linear"}},
		Images:  []wire.Image{{MIME: "image/png", Data: pngBytes(t, color.RGBA{R: 200, A: 255})}, {MIME: "image/png", Data: pngBytes(t, color.RGBA{B: 200, A: 255})}}},
		at(1), true))
	must(s.SaveQuestion(q("q2", "claude-code", "L1", "review", "Deploy to staging?"), at(2)))
	must(s.SaveAnswer(wire.Answer{QuestionID: "q2", Status: wire.StatusDismissed}, at(3), true))
	must(s.SaveQuestion(q("q3", "cursor", "L1", "review", "Drop the old table?"), at(4)))
	must(s.SaveAnswer(wire.Answer{QuestionID: "q3", Status: wire.StatusTimeout}, at(14), false))
	must(s.SaveQuestion(q("q4", "cursor", "", "", "Which name?"), at(20)))
	must(s.MarkWithdrawn("q4", at(21)))
	must(s.SaveQuestion(q("q5", "claude-code", "L2", "build", "Still there?"), at(30)))
	return path
}

// harness runs the window's Fyne-goroutine work on the test's goroutine.
type harness struct {
	w     *Window
	queue chan func()
	shown []string // what loaded reported, in order
}

func open(t *testing.T, path string) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	h := &harness{queue: make(chan func(), 64)}
	h.w = newWindow(a, Options{DBPath: path, Now: func() time.Time { return t0.Add(time.Hour) }},
		func(f func()) { h.queue <- f }, func(what string) { h.shown = append(h.shown, what) })
	h.w.Fyne().Show()
	t.Cleanup(func() {
		for _, win := range a.Driver().AllWindows() {
			if win == h.w.Fyne() {
				win.Close()
			}
		}
	})
	return h
}

// wait runs the window's queued work until what ("list", "images") was shown.
func (h *harness) wait(t *testing.T, what string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		for i, got := range h.shown {
			if got == what {
				h.shown = h.shown[i+1:]
				return
			}
		}
		select {
		case f := <-h.queue:
			f()
		case <-deadline:
			t.Fatalf("%s not shown within 10 s", what)
		}
	}
}

// rows lists the tree as "indent + text" lines, every branch open.
func (h *harness) rows() []string {
	var out []string
	var walk func(uid string, depth int)
	walk = func(uid string, depth int) {
		for _, c := range h.w.childUIDs(uid) {
			l := h.w.newRow(false)
			h.w.updateRow(c, true, l)
			out = append(out, strings.Repeat("  ", depth)+l.(*widget.Label).Text)
			walk(c, depth+1)
		}
	}
	walk("", 0)
	return out
}

func TestListGroupedByLoopThenClientWithOutcomeAndAge(t *testing.T) {
	h := open(t, fill(t))
	h.wait(t, "list")
	want := []string{
		"Loop L2: Ship L2",
		"  claude-code · webapp",
		"    Still there? — open · 30 min · build · iteration 2/5",
		"Outside any loop",
		"  cursor",
		"    Which name? — withdrawn · 40 min",
		"Loop L1: Ship L1",
		"  cursor · webapp",
		"    Drop the old table? — timed out · 56 min · review · iteration 2/5",
		"  claude-code · webapp",
		"    How should I integrate main? — answered · 1 h · plan · iteration 2/5",
		"    Deploy to staging? — dismissed · 58 min · review · iteration 2/5",
	}
	if got := h.rows(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := h.w.status.Text; s != "5 questions in 3 loops." {
		t.Fatalf("status %q", s)
	}
}

func TestSearchQuestionAndReplyText(t *testing.T) {
	h := open(t, fill(t))
	h.wait(t, "list")
	for _, tc := range []struct{ text, want string }{
		{"STAGING", "Deploy to staging?"},            // question text, any case
		{"history linear", "How should I integrate"}, // reply text
	} {
		h.w.search.SetText("")
		test.Type(h.w.search, tc.text)
		h.wait(t, "list")
		var questions []string
		for _, r := range h.rows() {
			if strings.HasPrefix(r, "    ") {
				questions = append(questions, strings.TrimSpace(r))
			}
		}
		if len(questions) != 1 || !strings.HasPrefix(questions[0], tc.want) {
			t.Fatalf("search %q lists %q, want only %q", tc.text, questions, tc.want)
		}
	}
	h.w.search.SetText("nowhere to be found")
	h.wait(t, "list")
	if len(h.w.loops) != 0 || !strings.Contains(h.w.status.Text, "No question or reply contains") {
		t.Fatalf("no match: %d loops, status %q", len(h.w.loops), h.w.status.Text)
	}
}

// texts collects the visible text of the detail pane.
func texts(o fyne.CanvasObject) string {
	var b strings.Builder
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Label:
			b.WriteString(v.Text + "\n")
		case interface{ String() string }:
			b.WriteString(v.String() + "\n")
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, child := range c.Objects {
				walk(child)
			}
		}
	}
	walk(o)
	return b.String()
}

func images(c *fyne.Container) int {
	n := 0
	for _, o := range c.Objects {
		switch v := o.(type) {
		case *canvas.Image:
			n++
		case *fyne.Container:
			n += images(v)
		}
	}
	return n
}

func TestOpenOneShowsQuestionChoicesReplyAndImages(t *testing.T) {
	h := open(t, fill(t))
	h.wait(t, "list")
	h.w.tree.Select("2/1/0") // Loop L1, claude-code, q1
	h.wait(t, "images")
	got := texts(h.w.detail)
	for _, want := range []string{"How should I integrate main?", "claude-code · webapp · Loop L1: Ship L1 · plan · iteration 2/5",
		"answered", "Rebase — linear history", "Merge", "Reply", "keep history linear", "2 attached images"} {
		if !strings.Contains(got, want) {
			t.Errorf("detail lacks %q:\n%s", want, got)
		}
	}
	if n := images(h.w.detail); n != 2 {
		t.Fatalf("%d images shown, want 2", n)
	}
	// The chosen option is bold, the other not.
	for _, o := range h.w.detail.Objects {
		if c, ok := o.(*fyne.Container); ok {
			for _, l := range c.Objects {
				if l, ok := l.(*widget.Label); ok && (l.Text == "Merge") == l.TextStyle.Bold {
					t.Errorf("option %q bold %v", l.Text, l.TextStyle.Bold)
				}
			}
		}
	}
	test.AssertImageMatches(t, "history.png", h.w.Fyne().Canvas().Capture())
}

// Export writes what `feedback history` prints for the same questions.
func TestExportIsFeedbackHistoryOutput(t *testing.T) {
	path := fill(t)
	h := open(t, path)
	h.wait(t, "list")
	cli := func(args ...string) string {
		var out, errb bytes.Buffer
		code := history.Run(args, history.Env{Stdout: &out, Stderr: &errb, Now: time.Now,
			Getenv:      func(k string) string { return map[string]string{"FEEDBACK_DB": path}[k] },
			DefaultPath: func() (string, error) { return "", os.ErrNotExist }})
		if code != 0 {
			t.Fatalf("feedback history %v: %s", args, errb.String())
		}
		return out.String()
	}
	render := func(format string) string {
		b, err := Render(h.w.Selection(), format)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if render(FormatMarkdown) != cli() || render(FormatJSON) != cli("--json") {
		t.Fatal("with nothing chosen, the export differs from feedback history's output")
	}
	h.w.tree.Select("2") // Loop L1
	if render(FormatMarkdown) != cli("--loop", "L1") || render(FormatJSON) != cli("--json", "--loop", "L1") {
		t.Fatal("the export of loop L1 differs from feedback history --loop L1")
	}
	h.w.tree.Select("2/0/0") // one question
	if md := render(FormatMarkdown); !strings.Contains(md, "### Drop the old table? — timed out") || strings.Contains(md, "staging") {
		t.Fatalf("export of one question:\n%s", md)
	}
	// What the file dialog's callback writes.
	out := filepath.Join(t.TempDir(), "loop.json")
	wc, err := storage.Writer(storage.NewFileURI(out))
	if err != nil {
		t.Fatal(err)
	}
	h.w.tree.Select("2") // Loop L1
	h.w.write(h.w.Selection(), FormatJSON, wc)
	h.wait(t, "export")
	if data, _ := os.ReadFile(out); string(data) != cli("--json", "--loop", "L1") {
		t.Fatalf("exported file:\n%s", data)
	}
	if !strings.Contains(h.w.status.Text, "Exported to "+out) {
		t.Fatalf("status %q", h.w.status.Text)
	}
	// The button asks where to save.
	test.Tap(h.w.export[0])
	if h.w.Fyne().Canvas().Overlays().Top() == nil {
		t.Fatal("Export Markdown… opened no file dialog")
	}
}

// Refresh lists a question asked after the window opened (the app writes
// the database while the window reads it).
func TestRefreshSeesNewQuestions(t *testing.T) {
	path := fill(t)
	h := open(t, path)
	h.wait(t, "list")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveQuestion(q("q6", "codex", "", "", "A new one?"), t0.Add(50*time.Minute)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	test.Tap(h.w.refresh)
	h.wait(t, "list")
	if rows := h.rows(); len(rows) < 3 || rows[2] != "    A new one? — open · 10 min" {
		t.Fatalf("after Refresh: %q", rows)
	}
}

func TestNoDatabaseIsSaid(t *testing.T) {
	h := open(t, filepath.Join(t.TempDir(), "none.db"))
	h.wait(t, "list")
	if s := h.w.status.Text; !strings.Contains(s, "No history yet") {
		t.Fatalf("status %q", s)
	}
	if _, err := os.Stat(h.w.opts.DBPath); !os.IsNotExist(err) {
		t.Fatal("the window created a database")
	}
}

func TestNoHistoryKeptIsSaid(t *testing.T) {
	h := open(t, "")
	h.wait(t, "list")
	if s := h.w.status.Text; !strings.Contains(s, "FEEDBACK_DB is off") {
		t.Fatalf("status %q", s)
	}
}

func TestOnClosedAndTheDatabaseReleased(t *testing.T) {
	a := test.NewTempApp(t)
	closed := make(chan bool, 1)
	w := New(a, Options{DBPath: fill(t), OnClosed: func() { closed <- true }})
	w.Fyne().Show()
	w.Fyne().Close()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("OnClosed not called")
	}
	if err := w.withDB(func(*store.Store) error { return nil }); err == nil {
		t.Fatal("the database is still usable after the window closed")
	}
}

func TestAge(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Second: "just now", 3 * time.Minute: "3 min", 5 * time.Hour: "5 h", 47 * time.Hour: "47 h", 72 * time.Hour: "3 d",
	} {
		if got := Age(d); got != want {
			t.Errorf("Age(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestWithinBytes(t *testing.T) {
	e := func(n int) store.Entry {
		return store.Entry{Question: wire.Question{Prompts: []wire.Prompt{{Markdown: strings.Repeat("x", n)}}},
			Answer: &wire.Answer{Replies: []wire.Reply{{Text: "yy"}}}}
	}
	entries := []store.Entry{e(8), e(8), e(8)}
	for max, want := range map[int]int{100: 3, 20: 2, 10: 1, 5: 1} {
		if got := withinBytes(entries, max); got != want {
			t.Errorf("withinBytes(3 × 10 bytes, %d) = %d, want %d", max, got, want)
		}
	}
}
