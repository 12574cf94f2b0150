package imagepipe

// Limits bounds what one answer may carry. The app's settings fill it; a zero
// or negative field means the default from [Default], so a partly filled
// Limits is safe.
type Limits struct {
	// MaxEdge is the longest edge, in pixels, after downscaling. Default
	// 1568: the size above which Claude's API downscales images itself, so
	// sending more only costs tokens and bandwidth.
	MaxEdge int
	// MaxImageBytes bounds one image after re-encoding. Default 4 MiB.
	MaxImageBytes int
	// MaxTotalBytes bounds all attachments of one answer. Default 16 MiB.
	MaxTotalBytes int
	// MaxPixels bounds width×height as declared in the file's header, checked
	// before anything is decoded. Default 50 megapixels: enough for a 48 MP
	// phone photo (8064×6048) or an 8K screenshot (7680×4320 = 33 MP), while
	// the decoded image stays below 200 MB at 4 bytes a pixel (400 MB for a
	// 16-bit PNG, the worst case).
	MaxPixels int64
	// MaxCount bounds the number of attachments of one answer. Default 8.
	MaxCount int
	// MaxInputBytes bounds the encoded input, checked before anything else.
	// Default 64 MiB: four times a 48 MP JPEG from a phone, and larger
	// than any PNG screenshot in practice; it keeps a pasted or dropped
	// multi-gigabyte file from being held and parsed at all.
	MaxInputBytes int
}

const (
	mib = 1 << 20

	defaultMaxEdge       = 1568
	defaultMaxImageBytes = 4 * mib
	defaultMaxTotalBytes = 16 * mib
	defaultMaxPixels     = 50_000_000
	defaultMaxCount      = 8
	defaultMaxInputBytes = 64 * mib
)

// Default returns the documented default limits.
func Default() Limits {
	return Limits{
		MaxEdge:       defaultMaxEdge,
		MaxImageBytes: defaultMaxImageBytes,
		MaxTotalBytes: defaultMaxTotalBytes,
		MaxPixels:     defaultMaxPixels,
		MaxCount:      defaultMaxCount,
		MaxInputBytes: defaultMaxInputBytes,
	}
}

// withDefaults replaces every zero or negative field with its default.
func (l Limits) withDefaults() Limits {
	d := Default()
	if l.MaxEdge <= 0 {
		l.MaxEdge = d.MaxEdge
	}
	if l.MaxImageBytes <= 0 {
		l.MaxImageBytes = d.MaxImageBytes
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = d.MaxTotalBytes
	}
	if l.MaxPixels <= 0 {
		l.MaxPixels = d.MaxPixels
	}
	if l.MaxCount <= 0 {
		l.MaxCount = d.MaxCount
	}
	if l.MaxInputBytes <= 0 {
		l.MaxInputBytes = d.MaxInputBytes
	}
	return l
}
