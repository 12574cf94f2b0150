package dialogs

import (
	"image"
	"math"
	"os"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
)

// The window's size follows its content: as wide as WindowSize (narrower
// on a small screen), and as tall as the question needs, from
// MinWindowHeight up to the screen's work area less ScreenMargin on every
// side; beyond that the question scrolls.

// MinWindowHeight is the least height a question window opens with.
const MinWindowHeight = 200

// ScreenMargin is the gap, in screen pixels, kept between a window and
// each edge of the screen's work area.
const ScreenMargin = 48

// workArea returns the size, in screen pixels, of the work area of the
// screen (its size less panels and docks) and the scale Fyne detects for
// the screen's density (1 on an ordinary screen), and false when it is not
// known (the test driver). It runs on the Fyne goroutine. native.go sets
// it (internal/native's screen.go).
var workArea = func(fyne.App) (w, h int, detected float32, ok bool) { return 0, 0, 1, false }

// frameDecor is what the window manager's frame (its title bar and
// borders) adds to a window, in screen pixels, as last seen on one of the
// pool's windows; ok is false while none was seen, or where the desk
// cannot tell. native_x11.go sets it.
var frameDecor = func() (image.Point, bool) { return image.Point{}, false }

// frameGuess stands in for frameDecor while it is unknown: a title bar of
// about CascadeStep and a few pixels of border: more than openbox's here
// (2 px wide, 25 high), about Windows' and GNOME's.
var frameGuess = image.Pt(16, CascadeStep+16)

// maxWindowSize is the largest window, in Fyne units at scale, whose
// frame (the window manager's decorations counted: frameDecor, else
// frameGuess) fits the work area with the margin; WindowSize when the
// work area is unknown. (With the title bar uncounted, the tallest
// window's frame is 25 px taller than the margins allow at 1280x800:
// 12 px into the bottom margin and 13 into the top one.)
func maxWindowSize(a fyne.App) fyne.Size {
	w, h, detected, ok := workArea(a)
	if !ok || w <= 0 || h <= 0 {
		return WindowSize
	}
	decor, known := frameDecor()
	if !known {
		decor = frameGuess
	}
	scale := windowScale(a, detected)
	return fyne.NewSize(float32(w-2*ScreenMargin-decor.X)/scale, float32(h-2*ScreenMargin-decor.Y)/scale)
}

// windowScale is the scale Fyne's desktop driver gives a window: the
// user's (FYNE_SCALE, else the settings) times the screen's detected one,
// rounded to a tenth, as fyne's internal/driver/glfw/scale.go computes it.
func windowScale(a fyne.App, detected float32) float32 {
	user := float32(1)
	if env := os.Getenv("FYNE_SCALE"); env != "" && env != "auto" {
		if f, err := strconv.ParseFloat(env, 32); err == nil && f > 0 {
			user = float32(f)
		}
	} else if env != "auto" && a != nil && a.Settings().Scale() > 0 {
		user = a.Settings().Scale()
	}
	if detected <= 0 {
		detected = 1
	}
	scale := float32(math.Round(float64(user*detected*10)) / 10)
	if scale <= 0 {
		return 1
	}
	return scale
}

// topToBottom lays out top, center and bottom as container.NewBorder does,
// with its objects in that order: Tab moves through a window's controls in
// the order of its objects, so it goes down the window as drawn. Border's
// own order puts the center first, so that the options, drawn above the
// reply box, came after Submit.
func topToBottom(top, center, bottom fyne.CanvasObject) *fyne.Container {
	return container.New(layout.NewBorderLayout(top, bottom, nil, nil), top, center, bottom)
}

// fitSize is the size a window with v's content opens with when it may be
// at most limit: WindowSize's width (less when limit is narrower) and the
// height the content needs at that width, between MinWindowHeight and
// limit. It never goes below the content's minimum size, which the
// widgets keep small (long labels wrap).
func (v *View) fitSize(limit fyne.Size) fyne.Size {
	width := min(WindowSize.Width, limit.Width)
	width = max(width, v.content.MinSize().Width+2*windowPad()) // the window is never narrower
	return fyne.NewSize(width, v.heightAt(width, limit))
}

// heightAt is the height a window with v's content needs at width, between
// MinWindowHeight and limit's height (never below the content's minimum).
// Everything is measured at the width the content gets in a window that
// wide, the window's padding off (windowPad): measured at the window's
// width, a line that wraps in the window does not wrap there, and the
// window opens a line short, its options scrolling.
func (v *View) heightAt(width float32, limit fyne.Size) float32 {
	pad := 2 * windowPad()
	inner := width - pad
	v.sendingAt(inner) // sending.go: the line's place at this width counts in the height
	minSize := v.content.MinSize()
	// The height the scrolled panes want: wrapped text reports its
	// height once it has been laid out at a width. Several prompts' messages
	// are capped by the page's height in the tallest window allowed.
	need := minSize.Height - v.panes.center.MinSize().Height
	v.panes.viewHint = limit.Height - need
	defer func() { v.panes.viewHint = 0 }()
	for _, p := range v.panes.all {
		need += naturalHeight(p, inner)
	}
	need += pad // the window's padding above and below its content
	height := min(max(need, MinWindowHeight), limit.Height)
	return max(height, minSize.Height+pad)
}

