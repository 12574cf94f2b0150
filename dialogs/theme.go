package dialogs

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// MinNonTextContrast is the contrast, against the window's background, of
// the outlines of unselected checkboxes, radio buttons and reply boxes and
// of placeholder text (WCAG 2.1 non-text contrast asks for 3:1; a little
// above it, as colours are rounded).
const MinNonTextContrast = 3.2

// MinTextContrast is the contrast of link text against the background
// (WCAG 2.1 asks 4.5:1 of text; a little above it, as colours are rounded).
const MinTextContrast = 4.6

// Theme is the app's theme: Fyne's default, light or dark as the system
// says, with the input borders (the outline of an unselected checkbox or
// radio button, of the reply box) and placeholder text raised to
// MinNonTextContrast against the background; Fyne's own are about 1.5:1.
// Its fonts are Fyne's with line boxes tall enough that no glyph is cut
// when drawn (fontbox.go): Fyne's monospace underscores vanished at scale 1.5.
func Theme() fyne.Theme {
	th := theme.DefaultTheme()
	warmFonts(th)
	return ourTheme{th}
}

type ourTheme struct{ fyne.Theme }

// Font is the theme's font for style with its line box holding its glyphs'
// ink (boxedFont).
func (t ourTheme) Font(style fyne.TextStyle) fyne.Resource { return boxedFontFor(t.Theme, style) }

// Color raises the colours that must stand out from the background.
func (t ourTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	c := t.Theme.Color(n, v)
	switch n {
	case theme.ColorNameInputBorder:
		return raiseContrast(c, t.Theme.Color(theme.ColorNameForeground, v), MinNonTextContrast,
			t.Theme.Color(theme.ColorNameBackground, v))
	case theme.ColorNamePlaceHolder:
		return raiseContrast(c, t.Theme.Color(theme.ColorNameForeground, v), MinNonTextContrast,
			t.Theme.Color(theme.ColorNameBackground, v), t.Theme.Color(theme.ColorNameInputBackground, v))
	case theme.ColorNameHyperlink:
		// Links in the question are text: 4.5:1 (Fyne's blue is 4.0:1 dark, 4.47:1 light).
		return raiseContrast(c, t.Theme.Color(theme.ColorNameForeground, v), MinTextContrast,
			t.Theme.Color(theme.ColorNameBackground, v))
	}
	return c
}

// raiseContrast moves c toward fg until its contrast against each of bgs
// is at least min (or it is fg).
func raiseContrast(c, fg color.Color, min float64, bgs ...color.Color) color.Color {
	for step := 0; step <= 20; step++ {
		m := mix(c, fg, float64(step)/20)
		ok := true
		for _, bg := range bgs {
			if contrast(m, bg) < min {
				ok = false
				break
			}
		}
		if ok {
			return m
		}
	}
	return fg
}

// mix is c moved the fraction f of the way to d, opaque.
func mix(c, d color.Color, f float64) color.Color {
	a, b := color.NRGBAModel.Convert(c).(color.NRGBA), color.NRGBAModel.Convert(d).(color.NRGBA)
	ch := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*f)) }
	// A translucent colour is taken as drawn: its alpha goes to opaque.
	return color.NRGBA{R: ch(a.R, b.R), G: ch(a.G, b.G), B: ch(a.B, b.B), A: 255}
}

// contrast is the WCAG contrast ratio of two colours (alpha ignored).
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is the WCAG relative luminance of c.
func luminance(c color.Color) float64 {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(n.R) + 0.7152*lin(n.G) + 0.0722*lin(n.B)
}

// MinBandContrast is the contrast of the last minute's warning band
// against the window's background: the band itself must stand out (WCAG's
// 3:1 for what must be seen), and its text against it has MinTextContrast.
const MinBandContrast = 3

// WarningBand is the countdown's band in its last minute in the theme
// variant v: its colour and the colour of the time written on it. A dark
// orange with white text on a light window; Fyne's orange with near-black
// text on a dark one (Fyne's own orange with white text is 2.1:1).
func WarningBand(v fyne.ThemeVariant) (bg, fg color.Color) {
	if v == theme.VariantDark {
		return color.NRGBA{R: 0xff, G: 0x98, B: 0x00, A: 0xff}, color.NRGBA{R: 0x17, G: 0x17, B: 0x18, A: 0xff}
	}
	return color.NRGBA{R: 0xa8, G: 0x4f, B: 0x00, A: 0xff}, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
}
