package markdown

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"golang.org/x/image/draw"

	"feedback/dialogs/imagepipe"
	"feedback/internal/i18n"
)

// Inline images of a question's Markdown: a data: URI or a local file (an
// absolute path, ~/path or a file: URL) is drawn in the window, scaled down
// to fit it and aligned with the text. Remote http(s) images are never
// fetched (a request would tell a third party the user is reading the
// question) and show as a link.
//
// The question is hostile, so a local image is read only when all of this
// holds (see readImageFile):
//   - the path, with every symbolic link resolved, lies inside the user's
//     home directory and no element of it below the home starts with a dot
//     (~/.ssh, ~/.config and the like are never read);
//   - it is a regular file (no FIFO, device, socket or /proc entry), checked
//     before opening, opened non-blocking without following a link, and
//     checked again on the open file;
//   - it is at most pictureMaxFileBytes long, checked before reading.
//
// Nothing of this runs on the Fyne goroutine: the window shows a
// placeholder box with the alt text, and a worker (at most pictureWorkers
// at once across the app, each image given pictureDeadline) reads and
// decodes the image with imagepipe, then swaps it in with fyne.Do. A
// question shows at most maxPictures images; the others, and every image
// that cannot be shown, appear as their alt text with the reason.

const (
	// pictureMaxWidth and pictureMaxHeight bound an inline image's size in
	// the window; a narrower window scales it down further.
	pictureMaxWidth  = 600
	pictureMaxHeight = 480
	// maxPictures is the number of images one question shows.
	maxPictures = 16
	// pictureMaxFileBytes bounds an image file read for the question.
	pictureMaxFileBytes = 16 << 20
	// pictureDeadline bounds reading and decoding one image.
	pictureDeadline = 10 * time.Second
	// pictureWorkers is how many images are read and decoded at once.
	pictureWorkers = 2
	// placeholderHeight is the height of the box shown while loading.
	placeholderHeight = 48
)

// errNotLocal means a destination is neither a data: URI nor a local file.
var errNotLocal = errors.New("not a local image")

// pictureSlots bounds the image workers across every window of the app.
var pictureSlots = make(chan struct{}, pictureWorkers)

// PictureSegment is an image drawn as a block of the question: Dest is
// where the Markdown says it is. It shows a placeholder until the image is
// loaded (see loadPictures), then the image, or the alt text with the
// reason it cannot be shown.
type PictureSegment struct {
	Alt  string
	Dest string
	// Refused, when set, is why the image is not even tried (the question
	// shows too many); it is shown at once.
	Refused string

	// The load's outcome, set on the Fyne goroutine.
	loaded bool
	image  picture
	note   string
	views  []*pictureView
}

// Inline returns false: a picture is a block of its own.
func (p *PictureSegment) Inline() bool { return false }

// Textual returns the alt text.
func (p *PictureSegment) Textual() string { return p.Alt }

// Visual returns the placeholder, image or note, whichever is current.
func (p *PictureSegment) Visual() fyne.CanvasObject {
	v := newPictureView(p)
	p.views = append(p.views, v)
	return v
}

// Update refreshes a view made by Visual.
func (p *PictureSegment) Update(o fyne.CanvasObject) {
	if v, ok := o.(*pictureView); ok {
		v.Refresh()
	}
}

// Select does nothing: rich text selection is not implemented by fyne yet.
func (p *PictureSegment) Select(_, _ fyne.Position) {}

// SelectedText returns "".
func (p *PictureSegment) SelectedText() string { return "" }

// Unselect does nothing.
func (p *PictureSegment) Unselect() {}

// state reports what the picture shows now: "loading", "image" or "note".
func (p *PictureSegment) state() string {
	switch {
	case p.Refused != "":
		return "note"
	case !p.loaded:
		return "loading"
	case p.note != "":
		return "note"
	}
	return "image"
}

// noteText is the alt text with the reason the image is not shown.
func (p *PictureSegment) noteText() string {
	why := p.Refused
	if why == "" {
		why = p.note
	}
	return i18n.T("markdown.image_not_shown", map[string]any{"Alt": p.Alt, "Why": why})
}

// settle records the load's outcome and refreshes the views. It runs on
// the Fyne goroutine.
func (p *PictureSegment) settle(img picture, err error) {
	p.loaded = true
	if err != nil {
		p.note = describeImageError(err)
	} else {
		p.image = img
	}
	for _, v := range p.views {
		v.Refresh()
	}
}

// pictureView draws a PictureSegment: as wide as the text allows up to the
// image's own size (never wider than the space it is given, whatever the
// window), left-aligned with the text, its height following the width.
type pictureView struct {
	widget.BaseWidget
	seg *PictureSegment
}

