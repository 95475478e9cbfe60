package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/experiments/catalog"
)

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

// hashingFigure draws the hashing experiment: (a) the measured rate's
// excess over the exact theory against m for every hashing option; (b) the
// time per key of each option.
func hashingFigure(r *experiments.Results) (*Figure, error) {
	m := func(row *experiments.Row) float64 { return float64(row.Bits) }
	names := SeriesNames(r)
	a := newPlot("(a) measured rate above the exact theory", "filter size m (bits)", "excess over exact theory (%)")
	logX(a)
	var xs, ys []float64
	// Options far off the others would flatten them all to a line; they
	// are left off the scale and named in the legend with their range.
	const offScale = 15.0
	for i, name := range names {
		rows := Rows(r, name, nil)
		if i == 0 {
			for _, row := range rows {
				xs = append(xs, m(row))
			}
		}
		pts := Excess(rows, m)
		elo, ehi := minMax(xysY(pts.XYs))
		if math.Max(math.Abs(elo), math.Abs(ehi)) > offScale {
			a.Legend.Add(fmt.Sprintf("%s: %+.0f%% to %+.0f%%, off this scale", name, elo, ehi))
			continue
		}
		ys = append(ys, pts.span()...)
		// Spread the series a little along x so their bars do not overlap.
		shift := math.Pow(1.06, float64(i)-float64(len(names)-1)/2)
		for j := range pts.XYs {
			pts.XYs[j].X *= shift
		}
		if err := addLine(a, pts.XYs, seriesColor(i), nil, thinW, ""); err != nil {
			return nil, err
		}
		if err := addMeasured(a, pts, seriesColor(i), i, name); err != nil {
			return nil, err
		}
	}
	lo, hi := minMax(append(ys, 0))
	a.Y.Min, a.Y.Max = lo-0.05*(hi-lo), hi+1.2*(hi-lo)
	a.X.Tick.Marker = powerTicks(xs)
	a.X.Min, a.X.Max = xs[0]/1.4, xs[len(xs)-1]*1.4
	if err := hline(a, 0, a.X.Min, a.X.Max, black, dashed, "exact theory"); err != nil {
		return nil, err
	}

	// (b) times at the largest m.
	b := newPlot(fmt.Sprintf("(b) time per key at m = %g bits", xs[len(xs)-1]), "nanoseconds per key", "")
	var pos, add, query []float64
	var labels []string
	for i := len(names) - 1; i >= 0; i-- {
		rows := Rows(r, names[i], func(row *experiments.Row) bool { return m(row) == xs[len(xs)-1] })
		if len(rows) == 0 {
			continue
		}
		pos = append(pos, float64(len(pos)))
		add = append(add, rows[0].NsPerAdd)
		query = append(query, rows[0].NsPerQuery)
		labels = append(labels, names[i])
	}
	b.NominalY(labels...)
	b.Add(&bars{pos: pos, vals: add, width: vg.Points(9), offset: vg.Points(5), color: seriesColor(0), horizontal: true})
	b.Add(&bars{pos: pos, vals: query, width: vg.Points(9), offset: vg.Points(-5), color: seriesColor(1), horizontal: true})
	b.Legend.Add("add (all k indexes)", &bars{color: seriesColor(0)})
	b.Legend.Add("query of an absent key", &bars{color: seriesColor(1)})
	b.X.Min = 0
	if len(pos) > 0 {
		b.X.Max = 1.08 * math.Max(slices.Max(add), slices.Max(query)) // no bar at the edge
	}
	b.Y.Min, b.Y.Max = -0.7, float64(len(pos))-0.3
	return &Figure{Panels: [][]*plot.Plot{{a, b}}, Width: 13 * vg.Inch, Height: 5.5 * vg.Inch}, nil
}

