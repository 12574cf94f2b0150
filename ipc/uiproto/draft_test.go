package uiproto

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"feedback/ipc/wire"
)

// A draft's images cross the channel once while they stay in the draft:
// the pauses after the first send only their references, and the app
// rebuilds each whole draft.
func TestDraftImagesCrossOnce(t *testing.T) {
	a := wire.Image{MIME: "image/png", Data: []byte("aaaa"), Name: "a.png"}
	b := wire.Image{MIME: "image/jpeg", Data: []byte("bbbbbb")}
	c := wire.Image{MIME: "image/png", Data: []byte("cc")}
	steps := []struct {
		name  string
		draft wire.Draft
		bytes int // image bytes the event carries
	}{
		{"first pause", wire.Draft{Replies: []wire.Reply{{Text: "h"}}, Images: []wire.Image{a}}, 4},
		{"typing on", wire.Draft{Replies: []wire.Reply{{Text: "he"}}, Images: []wire.Image{a}}, 0},
		{"one more image", wire.Draft{Replies: []wire.Reply{{Text: "he"}}, Images: []wire.Image{a, b}}, 6},
		{"the first removed", wire.Draft{Replies: []wire.Reply{{Text: "hey"}}, Images: []wire.Image{b}}, 0},
		{"another, and the first again", wire.Draft{Images: []wire.Image{c, b, a}}, 2 + 4},
		{"no images", wire.Draft{Replies: []wire.Reply{{Text: "text only"}}}, 0},
	}
	var enc DraftEncoder
	var imgs DraftImages
	for _, st := range steps {
		ev := enc.Encode("q", st.draft)
		// Across the wire, as the app gets it.
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var got DraftChanged
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		sent := 0
		for _, di := range got.Images {
			if di.Image != nil {
				sent += len(di.Image.Data)
			}
		}
		if sent != st.bytes {
			t.Errorf("%s: %d image bytes sent, want %d", st.name, sent, st.bytes)
		}
		d, err := imgs.Apply(got)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if !reflect.DeepEqual(d, st.draft) {
			t.Errorf("%s: the app rebuilt %+v, want %+v", st.name, d, st.draft)
		}
		if len(imgs) != len(st.draft.Images) {
			t.Errorf("%s: the app keeps %d images, want the draft's %d", st.name, len(imgs), len(st.draft.Images))
		}
	}
}

// A reference to an image whose bytes never came is an error, not a draft
// without it.
func TestDraftUnknownImage(t *testing.T) {
	var imgs DraftImages
	_, err := imgs.Apply(DraftChanged{ID: "q", Images: []DraftImage{{Ref: "7"}}})
	if !errors.Is(err, ErrUnknownImage) {
		t.Errorf("Apply = %v, want ErrUnknownImage", err)
	}
}
