package imagepipe

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentinels for errors.Is. Every error from [Process] and [Set.Add] is an
// [*Error] that unwraps to exactly one of them.
var (
	// ErrUnsupported: not one of the readable formats, or a variant of one
	// (a TIFF compression, a BMP bit depth) the decoders do not handle.
	ErrUnsupported = errors.New("imagepipe: unsupported image format")
	// ErrCorrupt: the format is known but the data is damaged, truncated or
	// empty.
	ErrCorrupt = errors.New("imagepipe: damaged image")
	// ErrTooManyPixels: the header declares more than Limits.MaxPixels.
	ErrTooManyPixels = errors.New("imagepipe: image has too many pixels")
	// ErrInputTooLarge: the file is larger than Limits.MaxInputBytes.
	ErrInputTooLarge = errors.New("imagepipe: image file too large to read")
	// ErrImageTooLarge: the re-encoded image exceeds Limits.MaxImageBytes.
	ErrImageTooLarge = errors.New("imagepipe: image too large after compression")
	// ErrTotalTooLarge: adding the image would exceed Limits.MaxTotalBytes.
	ErrTotalTooLarge = errors.New("imagepipe: attachments exceed the total size limit")
	// ErrTooMany: the answer already holds Limits.MaxCount images.
	ErrTooMany = errors.New("imagepipe: too many attachments")
)

// Error is the error type of this package. Error() is a complete sentence
// for the user, to be shown in the question window unchanged.
type Error struct {
	// Kind is one of the Err* sentinels; errors.Is(err, Kind) holds.
	Kind error
	// Name is the attachment's display name as used in the message.
	Name string
	// Cause is the decoder's own error, for logs; nil when there is none.
	// errors.Is and errors.As see it too.
	Cause error

	msg string
}

func (e *Error) Error() string { return e.msg }

// Unwrap returns Kind and, when set, Cause.
func (e *Error) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Cause}
}

func newError(kind error, name string, cause error, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	// A message that starts with the fallback subject "the image" is a
	// sentence like any other.
	if r, size := utf8.DecodeRuneInString(msg); unicode.IsLower(r) && strings.HasPrefix(msg, noName) {
		msg = string(unicode.ToUpper(r)) + msg[size:]
	}
	return &Error{Kind: kind, Name: name, Cause: cause, msg: msg}
}

// noName stands in for an attachment without a name (a clipboard paste the
// caller did not label).
const noName = "the image"

const maxNameRunes = 60

// baseName reduces a path to its last element, with either separator, so
// messages and the wire never carry the user's directory layout.
func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// displayName is name as it appears in a message: its last path element,
// without control characters, shortened to maxNameRunes, or "the image".
func displayName(name string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, baseName(name))
	name = strings.TrimSpace(name)
	if name == "" {
		return noName
	}
	if utf8.RuneCountInString(name) > maxNameRunes {
		r := []rune(name)
		name = string(r[:maxNameRunes-1]) + "…"
	}
	return name
}

// formatBytes renders n for people: "512 bytes", "40 KB", "3.2 MB" (binary
// multiples, as file managers on every desktop show them).
func formatBytes(n int) string {
	return formatBytesPrec(n, 1)
}

func formatBytesPrec(n, prec int) string {
	switch {
	case n < 1024:
		if n == 1 {
			return "1 byte"
		}
		return strconv.Itoa(n) + " bytes"
	case n < mib:
		return trimZeros(strconv.FormatFloat(float64(n)/1024, 'f', prec-1, 64)) + " KB"
	default:
		return trimZeros(strconv.FormatFloat(float64(n)/mib, 'f', prec, 64)) + " MB"
	}
}

// formatOver renders a size that exceeds limit so that the two never read
// the same ("4 MB … the limit is 4 MB"): precision grows to three decimals,
// and beyond that the size is "just over" the limit.
func formatOver(n, limit int) (size, lim string) {
	lim = formatBytes(limit)
	for prec := 1; prec <= 3; prec++ {
		if size = formatBytesPrec(n, prec); size != lim {
			return size, lim
		}
	}
	return "just over " + lim, lim
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// formatMegapixels renders a pixel count as "50" or "1.5".
func formatMegapixels(px int64) string {
	return trimZeros(strconv.FormatFloat(float64(px)/1e6, 'f', 1, 64))
}