// memoryFigure draws the bytes each structure needs at each number of keys,
// as grouped bars on a logarithmic axis, labelled with bytes per key.
func memoryFigure(r *experiments.Results) (*Figure, error) {
	names := SeriesNames(r)
	var keys []uint64
	seen := map[uint64]bool{}
	for _, row := range r.Rows {
		if !seen[row.Items] {
			seen[row.Items] = true
			keys = append(keys, row.Items)
		}
	}
	var vals []float64
	for _, row := range r.Rows {
		vals = append(vals, row.Bytes)
	}
	lo, hi := logRange(vals...)
	lo /= 10
	p := newPlot(fmt.Sprintf("Memory for the same URL-like keys (filters sized for p = %g)", r.Params.P), "keys held", "bytes")
	logY(p, lo, hi)
	var ticks []string
	for _, n := range keys {
		ticks = append(ticks, fmt.Sprintf("%s keys", count(n)))
	}
	p.NominalX(ticks...)
	width := vg.Points(16)
	var lpts plotter.XYs
	var ltext []string
	for i, name := range names {
		var pos, v []float64
		for j, n := range keys {
			rows := Rows(r, name, func(row *experiments.Row) bool { return row.Items == n })
			if len(rows) == 0 || rows[0].Bytes <= 0 {
				continue
			}
			pos = append(pos, float64(j))
			v = append(v, rows[0].Bytes)
		}
		off := width * vg.Length(float64(i)-float64(len(names)-1)/2)
		b := &bars{pos: pos, vals: v, width: width * 0.9, offset: off, color: seriesColor(i), floor: lo}
		p.Add(b)
		p.Legend.Add(name, b)
		for j := range pos {
			lpts = append(lpts, plotter.XY{X: pos[j], Y: v[j] * 1.15})
			ltext = append(ltext, fmt.Sprintf("%.3g", v[j]/float64(keys[int(pos[j])])))
		}
		_ = off
	}
	// Bytes per key above each bar: positions need the bar offsets, which
	// are in canvas units; draw them with a custom plotter.
	p.Add(&barLabels{width: width, groups: len(names), pts: lpts, text: ltext, perGroup: seriesOf(r, names, keys)})
	p.Legend.Add("numbers above the bars: bytes per key")
	return single(p), nil
}

// seriesOf returns, for each label of memoryFigure in order, the index of
// its series.
func seriesOf(r *experiments.Results, names []string, keys []uint64) []int {
	var out []int
	for i, name := range names {
		for _, n := range keys {
			rows := Rows(r, name, func(row *experiments.Row) bool { return row.Items == n })
			if len(rows) > 0 && rows[0].Bytes > 0 {
				out = append(out, i)
			}
		}
	}
	return out
}

// barLabels writes text above grouped bars.
type barLabels struct {
	width    vg.Length
	groups   int
	pts      plotter.XYs
	text     []string
	perGroup []int
}

// Plot implements plot.Plotter.
func (l *barLabels) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	sty := plt.Legend.TextStyle
	sty.Font.Size = vg.Points(7.5)
	sty.XAlign = draw.XCenter
	for i, xy := range l.pts {
		off := l.width * vg.Length(float64(l.perGroup[i])-float64(l.groups-1)/2)
		c.FillText(sty, vg.Point{X: trX(xy.X) + off, Y: trY(xy.Y)}, l.text[i])
	}
}

func count(n uint64) string {
	e := math.Log10(float64(n))
	if e == math.Trunc(e) && n >= 1000 {
		return fmt.Sprintf("1e%d", int(e))
	}
	return fmt.Sprintf("%d", n)
}

