package clipimage

import "strings"

// imageMIMEs lists the image types Read accepts, best first. PNG is lossless
// and what screenshot tools and browsers offer; the rest are fallbacks.
var imageMIMEs = []string{
	"image/png",
	"image/jpeg",
	"image/bmp",
	"image/tiff",
	"image/webp",
	"image/gif",
}

// mimeAliases maps non-standard names that clipboard owners are known to offer
// (GTK offers several for BMP) to the canonical name in imageMIMEs.
var mimeAliases = map[string]string{
	"image/x-png":        "image/png",
	"image/jpg":          "image/jpeg",
	"image/pjpeg":        "image/jpeg",
	"image/x-bmp":        "image/bmp",
	"image/x-ms-bmp":     "image/bmp",
	"image/x-win-bitmap": "image/bmp",
	"image/x-tiff":       "image/tiff",
}

// canonicalMIME returns the canonical image MIME type for an offered target
// name, whether the name was an alias, and false if it is not an image type
// Read accepts. Matching ignores case, surrounding space and parameters.
func canonicalMIME(offered string) (mime string, alias, ok bool) {
	name := offered
	if i := strings.IndexByte(name, ';'); i >= 0 {
		name = name[:i]
	}
	name = strings.ToLower(strings.TrimSpace(name))
	for _, m := range imageMIMEs {
		if name == m {
			return m, false, true
		}
	}
	if m, found := mimeAliases[name]; found {
		return m, true, true
	}
	return "", false, false
}

// chooseTarget picks the best image type among the targets a clipboard owner
// offers. It returns the target exactly as offered (to request it) and its
// canonical MIME type (to report it); ok is false when nothing offered is an
// image type Read accepts. Between a canonical name and an alias of the same
// type it prefers the canonical name; otherwise the first offered wins.
func chooseTarget(offered []string) (target, mime string, ok bool) {
	best := -1
	for _, name := range offered {
		m, alias, isImage := canonicalMIME(name)
		if !isImage {
			continue
		}
		score := 2 * rank(m)
		if alias {
			score++
		}
		if best < 0 || score < best {
			best, target, mime = score, name, m
		}
	}
	return target, mime, best >= 0
}

func rank(mime string) int {
	for i, m := range imageMIMEs {
		if m == mime {
			return i
		}
	}
	return len(imageMIMEs)
}
