package dialogs

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// The context bar: who asks (the MCP client, the project), the question's
// context lines (loop id, phase…), and, while several questions are open,
// this one's place among them with the shortcut that moves between them.

// contextBar is the bar's widgets; the bar is hidden while it has nothing
// to say.
type contextBar struct {
	box  *fyne.Container
	text *heavyRichText // bold CJK drawn heavier (heavy.go)
	n, m int            // "n of m open"; m < 2: not shown
}

// SetOpenPlace tells the window it is the n-th of m open questions; the
// context bar says so while m is more than one. It returns how much taller
// the bar has become (it appears, or wraps onto another line), so that
// the window can grow by as much and the message keep its room. The Pool
// calls it.
func (v *View) SetOpenPlace(n, m int) (grew float32) {
	if v.ctx == nil || (v.ctx.n == n && v.ctx.m == m) {
		return 0
	}
	before := v.ctx.height()
	v.ctx.n, v.ctx.m = n, m
	v.ctx.text.Segments = v.contextSegments()
	if len(v.ctx.text.Segments) > 0 {
		v.ctx.box.Show()
	} else {
		v.ctx.box.Hide()
	}
	v.ctx.text.Refresh()
	return v.ctx.height() - before
}

// height is the room the bar takes in the page, the gap after it included.
func (b *contextBar) height() float32 {
	if !b.box.Visible() {
		return 0
	}
	return b.box.MinSize().Height + theme.Padding()
}

// OpenPlace is what SetOpenPlace was last told (0, 0: nothing).
func (v *View) OpenPlace() (n, m int) {
	if v.ctx == nil {
		return 0, 0
	}
	return v.ctx.n, v.ctx.m
}

// contextBlock builds the context bar, hidden when it has nothing to show
// yet.
func (v *View) contextBlock() fyne.CanvasObject {
	rt := newHeavyRichText(v.contextSegments()...)
	rt.Wrapping = fyne.TextWrapWord
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	v.ctx = &contextBar{box: container.NewStack(bg, rt), text: rt}
	if len(rt.Segments) == 0 {
		v.ctx.box.Hide()
	}
	return v.ctx.box
}

// whoFields are the bar's first fields: who asks, and where.
func (v *View) whoFields() []wire.Field {
	var fields []wire.Field
	add := func(label, value string) {
		if value = strings.TrimSpace(value); value == "" {
			return
		}
		if r := []rune(value); len(r) > maxChipRunes {
			value = string(r[:maxChipRunes-1]) + "…"
		}
		fields = append(fields, wire.Field{Label: label, Value: value})
	}
	add(i18n.T("context.from"), v.q.Client)
	add(i18n.T("context.project"), v.q.Project)
	if v.ctx != nil && v.ctx.m > 1 {
		add(i18n.T("context.open"), i18n.T("context.n_of_m", map[string]any{"N": v.ctx.n, "M": v.ctx.m, "Key": CycleHint}))
	}
	return fields
}

// contextSegments lays the fields out as compact lines: short values share
// a line, long ones (an objective, success criteria) get a line each.
func (v *View) contextSegments() []widget.RichTextSegment {
	fields := append(v.whoFields(), v.q.Context...)
	if len(fields) == 0 {
		return nil
	}
	const short = 24 // runes
	var segs []widget.RichTextSegment
	label := func(text string) {
		segs = append(segs, &widget.TextSegment{Text: text + " ", Style: widget.RichTextStyle{
			Inline: true, TextStyle: fyne.TextStyle{Bold: true}, ColorName: theme.ColorNamePlaceHolder}})
	}
	value := func(text string) {
		segs = append(segs, &widget.TextSegment{Text: text, Style: widget.RichTextStyleInline})
	}
	lineEnd := func() { segs = append(segs, &widget.TextSegment{Style: widget.RichTextStyleParagraph}) }
	var long []wire.Field
	first := true
	for _, f := range fields {
		if utf8.RuneCountInString(f.Value) > short {
			long = append(long, f)
			continue
		}
		if !first {
			value("   ·   ")
		}
		first = false
		label(f.Label)
		value(f.Value)
	}
	if !first {
		lineEnd()
	}
	for _, f := range long {
		label(f.Label)
		value(f.Value)
		lineEnd()
	}
	return segs
}
