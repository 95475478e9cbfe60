package catalog

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
)

// Figure returns the figure of r: that of its named experiment, or, for
// the results of [experiments.Measure] and [experiments.Time], the
// figures of [plots.Measure] and [plots.Time].
// It reports an error if r's experiment has no figure, r holds one
// shard's partial results, or r holds nothing to draw.
func Figure(r *experiments.Results) (*plots.Figure, error) {
	switch r.Experiment {
	case experiments.Measured:
		return plots.Measure(r)
	case experiments.Timed:
		return plots.Time(r)
	}
	if r.Shard != nil {
		return nil, fmt.Errorf("catalog: results of shard %d/%d are partial; merge the shards first", r.Shard.Index, r.Shard.Count)
	}
	if len(r.Rows) == 0 {
		return nil, fmt.Errorf("catalog: results of %s hold no rows", r.Experiment)
	}
	e, ok := Lookup(r.Experiment)
	if !ok || e.figure == nil {
		return nil, fmt.Errorf("catalog: no figure for experiment %q", r.Experiment)
	}
	f, err := e.figure(r)
	if err != nil {
		return nil, fmt.Errorf("catalog: figure of %s: %w", r.Experiment, err)
	}
	return f, nil
}

// single returns a figure of one panel, readmeWidth wide, its legend in
// a band above the data: beside it, the legend took about 30% of the
// width.
func single(p *plot.Plot) *plots.Figure {
	p.Legend.Top = true
	return &plots.Figure{Panels: [][]*plot.Plot{{p}}, Width: readmeWidth, Height: 6 * vg.Inch}
}

// Colours of the figures beside the palette of [plots.Color]: black for
// measured points, grey for the classic formula and marks, red for targets.
var (
	black = color.Gray{Y: 0}
	grey  = color.Gray{Y: 150}
	red   = color.RGBA{R: 200, G: 30, B: 30, A: 255}
)

// hline draws a horizontal line at y from x0 to x1.
func hline(p *plot.Plot, y, x0, x1 float64, c color.Color, dashes []vg.Length, label string) error {
	return plots.AddLine(p, plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}}, c, dashes, plots.LineWidth, label)
}

// vline draws a vertical line at x from y0 to y1.
func vline(p *plot.Plot, x, y0, y1 float64, c color.Color, dashes []vg.Length, width vg.Length, label string) error {
	return plots.AddLine(p, plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}}, c, dashes, width, label)
}

// xRange returns the smallest and largest x of the rows.
func xRange(rows []*experiments.Row, x func(*experiments.Row) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		lo = math.Min(lo, x(r))
		hi = math.Max(hi, x(r))
	}
	return lo, hi
}

func items(r *experiments.Row) float64   { return float64(r.Items) }
func theory(r *experiments.Row) float64  { return r.Theory }
func classic(r *experiments.Row) float64 { return r.Classic }

// ySpan returns every y value of p and the ends of its intervals.
func ySpan(p plots.Points) []float64 {
	var v []float64
	for i, xy := range p.XYs {
		v = append(v, xy.Y, xy.Y+p.Errors[i].High, xy.Y-p.Errors[i].Low)
	}
	return v
}

// xysY returns the y values of xys.
func xysY(xys plotter.XYs) []float64 {
	v := make([]float64, len(xys))
	for i, xy := range xys {
		v[i] = xy.Y
	}
	return v
}

// rateValues returns every measured rate of r's series, with the ends of
// its interval, and every positive theory value, at x(row) for the rows
// keep selects (all when keep is nil): what a logarithmic rate axis must
// hold.
func rateValues(r *experiments.Results, x func(*experiments.Row) float64, keep func(*experiments.Row) bool) []float64 {
	var all []float64
	for _, name := range plots.SeriesNames(r) {
		rows := plots.Rows(r, name, keep)
		all = append(all, ySpan(plots.Rates(rows, x))...)
		all = append(all, xysY(plots.Values(rows, x, theory))...)
	}
	return all
}

// allRows returns pointers to every row of r.
func allRows(r *experiments.Results) []*experiments.Row {
	out := make([]*experiments.Row, len(r.Rows))
	for i := range r.Rows {
		out[i] = &r.Rows[i]
	}
	return out
}

// measuredLabel is the legend text of measured points.
func measuredLabel(r *experiments.Results, rows []*experiments.Row) string {
	f := 0
	if len(rows) > 0 {
		f = rows[0].Filters
	}
	return fmt.Sprintf("measured: mean of %d filters, %g%% interval", f, 100*r.Params.Conf)
}

