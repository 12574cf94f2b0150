package dialogs

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// nineLineQuestion is interactive_feedback's kind of question: a message
// of nine lines at 1280x800 and scale 1.5 (three paragraphs) whose last
// is the ask, five options, one recommended,
// each with a description.
func nineLineQuestion() wire.Question {
	msg := []string{
		"I finished the refactor of the session store.",
		"The old in-memory cache is gone; every read goes to SQLite directly, with prepared statements.",
		"All 214 unit tests pass, and the 12 integration tests too.",
		"The migration adds an index on sessions(user_id) and drops the unused column last_seen_ip, which nothing has read since the move to the new audit log in March.",
		"On the staging copy, with a dump of last week's production data, it took 40 seconds.",
		"Startup is 80 ms slower while the index warms up.",
		"Nothing else in the public API changed; the two internal callers of the old cache now read through the store, and their tests were updated to match.",
		"The changelog entry is written.",
		"Should I go ahead?",
	}
	text := strings.Join(msg[:4], " ") + "\n\n" + strings.Join(msg[4:8], " ") + "\n\n" + msg[8]
	return question(wire.Prompt{Markdown: text,
		Options: []wire.Option{
			{Label: "Go ahead", Description: "Merge and deploy to staging", Default: true},
			{Label: "Run the benchmarks first", Description: "About ten minutes"},
			{Label: "Keep the cache for a release", Description: "Behind a flag"},
			{Label: "Split the migration", Description: "Index in its own change"},
			{Label: "Stop here", Description: "Leave the branch as it is"},
		}})
}

// The message comes first: a message that fits beside a usable options
// pane is shown whole, and the options scroll in theirs. Options that take
// up to choicesShare of the height cut a nine-line message mid-line at
// open at 1280x800 and scale 1.5, its last line — the ask — under the
// fold.
func TestTheAskIsInViewAtOpen(t *testing.T) {
	a := test.NewTempApp(t)
	limit := fyne.NewSize((1280-2*ScreenMargin)/1.5, (800-2*ScreenMargin)/1.5)
	w := openAt(t, a, nineLineQuestion(), limit)
	v := w.View()
	relayout(w.Fyne().Content())
	msg, msgNeed := v.panes.scroll.Size().Height, v.panes.scroll.Content.MinSize().Height
	opts, optsNeed := v.panes.choices.Size().Height, v.panes.choices.Content.MinSize().Height
	t.Logf("window %v; message pane %v of %v; options %v of %v", w.Fyne().Canvas().Size(), msg, msgNeed, opts, optsNeed)
	if msg+0.5 < msgNeed {
		t.Errorf("the message pane is %v high, the message needs %v: its last line, the ask, is out of view", msg, msgNeed)
	}
	if floor := optionsFloorLines * lineHeight(); opts+0.5 < min(floor, optsNeed) {
		t.Errorf("the options pane is %v high, below its floor %v", opts, floor)
	}
}

// Every option of the first prompt, "Other" (its free-text option, last)
// included, is in view at open, up to seven (six and "Other"): its message
// yields down to its floor (firstPromptFloorLines) first. That is what
// keeps "Other" above the fold for ask_user_question with several long
// prompts at 1280x1024 and scale 1.5. (At 1280x800 the page
// is too short for that beside a line of the message: there the first
// option is what is promised, TestSeveralLongPromptsKeepTheirOptionsInView.)
func TestFirstPromptsOtherInViewAtOpen(t *testing.T) {
	for _, tc := range []struct {
		screen  fyne.Size
		options int
	}{{fyne.NewSize(1280, 1024), 3}, {fyne.NewSize(1280, 1024), 6}} {
		options := tc.options
		t.Run(fmt.Sprintf("%vx%v %d options", tc.screen.Width, tc.screen.Height, options), func(t *testing.T) {
			a := test.NewTempApp(t)
			a.Settings().SetTheme(Theme())
			q := fourLongPrompts()
			q.Context = []wire.Field{{Label: "From", Value: "Claude Code"}}
			for i := range q.Prompts {
				q.Prompts[i].Options = append(q.Prompts[i].Options[:options], wire.Option{Label: "Other", FreeText: true})
			}
			w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
			v := w.View()
			limit := fyne.NewSize((tc.screen.Width-2*ScreenMargin)/1.5, (tc.screen.Height-2*ScreenMargin)/1.5)
			w.Fyne().Resize(v.fitSize(limit))
			w.Show()
			defer w.Close()
			d := a.Driver()
			page, pageH := d.AbsolutePositionForObject(v.panes.scroll).Y, v.panes.scroll.Size().Height
			pane := findAll[*promptPane](v.panes.body)[0]
			t.Logf("window %v; page %v; first message pane %v (cap %v, floor %v)", w.Fyne().Canvas().Size(), pageH, pane.Size().Height, pane.limit(), promptFloorLines*lineHeight())
			for _, row := range v.prompts[0].rows {
				l := findAll[*tapLabel](row)[0]
				top := d.AbsolutePositionForObject(l).Y
				if l.Size().Height == 0 || top < page-0.5 || top+l.Size().Height > page+pageH+0.5 {
					t.Errorf("option %q at y %v..%v, out of the page's view %v..%v", l.Text, top, top+l.Size().Height, page, page+pageH)
				}
			}
		})
	}
}