// windowPad is the padding a window keeps around its content on each
// side: Fyne pads a window's content by theme.Padding() (Window.SetPadded,
// on by default; the question windows keep it). A window width wide lays
// its content out width-2*windowPad() wide.
func windowPad() float32 { return theme.Padding() }

// naturalHeight is the height p's content takes at width: the height p
// needs to show it all.
func naturalHeight(p *container.Scroll, width float32) float32 {
	c := p.Content
	c.Resize(fyne.NewSize(width, c.MinSize().Height))
	c.Resize(fyne.NewSize(width, c.MinSize().Height)) // again: rows wrap after the first pass
	return c.MinSize().Height
}

// choicesShare is the part of the height the options pane takes at most
// when the message and the options do not both fit; less when the message
// is short, more when the options need less.
const choicesShare = 0.6

// splitLayout stacks the message pane (objects[0]) over the options pane
// (objects[1]), both scrolls. When both fit, the message gets what it
// needs and the options, right under it, the rest; otherwise the options
// get what they need up to choicesShare of the height (or all that the
// message leaves), so they are in view however long the message is, and
// each pane scrolls. The message comes first: the options never leave it
// less than messageFloorLines lines (or all of it, if shorter), unless the
// options' own minimum needs the room; and a message no taller than
// messageWholeLines lines or messageWholeShare of the height is shown
// whole, as far as the options can yield: down to optionsFloorLines lines
// (or their minimum), scrolling in their pane. The message's last line is
// usually the ask. A longer message scrolls anyway: the options get their
// share, as above, and are in view. (Without the rule for a short message,
// at 1280x800 and scale 1.5 a nine-line message is cut mid-line, its ask
// under the fold.)
//
// With messageFirst (an approval, whose call must be seen before it can
// be allowed) the message gets what it needs first, and the options what
// it leaves, but never less than approvalOptionsShare of the height (or
// all they need, if less): they scroll in their pane.
//
// When the panes get less height than in the last layout because the
// content below them grew (a warning line, an attachment, and the window
// could not grow: contentBelowGrew), the options yield first: the message pane keeps its height, and
// with it the lines in view, the last of which is usually the ask, while
// the options pane, which scrolls, gives the height up, down to
// optionsFloorLines lines (or all it needs, if less); unless the options
// now need more than they did.
type splitLayout struct {
	laidOut      func() // after each layout, if set: the View's laidOut
	messageFirst bool
	last         *splitMemory // the last layout; nil: none kept
}

// splitMemory is a splitLayout's last layout: its size, the message
// pane's height, and the height the options needed (when they need more,
// an option's text field shown, they take it as before); grew is set by
// contentBelowGrew and holds until the panes get more room or the window
// is resized.
type splitMemory struct {
	width, height, msg, optNeed float32
	grew                        bool
}

// contentBelowGrew tells the split that the content under the panes grew
// (a warning line, the Sending row, attachments): until the panes get more
// room, the options yield before the message.
func (v *View) contentBelowGrew() {
	if v.panes.split != nil {
		v.panes.split.grew = true
	}
}

// optionsFloorLines is the least height, in lines of text, the options
// pane yields to when the panes shrink.
const optionsFloorLines = 2

// approvalOptionsShare is the least share of the height an approval's
// options get (splitLayout.messageFirst).
const approvalOptionsShare = 0.3

