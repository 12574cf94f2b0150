package historywin

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/app/store"
	"feedback/app/windowreq"
	"feedback/cmd/feedback/historycmd"
	"feedback/dialogs"
	"feedback/internal/history/historytest"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

var t0 = historytest.T0

// The detail shows local times: the golden is drawn in UTC wherever it runs.
func init() { time.Local = time.UTC }

// q is historytest.Q with a description of Rebase and, in a loop, the
// project webapp (in its Context and its Project).
func q(id, client, loop, phase, text string) wire.Question {
	qq := historytest.Q(id, client, loop, phase, text)
	qq.Prompts[0].Options[1].Description = "linear history"
	if loop != "" {
		qq.Context = append(qq.Context, wire.Field{Label: "Project", Value: "webapp"})
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

// fill writes one question of each outcome through the store's own API
// (historytest.Outcomes, its questions by q); the answer carries two
// images.
func fill(t *testing.T) string {
	t.Helper()
	return historytest.Outcomes{Question: q, First: "How should I **integrate** main?", FirstAnswer: wire.Answer{
		Replies: []wire.Reply{{Selected: []string{"Rebase"}, Text: "keep history linear"}},
		Images:  []wire.Image{{MIME: "image/png", Data: pngBytes(t, color.RGBA{R: 200, A: 255})}, {MIME: "image/png", Data: pngBytes(t, color.RGBA{B: 200, A: 255})}}}}.Fill(t)
}

// appSource answers the window as the app does (package windowreq, over
// the database at path; "": the app keeps none), in the test's process:
// the UI process carries the same requests and answers over its channel.
func appSource(path string) *source {
	return &source{srv: &windowreq.Server{DB: path}}
}

// source is a Source that asks a windowreq.Server; pageMax, when set,
// makes its pages smaller than the window asks for; asked counts the pages
// asked for.
type source struct {
	srv     *windowreq.Server
	pageMax int
	asked   atomic.Int32
}

func (s *source) Page(search string, offset, limit int) (uiproto.HistoryPage, error) {
	s.asked.Add(1)
	if s.pageMax > 0 {
		limit = min(limit, s.pageMax)
	}
	resp := s.srv.Answer(uiproto.HistoryQuery{Req: 1, Search: search, Offset: offset, Limit: limit})
	return resp.(uiproto.HistoryPage), nil
}

func (s *source) Images(record string) (uiproto.HistoryImages, error) {
	return s.srv.Answer(uiproto.HistoryImagesQuery{Req: 2, Record: record}).(uiproto.HistoryImages), nil
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
	h.w = newWindow(a, Options{Source: appSource(path), Now: func() time.Time { return t0.Add(time.Hour) }},
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
	deadline := time.After(time.Minute) // bounds a hang; -race on a loaded machine takes its time
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
			t.Fatalf("%s not shown within a minute", what)
		}
	}
}

// rows lists the list's lines as RowText gives them, newest first.
func (h *harness) rows() []string {
	var out []string
	for i := range h.w.rows {
		out = append(out, h.w.RowText(i))
	}
	return out
}

// wantRows fails the test unless the list's lines (rows) are want, in order.
func (h *harness) wantRows(t *testing.T, want ...string) {
	t.Helper()
	if got := h.rows(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The list reads newest first, one line per ask: the outcome as a badge,
// the title, the age, and the client, project and loop.
func TestListNewestFirstWithOutcomeAgeClientProject(t *testing.T) {
	h := open(t, fill(t))
	h.wait(t, "list")
	h.wantRows(t,
		"[open] Still there? · 30 min · claude-code · webapp · loop L2 · build · iteration 2/5",
		"[withdrawn] Which name? · 40 min · cursor",
		"[timed out] Drop the old table? · 56 min · cursor · webapp · loop L1 · review · iteration 2/5",
		"[dismissed] Deploy to staging? · 58 min · claude-code · webapp · loop L1 · review · iteration 2/5",
		"[answered] How should I integrate main? · 1 h · → Rebase “keep history linear” · claude-code · webapp · loop L1 · plan · iteration 2/5",
	)
	if s := h.w.status.Text; s != "5 questions" {
		t.Fatalf("status %q", s)
	}
	// The template shows the same: badge, title, second line, age.
	o := h.w.newListRow()
	h.w.updateListRow(2, o)
	r := o.(*rowHolder).row
	if r.badge.Text() != "timed out" || r.title.Text != "Drop the old table?" || r.age.Text != "56 min" ||
		r.meta.Text != "cursor · webapp · loop L1 · review · iteration 2/5" {
		t.Fatalf("row 2 shows [%s] %q %q %q", r.badge.Text(), r.title.Text, r.meta.Text, r.age.Text)
	}
}

// A question asked again under its id is listed once per ask, each with
// its own answer.
func TestAskedAgainIsListedPerAsk(t *testing.T) {
	path := fill(t)
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveQuestion(q("q1", "claude-code", "L1", "plan", "How should I **integrate** main?"), t0.Add(40*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAnswer(wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"Merge"}}}}, t0.Add(41*time.Minute), true); err != nil {
		t.Fatal(err)
	}
	s.Close()
	h := open(t, path)
	h.wait(t, "list")
	var asks []int
	for i, r := range h.w.rows {
		if r.q.ID == "q1" {
			asks = append(asks, i)
		}
	}
	if len(asks) != 2 {
		t.Fatalf("q1 listed %d times, want 2: %q", len(asks), h.rows())
	}
	h.w.list.Select(asks[1]) // the first ask
	h.wait(t, "images")
	if got := texts(h.w.detail); !strings.Contains(got, "keep history linear") || strings.Join(chosen(h.w.detail), ",") != "Rebase — linear history" {
		t.Fatalf("the first ask's detail lost its answer (chosen %q):\n%s", chosen(h.w.detail), got)
	}
	h.w.list.Select(asks[0])
	if got := texts(h.w.detail); strings.Join(chosen(h.w.detail), ",") != "Merge" || strings.Contains(got, "keep history linear") {
		t.Fatalf("the second ask's detail (chosen %q):\n%s", chosen(h.w.detail), got)
	}
}

func TestSearchQuestionReplyClientProject(t *testing.T) {
	h := open(t, fill(t))
	h.wait(t, "list")
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"STAGING", []string{"Deploy to staging?"}},            // question text, any case
		{"history linear", []string{"How should I integrate"}}, // reply text
		{"cursor", []string{"Which name?", "Drop the old table?"}},
	} {
		h.w.search.SetText("")
		test.Type(h.w.search, tc.text)
		h.wait(t, "list")
		var titles []string
		for _, r := range h.w.rows {
			titles = append(titles, r.q.Title)
		}
		if len(titles) != len(tc.want) {
			t.Fatalf("search %q lists %q, want %q", tc.text, titles, tc.want)
		}
		for i := range titles {
			if !strings.HasPrefix(titles[i], tc.want[i]) {
				t.Fatalf("search %q lists %q, want %q", tc.text, titles, tc.want)
			}
		}
	}
	h.w.search.SetText("nowhere to be found")
	h.wait(t, "list")
	if len(h.w.rows) != 0 || !strings.Contains(h.w.status.Text, "Nothing matches") {
		t.Fatalf("no match: %d rows, status %q", len(h.w.rows), h.w.status.Text)
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

// chosen lists the options the detail marks as chosen (a check mark, bold); it fails
// the test's expectations when an unchosen option is greyed or bold.
func chosen(detail *fyne.Container) []string {
	var out []string
	for _, o := range detail.Objects {
		c, ok := o.(*fyne.Container)
		if !ok || len(c.Objects) != 2 {
			continue
		}
		text, tl := c.Objects[0].(*widget.Label)
		mark, ml := c.Objects[1].(*widget.Icon)
		if !tl || !ml {
			continue
		}
		switch {
		case mark.Resource != nil && text.TextStyle.Bold:
			out = append(out, text.Text)
		case text.TextStyle.Bold || text.Importance == widget.LowImportance:
			out = append(out, "greyed or bold: "+text.Text)
		}
	}
	return out
}

func TestOpenOneShowsQuestionChoicesReplyAndImages(t *testing.T) {
	h := open(t, fill(t))
	h.wait(t, "list")
	h.w.list.Select(4) // q1, the oldest
	h.wait(t, "images")
	got := texts(h.w.detail)
	for _, want := range []string{"How should I integrate main?", "claude-code · webapp", "Loop L1: Ship L1 · plan · iteration 2/5",
		"Merge", "Reply", "keep history linear", "2 attached images"} {
		if !strings.Contains(got, want) {
			t.Errorf("detail lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "any loop") {
		t.Errorf("the detail speaks of loops the question is not in:\n%s", got)
	}
	if n := images(h.w.detail); n != 2 {
		t.Fatalf("%d images shown, want 2", n)
	}
	// The chosen option is marked ✓ and bold, the other plain.
	if c := chosen(h.w.detail); strings.Join(c, ",") != "Rebase — linear history" {
		t.Errorf("chosen options %q, want only Rebase", c)
	}
	test.AssertImageMatches(t, "history.png", h.w.Fyne().Canvas().Capture())
}

// An ask_confirm submitted without choosing shows the recommended No the
// agent received, marked as such.
func TestConfirmShowsTheAnswerTaken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := wire.Question{ID: "c", Source: "ask_confirm", Client: "claude-code", Context: []wire.Field{{Label: "Recommended", Value: "No"}},
		Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Force-push?"}}}
	if err := s.SaveQuestion(c, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAnswer(wire.Answer{QuestionID: "c", Status: wire.StatusAnswered, Replies: []wire.Reply{{}}}, t0, true); err != nil {
		t.Fatal(err)
	}
	s.Close()
	h := open(t, path)
	h.wait(t, "list")
	h.w.list.Select(0)
	if got := texts(h.w.detail); !strings.Contains(got, "✓ No") || !strings.Contains(got, "recommended answer stood") {
		t.Fatalf("detail:\n%s", got)
	}
}

// Export writes what `feedback history` prints for the same questions.
func TestExportIsFeedbackHistoryOutput(t *testing.T) {
	path := fill(t)
	h := open(t, path)
	h.wait(t, "list")
	cli := func(args ...string) string {
		var out, errb bytes.Buffer
		code := historycmd.Run(args, historycmd.Env{Stdout: &out, Stderr: &errb, Now: time.Now,
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
	h.w.list.Select(2) // one question
	if md := render(FormatMarkdown); !strings.Contains(md, "### Drop the old table? — timed out") || strings.Contains(md, "staging") {
		t.Fatalf("export of one question:\n%s", md)
	}
	// What the file dialog's callback writes.
	out := filepath.Join(t.TempDir(), "loop.json")
	wc, err := storage.Writer(storage.NewFileURI(out))
	if err != nil {
		t.Fatal(err)
	}
	h.w.list.UnselectAll()
	h.w.write(h.w.Selection(), FormatJSON, wc)
	h.wait(t, "export")
	if data, _ := os.ReadFile(out); string(data) != cli("--json") {
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
	if rows := h.rows(); len(rows) < 1 || rows[0] != "[open] A new one? · 10 min · codex" {
		t.Fatalf("after Refresh: %q", rows)
	}
}

func TestNoDatabaseIsSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.db")
	h := open(t, path)
	h.wait(t, "list")
	if s := h.w.status.Text; !strings.Contains(s, "No history yet") {
		t.Fatalf("status %q", s)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("a database was created")
	}
}

func TestNoHistoryKeptIsSaid(t *testing.T) {
	h := open(t, "")
	h.wait(t, "list")
	if s := h.w.status.Text; !strings.Contains(s, "FEEDBACK_DB is off") {
		t.Fatalf("status %q", s)
	}
}

// Once closed, the window asks the app for nothing more.
func TestOnClosedAndNothingMoreAsked(t *testing.T) {
	a := test.NewTempApp(t)
	closed := make(chan bool, 1)
	src := appSource(fill(t))
	// Its list is never drawn (the window's Fyne-goroutine work is
	// dropped): drawn on the test driver's goroutine after the test, it
	// measured text while the next test did (a race on the font caches).
	w := newWindow(a, Options{Source: src, OnClosed: func() { closed <- true }}, func(func()) {}, nil)
	w.Fyne().Show()
	w.Fyne().Close()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("OnClosed not called")
	}
	before := src.asked.Load()
	if entries, _, _ := w.fetch(""); len(entries) != 0 || src.asked.Load() != before {
		t.Fatalf("after the window closed: %d entries, %d more pages asked", len(entries), src.asked.Load()-before)
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

// The list is put together from as many pages as the app gives, each ask
// once, newest first, and stops at MaxListed with the status saying so.
func TestListIsPagedUpToMaxListed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range MaxListed + 3 {
		if err := s.SaveQuestion(q(fmt.Sprintf("q%03d", i), "codex", "", "", fmt.Sprintf("Question %d?", i)), t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	src := appSource(path)
	src.pageMax = 7 // smaller pages than the window asks for: it keeps asking
	a := test.NewTempApp(t)
	h := &harness{queue: make(chan func(), 64)}
	h.w = newWindow(a, Options{Source: src, Now: func() time.Time { return t0.Add(time.Hour) }},
		func(f func()) { h.queue <- f }, func(what string) { h.shown = append(h.shown, what) })
	h.wait(t, "list")
	if n := len(h.w.rows); n != MaxListed {
		t.Fatalf("%d rows, want %d", n, MaxListed)
	}
	seen := map[string]bool{}
	for i, r := range h.w.rows {
		if want := fmt.Sprintf("q%03d", MaxListed+2-i); r.q.ID != want || seen[r.q.ID] {
			t.Fatalf("row %d is %s (seen before: %v), want %s", i, r.q.ID, seen[r.q.ID], want)
		}
		seen[r.q.ID] = true
	}
	if want := (MaxListed + 6) / 7; int(src.asked.Load()) != want {
		t.Errorf("%d pages asked, want %d", src.asked.Load(), want)
	}
	if st := h.w.status.Text; !strings.Contains(st, fmt.Sprint(MaxListed)) || !strings.Contains(st, "search to find older ones") {
		t.Errorf("status %q", st)
	}
}

// Past MaxListedBytes of text the older asks are left out (at least one
// is listed, however long).
func TestListStopsAtMaxListedBytes(t *testing.T) {
	entry := func(id string, n int) uiproto.HistoryEntry {
		return uiproto.HistoryEntry{Record: id, State: "open", AskedAt: t0,
			Question: wire.Question{ID: id, Prompts: []wire.Prompt{{Markdown: strings.Repeat("x", n)}}}}
	}
	for _, tc := range []struct {
		name  string
		sizes []int
		want  int
		full  bool
	}{
		{"within", []int{10, 10}, 2, false},
		{"the third is over", []int{MaxListedBytes / 2, MaxListedBytes / 2, 1}, 2, true},
		{"the first alone is over", []int{MaxListedBytes + 1, 1}, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var page uiproto.HistoryPage
			for i, n := range tc.sizes {
				page.Entries = append(page.Entries, entry(fmt.Sprint("q", i), n))
			}
			w := &Window{opts: Options{Source: fixedPage(page)}}
			got, full, err := w.fetch("")
			if err != nil || len(got) != tc.want || full != tc.full {
				t.Errorf("fetch = %d entries, full %v, %v; want %d, %v", len(got), full, err, tc.want, tc.full)
			}
		})
	}
}

// fixedPage is a Source whose first page is all there is.
type fixedPage uiproto.HistoryPage

func (p fixedPage) Page(_ string, offset, _ int) (uiproto.HistoryPage, error) {
	if offset > 0 {
		return uiproto.HistoryPage{}, nil
	}
	return uiproto.HistoryPage(p), nil
}

func (fixedPage) Images(string) (uiproto.HistoryImages, error) { return uiproto.HistoryImages{}, nil }

// A badge's text has at least 4.5:1 contrast on its fill in both themes.
func TestBadgeTextContrast(t *testing.T) {
	lum := func(c color.Color) float64 {
		r, g, b, _ := c.RGBA()
		lin := func(v uint32) float64 {
			x := float64(v) / 0xffff
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
	}
	for _, variant := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		for _, tn := range []tone{toneNeutral, toneSuccess, toneWarning, tonePrimary, toneError} {
			fill, text := badgeColors(tn, dialogs.Theme(), variant) // the app's theme
			l1, l2 := lum(fill), lum(text)
			if l1 < l2 {
				l1, l2 = l2, l1
			}
			if ratio := (l1 + 0.05) / (l2 + 0.05); ratio < 4.5 {
				t.Errorf("variant %d, tone %d: contrast %.2f:1", variant, tn, ratio)
			}
		}
	}
}

// An agent's message and a question answered for the away user are listed
// with their own badges; the message opens as its text.
func TestMessagesAndAwayAreListed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := wire.Message{ID: "m1", Client: "claude-code", Project: "webapp", Title: "PR opened", Text: "Tests green; PR #12 opened for review."}
	if err := s.SaveMessage(m, t0.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveQuestion(q("a1", "codex", "", "", "Drop the old table?"), t0.Add(20*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAnswer(wire.Answer{QuestionID: "a1", Status: wire.StatusAway}, t0.Add(20*time.Minute), true); err != nil {
		t.Fatal(err)
	}
	s.Close()
	h := open(t, path)
	h.wait(t, "list")
	rows := strings.Join(h.rows(), "\n")
	for _, want := range []string{"away", "Drop the old table?", "message", "PR opened"} {
		if !strings.Contains(rows, want) {
			t.Errorf("rows lack %q:\n%s", want, rows)
		}
	}
	h.w.list.Select(1) // the message, the older
	if got := texts(h.w.detail); !strings.Contains(got, "Tests green; PR #12 opened for review.") || !strings.Contains(got, "Sent 2026-03-01 09:10") {
		t.Errorf("detail:\n%s", got)
	}
	test.AssertImageMatches(t, "history-message.png", h.w.Fyne().Canvas().Capture())
}
