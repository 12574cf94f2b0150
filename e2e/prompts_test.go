package e2e

import (
	"fmt"
	"image"
	"reflect"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// fourLongPrompts is ask_user_question at its largest: four questions,
// each a long message and six options; the third takes text too.
func fourLongPrompts(title string) wire.Question {
	var md strings.Builder
	md.WriteString("## Trade-offs\n\n")
	for i := range 30 {
		fmt.Fprintf(&md, "Paragraph %d of a long message from the agent, far taller than any window.\n\n", i)
	}
	q := wire.Question{ID: title + "-" + wire.NewID()[:8], Title: title}
	for n := range 4 {
		p := wire.Prompt{Header: fmt.Sprintf("Q%d", n+1), Markdown: md.String(), Kind: wire.KindChoice, Single: n%2 == 0}
		if n == 2 {
			p.Kind, p.Single = wire.KindText, false
		}
		for j := range 6 {
			o := wire.Option{Label: fmt.Sprintf("Option %d.%d", n+1, j+1)}
			if j%2 == 0 {
				o.Description = "what choosing it means"
			}
			p.Options = append(p.Options, o)
		}
		q.Prompts = append(q.Prompts, p)
	}
	return q
}

// Four long questions in one window, at scale 1 and 1.5: the window fits
// the screen's work area; the keyboard is in the third question's reply
// box (the first that takes text) while the first question stays in view,
// and typing brings the box into view; Alt+1 picks the first option;
// Ctrl+Enter goes to the questions never seen before it sends.
// Screenshots: several-prompts-scale*-open (the first question's options
// under its cut message) and -typed. The positions of the options are
// asserted by dialogs' TestSeveralLongPromptsKeepTheirOptionsInView at the
// same sizes; run this on a 1024x768 screen too:
// XSESSION_SCREEN=1024x768 scripts/xsession.sh.
func TestSeveralLongPrompts(t *testing.T) {
	requireSession(t)
	sw, sh := screenSize(t)
	for _, scale := range []string{"1", "1.5"} {
		t.Run("scale"+scale, func(t *testing.T) {
			startApp(t, "FYNE_SCALE="+scale)
			q := fourLongPrompts("Four" + strings.ReplaceAll(scale, ".", ""))
			ch, _ := askApp(t, q)
			win := findWindow(t, q.Title+" — feedback")
			// Where the window meets the work area's height it is refit once
			// its frame is known (Fyne 2.8 at scale 1.5 also narrows it then:
			// see the closing note); captured once it holds still.
			x, y, w, h := stillGeometry(t, win)
			waitPainted(t, win, w, h)
			screenshot(t, "several-prompts-scale"+scale+"-open")
			if x < 0 || y < 0 || x+w > sw || y+h > sh || w > sw-2*48 || h > sh-2*48 {
				t.Errorf("window at %d,%d size %dx%d leaves the %dx%d screen's work area", x, y, w, h, sw, sh)
			}
			activate(t, win)
			s := openScreen(t)
			r := image.Rect(0, 0, w, h)
			before := s.pixels(t, win, r)
			typeText(t, "a note")
			s.waitRedrawn(t, win, r, before) // the reply box scrolled into view
			screenshot(t, "several-prompts-scale"+scale+"-typed")
			// Questions 2 and 4 have no answer and were never seen:
			// Ctrl+Enter goes to each in turn, then sends.
			key(t, "alt+1")
			for _, unseen := range []string{"2", "4"} {
				key(t, "ctrl+Return")
				select {
				case a := <-ch:
					t.Fatalf("sent with question %s never seen: %+v", unseen, a.a)
				case <-time.After(time.Second):
				}
			}
			key(t, "ctrl+Return")
			a := awaitAsk(t, ch)
			if a.err != nil || a.a.Status != wire.StatusAnswered || len(a.a.Replies) != 4 {
				t.Fatalf("answer = %+v, %v", a.a, a.err)
			}
			if got := a.a.Replies[0].Selected; !reflect.DeepEqual(got, []string{"Option 1.1"}) {
				t.Errorf("first question: selected %v, want [Option 1.1]", got)
			}
			if got := a.a.Replies[2].Text; got != "a note" {
				t.Errorf("third question's reply = %q, want the typed note", got)
			}
		})
	}
}
