package native

import (
	"bytes"
	"encoding/binary"
	"errors"
	"maps"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Fyne 2.8 draws text with its symbol font (InterSymbols: arrows, ⌘, ⌫ …)
// among the fallbacks, before the system's fonts, and that font has no
// space. go-text/typesetting shapes a space in the font of the character
// before it (a font is never chosen for a space alone), so every space
// after an arrow was drawn as U+FFFD, an em wide: "A → B" read "A →�  B",
// and in the question's Markdown the wider word overlapped the next one.
// The symbol font Fyne falls back to is the *fyne.StaticResource that
// theme.DefaultSymbolFont returns; this gives it a space (an empty glyph as
// wide as Noto Sans's, the text font's), before anything is drawn: an
// init, so that no goroutine of Fyne's reads it meanwhile. The request that
// would make it unneeded: docs/upstream/fyne-symbol-font-space.md;
// TestSymbolFontStillLacksASpace fails once Fyne's font has one.
func init() { symbolFontPatched = addSpaceToSymbolFont() == nil }

// symbolFontPatched: the symbol font was given a space.
var symbolFontPatched bool

// symbolFontAsShipped is Fyne's symbol font as it came (for the tests).
var symbolFontAsShipped []byte

// spaceEm is the space's advance, in ems: Noto Sans's (260 of 1000).
const spaceEm = 0.26

// errFontShape is a font this cannot give a space to: left as it is.
var errFontShape = errors.New("a font of a shape the space patch does not know")

func addSpaceToSymbolFont() error {
	res, ok := theme.DefaultSymbolFont().(*fyne.StaticResource)
	if !ok {
		return errFontShape
	}
	symbolFontAsShipped = res.StaticContent
	out, err := withSpace(res.StaticContent)
	if err != nil {
		return err
	}
	res.StaticContent = out
	return nil
}

// withSpace returns a copy of the TrueType font data with a glyph for
// U+0020: a new last glyph, empty, spaceEm wide, in the cmap; nil and
// errFontShape when the font has one already or is of a shape this does
// not rewrite (a cmap other than format 4, tables that count glyphs
// besides maxp, hhea, hmtx and loca).
func withSpace(data []byte) ([]byte, error) {
	be := binary.BigEndian
	tables, order, err := fontTables(data)
	if err != nil {
		return nil, err
	}
	for _, tag := range []string{"hdmx", "LTSH", "VDMX", "kern", "CFF ", "CFF2", "gvar"} {
		if _, ok := tables[tag]; ok {
			return nil, errFontShape
		}
	}
	head, maxp, hhea, hmtx, loca, cmap, os2 := tables["head"], tables["maxp"], tables["hhea"], tables["hmtx"], tables["loca"], tables["cmap"], tables["OS/2"]
	if len(head) < 54 || len(maxp) < 6 || len(hhea) < 36 || hmtx == nil || loca == nil || cmap == nil {
		return nil, errFontShape
	}
	glyphs := int(be.Uint16(maxp[4:]))
	metrics := int(be.Uint16(hhea[34:]))
	longLoca := be.Uint16(head[50:]) == 1
	upem := float64(be.Uint16(head[18:]))
	if metrics == 0 || metrics > glyphs || len(hmtx) < 4*metrics+2*(glyphs-metrics) || glyphs >= 0xFFFF {
		return nil, errFontShape
	}
	mapping, err := cmap4(cmap)
	if err != nil {
		return nil, err
	}
	if _, ok := mapping[' ']; ok {
		return nil, errFontShape // nothing to do
	}
	gid := uint16(glyphs)
	mapping[' '] = gid

	// hmtx: every glyph's long metric, the new one's last.
	var mtx []byte
	for g := 0; g < glyphs; g++ {
		adv := be.Uint16(hmtx[4*min(g, metrics-1):])
		lsb := hmtx[4*g+2 : 4*g+4]
		if g >= metrics {
			at := 4*metrics + 2*(g-metrics)
			lsb = hmtx[at : at+2]
		}
		mtx = be.AppendUint16(mtx, adv)
		mtx = append(mtx, lsb...)
	}
	mtx = be.AppendUint16(mtx, uint16(spaceEm*upem+0.5))
	mtx = be.AppendUint16(mtx, 0)

	// loca: the new glyph starts and ends where the last one ends.
	size := 2
	if longLoca {
		size = 4
	}
	if len(loca) < size*(glyphs+1) {
		return nil, errFontShape
	}
	newLoca := append(bytes.Clone(loca[:size*(glyphs+1)]), loca[size*glyphs:size*(glyphs+1)]...)

	newMaxp := bytes.Clone(maxp)
	be.PutUint16(newMaxp[4:], uint16(glyphs+1))
	newHhea := bytes.Clone(hhea)
	be.PutUint16(newHhea[34:], uint16(glyphs+1))
	tables["maxp"], tables["hhea"], tables["hmtx"], tables["loca"], tables["cmap"] = newMaxp, newHhea, mtx, newLoca, writeCmap4(mapping)
	if len(os2) >= 68 && be.Uint16(os2[64:]) > ' ' {
		newOS2 := bytes.Clone(os2)
		be.PutUint16(newOS2[64:], ' ') // usFirstCharIndex
		tables["OS/2"] = newOS2
	}
	return writeFont(data[:4], tables, order), nil
}

// fontTables returns the tables of an sfnt by tag, and their tags in the
// order of its directory.
func fontTables(data []byte) (map[string][]byte, []string, error) {
	be := binary.BigEndian
	if len(data) < 12 || be.Uint32(data) != 0x00010000 {
		return nil, nil, errFontShape // TrueType outlines only
	}
	n := int(be.Uint16(data[4:]))
	tables := map[string][]byte{}
	var order []string
	for i := 0; i < n; i++ {
		at := 12 + 16*i
		if at+16 > len(data) {
			return nil, nil, errFontShape
		}
		off, length := int(be.Uint32(data[at+8:])), int(be.Uint32(data[at+12:]))
		if off < 0 || length < 0 || off+length > len(data) {
			return nil, nil, errFontShape
		}
		tag := string(data[at : at+4])
		tables[tag] = data[off : off+length]
		order = append(order, tag)
	}
	return tables, order, nil
}

// cmap4 reads the character map of a cmap whose every subtable is the one
// format 4 table (Unicode BMP), as subsetters write them.
func cmap4(cmap []byte) (map[rune]uint16, error) {
	be := binary.BigEndian
	if len(cmap) < 4 {
		return nil, errFontShape
	}
	n := int(be.Uint16(cmap[2:]))
	sub := -1
	for i := 0; i < n; i++ {
		at := 4 + 8*i
		if at+8 > len(cmap) {
			return nil, errFontShape
		}
		off := int(be.Uint32(cmap[at+4:]))
		if sub >= 0 && off != sub {
			return nil, errFontShape
		}
		sub = off
	}
	if sub < 0 || sub+14 > len(cmap) || be.Uint16(cmap[sub:]) != 4 {
		return nil, errFontShape
	}
	t := cmap[sub:]
	length := int(be.Uint16(t[2:]))
	segs := int(be.Uint16(t[6:])) / 2
	if length > len(t) || 16+8*segs > length {
		return nil, errFontShape
	}
	end, start, delta, rangeAt := 14, 16+2*segs, 16+4*segs, 16+6*segs
	out := map[rune]uint16{}
	for s := 0; s < segs; s++ {
		e, st := be.Uint16(t[end+2*s:]), be.Uint16(t[start+2*s:])
		d, ro := be.Uint16(t[delta+2*s:]), int(be.Uint16(t[rangeAt+2*s:]))
		for c := int(st); c <= int(e) && c != 0xFFFF; c++ {
			g := uint16(c) + d
			if ro != 0 {
				at := rangeAt + 2*s + ro + 2*(c-int(st))
				if at+2 > length {
					return nil, errFontShape
				}
				if g = be.Uint16(t[at:]); g != 0 {
					g += d
				}
			}
			if g != 0 {
				out[rune(c)] = g
			}
		}
	}
	return out, nil
}

// writeCmap4 is a cmap of one format 4 subtable, for Unicode BMP (0,3) and
// Windows (3,1), mapping each character in a segment of its own.
func writeCmap4(m map[rune]uint16) []byte {
	be := binary.BigEndian
	chars := slices.Sorted(maps.Keys(m))
	segs := len(chars) + 1 // and the final 0xFFFF
	var end, start, delta, ranges []byte
	for _, c := range chars {
		end = be.AppendUint16(end, uint16(c))
		start = be.AppendUint16(start, uint16(c))
		delta = be.AppendUint16(delta, m[c]-uint16(c))
		ranges = be.AppendUint16(ranges, 0)
	}
	end = be.AppendUint16(end, 0xFFFF)
	start = be.AppendUint16(start, 0xFFFF)
	delta = be.AppendUint16(delta, 1)
	ranges = be.AppendUint16(ranges, 0)
	search, selector := 1, 0
	for search*2 <= segs {
		search, selector = search*2, selector+1
	}
	sub := be.AppendUint16(nil, 4)
	sub = be.AppendUint16(sub, uint16(16+8*segs))
	sub = be.AppendUint16(sub, 0) // language
	sub = be.AppendUint16(sub, uint16(2*segs))
	sub = be.AppendUint16(sub, uint16(2*search))
	sub = be.AppendUint16(sub, uint16(selector))
	sub = be.AppendUint16(sub, uint16(2*segs-2*search))
	sub = append(sub, end...)
	sub = be.AppendUint16(sub, 0) // reservedPad
	sub = append(append(append(sub, start...), delta...), ranges...)

	out := be.AppendUint16(nil, 0) // version
	out = be.AppendUint16(out, 2)
	for _, enc := range [][2]uint16{{0, 3}, {3, 1}} {
		out = be.AppendUint16(out, enc[0])
		out = be.AppendUint16(out, enc[1])
		out = be.AppendUint32(out, 4+8*2)
	}
	return append(out, sub...)
}

// writeFont lays the tables out after a directory in order, each on four
// bytes, with their checksums and head's checkSumAdjustment.
func writeFont(version []byte, tables map[string][]byte, order []string) []byte {
	be := binary.BigEndian
	n := len(order)
	search, selector := 1, 0
	for search*2 <= n {
		search, selector = search*2, selector+1
	}
	out := append([]byte(nil), version...)
	out = be.AppendUint16(out, uint16(n))
	out = be.AppendUint16(out, uint16(16*search))
	out = be.AppendUint16(out, uint16(selector))
	out = be.AppendUint16(out, uint16(16*n-16*search))
	dir := len(out)
	out = append(out, make([]byte, 16*n)...)
	headAt := -1
	for i, tag := range order {
		t := tables[tag]
		if tag == "head" {
			t = bytes.Clone(t)
			be.PutUint32(t[8:], 0)
			headAt = len(out)
		}
		rec := out[dir+16*i:]
		copy(rec, tag)
		be.PutUint32(rec[4:], checksum(t))
		be.PutUint32(rec[8:], uint32(len(out)))
		be.PutUint32(rec[12:], uint32(len(t)))
		out = append(out, t...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	if headAt >= 0 {
		be.PutUint32(out[headAt+8:], 0xB1B0AFBA-checksum(out))
	}
	return out
}

// checksum is the OpenType checksum of b: the sum of its big-endian
// 32-bit words, the last padded with zeros.
func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}
