package markdown

import (
	"fmt"
	"image/color"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
)

// mdSectionBytes is how much Markdown source is laid out at once. A longer
// message shows its first section and a "Show all" button that adds the
// others one at a time, each in a turn of the Fyne loop of its own, so a
// message of the accepted maximum (ipc.MaxMarkdownBytes) opens at once and
// never holds up other windows for long.
const mdSectionBytes = 48 << 10

// Widget shows the Markdown of a prompt: paragraphs wrapped by flowText,
// images loaded off the Fyne goroutine, long messages in sections.
type Widget struct {
	widget.BaseWidget
	box      *fyne.Container // the shown sections, then the Show all button
	texts    []*widget.RichText
	pending  []string // sections not shown yet
	more     *widget.Button
	pictures *Pictures
	page     func() *container.Scroll
	wrapCode bool
	m        *measurer
}

// Options are the context a Widget is shown in.
type Options struct {
	// Pictures reads, decodes and counts the images. The prompts of one
	// question share one, as the cap on images is per question; nil gives
	// the widget a loader of its own.
	Pictures *Pictures
	// Page returns the vertical scroll the message is shown in: the mouse
	// wheel over a wide code block or table scrolls it (see SideScroll).
	// Nil, or a nil scroll, and the wheel there does nothing.
	Page func() *container.Scroll
	// WrapCode wraps the lines of code blocks at the message's width, a
	// continuation row marked as one, instead of scrolling them sideways:
	// what is off to the side is never out of sight (an approval's call).
	// Its code blocks draw "[… … …]" as the window's markers, apart from
	// the text (codeView): only for text that cannot hold one of its own.
	WrapCode bool
}

// New returns the widget showing the Markdown src.
func New(src string, opts Options) *Widget { return newWidget(src, opts) }

func newWidget(src string, opts Options) *Widget {
	if opts.Pictures == nil {
		opts.Pictures = NewPictures()
	}
	md := &Widget{pictures: opts.Pictures, page: opts.Page, wrapCode: opts.WrapCode, m: newMeasurer()}
	sections := splitMarkdown(src, mdSectionBytes)
	md.box = container.NewVBox(md.section(sections[0]))
	if rest := sections[1:]; len(rest) > 0 {
		md.pending = rest
		md.more = widget.NewButtonWithIcon(i18n.T("markdown.show_all_more", map[string]any{"Size": formatBytes(len(src) - len(sections[0]))}),
			theme.MoreVerticalIcon(), md.ShowAll)
		md.box.Add(container.NewHBox(md.more))
	}
	md.ExtendBaseWidget(md)
	return md
}

// CreateRenderer implements fyne.Widget.
func (md *Widget) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(md.box) }

// String returns the text of the shown sections.
func (md *Widget) String() string {
	var b strings.Builder
	for _, t := range md.texts {
		b.WriteString(t.String())
	}
	return b.String()
}

// section renders one section of the source and starts loading its images.
func (md *Widget) section(src string) *widget.RichText {
	segs := newMDRendererFor(src, Options{Pictures: md.pictures, Page: md.page, WrapCode: md.wrapCode}).document()
	rt := widget.NewRichText(displaySegments(segs, md.m)...)
	rt.Wrapping = fyne.TextWrapWord
	md.texts = append(md.texts, rt)
	walkDisplay(segs, func(s widget.RichTextSegment) {
		if p, ok := s.(*PictureSegment); ok {
			md.pictures.load(p, rt.Refresh)
		}
	})
	return rt
}

// Complete reports whether the whole message is shown: no section is
// held back behind "Show all" any more.
func (md *Widget) Complete() bool { return md.more == nil }

// ShowAll shows the sections held back, one per turn of the Fyne loop.
func (md *Widget) ShowAll() {
	if md.more == nil || md.more.Disabled() {
		return
	}
	md.more.SetText(i18n.T("markdown.showing_all"))
	md.more.Disable()
	md.showNext()
}