func newPictureView(p *PictureSegment) *pictureView {
	v := &pictureView{seg: p}
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer implements fyne.Widget.
func (v *pictureView) CreateRenderer() fyne.WidgetRenderer {
	r := &pictureRenderer{v: v}
	r.build()
	return r
}

type pictureRenderer struct {
	v     *pictureView
	shown string // the state the objects were built for
	img   *canvas.Image
	box   fyne.CanvasObject // placeholder or note
	note  *widget.Label
	objs  []fyne.CanvasObject
}

func (r *pictureRenderer) build() {
	p := r.v.seg
	r.shown = p.state()
	r.img, r.box, r.note = nil, nil, nil
	switch r.shown {
	case "image":
		r.img = canvas.NewImageFromImage(p.image.decoded) // decoded and scaled by the worker: displayImage
		r.img.FillMode = canvas.ImageFillStretch          // the renderer keeps the aspect ratio
		r.img.ScaleMode = canvas.ImageScaleSmooth
		r.objs = []fyne.CanvasObject{r.img}
	case "loading":
		bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
		bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
		label := widget.NewLabel(i18n.T("markdown.loading_image", map[string]any{"Alt": shortText(p.Alt, 80)}))
		label.TextStyle.Italic = true
		label.Truncation = fyne.TextTruncateEllipsis
		r.box = container.NewStack(bg, label)
		r.objs = []fyne.CanvasObject{r.box}
	default:
		r.note = widget.NewLabel(r.v.seg.noteText())
		r.note.TextStyle.Italic = true
		r.note.Wrapping = fyne.TextWrapWord
		r.objs = []fyne.CanvasObject{r.note}
	}
}

// imageSize is the size the image is drawn at within width w.
func (r *pictureRenderer) imageSize(w float32) fyne.Size {
	p := r.v.seg.image
	iw, ih := float32(p.Width), float32(p.Height)
	if iw <= 0 || ih <= 0 {
		return fyne.Size{}
	}
	scale := min(float32(1), pictureMaxWidth/iw, pictureMaxHeight/ih)
	if w > 0 {
		scale = min(scale, w/iw)
	}
	return fyne.NewSize(iw*scale, ih*scale)
}

func (r *pictureRenderer) Layout(size fyne.Size) {
	switch {
	case r.img != nil:
		r.img.Move(fyne.NewPos(0, 0))
		r.img.Resize(r.imageSize(size.Width))
	case r.box != nil:
		r.box.Move(fyne.NewPos(0, 0))
		r.box.Resize(fyne.NewSize(min(size.Width, pictureMaxWidth), max(placeholderHeight, r.box.MinSize().Height)))
	case r.note != nil:
		r.note.Move(fyne.NewPos(-theme.InnerPadding(), 0))
		r.note.Resize(fyne.NewSize(size.Width+theme.InnerPadding(), size.Height))
	}
}

// MinSize never asks for width: the image scales down to the space it is
// given. The height is the image's at the current width.
func (r *pictureRenderer) MinSize() fyne.Size {
	switch {
	case r.img != nil:
		return fyne.NewSize(0, r.imageSize(r.v.Size().Width).Height)
	case r.box != nil:
		return fyne.NewSize(0, max(placeholderHeight, r.box.MinSize().Height))
	default:
		return fyne.NewSize(0, r.note.MinSize().Height)
	}
}

func (r *pictureRenderer) Refresh() {
	if r.v.seg.state() != r.shown {
		r.build()
	}
	for _, o := range r.objs {
		o.Refresh()
	}
	r.Layout(r.v.Size())
}

func (r *pictureRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *pictureRenderer) Destroy() {}

// Resize re-lays the image out for the new width; when its height changes
// the view is refreshed so that the text around it makes room.
func (v *pictureView) Resize(s fyne.Size) {
	old := v.MinSize()
	v.BaseWidget.Resize(s)
	if v.MinSize() != old {
		v.Refresh()
	}
}

// shortText cuts s to at most n characters, with an ellipsis.
func shortText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// Pictures loads the pictures of one question. do runs a function on
// the Fyne goroutine (fyne.Do; tests collect the functions instead).
type Pictures struct {
	// Changed, if set, is called on the Fyne goroutine when the height of
	// the question's Markdown changed after it was first shown: an image
	// loaded (or failed to), or "Show all" added a part of a long message.
	// The window holding it may want to grow.
	Changed func()

	do       func(func())
	roots    func() []string // directories images may be read from
	deadline time.Duration   // for reading and decoding one image
	count    int             // pictures met so far in the question
}

// NewPictures returns the loader of a window's question.
func NewPictures() *Pictures {
	return NewPicturesOn(fyne.Do)
}

// NewPicturesOn returns a loader that hands each finished load to do,
// which must run it on the Fyne goroutine. The app's is fyne.Do; a test
// of a window collects the loads and runs them when it is ready (Fyne's
// test driver runs fyne.Do on the calling goroutine, the loader's).
func NewPicturesOn(do func(func())) *Pictures {
	return &Pictures{do: do, roots: defaultImageRoots, deadline: pictureDeadline}
}

// defaultImageRoots is the user's home directory.
func defaultImageRoots() []string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return nil
	}
	return []string{home}
}