// speedFigure draws nanoseconds per Add and per Contains against the
// filter's memory for every variant.
func speedFigure(r *experiments.Results) (*Figure, error) {
	size := func(row *experiments.Row) float64 { return float64(row.Bits) / 8 }
	names := SeriesNames(r)
	a := newPlot("(a) add", "filter memory (bytes)", "nanoseconds per add")
	b := newPlot("(b) query of an absent key", "filter memory (bytes)", "nanoseconds per query")
	for _, p := range []*plot.Plot{a, b} {
		logX(p)
	}
	var all []float64
	for i, name := range names {
		rows := Rows(r, name, nil)
		addXY := Values(rows, size, func(r *experiments.Row) float64 { return r.NsPerAdd })
		qXY := Values(rows, size, func(r *experiments.Row) float64 { return r.NsPerQuery })
		all = append(append(all, xysY(addXY)...), xysY(qXY)...)
		c, shape, dashes := speedStyle(names, i)
		if err := addPolyline(a, addXY, c, shape, dashes, name); err != nil {
			return nil, err
		}
		qLabel := "" // named in (a), unless it has no adds (the random-line baseline)
		if len(addXY) == 0 {
			qLabel = name
		}
		if err := addPolyline(b, qXY, c, shape, dashes, qLabel); err != nil {
			return nil, err
		}
	}
	lo, hi := logRange(all...)
	var caches []string
	for _, c := range r.Caches {
		caches = append(caches, fmt.Sprintf("L%d %s", c.Level, bytesText(c.Bytes)))
	}
	for _, p := range []*plot.Plot{a, b} {
		logY(p, lo, hi)
		for _, c := range r.Caches {
			if err := vline(p, float64(c.Bytes), lo, hi, grey, dotted, thinW, ""); err != nil {
				return nil, err
			}
		}
	}
	if len(caches) > 0 {
		a.Legend.Add("dotted verticals: the caches of the machine measured,")
		a.Legend.Add("   " + strings.Join(caches, ", ") + " (one of each, as the system reports)")
	} else {
		a.Legend.Add("(no cache sizes recorded with these results)")
	}
	a.Legend.Add("dashed: batched, 256 keys per call")
	if slices.Contains(names, catalog.ScalableBlocked) {
		a.Legend.Add("dash-dotted: scalable with blocked stages (512 bits)")
	}
	c, err := linesPanel(r, names, size)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return &Figure{Panels: [][]*plot.Plot{{a, b}}, Width: 16 * vg.Inch, Height: 7 * vg.Inch}, nil
	}
	a.Legend.Add("(c) wide grey: the lines analysis predicts")
	return &Figure{Panels: [][]*plot.Plot{{a, b, c}}, Width: 24 * vg.Inch, Height: 7 * vg.Inch}, nil
}

// linesPanel draws the speed figure's panel (c): the distinct 64-byte
// lines a query of an absent key reads against the filter's memory, each
// series in its style from panels (a) and (b), and the prediction of
// package analysis in grey where the results have one. It returns nil if
// no row counts lines.
func linesPanel(r *experiments.Results, names []string, size func(*experiments.Row) float64) (*plot.Plot, error) {
	c := newPlot("(c) lines read by a query of an absent key", "filter memory (bytes)", "distinct 64-byte lines per query")
	logX(c)
	hi := 0.0
	// The predictions first, wide and grey, so that the measured series
	// stay visible on top of them.
	for _, name := range names {
		pred := Values(Rows(r, name, nil), size, func(r *experiments.Row) float64 { return r.LinesPredicted })
		if err := addLine(c, pred, grey, nil, 3*lineW, ""); err != nil {
			return nil, err
		}
	}
	for i, name := range names {
		xy := Values(Rows(r, name, nil), size, func(r *experiments.Row) float64 { return r.LinesAbsent })
		for _, p := range xy {
			hi = math.Max(hi, p.Y)
		}
		col, shape, dashes := speedStyle(names, i)
		if err := addPolyline(c, xy, col, shape, dashes, ""); err != nil {
			return nil, err
		}
	}
	if hi == 0 {
		return nil, nil
	}
	c.Y.Min, c.Y.Max = 0, hi*1.08
	return c, nil
}

// speedStyle returns the colour, glyph and dashes of series i of the speed
// figure: a batched series takes its variant's colour, dashed; the
// scalable filter with blocked stages takes the scalable one's colour,
// dash-dotted; the random-line baseline is black and dotted.
func speedStyle(names []string, i int) (color.Color, int, []vg.Length) {
	name := names[i]
	if name == experiments.RandomLines {
		return black, i, dotted
	}
	if name == catalog.ScalableBlocked {
		if j := slices.Index(names, "scalable"); j >= 0 {
			return seriesColor(j), i, dashDot
		}
		return seriesColor(i), i, dashDot
	}
	if base, ok := strings.CutSuffix(name, " batched"); ok {
		if j := slices.Index(names, base); j >= 0 {
			return seriesColor(j), j, dashed
		}
		return seriesColor(i), i, dashed
	}
	return seriesColor(i), i, nil
}