func (md *Widget) showNext() {
	if len(md.pending) == 0 {
		md.box.Remove(md.box.Objects[len(md.box.Objects)-1])
		md.more = nil
		return
	}
	src := md.pending[0]
	md.pending = md.pending[1:]
	objs := md.box.Objects
	md.box.Objects = append(append(objs[:len(objs)-1:len(objs)-1], md.section(src)), objs[len(objs)-1])
	md.box.Refresh()
	if md.pictures.Changed != nil {
		md.pictures.Changed()
	}
	go md.pictures.do(md.showNext)
}

// formatBytes writes a size for people: "812 bytes", "31 KB", "1.0 MB".
func formatBytes(n int) string {
	switch {
	case n < 1000:
		return i18n.N("markdown.bytes", n)
	case n < 1000*1000:
		return fmt.Sprintf("%d KB", (n+500)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// splitMarkdown cuts src into sections of at most limit bytes, each
// ending at a blank line outside a fenced code block where there is one,
// else at a line end, a space, or a character boundary.
func splitMarkdown(src string, limit int) []string {
	var out []string
	for len(src) > limit {
		cut := cutPoint(src[:limit])
		out = append(out, src[:cut])
		src = src[cut:]
	}
	return append(out, src)
}

// cutPoint returns where to end a section taken from the start of s.
func cutPoint(s string) int {
	blank, line, fence := -1, -1, ""
	for off := 0; off < len(s); {
		end := strings.IndexByte(s[off:], '\n')
		if end < 0 {
			break
		}
		l := strings.TrimSpace(s[off : off+end])
		switch {
		case fence != "" && strings.HasPrefix(l, fence):
			fence = ""
		case fence == "" && (strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~")):
			fence = l[:3]
		case fence == "" && l == "":
			blank = off + end + 1
		}
		line = off + end + 1
		off += end + 1
	}
	switch {
	case blank > 0:
		return blank
	case line > 0:
		return line
	}
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		return i + 1
	}
	n := len(s)
	for n > 0 && !utf8.RuneStart(s[n-1]) {
		n--
	}
	if n > 0 {
		n-- // s[n] starts the last rune, which may be cut
	}
	if n == 0 {
		return len(s)
	}
	return n
}

// displaySegments turns the segments of Segments into the ones the
// window shows: each paragraph or heading (a row of inline text and links)
// becomes a flowSegment, quotes and lists hold flowed content, the rest is
// kept as it is.
func displaySegments(segs []widget.RichTextSegment, m *measurer) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	var runs []flowRun
	tight := map[*flowSegment]bool{} // the text of a tight list's item: no gap after it
	flush := func() {
		if len(runs) > 0 {
			out = append(out, &flowSegment{runs: runs, m: m})
			runs = nil
		}
	}
	for _, s := range segs {
		switch s := s.(type) {
		case *widget.TextSegment:
			if s.Text != "" {
				runs = append(runs, flowRun{text: s.Text, style: s.Style})
			}
			if !s.Style.Inline {
				flush()
				if (s.Style == tightRowEnd || s.Style == codeLabelStyle) && len(out) > 0 {
					if f, ok := out[len(out)-1].(*flowSegment); ok {
						tight[f] = true
					}
				}
			}
		case *widget.HyperlinkSegment:
			runs = append(runs, flowRun{text: s.Text, link: s.URL, style: widget.RichTextStyleInline})
		case *LinkSegment:
			runs = append(runs, flowRun{text: s.Text, link: s.URL, style: s.Style})
		case *StrikeSegment:
			runs = append(runs, flowRun{text: s.Text, style: s.Style, strike: true})
		case *TaskSegment: // one not at the start of a list item (lists draw those)
			runs = append(runs, flowRun{text: s.Textual(), style: widget.RichTextStyle{Inline: true, TextStyle: fyne.TextStyle{Monospace: true}}})
		case *QuoteSegment:
			flush()
			out = append(out, &QuoteSegment{Content: displaySegments(s.Content, m)})
		case *widget.ListSegment:
			flush()
			out = append(out, newListBlock(s, m))
		case *indentedList:
			flush()
			out = append(out, newListBlock(s.ListSegment, m))
		default:
			flush()
			out = append(out, s)
		}
	}
	flush()
	// A paragraph or heading keeps a gap from the blocks around it (a code
	// block's language label stays on its block), and two other blocks in
	// a row (a list, code, a table, a quote) are kept apart by a gapSegment.
	spaced := make([]widget.RichTextSegment, 0, len(out))
	for i, s := range out {
		f, isFlow := s.(*flowSegment)
		if isFlow {
			f.gapAfter = i < len(out)-1 && !tight[f]
		}
		if i > 0 {
			_, prevFlow := out[i-1].(*flowSegment)
			switch {
			case isFlow:
				f.gapBefore = !prevFlow
			case !prevFlow:
				spaced = append(spaced, gapSegment{})
			}
		}
		spaced = append(spaced, s)
	}
	return spaced
}

// gapSegment is the space kept between two blocks other than paragraphs.
type gapSegment struct{}

// Inline returns false: a gap is a block.
func (gapSegment) Inline() bool { return false }

// Textual returns "".
func (gapSegment) Textual() string { return "" }

// Visual returns an empty box, paragraphGap high beyond the line spacing
// the RichText keeps between any two blocks.
func (gapSegment) Visual() fyne.CanvasObject {
	r := canvas.NewRectangle(color.Transparent)
	h := paragraphGap*theme.TextSize() - theme.LineSpacing()
	r.SetMinSize(fyne.NewSize(0, max(0, h)))
	return r
}

// Update does nothing.
func (gapSegment) Update(fyne.CanvasObject) {}

// Select does nothing.
func (gapSegment) Select(_, _ fyne.Position) {}

// SelectedText returns "".
func (gapSegment) SelectedText() string { return "" }

// Unselect does nothing.
func (gapSegment) Unselect() {}

// walkDisplay calls f for every segment of a Segments tree.
func walkDisplay(segs []widget.RichTextSegment, f func(widget.RichTextSegment)) {
	for _, s := range segs {
		f(s)
		switch s := s.(type) {
		case *widget.ListSegment:
			walkDisplay(s.Items, f)
		case *indentedList:
			walkDisplay(s.Items, f)
		case *widget.ParagraphSegment:
			walkDisplay(s.Texts, f)
		case *QuoteSegment:
			walkDisplay(s.Content, f)
		case *TableSegment:
			for _, row := range s.allRows() {
				for _, c := range row {
					walkDisplay(c.Content, f)
				}
			}
		}
	}
}

// listBlock is a list of the displayed Markdown: a bullet or number beside
// each item, whose blocks (flowed paragraphs, nested lists, code…) wrap in
// a column of their own, so wrapped lines hang under the item's text.
type listBlock struct {
	bullets []string
	tasks   []*TaskSegment // an item's check box, drawn in place of a bullet; nil for none
	items   [][]widget.RichTextSegment
}

func newListBlock(l *widget.ListSegment, m *measurer) *listBlock {
	b := &listBlock{}
	for i, item := range l.Items {
		bullet := "•"
		if l.Ordered {
			bullet = fmt.Sprintf("%d.", l.StartNumber()+i)
		}
		var content []widget.RichTextSegment
		if p, ok := item.(*widget.ParagraphSegment); ok {
			content = p.Texts
		} else {
			content = []widget.RichTextSegment{item}
		}
		var task *TaskSegment
		if len(content) > 0 {
			if t, ok := content[0].(*TaskSegment); ok {
				task, content = t, content[1:]
				if !l.Ordered {
					bullet = "" // the check box is the bullet
				}
			}
		}
		b.bullets = append(b.bullets, bullet)
		b.tasks = append(b.tasks, task)
		b.items = append(b.items, displaySegments(content, m))
	}
	return b
}

// Inline returns false: a list is a block.
func (b *listBlock) Inline() bool { return false }

// Textual returns the items' text, one per line.
func (b *listBlock) Textual() string {
	var s strings.Builder
	for i, item := range b.items {
		if b.bullets[i] != "" {
			s.WriteString(b.bullets[i] + " ")
		}
		if b.tasks[i] != nil {
			s.WriteString(b.tasks[i].Textual())
		}
		for _, seg := range item {
			s.WriteString(seg.Textual())
		}
		s.WriteByte('\n')
	}
	return s.String()
}

// Visual returns a new list view.
func (b *listBlock) Visual() fyne.CanvasObject { return newListView(b) }

// Update refreshes a list view.
func (b *listBlock) Update(o fyne.CanvasObject) {
	if v, ok := o.(*listView); ok && v.b != b {
		v.b = b
		v.build()
		v.Refresh()
	}
}

// Select does nothing: rich text selection is not implemented by fyne yet.
func (b *listBlock) Select(_, _ fyne.Position) {}

// SelectedText returns "".
func (b *listBlock) SelectedText() string { return "" }

// Unselect does nothing.
func (b *listBlock) Unselect() {}

// listView draws a listBlock.
type listView struct {
	widget.BaseWidget
	b       *listBlock
	bullets []fyne.CanvasObject // a bullet, a number, a check box or a number and a check box
	texts   []*canvas.Text      // the bullets' and numbers' texts
	items   []fyne.CanvasObject // each item's blocks (see newBlocks)
	objs    []fyne.CanvasObject
}

func newListView(b *listBlock) *listView {
	v := &listView{b: b}
	v.build()
	v.ExtendBaseWidget(v)
	return v
}

func (v *listView) build() {
	v.bullets, v.texts, v.items, v.objs = nil, nil, nil, nil
	for i, item := range v.b.items {
		var bullet fyne.CanvasObject
		if text := v.b.bullets[i]; text != "" {
			t := canvas.NewText(text, theme.Color(theme.ColorNameForeground))
			t.TextStyle.Bold = text != "•" // as fyne draws list numbers
			v.texts = append(v.texts, t)
			bullet = t
		}
		if task := v.b.tasks[i]; task != nil {
			box := newTaskBox(task.Checked)
			if bullet != nil {
				bullet = container.NewHBox(bullet, box)
			} else {
				bullet = box
			}
		}
		rt := newBlocks(item)
		v.bullets = append(v.bullets, bullet)
		v.items = append(v.items, rt)
		v.objs = append(v.objs, bullet, rt)
	}
}

// CreateRenderer implements fyne.Widget.
func (v *listView) CreateRenderer() fyne.WidgetRenderer { return &listRenderer{v: v} }

type listRenderer struct{ v *listView }

// column is the width of the bullet column.
func (r *listRenderer) column() float32 {
	w := float32(0)
	for _, b := range r.v.bullets {
		w = max(w, b.MinSize().Width)
	}
	return w + theme.InnerPadding()
}

// inset is the RichText padding that the items' text is pulled back by, so
// that it lines up with the bullets and with the paragraphs around it.
func (r *listRenderer) inset() float32 { return theme.InnerPadding() }

func (r *listRenderer) Layout(size fyne.Size) {
	col, in := r.column(), r.inset()
	line := fyne.MeasureText("1.", theme.TextSize(), fyne.TextStyle{Bold: true}).Height
	y := float32(0)
	for i, rt := range r.v.items {
		rt.Move(fyne.NewPos(col-in, y-in))
		rt.Resize(fyne.NewSize(size.Width-col+in, rt.MinSize().Height))
		h := rt.MinSize().Height // at the new width
		if h != rt.Size().Height {
			rt.Resize(fyne.NewSize(size.Width-col+in, h))
		}
		b := r.v.bullets[i]
		bs := b.MinSize()
		b.Move(fyne.NewPos(0, y+(line-bs.Height)/2)) // centred on the first line
		b.Resize(bs)
		y += h - 2*in + theme.LineSpacing()
	}
}

func (r *listRenderer) MinSize() fyne.Size {
	in := r.inset()
	h := float32(0)
	for i, rt := range r.v.items {
		if i > 0 {
			h += theme.LineSpacing()
		}
		h += rt.MinSize().Height - 2*in
	}
	return fyne.NewSize(r.column(), h)
}

func (r *listRenderer) Refresh() {
	for _, t := range r.v.texts {
		t.Color = theme.ColorForWidget(theme.ColorNameForeground, r.v)
	}
	for i, b := range r.v.bullets {
		b.Refresh()
		r.v.items[i].Refresh()
	}
	r.Layout(r.v.Size())
}

func (r *listRenderer) Objects() []fyne.CanvasObject { return r.v.objs }

func (r *listRenderer) Destroy() {}
