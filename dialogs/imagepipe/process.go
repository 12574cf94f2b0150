package imagepipe

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/bmp"
	"golang.org/x/image/draw"
	"golang.org/x/image/tiff"
)

// Image is a processed attachment, ready for the wire.
type Image struct {
	// MIME is "image/png" or "image/jpeg": the encoding of Data, whatever
	// the input was.
	MIME string
	// Data is the re-encoded image, with no metadata.
	Data []byte
	// Width and Height are Data's dimensions, after downscaling and EXIF
	// rotation.
	Width, Height int
	// Name is the last path element of the name given to [Process], for the
	// user and the agent. It says nothing about the format: see MIME.
	Name string
	// OriginalBytes is the size of the input before processing.
	OriginalBytes int
}

// Output encodings.
const (
	MIMEPNG  = "image/png"
	MIMEJPEG = "image/jpeg"
)

// JPEGQuality is the quality photos are re-encoded at.
const JPEGQuality = 85

// An opaque image is sent as JPEG when it is photo-like: over a crop of
// at most photoProbe×photoProbe pixels from its centre, at its own
// resolution, JPEG is under jpegRatio of the PNG size. A photo's JPEG is
// typically 5 to 10 times smaller; a screenshot's is several times larger,
// and JPEG would blur its text.
//
// The test runs on the original pixels, not the downscaled result, because
// downscaling a screenshot antialiases every edge: the PNG of a downscaled
// 2560×1440 screenshot is five times larger than at full size, and its JPEG
// falls under half of it, while the text is exactly what must stay sharp.
// (The PNG's size hardly matters: the agent's cost depends on the pixel
// count, and the PNG stays far below the budget.)
const (
	jpegRatio  = 0.5
	photoProbe = 512
)

// Process turns one attachment into an [Image]. name is what the user knows
// the image by (a file name or path, or a label like "pasted image"); it is
// used in messages and Image.Name, never to guess the format, which is
// sniffed from src.
//
// In order, Process refuses inputs over l.MaxInputBytes; reads the header
// and refuses formats it cannot read and images over l.MaxPixels, before
// decoding anything; decodes (only the first frame of a GIF); applies the
// EXIF orientation of a JPEG or TIFF; downscales so the long edge is at most
// l.MaxEdge (never upscales); re-encodes as JPEG at quality [JPEGQuality]
// when the image is opaque and photo-like (its JPEG is less than half the
// size of its PNG), as PNG otherwise; and refuses results over
// l.MaxImageBytes, trying JPEG for an opaque image before giving up. Zero
// fields of l mean the defaults.
//
// Every error is an [*Error] with a message for the user. Process is safe
// for concurrent use but CPU- and memory-heavy (about 0.45 s and 115 MB
// for a 12 MP photo): call it off the UI goroutine, one image at a time.
// Peak memory is bounded by the limits: the input, the decoded image (at
// most l.MaxPixels × 4 bytes, × 8 for a 16-bit PNG), a quarter of that for
// box halving, and the resampler's scratch of under 2 × l.MaxEdge² × 32
// bytes (157 MB at the default edge, 75 MB for a 4:3 photo).
func Process(name string, src []byte, l Limits) (Image, error) {
	l = l.withDefaults()
	who := displayName(name)

	if len(src) == 0 {
		return Image{}, newError(ErrCorrupt, who, nil, "%s is empty", who)
	}
	if len(src) > l.MaxInputBytes {
		size, lim := formatOver(len(src), l.MaxInputBytes)
		return Image{}, newError(ErrInputTooLarge, who, nil,
			"%s is %s; feedback reads image files up to %s", who, size, lim)
	}
	f := sniff(src)
	if f == nil {
		return Image{}, newError(ErrUnsupported, who, nil,
			"%s is not an image format feedback can read (%s)", who, readableFormats)
	}

	cfg, err := decodeConfig(f, src)
	if err != nil {
		return Image{}, decodeError(f, who, err)
	}
	if err := checkPixels(who, cfg.Width, cfg.Height, l.MaxPixels); err != nil {
		return Image{}, err
	}

	m, err := decode(f, src)
	if err != nil {
		return Image{}, decodeError(f, who, err)
	}
	// The decoders allocate by the header just checked; a GIF's first frame
	// lies within it. Check the result anyway, it is cheap.
	b := m.Bounds()
	if err := checkPixels(who, b.Dx(), b.Dy(), l.MaxPixels); err != nil {
		return Image{}, err
	}

	opaque := isOpaque(m)
	photo := opaque && photoLike(m)
	out := transform(m, exifOrientation(f, src), l.MaxEdge, opaque)
	mime, data, err := encode(who, out, opaque, photo, l.MaxImageBytes)
	if err != nil {
		return Image{}, err
	}
	ob := out.Bounds()
	return Image{
		MIME:          mime,
		Data:          data,
		Width:         ob.Dx(),
		Height:        ob.Dy(),
		Name:          baseName(name),
		OriginalBytes: len(src),
	}, nil
}