// countingFigure draws the counting experiment: (a) the histogram of
// counter values beside its binomial and Poisson predictions; (b) the
// fraction of saturated counters against items for each width; (c) the
// fraction of members lost to removals of keys never inserted.
func countingFigure(r *experiments.Results) (*Figure, error) {
	value := func(row *experiments.Row) float64 { return float64(row.Value) }
	hist := Rows(r, catalog.CountingHistogram, nil)
	if len(hist) == 0 {
		return nil, fmt.Errorf("no counter histogram in the results")
	}
	first := hist[0]
	a := newPlot(fmt.Sprintf("(a) counter values, n = %d items in m = %d counters, k = %d", first.Items, first.Cells, first.Hashes),
		"counter value (15: saturated)", "fraction of counters")
	pts := Rates(hist, value)
	th := Values(hist, value, theory)
	po := Values(hist, value, classic)
	lo, _ := logRange(append(pts.ys(), xysY(th)...)...)
	lo = math.Max(lo, 1e-16)
	logY(a, lo, 1)
	if err := addLine(a, th, seriesColor(0), nil, lineW, "binomial(kn, 1/m) prediction"); err != nil {
		return nil, err
	}
	if err := addLine(a, po, grey, dashed, thinW*1.5, "Poisson(kn/m) approximation (grey dashes, on top)"); err != nil {
		return nil, err
	}
	if err := addMeasured(a, clampLow(pts, lo), black, 0, fmt.Sprintf("measured, %d filters", first.Filters)); err != nil {
		return nil, err
	}
	a.X.Min, a.X.Max = -0.5, 15.5

	b := newPlot(fmt.Sprintf("(b) saturated counters (theory: binomial tail P[c >= 2^w - 1])"), "items inserted", "fraction of counters saturated")
	logX(b)
	var all []float64
	var sat []string
	for _, name := range SeriesNames(r) {
		rows := Rows(r, name, nil)
		if len(rows) > 0 && rows[0].Model == "binomial tail" {
			sat = append(sat, name)
			all = append(all, Rates(rows, items).ys()...)
			all = append(all, xysY(Values(rows, items, theory))...)
		}
	}
	blo, _ := logRange(all...)
	logY(b, blo, 1)
	for i, name := range sat {
		rows := Rows(r, name, nil)
		short := strings.TrimPrefix(name, "saturated, ") // the title says saturated
		if err := addLine(b, Values(rows, items, theory), seriesColor(i+1), nil, lineW, short+": theory"); err != nil {
			return nil, err
		}
		if err := addMeasured(b, clampLow(Rates(rows, items), blo), seriesColor(i+1), i+1, short+": measured"); err != nil {
			return nil, err
		}
	}
	if len(sat) > 0 {
		rows := Rows(r, sat[0], nil)
		xmin, xmax := xRange(rows, items)
		b.X.Min, b.X.Max = xmin/1.3, xmax*1.3
		b.X.Tick.Marker = powerTicks(func() []float64 {
			var xs []float64
			for _, row := range rows {
				xs = append(xs, float64(row.Items))
			}
			return xs
		}())
	}

	fn := Rows(r, catalog.CountingFalseNegatives, nil)
	c := newPlot("(c) members lost to removing keys never inserted", "never-inserted keys offered to Remove", "fraction of members now absent")
	logX(c)
	removals := func(row *experiments.Row) float64 { return float64(row.Removals) }
	fpts := Rates(fn, removals)
	flo, fhi := logRange(fpts.ys()...)
	logY(c, flo, math.Max(fhi, 1))
	if err := addMeasured(c, clampLow(fpts, flo), red, 0, "members testing absent"); err != nil {
		return nil, err
	}
	succ := Values(fn, removals, func(row *experiments.Row) float64 { return row.Removed / float64(row.Items) })
	if err := addPolyline(c, succ, grey, 1, dashed, "removals done, per member"); err != nil {
		return nil, err
	}
	var xs []float64
	for _, row := range fn {
		xs = append(xs, removals(row))
	}
	if len(xs) > 0 {
		c.X.Tick.Marker = powerTicks(xs)
		c.X.Min, c.X.Max = xs[0]/1.3, xs[len(xs)-1]*1.3
	}
	return &Figure{Panels: [][]*plot.Plot{{a, b, c}}, Width: 18 * vg.Inch, Height: 5.5 * vg.Inch}, nil
}

// bytesText writes a cache size as "48 KiB", "1 MiB" or "1536 B".
func bytesText(b uint64) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}
