package dialogs

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/dialogs/imagepipe"
	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// pasteTimeout bounds reading the clipboard for an image.
const pasteTimeout = 3 * time.Second

// attachments is the strip of images the user pasted, dropped or picked:
// thumbnails with their size and a remove button, and a line for problems.
// Every image goes through imagepipe (downscaled, re-encoded, budgets
// enforced) off the Fyne goroutine; a refused image is explained, never
// dropped silently.
type attachments struct {
	v       *View
	set     *imagepipe.Set
	limits  imagepipe.Limits
	strip   *fyne.Container // thumbnail cards
	problem *widget.Label
	working fyne.CanvasObject // "Preparing an image…" while busy: a card at the strip's end
	box     *fyne.Container   // strip and problem; hidden while both are empty
	cards   []fyne.CanvasObject
	busy    int // images being processed
}

func newAttachments(v *View, limits imagepipe.Limits) *attachments {
	a := &attachments{v: v, set: imagepipe.NewSet(limits), limits: limits}
	a.strip = container.NewHBox()
	a.problem = widget.NewLabel("")
	a.problem.Importance = widget.DangerImportance
	a.problem.Wrapping = fyne.TextWrapWord
	a.problem.Hide()
	// The image being prepared shows as a card as tall as a thumbnail's,
	// so the window grows once, not once for the words and again for the
	// image (budget.go).
	preparing := caption(i18n.T("attach.preparing"))
	preparing.Wrapping = fyne.TextWrapOff
	a.working = a.card(container.NewCenter(preparing), "", nil)
	a.working.Hide()
	a.strip.Add(a.working)
	a.box = container.NewVBox(container.NewHScroll(a.strip), a.problem)
	a.box.Hide()
	return a
}

// add processes data (an image the user gave us, named name for messages)
// and shows it, or says why it cannot be attached.
func (a *attachments) add(name string, data []byte) {
	if a.set.Len()+a.busy >= a.limits.MaxCount && a.limits.MaxCount > 0 {
		a.showProblem(i18n.N("attach.too_many", a.limits.MaxCount, map[string]any{"Name": name, "Count": a.limits.MaxCount}))
		return
	}
	a.busy++
	a.working.Show()
	a.box.Show()
	a.v.contentChanged() // the window grows for the strip (budget.go)
	a.v.hold()
	a.v.hooks.async(func() {
		img, err := imagepipe.Process(name, data, a.limits)
		a.v.onFyne(func() {
			a.busy--
			if a.busy == 0 {
				a.working.Hide()
			}
			if a.v.done {
				return
			}
			if err == nil {
				err = a.set.Add(img)
			}
			if err != nil {
				a.showProblem(err.Error())
				return
			}
			a.problem.Hide()
			a.addCard(img)
			a.v.scheduleDraft()
		})
	})
}

// addError reports a problem getting an image (reading a file, the clipboard).
func (a *attachments) addError(name string, err error) {
	a.showProblem(i18n.T("attach.unreadable", map[string]any{"Name": name, "Err": err.Error()}))
}

func (a *attachments) showProblem(msg string) {
	a.problem.SetText(msg)
	a.problem.Show()
	a.box.Show()
	a.v.contentChanged()
}

func (a *attachments) addCard(img imagepipe.Image) {
	thumb := canvas.NewImageFromResource(fyne.NewStaticResource(img.Name, img.Data))
	thumb.FillMode = canvas.ImageFillContain
	thumb.SetMinSize(fyne.NewSize(112, 80))
	var card fyne.CanvasObject
	card = a.card(thumb, fmt.Sprintf("%d×%d · %s", img.Width, img.Height, formatSize(len(img.Data))), func() { a.remove(card) })
	a.cards = append(a.cards, card)
	a.strip.Objects = append(a.strip.Objects[:len(a.strip.Objects)-1], card, a.working) // "Preparing" stays last
	a.strip.Refresh()
	a.box.Show()
	a.v.contentChanged()
}

// card is a thumbnail's card: pic over info and a remove button (none
// without remove, whose place is kept).
func (a *attachments) card(pic fyne.CanvasObject, info string, remove func()) fyne.CanvasObject {
	frame := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	frame.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	frame.SetMinSize(fyne.NewSize(112, 80))
	text := caption(info)
	text.Wrapping = fyne.TextWrapOff
	btn := widget.NewButtonWithIcon("", theme.CancelIcon(), remove)
	btn.Importance = widget.LowImportance
	if remove == nil {
		btn.Disable()
		btn.Hide()
	}
	// A hidden button keeps its row's height: the cards line up.
	tall := canvas.NewRectangle(color.Transparent)
	tall.SetMinSize(fyne.NewSize(0, btn.MinSize().Height))
	row := container.NewStack(tall, container.NewHBox(text, layout.NewSpacer(), btn))
	return container.NewVBox(container.NewStack(frame, pic), row)
}

// remove drops the image shown by card.
func (a *attachments) remove(card fyne.CanvasObject) {
	for i, c := range a.cards {
		if c == card {
			a.set.Remove(i)
			a.cards = append(a.cards[:i], a.cards[i+1:]...)
			a.strip.Remove(card)
			break
		}
	}
	a.problem.Hide()
	if len(a.cards) == 0 {
		a.box.Hide()
	}
	a.v.edited()
}

// images returns the attachments for the Answer.
func (a *attachments) images() []wire.Image {
	var out []wire.Image
	for _, img := range a.set.Images() {
		out = append(out, wire.Image{MIME: img.MIME, Data: img.Data, Name: img.Name})
	}
	return out
}

// paste attaches the clipboard's image, if it holds one, and otherwise lets
// the reply box paste text as usual.
func (a *attachments) paste(e *replyEntry, s fyne.Shortcut) {
	read := a.v.opts.PasteImage
	a.v.hooks.async(func() {
		ctx, cancel := context.WithTimeout(context.Background(), pasteTimeout)
		defer cancel()
		data, ok, err := read(ctx)
		a.v.onFyne(func() {
			switch {
			case a.v.done:
			case err != nil && !errors.Is(err, context.Canceled):
				a.addError(i18n.T("attach.clipboard"), err)
			case ok:
				a.add(i18n.T("attach.pasted"), data)
			case e != nil:
				e.Entry.TypedShortcut(s)
			}
		})
	})
}

// formatSize renders a byte count for people: 812 B, 35 KB, 1.4 MB.
func formatSize(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.0f KB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
	}
}