func (l splitLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	msg, opts := objects[0].(*container.Scroll), objects[1].(*container.Scroll)
	msgNeed, optNeed := naturalHeight(msg, size.Width), naturalHeight(opts, size.Width)
	optH := min(optNeed, max(size.Height*choicesShare, size.Height-msgNeed))
	floor := min(msgNeed, messageFloorLines*lineHeight())
	optH = min(optH, max(size.Height-floor, 0))
	// A message that can be shown whole, up to messageWholeLines lines or
	// messageWholeShare of the height, is: the options yield down to
	// their floor and scroll.
	optFloor := min(optNeed, max(optionsFloorLines*lineHeight(), opts.MinSize().Height))
	if msgNeed <= max(size.Height*messageWholeShare, messageWholeLines*lineHeight()) {
		optH = min(optH, max(size.Height-msgNeed, optFloor))
	}
	if l.messageFirst {
		optH = max(min(optNeed, size.Height-msgNeed), min(optNeed, size.Height*approvalOptionsShare))
	}
	optH = max(optH, min(opts.MinSize().Height, size.Height))
	if msgNeed+optH < size.Height { // room to spare: the options follow the message
		optH = size.Height - msgNeed
	}
	if m := l.last; m != nil && m.grew && size.Height <= m.height+0.5 && optNeed <= m.optNeed+0.5 && m.msg > size.Height-optH { // the content below grew: the options yield first
		floor := min(optNeed, max(optionsFloorLines*lineHeight(), opts.MinSize().Height))
		keep := min(m.msg, msgNeed, size.Height-floor)
		optH = min(optH, max(size.Height-keep, 0))
	}
	if m := l.last; m != nil {
		if size.Height > m.height+0.5 || size.Width != m.width {
			m.grew = false // the window grew or was resized: the split is its own again
		}
		m.width, m.height, m.msg, m.optNeed = size.Width, size.Height, size.Height-optH, optNeed
	}
	msg.Move(fyne.NewPos(0, 0))
	msg.Resize(fyne.NewSize(size.Width, size.Height-optH))
	opts.Move(fyne.NewPos(0, size.Height-optH))
	opts.Resize(fyne.NewSize(size.Width, optH))
	if l.laidOut != nil {
		l.laidOut()
	}
}

func (splitLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	a, b := objects[0].MinSize(), objects[1].MinSize()
	return fyne.NewSize(max(a.Width, b.Width), a.Height+b.Height)
}

// FitSize is the size the window opens with in app a: see fitSize.
func (v *View) FitSize(a fyne.App) fyne.Size { return v.fitSize(maxWindowSize(a)) }

// Several prompts share one scrolling page. Each prompt's message sits in
// a promptPane of its own, as tall as it needs up to a cap; a longer one
// is cut at the cap, with its own scrollbar and a "Show all" button (on
// the prompt's header line) that lets it grow to its whole height. The prompt's options and reply box
// follow right under it. The cap is what the page's viewport leaves beside
// the prompt's header and controls (and, for the first prompt, the context
// block): with a prompt's top at the top of the page, its options are in
// view. So the first prompt's options are in view when the window opens,
// and every other prompt's are one scroll away, however long the messages.
// A cap is never less than promptFloorLines lines of text, so a message
// always shows a few lines, on the smallest screen too; the first
// prompt's, whose options must be in view at open, firstPromptFloorLines.
// (At 1280x1024 and scale 1.5, with the first message at the floor of
// four lines, ask_user_question's first "Other", its last option, opens
// under the fold.) The mouse wheel always scrolls the page, never a
// pane: a pane under the pointer never takes the wheel from the page.

// promptFloorLines is the least a capped message shows, in lines of text.
const promptFloorLines = 4

// firstPromptFloorLines is the least the first prompt's capped message
// shows: it yields more, so that the first prompt's options, up to seven
// (six and ask_user_question's "Other"; some with descriptions), are in
// view at open on a 1280x1024 screen at scale 1.5.
const firstPromptFloorLines = 2

// promptPane is one prompt's message in a window of several prompts.
type promptPane struct {
	container.Scroll
	limit    func() float32 // the most height the pane takes, unless expanded
	page     func() *container.Scroll
	expanded bool       // "Show all": the whole message, in the page
	toggle   *keyButton // "Show all" / "Show less"; shown while the message is cut, or expanded
	changed  func()     // after a flip: the View's contentChanged
}

func newPromptPane(content fyne.CanvasObject, page func() *container.Scroll, keys keyHandler) *promptPane {
	p := &promptPane{limit: func() float32 { return WindowSize.Height / 2 }, page: page}
	p.Direction = container.ScrollVerticalOnly
	p.Content = content
	p.ExtendBaseWidget(p)
	p.toggle = newKeyButton(i18n.T("question.show_all"), theme.MoreVerticalIcon(), keys, p.flip)
	p.toggle.Importance = widget.LowImportance
	p.toggle.Hide()
	return p
}

// flip expands a cut message, or cuts an expanded one again.
func (p *promptPane) flip() {
	p.expanded = !p.expanded
	if p.expanded {
		p.toggle.SetText(i18n.T("question.show_less"))
		p.toggle.SetIcon(theme.MenuDropUpIcon())
	} else {
		p.toggle.SetText(i18n.T("question.show_all"))
		p.toggle.SetIcon(theme.MoreVerticalIcon())
		p.ScrollToTop()
	}
	if page := p.page(); page != nil {
		page.Refresh() // the page's height changed
	}
	if p.changed != nil {
		p.changed() // the window may grow (budget.go)
	}
}

// cut reports whether the message is taller than the pane shows.
func (p *promptPane) cut() bool { return !p.expanded && p.Content.MinSize().Height > p.limit() }

