package dialogs

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"feedback/ipc/wire"
)

// warmNative makes w's native window (hidden) and draws its content once
// into it, off screen; it reports whether it could (native.Warm: only
// with Fyne's GLFW driver).
var warmNative = func(fyne.App, fyne.Window) bool { return false }

// Warm prepares the window of the next question without showing it: the
// native window with its GL context (GLFW's, then Mesa's: the driver
// loaded, shaders compiled) and one frame of q, which loads the fonts of
// its text styles and has the GL driver compile what it draws with, all
// drawn off screen; nothing is mapped. The window is then hidden in the
// pool, empty, and the next question takes it. A cold question window
// costs ~480 ms on Mesa's llvmpipe, most of it there (BENCHMARKS.md).
// Only with no window open or hidden; it reports whether it warmed one.
func (p *Pool) Warm(q wire.Question, opts Options) bool {
	if len(p.idle) > 0 || len(p.open) > 0 {
		return false
	}
	s := p.take(WindowTitle(q))
	v := NewView(q, opts, func(wire.Answer) {})
	s.win.SetContent(v.Content())
	s.win.Resize(v.FitSize(p.app))
	ok := warmNative(p.app, s.win)
	s.win.SetContent(canvas.NewRectangle(color.Transparent)) // let the sample's widgets go
	s.hiddenTurn = p.turns
	p.idle = append(p.idle, s)
	return ok
}

// SampleQuestion is what Warm draws: the text styles and widgets of a
// typical question (a heading, bold, inline and block code, a list,
// options with a recommended one, a reply box, a countdown).
func SampleQuestion() wire.Question {
	return wire.Question{
		ID:             "warm",
		Title:          "feedback",
		Project:        "feedback",
		TimeoutSeconds: 600,
		Prompts: []wire.Prompt{{
			Kind: wire.KindChoice,
			Markdown: "## Which approach?\n\nThe **first** keeps `main.go` as it is; the second moves it:\n\n" +
				"- *one* package\n- two packages\n\n```go\nfunc main() {}\n```\n\n> a quote",
			Options: []wire.Option{{Label: "Keep it", Default: true}, {Label: "Move it"}, {Label: "Other", FreeText: true}},
		}, {
			Markdown: "Anything else?",
		}},
	}
}