// picture returns the segment of an image at dest, or ok false when dest
// is not a data: URI or a local file. The image is not read here: see load.
func (l *Pictures) picture(dest, alt string) (*PictureSegment, bool) {
	dest = strings.TrimSpace(dest)
	if !isLocalImage(dest) {
		return nil, false
	}
	p := &PictureSegment{Alt: alt, Dest: dest}
	l.count++
	if l.count > maxPictures {
		p.Refused = i18n.N("markdown.too_many_images", maxPictures)
	}
	return p, true
}

// load reads and decodes p off the Fyne goroutine, then settles it there
// and calls then (which refreshes the text holding it).
func (l *Pictures) load(p *PictureSegment, then func()) {
	if p.Refused != "" || l.do == nil {
		return
	}
	roots := l.roots()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), l.deadline)
		defer cancel()
		img, err := loadPicture(ctx, p.Dest, roots)
		l.do(func() {
			p.settle(img, err)
			then()
			if l.Changed != nil {
				l.Changed()
			}
		})
	}()
}

// loadPicture waits for a worker slot and runs the read and decode within
// the deadline of ctx. A read that blocks past the deadline (a hung network
// file system) is abandoned: its goroutine ends when the read does.
func loadPicture(ctx context.Context, dest string, roots []string) (picture, error) {
	if err := refusedAsWritten(dest, roots); err != nil {
		return picture{}, err // no need to wait for a worker
	}
	select {
	case pictureSlots <- struct{}{}:
	case <-ctx.Done():
		return picture{}, timeoutError(ctx)
	}
	type result struct {
		img picture
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer func() { <-pictureSlots }()
		img, err := readAndDecode(dest, roots)
		ch <- result{img, err}
	}()
	select {
	case r := <-ch:
		return r.img, r.err
	case <-ctx.Done():
		return picture{}, timeoutError(ctx)
	}
}

// errPictureTimeout: reading and decoding an image took too long.
var errPictureTimeout = errors.New("reading it took too long")

func timeoutError(ctx context.Context) error {
	return fmt.Errorf("%w: %w", errPictureTimeout, ctx.Err())
}

// picture is a loaded image: processed by imagepipe (what its size is
// taken from) and decoded for the screen (what is drawn).
type picture struct {
	imagepipe.Image
	decoded image.Image
}

func readAndDecode(dest string, roots []string) (picture, error) {
	name, data, err := readLocalImage(dest, roots)
	if err != nil {
		return picture{}, err
	}
	img, err := imagepipe.Process(name, data, imagepipe.Default())
	if err != nil {
		return picture{}, err
	}
	decoded, err := displayImage(img)
	return picture{img, decoded}, err
}

// displayImage decodes img for the screen, here on the worker: at most
// twice the size a picture is drawn at (enough for a scale of 2), so that
// the Fyne goroutine only hands a small bitmap to the canvas. (A canvas
// image made from encoded bytes decodes them on the Fyne goroutine when it
// is first drawn: seconds for a few large screenshots, every window frozen.)
func displayImage(img imagepipe.Image) (image.Image, error) {
	m, _, err := image.Decode(bytes.NewReader(img.Data))
	if err != nil {
		return nil, err
	}
	b := m.Bounds()
	w, h := float64(b.Dx()), float64(b.Dy())
	scale := min(1, 2*pictureMaxWidth/w, 2*pictureMaxHeight/h)
	if scale >= 1 {
		return m, nil
	}
	dst := image.NewNRGBA(image.Rect(0, 0, max(1, int(w*scale)), max(1, int(h*scale))))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), m, b, draw.Src, nil)
	return dst, nil
}

// refusedAsWritten refuses a file path outside the roots as written,
// before any file is looked at (see allowedPath).
func refusedAsWritten(dest string, roots []string) error {
	var path string
	switch lower := strings.ToLower(dest); {
	case strings.HasPrefix(lower, "data:"):
		return nil
	case strings.HasPrefix(lower, "file:"):
		u, err := url.Parse(dest)
		if err != nil {
			return nil // readLocalImage words it
		}
		path = u.Path
	case strings.HasPrefix(dest, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return nil // readLocalImage words it
		}
		path = filepath.Join(home, dest[2:])
	default:
		path = dest
	}
	return within(filepath.Clean(path), append(roots, resolvedRoots(roots)...))
}