// titleCase returns s with its first letter in upper case.
func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// classicWords names the classic formula in a legend; it is drawn last,
// plots.Dashed and thin, so that it stays visible where it lies on a theory
// line.
const classicWords = "classic formula (1-exp(-kn/m))^k (grey dashes, on top)"

// addClassic draws the classic formula's rates xys over the other lines.
func addClassic(p *plot.Plot, xys plotter.XYs) error {
	return plots.AddLine(p, xys, grey, plots.Dashed, plots.ThinWidth*1.5, classicWords)
}

// theoryDashes returns the dash pattern of the theory line of series i of
// a figure whose series' theories may coincide (standard and partitioned
// filters, at these sizes): the first solid, the others plots.Dashed, plots.Dotted and
// dash-plots.Dotted, so that a line drawn over another does not hide it.
func theoryDashes(i int) []vg.Length {
	return [][]vg.Length{nil, {vg.Points(7), vg.Points(3)}, plots.Dotted, plots.DashDot}[i%4]
}

// bars is a bar chart that, unlike plotter.BarChart, starts its bars at a
// floor value, so it can be drawn on a logarithmic axis.
type bars struct {
	pos, vals  []float64 // category positions and bar values
	width      vg.Length
	offset     vg.Length
	color      color.Color
	floor      float64
	horizontal bool
}

// Plot implements plot.Plotter.
func (b *bars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, at := range b.pos {
		var pts []vg.Point
		if b.horizontal {
			y := trY(at) + b.offset
			x0, x1 := trX(b.floor), trX(b.vals[i])
			pts = []vg.Point{{X: x0, Y: y - b.width/2}, {X: x1, Y: y - b.width/2}, {X: x1, Y: y + b.width/2}, {X: x0, Y: y + b.width/2}}
		} else {
			x := trX(at) + b.offset
			y0, y1 := trY(b.floor), trY(b.vals[i])
			pts = []vg.Point{{X: x - b.width/2, Y: y0}, {X: x - b.width/2, Y: y1}, {X: x + b.width/2, Y: y1}, {X: x + b.width/2, Y: y0}}
		}
		c.FillPolygon(b.color, c.ClipPolygonXY(pts))
	}
}

// DataRange implements plot.DataRanger.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	plo, phi := minMax(b.pos)
	vlo, vhi := minMax(append([]float64{b.floor}, b.vals...))
	if b.horizontal {
		return vlo, vhi, plo - 0.5, phi + 0.5
	}
	return plo - 0.5, phi + 0.5, vlo, vhi
}

// Thumbnail implements plot.Thumbnailer, for the legend.
func (b *bars) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(b.color, []vg.Point{r.Min, {X: r.Min.X, Y: r.Max.Y}, r.Max, {X: r.Max.X, Y: r.Min.Y}})
}

// readmeWidth is the width of a multi-panel figure: 9.5 inches, 1368
// pixels as PNG, within the figure standard's 1,400 so that the labels
// stay legible at the width of a README column.
const readmeWidth = 9.5 * vg.Inch

// oneAbove lays panels out one a row, each rowHeight high, in a figure
// readmeWidth wide, each legend in a band above its panel: for panels
// whose legends are too wide for half the width.
func oneAbove(rowHeight vg.Length, panels ...*plot.Plot) *plots.Figure {
	grid := make([][]*plot.Plot, len(panels))
	for i, p := range panels {
		p.Legend.Top = true
		grid[i] = []*plot.Plot{p}
	}
	return &plots.Figure{Panels: grid, Width: readmeWidth, Height: rowHeight * vg.Length(len(grid))}
}

// twoByTwo lays panels out two a row, the last row padded with an empty
// cell, in a figure readmeWidth wide and rowHeight high per row, each
// legend in a band above its panel.
func twoByTwo(rowHeight vg.Length, panels ...*plot.Plot) *plots.Figure {
	for _, p := range panels {
		// Legends in a band above each panel: beside it, the widest
		// would narrow every panel of its column.
		p.Legend.Top = true
	}
	var grid [][]*plot.Plot
	for i := 0; i < len(panels); i += 2 {
		row := []*plot.Plot{panels[i], nil}
		if i+1 < len(panels) {
			row[1] = panels[i+1]
		}
		grid = append(grid, row)
	}
	return &plots.Figure{Panels: grid, Width: readmeWidth, Height: rowHeight * vg.Length(len(grid))}
}