// checkPixels refuses empty images and those over maxPixels, without
// overflowing on absurd dimensions.
func checkPixels(who string, w, h int, maxPixels int64) error {
	if w <= 0 || h <= 0 {
		return newError(ErrCorrupt, who, nil, "%s is damaged and cannot be read", who)
	}
	// w×h > max ⇔ w > ⌊max/h⌋ for positive integers.
	if int64(w) > maxPixels/int64(h) {
		return newError(ErrTooManyPixels, who, nil,
			"%s is %d×%d pixels; the limit is %s megapixels", who, w, h, formatMegapixels(maxPixels))
	}
	return nil
}

// decodeConfig and decode call the format's decoder, turning a panic in it
// into an error: a decoder bug must not take the app down.
func decodeConfig(f *format, src []byte) (cfg image.Config, err error) {
	defer recoverInto(&err)
	return f.config(bytes.NewReader(src))
}

func decode(f *format, src []byte) (m image.Image, err error) {
	defer recoverInto(&err)
	m, err = f.decode(bytes.NewReader(src))
	if err == nil && m == nil {
		err = errors.New("decoder returned no image")
	}
	return m, err
}

func recoverInto(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("decoder panic: %v", r)
	}
}

// decodeError classifies a decoder's error: a valid file using a feature
// the decoder lacks is unsupported, anything else is damage.
func decodeError(f *format, who string, err error) error {
	var (
		jpegU jpeg.UnsupportedError
		pngU  png.UnsupportedError
		tiffU tiff.UnsupportedError
	)
	if errors.As(err, &jpegU) || errors.As(err, &pngU) || errors.As(err, &tiffU) || errors.Is(err, bmp.ErrUnsupported) {
		return newError(ErrUnsupported, who, err,
			"%s is a kind of %s that feedback cannot read; convert it to PNG or JPEG", who, f.name)
	}
	return newError(ErrCorrupt, who, err, "%s is damaged and cannot be read", who)
}

// isOpaque reports whether every pixel of m is opaque. Image types that
// cannot tell are taken as transparent, which keeps them PNG.
func isOpaque(m image.Image) bool {
	o, ok := m.(interface{ Opaque() bool })
	return ok && o.Opaque()
}

// fit returns the size of a w×h image scaled so its long edge is at most
// maxEdge, keeping the aspect ratio; no dimension drops below 1.
func fit(w, h, maxEdge int) (int, int) {
	if w <= maxEdge && h <= maxEdge {
		return w, h
	}
	scale := func(short, long int) int {
		return max(1, int((int64(short)*int64(maxEdge)+int64(long)/2)/int64(long)))
	}
	if w >= h {
		return maxEdge, scale(h, w)
	}
	return scale(w, h), maxEdge
}

// transform downscales m to fit maxEdge and applies EXIF orientation o.
// It returns m itself when neither is needed. opaque says m is opaque; the
// resampler's rounding must not turn that into an alpha of 254.
func transform(m image.Image, o, maxEdge int, opaque bool) image.Image {
	b := m.Bounds()
	dw, dh := fit(b.Dx(), b.Dy(), maxEdge)
	if dw == b.Dx() && dh == b.Dy() && o == 1 {
		return m
	}
	var out *image.RGBA
	if dw != b.Dx() || dh != b.Dy() {
		out = scaleTo(m, dw, dh, draw.CatmullRom, true)
	} else {
		out = toRGBA(m)
	}
	out = orient(out, o)
	if opaque {
		for i := 3; i < len(out.Pix); i += 4 {
			out.Pix[i] = 0xff
		}
	}
	return out
}

