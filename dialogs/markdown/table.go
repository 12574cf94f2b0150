package markdown

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// TableSegment is a GFM table in a widget.RichText, drawn as a grid with ruled lines: each
// column as wide as its widest cell, the header row bold on the theme's header background,
// and the table scrolling sideways when it is wider than the text.
type TableSegment struct {
	// Alignments holds one alignment per column; the number of columns is len(Alignments).
	Alignments []fyne.TextAlign
	// Header holds the header row, one cell per column.
	Header []TableCell
	// Rows holds the body rows, each with one cell per column.
	Rows [][]TableCell

	page func() *container.Scroll // see Options.Page
}

// TableCell is the inline content of one table cell, already aligned and, in the header, bold.
type TableCell struct {
	Content []widget.RichTextSegment
}

// Inline returns false: a table is a block.
func (t *TableSegment) Inline() bool { return false }

// Textual returns the table as text: one line per row, cells separated by tabs.
func (t *TableSegment) Textual() string {
	var b strings.Builder
	for _, row := range t.allRows() {
		for i, c := range row {
			if i > 0 {
				b.WriteByte('\t')
			}
			for _, s := range c.Content {
				b.WriteString(s.Textual())
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Visual returns a new table view in a horizontal scroller.
func (t *TableSegment) Visual() fyne.CanvasObject {
	return newSideScroll(newTableView(t), t.page) // sidescroll.go: the wheel is not trapped
}

// Update points an existing table visual at this segment and refreshes it.
func (t *TableSegment) Update(o fyne.CanvasObject) {
	scroll, ok := o.(*SideScroll)
	if !ok {
		return
	}
	if v, ok := scroll.Content.(*tableView); ok {
		v.seg = t
		v.Refresh()
	}
}

// Select does nothing: rich text selection is not implemented by fyne yet.
func (t *TableSegment) Select(_, _ fyne.Position) {}

// SelectedText returns "" as selection is not supported.
func (t *TableSegment) SelectedText() string { return "" }

// Unselect does nothing.
func (t *TableSegment) Unselect() {}

// allRows returns the header row (if any) followed by the body rows.
func (t *TableSegment) allRows() [][]TableCell {
	if t.Header == nil {
		return t.Rows
	}
	return append([][]TableCell{t.Header}, t.Rows...)
}

// renderTable converts a GFM table. Cells get their column's alignment and header cells are
// bold on top of the carried style. Rows are padded or cut to the number of columns.
func renderTable(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	tbl := n.(*east.Table)
	t := &TableSegment{Alignments: make([]fyne.TextAlign, len(tbl.Alignments)), page: r.page}
	for i, a := range tbl.Alignments {
		t.Alignments[i] = textAlign(a)
	}
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		if row.Kind() == east.KindTableHeader {
			bold := st
			bold.TextStyle.Bold = true
			t.Header = r.tableRow(row, t.Alignments, bold)
			continue
		}
		t.Rows = append(t.Rows, r.tableRow(row, t.Alignments, st))
	}
	return []widget.RichTextSegment{t}
}

// tableRow renders the cells of one header or body row.
func (r *mdRenderer) tableRow(row ast.Node, aligns []fyne.TextAlign, st widget.RichTextStyle) []TableCell {
	cells := make([]TableCell, len(aligns))
	c := row.FirstChild()
	for i := 0; i < len(aligns) && c != nil; i, c = i+1, c.NextSibling() {
		cst := st
		cst.Alignment = aligns[i]
		cells[i].Content = r.children(c, cst)
	}
	return cells
}

func textAlign(a east.Alignment) fyne.TextAlign {
	switch a {
	case east.AlignCenter:
		return fyne.TextAlignCenter
	case east.AlignRight:
		return fyne.TextAlignTrailing
	default:
		return fyne.TextAlignLeading
	}
}
