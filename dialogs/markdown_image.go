package dialogs

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"feedback/imagepipe"
)

// Inline images of a question's Markdown: a data: URI or a local file
// (an absolute path, ~/path or a file: URL) is drawn in the window, scaled
// to fit it. Remote http(s) images are never fetched (a request would tell
// a third party the user is reading the question) and show as a link. The
// only I/O of the package is reading such a local file, bounded in size.

// pictureMaxWidth and pictureMaxHeight bound an inline image's natural size
// in the window; a narrower window scales it down further.
const (
	pictureMaxWidth  = 600
	pictureMaxHeight = 480
)

// errNotLocal means a destination is neither a data: URI nor a local file.
var errNotLocal = errors.New("not a local image")

// PictureSegment is an image drawn inline in the question: already decoded
// and re-encoded by imagepipe (bombs refused, large images downscaled).
type PictureSegment struct {
	Image imagepipe.Image
	Alt   string
}

// Inline returns false: a picture is a block of its own.
func (p *PictureSegment) Inline() bool { return false }

// Textual returns the alt text.
func (p *PictureSegment) Textual() string { return p.Alt }

// Visual returns the image, scaled to fit, keeping its aspect ratio.
func (p *PictureSegment) Visual() fyne.CanvasObject {
	img := canvas.NewImageFromResource(fyne.NewStaticResource(p.Image.Name, p.Image.Data))
	img.FillMode = canvas.ImageFillContain
	img.ScaleMode = canvas.ImageScaleSmooth
	w, h := float32(p.Image.Width), float32(p.Image.Height)
	if w > pictureMaxWidth {
		w, h = pictureMaxWidth, h*pictureMaxWidth/w
	}
	if h > pictureMaxHeight {
		w, h = w*pictureMaxHeight/h, pictureMaxHeight
	}
	img.SetMinSize(fyne.NewSize(min(w, 64), h))
	return img
}

// Update does nothing: a picture does not change.
func (p *PictureSegment) Update(fyne.CanvasObject) {}

// Select does nothing: rich text selection is not implemented by fyne yet.
func (p *PictureSegment) Select(_, _ fyne.Position) {}

// SelectedText returns "".
func (p *PictureSegment) SelectedText() string { return "" }

// Unselect does nothing.
func (p *PictureSegment) Unselect() {}

// localPicture loads the image at dest when it is a data: URI or a local
// file; errNotLocal for anything else; other errors say why it cannot be shown.
func localPicture(dest string) (imagepipe.Image, error) {
	name, data, err := readLocalImage(strings.TrimSpace(dest))
	if err != nil {
		return imagepipe.Image{}, err
	}
	return imagepipe.Process(name, data, imagepipe.Default())
}

func readLocalImage(dest string) (name string, data []byte, err error) {
	switch {
	case strings.HasPrefix(strings.ToLower(dest), "data:"):
		data, err := decodeDataURI(dest)
		return "the embedded image", data, err
	case strings.HasPrefix(strings.ToLower(dest), "file:"):
		u, err := url.Parse(dest)
		if err != nil || u.Path == "" {
			return "", nil, fmt.Errorf("%q is not a usable file URL", dest)
		}
		return readImageFile(u.Path)
	case strings.HasPrefix(dest, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", nil, err
		}
		return readImageFile(filepath.Join(home, dest[2:]))
	case filepath.IsAbs(dest):
		return readImageFile(dest)
	}
	return "", nil, errNotLocal
}

// readImageFile reads at most the pipeline's input limit (plus one byte, so
// an oversized file is reported as such rather than cut).
func readImageFile(path string) (string, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(imagepipe.Default().MaxInputBytes)+1))
	return filepath.Base(path), data, err
}

// decodeDataURI returns the bytes of a data: URI (base64 or percent-encoded).
func decodeDataURI(uri string) ([]byte, error) {
	meta, payload, ok := strings.Cut(uri[len("data:"):], ",")
	if !ok {
		return nil, errors.New("malformed data: URI (no comma)")
	}
	if strings.HasSuffix(strings.ToLower(meta), ";base64") {
		payload = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
				return -1
			}
			return r
		}, payload)
		if data, err := base64.StdEncoding.DecodeString(payload); err == nil {
			return data, nil
		}
		data, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(payload, "="))
		if err != nil {
			return nil, fmt.Errorf("malformed base64 in data: URI: %w", err)
		}
		return data, nil
	}
	s, err := url.PathUnescape(payload)
	return []byte(s), err
}

// pictureOrNote renders a local image, or the alt text with the reason it
// cannot be shown. ok is false when dest is not local at all.
func pictureOrNote(dest, alt string, st widget.RichTextStyle) ([]widget.RichTextSegment, bool) {
	img, err := localPicture(dest)
	if errors.Is(err, errNotLocal) {
		return nil, false
	}
	if err != nil {
		italic := st
		italic.TextStyle.Italic = true
		return []widget.RichTextSegment{textSegment(fmt.Sprintf("%s (image not shown: %v)", alt, err), italic)}, true
	}
	return []widget.RichTextSegment{&PictureSegment{Image: img, Alt: alt}}, true
}