// scaleTo resamples src to dw×dh with the final interpolator. With
// prehalve, src is first halved with an exact 2×2 box filter (ApproxBiLinear
// at exactly half size averages each 2×2 block) for as long as the result
// is at least dw×dh. Box halving is alias-free and cheap, and it bounds the
// float64 scratch buffer of a kernel interpolator (dw × source height × 32
// bytes: 150 MB for a 4000×3000 photo, 75 MB once halved).
func scaleTo(src image.Image, dw, dh int, final draw.Interpolator, prehalve bool) *image.RGBA {
	sr := src.Bounds()
	for prehalve && sr.Dx()/2 >= dw && sr.Dy()/2 >= dh {
		hw, hh := sr.Dx()/2, sr.Dy()/2
		half := image.NewRGBA(image.Rect(0, 0, hw, hh))
		// An odd last row or column is dropped: under one source pixel.
		even := image.Rectangle{Min: sr.Min, Max: sr.Min.Add(image.Pt(2*hw, 2*hh))}
		draw.ApproxBiLinear.Scale(half, half.Rect, src, even, draw.Src, nil)
		src, sr = half, half.Rect
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	final.Scale(dst, dst.Rect, src, sr, draw.Src, nil)
	return dst
}

// toRGBA returns m as an *image.RGBA with its origin at 0,0.
func toRGBA(m image.Image) *image.RGBA {
	if r, ok := m.(*image.RGBA); ok && r.Rect.Min == (image.Point{}) {
		return r
	}
	b := m.Bounds()
	r := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(r, r.Rect, m, b.Min, draw.Src)
	return r
}

// photoLike reports whether opaque m compresses like a photo (see
// jpegRatio), judged on a crop from its centre.
func photoLike(m image.Image) bool {
	b := m.Bounds()
	w, h := min(b.Dx(), photoProbe), min(b.Dy(), photoProbe)
	crop := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(crop, crop.Rect, m, b.Min.Add(image.Pt((b.Dx()-w)/2, (b.Dy()-h)/2)), draw.Src)
	j, ok := encodeJPEG(crop)
	if !ok {
		return false
	}
	// Stop the PNG as soon as it is large enough to decide.
	_, pngSmallEnough := encodePNG(crop, int(float64(len(j))/jpegRatio))
	return !pngSmallEnough
}

// encode re-encodes m as JPEG (a photo) or PNG, within maxBytes. An opaque
// PNG over the limit falls back to JPEG if that fits.
func encode(who string, m image.Image, opaque, photo bool, maxBytes int) (string, []byte, error) {
	// JPEG cannot encode an edge over 65535 pixels (only reachable with a
	// MaxEdge setting above that); such an image goes to PNG.
	if photo {
		if j, ok := encodeJPEG(m); ok {
			if len(j) > maxBytes {
				return "", nil, tooLarge(who, len(j), maxBytes)
			}
			return MIMEJPEG, j, nil
		}
	}
	p, ok := encodePNG(m, 0)
	if !ok { // cannot happen: m is a decoded, non-empty image
		return "", nil, newError(ErrCorrupt, who, nil, "%s is damaged and cannot be read", who)
	}
	if len(p) <= maxBytes {
		return MIMEPNG, p, nil
	}
	if opaque {
		if j, ok := encodeJPEG(m); ok && len(j) <= maxBytes {
			return MIMEJPEG, j, nil
		} else if ok && len(j) < len(p) {
			return "", nil, tooLarge(who, len(j), maxBytes)
		}
	}
	return "", nil, tooLarge(who, len(p), maxBytes)
}

func tooLarge(who string, n, maxBytes int) error {
	size, lim := formatOver(n, maxBytes)
	return newError(ErrImageTooLarge, who, nil,
		"%s is %s after compression; the limit is %s", who, size, lim)
}

// encodePNG encodes m as PNG. With limit > 0 it gives up once the output
// passes limit bytes and reports ok == false.
func encodePNG(m image.Image, limit int) (data []byte, ok bool) {
	w := &cappedBuffer{limit: limit}
	if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(w, m); err != nil {
		// Our own images always encode; the only failure is the cap.
		return nil, false
	}
	return w.Bytes(), true
}

// encodeJPEG encodes m as JPEG, reporting ok == false for an image JPEG
// cannot hold (an edge over 65535 pixels).
func encodeJPEG(m image.Image) (data []byte, ok bool) {
	var w bytes.Buffer
	if err := jpeg.Encode(&w, m, &jpeg.Options{Quality: JPEGQuality}); err != nil {
		return nil, false
	}
	return w.Bytes(), true
}

// cappedBuffer is a bytes.Buffer that refuses to grow past limit (when
// limit > 0).
type cappedBuffer struct {
	bytes.Buffer
	limit int
}

var errCapped = errors.New("output limit reached")

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.limit > 0 && c.Len()+len(p) > c.limit {
		return 0, errCapped
	}
	return c.Buffer.Write(p)
}
