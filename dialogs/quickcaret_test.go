package dialogs

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/ipc/wire"
)

// After a quick-reply chip is added to what the user typed (or the Quick
// reply menu inserts one, TestTypingFollowsTheQuickReplyMenu), what the
// user types next follows it — at the end of the reply box, whatever the
// box held and however the reply wraps — never on its first line, where a
// caret placed by counting the reply's lines as unwrapped would land.
func TestTypingFollowsAQuickReply(t *testing.T) {
	long := "Explain the trade-offs first, with the costs of each option, what you would measure, and what you would do if the numbers disagree with your guess"
	for _, tc := range []struct {
		name, typed, reply string
	}{
		{"after typed lines", "first line\nsecond line", replies[2]},
		{"a wrapping reply after text", "not yet:", long},
		{"a wrapping reply after wrapping text", long, long},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			w := NewWindow(a, question(wire.Prompt{Markdown: "Go on?"}), Options{Now: (&clock{now: t0}).Now, QuickReplies: []string{replies[0], replies[2], long}, InputGuard: -1},
				func(wire.Answer) {})
			w.Fyne().Resize(fyne.NewSize(420, 360))
			w.Show()
			defer w.Close()
			v := w.view
			e := v.prompts[0].entry
			if tc.typed != "" {
				test.Type(e, tc.typed)
			}
			for i, r := range []string{replies[0], replies[2], long} {
				if r == tc.reply {
					test.Tap(v.quick.row.Objects[i].(*widget.Button))
				}
			}
			w.Fyne().Canvas().Focus(e)
			test.Type(e, " NEXT")
			if !strings.HasSuffix(e.Text, tc.reply+" NEXT") {
				t.Errorf("typed after the quick reply: box %q, want it to end with %q", e.Text, tc.reply+" NEXT")
			}
		})
	}
}

// The Quick reply menu's insertion into an empty box and after text: the
// caret ends after the reply there too.
func TestTypingFollowsTheQuickReplyMenu(t *testing.T) {
	long := strings.Repeat("a reply long enough to wrap in the box, ", 4) + "end"
	for _, typed := range []string{"", "first\nsecond"} {
		a := test.NewTempApp(t)
		q := question(wire.Prompt{Markdown: "Which?", Single: true, Options: []wire.Option{{Label: "A"}, {Label: "B"}}})
		w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now, QuickReplies: []string{long}, InputGuard: -1}, func(wire.Answer) {})
		w.Fyne().Resize(fyne.NewSize(420, 420))
		w.Show()
		e := w.view.prompts[0].entry
		if typed != "" {
			test.Type(e, typed)
		}
		w.view.InsertQuickReply(long)
		test.Type(e, " NEXT")
		if !strings.HasSuffix(e.Text, long+" NEXT") {
			t.Errorf("typed after the menu's reply (box held %q): %q", typed, e.Text)
		}
		w.Close()
	}
}