// MinSize is the message's height, up to the cap unless expanded: the
// page's layout gives the pane exactly that.
func (p *promptPane) MinSize() fyne.Size {
	m := p.Scroll.MinSize()
	h := p.Content.MinSize().Height
	if !p.expanded {
		h = min(h, p.limit())
	}
	return fyne.NewSize(m.Width, h)
}

// Resize lays the pane out and shows "Show all" while the message is cut.
func (p *promptPane) Resize(size fyne.Size) {
	p.Scroll.Resize(size)
	switch show := p.expanded || p.cut(); {
	case show && !p.toggle.Visible():
		p.toggle.Show()
	case !show && p.toggle.Visible():
		p.toggle.Hide()
	}
}

// Scrolled hands the wheel to the page: the wheel always scrolls the page.
func (p *promptPane) Scrolled(ev *fyne.ScrollEvent) {
	if page := p.page(); page != nil {
		page.Scrolled(ev)
	}
}

// headLine is the prompt's header line: its chip (none without a
// header) and, on the right, the pane's "Show all".
func (p *promptPane) headLine(header, of string) fyne.CanvasObject {
	line := container.NewHBox()
	if header != "" {
		line.Add(container.NewVBox(layout.NewSpacer(), newChip(header), layout.NewSpacer()))
	}
	n := caption(of) // "Question 2 of 3" (pager.go)
	n.Wrapping = fyne.TextWrapOff
	line.Add(container.NewVBox(layout.NewSpacer(), n, layout.NewSpacer()))
	line.Add(layout.NewSpacer())
	line.Add(p.toggle)
	return line
}

// promptLimit returns the cap of a prompt's message: the viewport's height
// less the heights of fixed (the other objects of the prompt on the page:
// its header, a separator, the context block, the pane's "Show all") and
// of controls (its options and reply box), and the paddings between them;
// never less than floorLines lines of text.
func (v *View) promptLimit(fixed []fyne.CanvasObject, controls fyne.CanvasObject, floorLines int) func() float32 {
	return func() float32 {
		pad := theme.Padding()
		used := controls.MinSize().Height + 4*pad // the page's padding, the gaps around the message, a margin
		for _, o := range fixed {
			used += o.MinSize().Height + pad
		}
		floor := float32(floorLines) * theme.TextSize() * 1.4
		return max(floor, v.viewport()-used)
	}
}

// viewport is the height of the page's viewport: the scroll's, once laid
// out; while the window's size is being chosen (fitSize), the height the
// page will have in a window as tall as allowed.
func (v *View) viewport() float32 {
	if v.panes.viewHint > 0 {
		return v.panes.viewHint
	}
	if v.panes.scroll == nil {
		return WindowSize.Height / 2 // being built
	}
	if h := v.panes.scroll.Size().Height; h > 0 {
		return h
	}
	return WindowSize.Height / 2
}

// reveal implements keyHandler: it scrolls the page, or the options pane,
// that holds o so that o is in view, as the keyboard is on it (a key went
// down or up in it; Tab lands its key-up on the widget it moved to). The
// focus a window gives on opening moves nothing: the first prompt stays in
// view until the user presses a key.
func (v *View) reveal(o fyne.CanvasObject) {
	app := fyne.CurrentApp()
	if app == nil || v.ended() {
		return
	}
	d := app.Driver()
	for _, s := range v.panes.all {
		if s == nil || !holds(s.Content, o) {
			continue
		}
		top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s.Content).Y
		bottom := top + o.Size().Height
		off, vp := s.Offset.Y, s.Size().Height
		switch {
		case top < off:
			off = top
		case bottom > off+vp:
			off = min(top, bottom-vp)
		default:
			return
		}
		s.ScrollToOffset(fyne.NewPos(s.Offset.X, max(off, 0)))
		return
	}
}

// followFocus reveals the widget the keyboard moved to (Tab, Shift+Tab, a
// radio button included, whose keys the view does not see). The window's
// heartbeat calls it; the first focus it sees, the window's own on
// opening, moves nothing.
func (v *View) followFocus() {
	if v.hooks.focused == nil {
		return
	}
	f := v.hooks.focused()
	if f == v.focus.last {
		return
	}
	first := !v.focus.seen
	v.focus.last, v.focus.seen = f, true
	v.markSeen()     // pager.go
	v.enterFollows() // keys.go: the hint names what Enter does now
	if o, ok := f.(fyne.CanvasObject); ok && !first {
		v.reveal(o)
	}
}

// holds reports whether o is in the tree under root (through containers
// and scrolls; the insides of widgets are not searched).
func holds(root, o fyne.CanvasObject) bool {
	if root == o {
		return true
	}
	switch c := root.(type) {
	case *fyne.Container:
		for _, ch := range c.Objects {
			if holds(ch, o) {
				return true
			}
		}
	case *container.Scroll:
		return holds(c.Content, o)
	}
	return false
}