// resolvedRoots returns roots with their symbolic links resolved.
func resolvedRoots(roots []string) []string {
	var out []string
	for _, root := range roots {
		if r, err := filepath.EvalSymlinks(root); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// isLocalImage reports whether dest is a data: URI or names a local file.
func isLocalImage(dest string) bool {
	lower := strings.ToLower(dest)
	return strings.HasPrefix(lower, "data:") || strings.HasPrefix(lower, "file:") ||
		strings.HasPrefix(dest, "~/") || filepath.IsAbs(dest)
}

func readLocalImage(dest string, roots []string) (name string, data []byte, err error) {
	switch {
	case strings.HasPrefix(strings.ToLower(dest), "data:"):
		data, err := decodeDataURI(dest)
		return i18n.T("markdown.embedded_image"), data, err
	case strings.HasPrefix(strings.ToLower(dest), "file:"):
		u, err := url.Parse(dest)
		if err != nil || u.Path == "" || (u.Host != "" && u.Host != "localhost") {
			return "", nil, fmt.Errorf("%q is not a usable file URL", shortText(dest, 80))
		}
		return readImageFile(u.Path, roots)
	case strings.HasPrefix(dest, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", nil, err
		}
		return readImageFile(filepath.Join(home, dest[2:]), roots)
	case filepath.IsAbs(dest):
		return readImageFile(dest, roots)
	}
	return "", nil, errNotLocal
}

// Why a local file is not read; describeImageError words them for the user.
var (
	errOutsideRoots = errors.New("outside the home directory")
	errHiddenPath   = errors.New("in a hidden file or directory")
	errNotRegular   = errors.New("not a regular file")
	errFileTooLarge = errors.New("file too large")
	errFileChanged  = errors.New("file changed while opening")
)

// readImageFile reads the regular file at path under the rules of the
// file's comment, at most pictureMaxFileBytes.
func readImageFile(path string, roots []string) (string, []byte, error) {
	real, err := allowedPath(path, roots)
	if err != nil {
		return "", nil, err
	}
	before, err := os.Lstat(real)
	if err != nil {
		return "", nil, err
	}
	if !before.Mode().IsRegular() {
		return "", nil, errNotRegular
	}
	if before.Size() > pictureMaxFileBytes {
		return "", nil, errFileTooLarge
	}
	f, err := openNoFollow(real)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	after, err := f.Stat()
	if err != nil {
		return "", nil, err
	}
	if !after.Mode().IsRegular() || !os.SameFile(before, after) {
		return "", nil, errFileChanged
	}
	data, err := io.ReadAll(io.LimitReader(f, pictureMaxFileBytes+1))
	if err != nil {
		return "", nil, err
	}
	if len(data) > pictureMaxFileBytes {
		return "", nil, errFileTooLarge
	}
	return filepath.Base(real), data, nil
}

// allowedPath returns path, its symbolic links resolved, if it lies inside
// one of roots with no hidden element below the root. A path outside them
// as written is refused before anything on the disk is looked at.
func allowedPath(path string, roots []string) (string, error) {
	path = filepath.Clean(path)
	resolved := resolvedRoots(roots)
	if err := within(path, append(roots, resolved...)); err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	if err := within(real, resolved); err != nil {
		return "", err
	}
	return real, nil
}

// within checks that path lies below one of roots with no element below
// the root starting with a dot.
func within(path string, roots []string) error {
	for _, root := range roots {
		rel, err := filepath.Rel(filepath.Clean(root), path)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			continue
		}
		for _, elem := range strings.Split(rel, string(filepath.Separator)) {
			if strings.HasPrefix(elem, ".") {
				return errHiddenPath
			}
		}
		return nil
	}
	return errOutsideRoots
}

// describeImageError words why an image is not shown.
func describeImageError(err error) string {
	var pe *fs.PathError
	switch {
	case errors.Is(err, errPictureTimeout):
		return i18n.T("markdown.err_timeout")
	case errors.Is(err, errOutsideRoots):
		return i18n.T("markdown.err_outside")
	case errors.Is(err, errHiddenPath):
		return i18n.T("markdown.err_hidden")
	case errors.Is(err, errNotRegular), errors.Is(err, errFileChanged):
		return i18n.T("markdown.err_not_regular")
	case errors.Is(err, errFileTooLarge):
		return i18n.T("markdown.err_too_large", map[string]any{"Count": pictureMaxFileBytes >> 20})
	case errors.Is(err, fs.ErrNotExist):
		return i18n.T("markdown.err_no_file")
	case errors.Is(err, fs.ErrPermission):
		return i18n.T("markdown.err_permission")
	case errors.As(err, &pe):
		return shortText(pe.Err.Error(), 120)
	}
	return shortText(err.Error(), 200)
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
