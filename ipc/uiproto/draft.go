package uiproto

import (
	"fmt"

	"feedback/ipc/wire"
)

// Drafts cross the channel as the user pauses, often: DraftChanged carries
// the replies whole (bounded text) and the images by reference, each
// image's bytes only the first time the UI process sends it for its window
// (DraftEncoder); the app rebuilds the whole draft (DraftImages).

// DraftImage is one image of a DraftChanged, in the draft's order: Ref
// names it for its window; Image is its bytes the first time this UI
// process sends Ref for the window, else nil (the app has them).
type DraftImage struct {
	Ref   string      `json:"ref"`
	Image *wire.Image `json:"image,omitempty"`
}

// DraftEncoder turns one window's drafts into DraftChanged events, each
// image's bytes sent once while it stays in the draft. One per window, used
// from one goroutine. The zero value is ready.
type DraftEncoder struct {
	refs map[*byte]string // the images sent, by their bytes' identity
	next int
}

// Encode returns the event that reports d, the draft of window id.
func (e *DraftEncoder) Encode(id string, d wire.Draft) DraftChanged {
	ev := DraftChanged{ID: id, Replies: d.Replies}
	kept := make(map[*byte]string, len(d.Images))
	for i := range d.Images {
		img := &d.Images[i]
		var key *byte
		if len(img.Data) > 0 {
			key = &img.Data[0] // an attachment's bytes do not change
		}
		if ref, ok := e.refs[key]; ok && key != nil {
			kept[key] = ref
			ev.Images = append(ev.Images, DraftImage{Ref: ref})
			continue
		}
		e.next++
		ref := fmt.Sprint(e.next)
		if key != nil {
			kept[key] = ref
		}
		ev.Images = append(ev.Images, DraftImage{Ref: ref, Image: img})
	}
	e.refs = kept // an image left the draft: forgotten on both sides
	return ev
}

// DraftImages are the images of one window's drafts the app has received,
// by Ref. The zero value is ready.
type DraftImages map[string]wire.Image

// ErrUnknownImage is returned by Apply for a Ref whose bytes never came.
var ErrUnknownImage = fmt.Errorf("a draft refers to an image the UI process never sent")

// Apply returns the whole draft ev reports, keeping its new images and
// forgetting those no longer in the draft.
func (m *DraftImages) Apply(ev DraftChanged) (wire.Draft, error) {
	d := wire.Draft{Replies: ev.Replies}
	now := make(DraftImages, len(ev.Images))
	for _, di := range ev.Images {
		img, ok := (*m)[di.Ref]
		if di.Image != nil {
			img, ok = *di.Image, true
		}
		if !ok {
			return wire.Draft{}, fmt.Errorf("%w: %q", ErrUnknownImage, di.Ref)
		}
		now[di.Ref] = img
		d.Images = append(d.Images, img)
	}
	*m = now
	return d, nil
}
