package markdown

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// monoTheme draws all text in the monospace font.
type monoTheme struct{ fyne.Theme }

func (t monoTheme) Font(fyne.TextStyle) fyne.Resource { return theme.DefaultTextMonospaceFont() }

// Measurements made in one theme's fonts are not used for another's: a
// theme set after a question was laid out (or by an earlier test) gets its
// own widths and line heights, as fyne's own caches are emptied then. The
// text laid out by stale heights sat off its baseline.
func TestMeasuresFollowTheThemesFonts(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(theme.DefaultTheme())
	style := fyne.TextStyle{}
	noto := newMeasurer()
	notoW, notoH := noto.width('m', 14, style), noto.lineHeight(14, style)

	a.Settings().SetTheme(monoTheme{theme.DefaultTheme()})
	m := newMeasurer()
	want := fyne.MeasureText("m", 14, style)
	if w, h := m.width('m', 14, style), m.lineHeight(14, style); w != want.Width || h != want.Height {
		t.Errorf("in the monospace theme 'm' measures %gx%g, fyne measures %gx%g (Noto Sans: %gx%g)",
			w, h, want.Width, want.Height, notoW, notoH)
	}
}
