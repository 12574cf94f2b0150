package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tableView draws a TableSegment: a RichText per cell, ruled lines between and around the
// cells, and a background behind the header row. Columns are as wide as their widest cell and
// rows as tall as their tallest; cells do not wrap.
type tableView struct {
	widget.BaseWidget
	seg *TableSegment
}

func newTableView(t *TableSegment) *tableView {
	v := &tableView{seg: t}
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer implements fyne.Widget.
func (v *tableView) CreateRenderer() fyne.WidgetRenderer {
	r := &tableRenderer{v: v}
	r.build()
	return r
}

// tableRenderer lays out the cells of the segment it was built for.
type tableRenderer struct {
	v        *tableView
	built    *TableSegment
	cells    [][]*widget.RichText // [row][column], header row first
	header   *canvas.Rectangle    // nil without a header row
	hLines   []*canvas.Rectangle  // len(cells)+1
	vLines   []*canvas.Rectangle  // columns+1
	children []fyne.CanvasObject
}

// build (re)creates the canvas objects for r.v.seg.
func (r *tableRenderer) build() {
	seg := r.v.seg
	r.built = seg
	r.children = nil
	r.header = nil
	if seg.Header != nil {
		r.header = canvas.NewRectangle(nil)
		r.children = append(r.children, r.header)
	}
	r.cells = nil
	for _, row := range seg.allRows() {
		texts := make([]*widget.RichText, len(row))
		for i, c := range row {
			texts[i] = widget.NewRichText(cellSegments(c.Content)...)
			r.children = append(r.children, texts[i])
		}
		r.cells = append(r.cells, texts)
	}
	r.hLines = newLines(len(r.cells) + 1)
	r.vLines = newLines(len(seg.Alignments) + 1)
	for _, l := range append(append([]*canvas.Rectangle{}, r.hLines...), r.vLines...) {
		r.children = append(r.children, l)
	}
	r.applyTheme()
}

func newLines(n int) []*canvas.Rectangle {
	lines := make([]*canvas.Rectangle, n)
	for i := range lines {
		lines[i] = canvas.NewRectangle(nil)
	}
	return lines
}

func (r *tableRenderer) applyTheme() {
	line := theme.ColorForWidget(theme.ColorNameSeparator, r.v)
	for _, l := range r.hLines {
		l.FillColor = line
	}
	for _, l := range r.vLines {
		l.FillColor = line
	}
	if r.header != nil {
		r.header.FillColor = theme.ColorForWidget(theme.ColorNameHeaderBackground, r.v)
	}
}

// measure returns the column widths and row heights, excluding lines, and the line thickness.
func (r *tableRenderer) measure() (widths, heights []float32, line float32) {
	widths = make([]float32, len(r.vLines)-1)
	heights = make([]float32, len(r.cells))
	for y, row := range r.cells {
		for x, c := range row {
			m := c.MinSize()
			widths[x] = fyne.Max(widths[x], m.Width)
			heights[y] = fyne.Max(heights[y], m.Height)
		}
	}
	return widths, heights, theme.SizeForWidget(theme.SizeNameSeparatorThickness, r.v)
}

func sumLengths(fs []float32) float32 {
	var t float32
	for _, f := range fs {
		t += f
	}
	return t
}

// Layout places the cells at their natural size, whatever size the view is given.
func (r *tableRenderer) Layout(fyne.Size) {
	widths, heights, line := r.measure()
	total := fyne.NewSize(sumLengths(widths)+line*float32(len(widths)+1), sumLengths(heights)+line*float32(len(heights)+1))

	y := float32(0)
	for row, cells := range r.cells {
		r.hLines[row].Move(fyne.NewPos(0, y))
		r.hLines[row].Resize(fyne.NewSize(total.Width, line))
		y += line
		if row == 0 && r.header != nil {
			r.header.Move(fyne.NewPos(0, y))
			r.header.Resize(fyne.NewSize(total.Width, heights[0]))
		}
		x := line
		for col, c := range cells {
			c.Move(fyne.NewPos(x, y))
			c.Resize(fyne.NewSize(widths[col], heights[row]))
			x += widths[col] + line
		}
		y += heights[row]
	}
	r.hLines[len(r.cells)].Move(fyne.NewPos(0, y))
	r.hLines[len(r.cells)].Resize(fyne.NewSize(total.Width, line))

	x := float32(0)
	for col, l := range r.vLines {
		l.Move(fyne.NewPos(x, 0))
		l.Resize(fyne.NewSize(line, total.Height))
		if col < len(widths) {
			x += line + widths[col]
		}
	}
}

// MinSize is the natural size of the table, lines included.
func (r *tableRenderer) MinSize() fyne.Size {
	widths, heights, line := r.measure()
	return fyne.NewSize(sumLengths(widths)+line*float32(len(widths)+1), sumLengths(heights)+line*float32(len(heights)+1))
}

// Refresh rebuilds the objects if the view now shows another segment, and re-applies the theme.
func (r *tableRenderer) Refresh() {
	if r.built != r.v.seg {
		r.build()
	}
	r.applyTheme()
	for _, o := range r.children {
		o.Refresh()
	}
	r.Layout(r.v.Size())
}

func (r *tableRenderer) Objects() []fyne.CanvasObject { return r.children }

func (r *tableRenderer) Destroy() {}
