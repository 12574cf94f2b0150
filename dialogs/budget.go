package dialogs

import (
	"image"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// The window's height budget. The message comes first: it is what the
// user must read to answer.
//
//   - An empty reply box is replyMinRows rows high and grows as the user
//     types, up to replyMaxRows rows (then it scrolls): it does not take
//     the message's room before there is anything in it.
//   - When the content changes after the window was sized (an image
//     attached or removed, an image of the Markdown loaded, "Show all",
//     the reply box growing), the window grows to what the content needs,
//     within the screen's work area (fitSize), and moves up if its bottom
//     would leave the work area. It never shrinks under the user.
//   - Where the window cannot grow, the options pane yields to the
//     message down to messageFloorLines lines (splitLayout).

const (
	replyMinRows = 2
	replyMaxRows = 6
	// messageFloorLines is the least height of the message, in lines of
	// text, that the options take nothing from (splitLayout).
	messageFloorLines = 6
	// messageWholeLines and messageWholeShare bound the message the
	// options yield to until it is whole: up to the larger of so many
	// lines' height (with the gaps between paragraphs, about a dozen
	// lines of text) and so much of the panes' height (splitLayout).
	messageWholeLines = 15
	messageWholeShare = 0.5
	// replyMeasureBytes bounds the text whose rows are measured; a longer
	// reply has replyMaxRows rows (measuring is shaping: see reply_wrap.go).
	replyMeasureBytes = 4096
)

// lineHeight is the height of a line of the message's text.
func lineHeight() float32 { return theme.TextSize() * 1.4 }

// fitReplyRows sets the reply box's height to the rows its text takes,
// between replyMinRows and replyMaxRows, and re-fits the window when it
// changed.
func (v *View) fitReplyRows(e *replyEntry) {
	rows := replyRows(e)
	if rows == e.rows {
		return
	}
	e.rows = rows
	e.SetMinRowsVisible(rows)
	v.contentChanged()
}

// replyRows is the number of rows e's text takes at e's width, between
// replyMinRows and replyMaxRows.
func replyRows(e *replyEntry) int {
	text := e.Text
	if text == "" {
		return replyMinRows
	}
	if len(text) > replyMeasureBytes {
		return replyMaxRows
	}
	avail := e.Size().Width - 2*theme.InnerPadding()
	rows := 0
	for _, line := range strings.Split(text, "\n") {
		n := 1
		if avail > 0 && e.Wrapping != fyne.TextWrapOff && line != "" {
			w := fyne.MeasureText(line, theme.TextSize(), e.TextStyle).Width
			n = max(1, int(w/avail)+1)
		}
		rows += n
		if rows >= replyMaxRows {
			return replyMaxRows
		}
	}
	return max(rows, replyMinRows)
}

// contentChanged re-fits the window to content that changed after it was
// sized (see the top of this file). Nothing happens outside a Window.
func (v *View) contentChanged() {
	v.countImages()      // an image came or went: the Sending line counts them (sending.go)
	v.contentBelowGrew() // layout.go: what the window cannot grow for, the options give up
	if v.hooks.refit != nil && !v.done {
		v.hooks.refit()
	}
}

// refit grows the window to the height its content needs, within the
// work area, at its current width; it never shrinks it. The window moves
// up when its bottom would leave the work area.
func (w *Window) refit() {
	if w.closed {
		return
	}
	cur := w.size()
	if cur.Width <= 0 || cur.Height <= 0 {
		return // not sized yet: NewWindow sizes it
	}
	if inner := w.win.Canvas().Size().Width - 2*windowPad(); math.Abs(float64(w.view.content.Size().Width-inner)) > 0.5 {
		// The content is being laid out at another width than the
		// window's (Fyne's SetContent lays it out at its minimum size
		// first): measuring now would resize parts of it in the middle of
		// that layout. The layout at the window's size comes next, and
		// refits then.
		return
	}
	limit := maxWindowSize(w.pool.app)
	want := w.view.heightAt(cur.Width, limit)
	w.view.relayout() // measuring laid the panes out at their natural heights
	if want <= cur.Height+0.5 {
		return
	}
	w.resize(fyne.NewSize(cur.Width, want))
	w.keepOnScreen((want - cur.Height) * w.win.Canvas().Scale())
}

// keepOnScreen moves the window up when, grown by grow screen pixels, its
// frame would cross the bottom of the work area less ScreenMargin.
func (w *Window) keepOnScreen(grow float32) {
	area, ok := monitorArea(w.pool.app)
	if !ok {
		return
	}
	fr, ok := desk.frame(w.win)
	if !ok {
		return
	}
	// A pixel more: the toolkit rounds each size up to whole pixels, so
	// the grow may come out a pixel larger; the top's margin bounds it.
	bottom := fr.Max.Y + int(grow+0.5) + 1
	if over := bottom - (area.Max.Y - ScreenMargin); over > 0 {
		at := image.Pt(fr.Min.X, max(area.Min.Y+ScreenMargin, fr.Min.Y-over))
		desk.move(w.win, at)
		w.slot.placed = image.Rectangle{Min: at, Max: at.Add(image.Pt(fr.Dx(), fr.Dy()+int(grow+0.5)))}
	}
}

// relayout lays the panes out again at their own sizes.
func (v *View) relayout() {
	for _, p := range v.panes.all {
		p.Refresh()
	}
}
