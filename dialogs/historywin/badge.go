package historywin

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/history"
	"feedback/ipc/wire"
)

// outcomes are the outcomes a badge shows, in the order of their colours,
// then the decisions of an approval (badgeOutcome).
var outcomes = []string{"answered", "dismissed", "timed out", "withdrawn", "open", "message", "away", "allowed", "always allowed", "denied", "elsewhere"}

// badge is a question's outcome as a small filled label of a fixed width
// (the widest outcome's), so that the titles beside it line up: answered
// in the success colour, timed out in the warning colour, open and an
// agent's message (no answer needed) in the primary colour, dismissed and
// withdrawn neutral. An approval's badge says what it decided instead:
// allowed and always allowed in the success colour, denied in the error
// colour, and a timeout, the away outcome (not allowed, nobody chose) and
// a call answered elsewhere (its client stopped waiting) neutral.
type badge struct {
	widget.BaseWidget
	outcome string // one of outcomes
	auto    bool   // a draft sent at timeout
	tone    tone
}

// tone is a badge's colour.
type tone int

const (
	toneNeutral tone = iota
	toneSuccess
	toneWarning
	tonePrimary
	toneError
)

// badgeOutcome is what q's badge says and its colour: its outcome, or for
// an approval that ended, its decision.
func badgeOutcome(q history.Question) (string, tone) {
	if d := q.Decision; d != nil {
		switch d.Kind {
		case wire.VerdictAllowed:
			return "allowed", toneSuccess
		case wire.VerdictAlways:
			return "always allowed", toneSuccess
		case wire.VerdictDenied:
			return "denied", toneError
		case wire.VerdictTimedOut:
			return "timed out", toneNeutral
		case wire.VerdictAway:
			return "away", toneNeutral
		case wire.VerdictElsewhere: // answered in the client: short, as "away" is
			return "elsewhere", toneNeutral
		}
	}
	switch q.Outcome {
	case "answered":
		return q.Outcome, toneSuccess
	case "timed out":
		return q.Outcome, toneWarning
	case "open", "message":
		return q.Outcome, tonePrimary
	}
	return q.Outcome, toneNeutral
}

func newBadge() *badge {
	b := &badge{}
	b.ExtendBaseWidget(b)
	return b
}

// set shows q's outcome.
func (b *badge) set(q history.Question) {
	outcome, tone := badgeOutcome(q)
	if b.outcome == outcome && b.auto == q.Auto && b.tone == tone {
		return
	}
	b.outcome, b.auto, b.tone = outcome, q.Auto, tone
	b.Refresh()
}

// Text is what the badge says.
func (b *badge) Text() string {
	if b.outcome == "" {
		return ""
	}
	t := lang.L(b.outcome)
	if b.auto {
		t += "*" // the detail says "(draft sent at timeout)"
	}
	return t
}

// colors are the badge's fill for its outcome and, of black and white,
// the text colour with the higher contrast on it (the themes' "on
// success" white reads poorly on a bright green).
func (b *badge) colors() (fill, text color.Color) {
	return badgeColors(b.tone, b.Theme(), fyne.CurrentApp().Settings().ThemeVariant())
}

// badgeColors are the colours of a badge of tone t in theme th, variant v.
func badgeColors(t tone, th fyne.Theme, v fyne.ThemeVariant) (fill, text color.Color) {
	name := theme.ColorNameInputBorder
	switch t {
	case toneSuccess:
		name = theme.ColorNameSuccess
	case toneWarning:
		name = theme.ColorNameWarning
	case tonePrimary:
		name = theme.ColorNamePrimary
	case toneError:
		name = theme.ColorNameError
	}
	fill = mix(th.Color(name, v), th.Color(theme.ColorNameBackground, v), badgeTint)
	return fill, onColor(fill)
}

// badgeTint is how much of the theme's colour a badge's fill takes, the
// rest the background's: a tint that names the outcome, not the theme's
// full-strength colour glowing in every row.
const badgeTint = 0.55

// mix is a·f + b·(1−f), channel by channel.
func mix(a, b color.Color, f float64) color.Color {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	ch := func(x, y uint32) uint8 { return uint8((float64(x)*f + float64(y)*(1-f)) / 0x101) }
	return color.NRGBA{R: ch(ar, br), G: ch(ag, bg), B: ch(ab, bb), A: 0xff}
}

// onColor is black or white, whichever contrasts more with fill (WCAG
// relative luminance).
func onColor(fill color.Color) color.Color {
	r, g, bl, _ := fill.RGBA()
	lin := func(v uint32) float64 {
		c := float64(v) / 0xffff
		if c <= 0.03928 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	l := 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(bl)
	if (l+0.05)/0.05 >= 1.05/(l+0.05) { // against black ≥ against white
		return color.Black
	}
	return color.White
}

func (b *badge) CreateRenderer() fyne.WidgetRenderer {
	r := &badgeRenderer{b: b, bg: canvas.NewRectangle(color.Transparent), text: canvas.NewText("", color.Black)}
	r.text.TextStyle = fyne.TextStyle{Bold: true}
	r.text.Alignment = fyne.TextAlignCenter
	r.Refresh()
	return r
}

type badgeRenderer struct {
	b    *badge
	bg   *canvas.Rectangle
	text *canvas.Text
}

func (r *badgeRenderer) textSize() float32 { return r.b.Theme().Size(theme.SizeNameCaptionText) }

func (r *badgeRenderer) MinSize() fyne.Size {
	pad := r.b.Theme().Size(theme.SizeNameInnerPadding)
	width := float32(0)
	for _, o := range outcomes {
		s := fyne.MeasureText(lang.L(o)+"*", r.textSize(), r.text.TextStyle)
		width = max(width, s.Width)
	}
	h := fyne.MeasureText("Ag", r.textSize(), r.text.TextStyle).Height
	return fyne.NewSize(width+2*pad, h+pad)
}

func (r *badgeRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	r.text.Resize(size)
}

func (r *badgeRenderer) Refresh() {
	fill, text := r.b.colors()
	if r.b.outcome == "" {
		fill = color.Transparent
	}
	r.bg.FillColor = fill
	r.bg.CornerRadius = r.b.Theme().Size(theme.SizeNameInputRadius)
	r.text.Text = r.b.Text()
	r.text.Color = text
	r.text.TextSize = r.textSize()
	r.bg.Refresh()
	r.text.Refresh()
}

func (r *badgeRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.bg, r.text} }
func (r *badgeRenderer) Destroy()                     {}

// tightVBox stacks objects like a VBox, each overlapping the one above by
// the inner padding that two labels would otherwise put between their
// texts: a title over its caption reads as one item.
type tightVBox struct{}

func (tightVBox) overlap() float32 { return theme.InnerPadding() }

func (l *tightVBox) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for i, o := range objects {
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
		if i > 0 {
			s.Height -= l.overlap()
		}
	}
	return s
}

func (l *tightVBox) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objects {
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h - l.overlap()
	}
}
