package historywin

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"feedback/app/store"
	"feedback/dialogs"
	"feedback/ipc/wire"
)

// Issue 30: three asks of one question were three identical rows; each
// row now previews what was answered (Yes or No for a confirm), and the count says how many
// questions and how many messages; the detail gives times to the second.
func TestRowsPreviewTheAnswerAndTheCountSplitsMessages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, pick := range []string{"Merge", "Rebase", "Merge"} {
		at := t0.Add(time.Duration(i)*time.Minute + 7*time.Second)
		if err := s.SaveQuestion(q("q1", "claude-code", "", "", "How should I integrate main?"), at); err != nil {
			t.Fatal(err)
		}
		text := []string{"", "keep history linear", "fine"}[i]
		if err := s.SaveAnswer(wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{pick}, Text: text}}}, at.Add(time.Second), true); err != nil {
			t.Fatal(err)
		}
	}
	yn := wire.Question{ID: "push", Source: "ask_confirm", Client: "cursor", Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Force-push?"}}}
	if err := s.SaveQuestion(yn, t0.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAnswer(wire.Answer{QuestionID: "push", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "no"}}}, t0.Add(4*time.Minute), true); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMessage(wire.Message{ID: "m1", Client: "claude-code", Title: "PR opened", Text: "PR #12"}, t0.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	h := open(t, path)
	h.wait(t, "list")
	rows := h.rows()
	want := []string{"→ No · ", "→ Merge “fine”", "→ Rebase “keep history linear”", "→ Merge · "}
	for i, w := range want {
		if !strings.Contains(rows[i+1], w) {
			t.Errorf("row %d %q lacks the answer %q", i+1, rows[i+1], w)
		}
	}
	if got := h.w.status.Text; got != "4 questions, 1 message" {
		t.Errorf("count %q, want 4 questions, 1 message", got)
	}
	h.w.list.Select(4) // the first ask
	if got := texts(h.w.detail); !strings.Contains(got, "Asked 2026-03-01 09:00:07, ended 2026-03-01 09:00:08") {
		t.Errorf("the detail does not give the times to the second:\n%s", got)
	}
}

// Issue 30: Escape and Ctrl+W close History, whether the search box, the
// list or nothing has the keyboard.
func TestEscapeAndCtrlWClose(t *testing.T) {
	for _, tc := range []struct {
		name  string
		press func(h *harness)
	}{
		{"Escape in the search box", func(h *harness) {
			h.w.Fyne().Canvas().Focus(h.w.search)
			h.w.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		}},
		{"Ctrl+W in the search box", func(h *harness) {
			h.w.Fyne().Canvas().Focus(h.w.search)
			h.w.search.TypedShortcut(ctrlW)
		}},
		{"Escape in the list", func(h *harness) {
			h.w.Fyne().Canvas().Focus(h.w.list)
			h.w.list.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		}},
		{"Escape, nothing focused", func(h *harness) {
			h.w.Fyne().Canvas().Unfocus()
			h.w.Fyne().Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
		}},
		{"Ctrl+W, nothing focused", func(h *harness) {
			h.w.Fyne().Canvas().Unfocus()
			canvasShortcut(t, h.w.Fyne().Canvas(), ctrlW)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := open(t, fill(t))
			h.wait(t, "list")
			closed := false
			h.w.Fyne().SetOnClosed(func() { closed = true })
			tc.press(h)
			if !closed {
				t.Errorf("%s did not close History", tc.name)
			}
		})
	}
}

// Issue 30: a badge is a tint of its outcome's colour, not the theme's
// full-strength colour ("neon"): its fill is nearer the background.
func TestBadgesAreTints(t *testing.T) {
	chroma := func(r, g, b uint32) uint32 { return max(r, g, b) - min(r, g, b) }
	for _, v := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		th := dialogs.Theme()
		for tn, name := range map[tone]fyne.ThemeColorName{toneSuccess: theme.ColorNameSuccess, toneWarning: theme.ColorNameWarning, toneError: theme.ColorNameError} {
			fill, _ := badgeColors(tn, th, v)
			fr, fg, fb, _ := fill.RGBA()
			cr, cg, cb, _ := th.Color(name, v).RGBA()
			if chroma(fr, fg, fb) > chroma(cr, cg, cb)*7/10 {
				t.Errorf("variant %d, %s: the badge is the theme's colour at full strength", v, name)
			}
		}
	}
}

// canvasShortcut types s on canvas c with nothing focused, as the driver
// does: to the shortcuts the canvas holds (AddShortcut). Fyne 2.8's test
// canvas does not say TypedShortcut itself: the software canvas it wraps
// (its field WindowlessCanvas) does.
func canvasShortcut(t *testing.T, c fyne.Canvas, s fyne.Shortcut) {
	t.Helper()
	type shortcuts interface{ TypedShortcut(fyne.Shortcut) }
	if h, ok := c.(shortcuts); ok {
		h.TypedShortcut(s)
		return
	}
	v := reflect.ValueOf(c)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct {
		if f := v.FieldByName("WindowlessCanvas"); f.IsValid() && f.CanInterface() {
			if h, ok := f.Interface().(shortcuts); ok {
				h.TypedShortcut(s)
				return
			}
		}
	}
	t.Fatalf("%T takes no shortcut: teach canvasShortcut the test canvas of this Fyne", c)
}
