package catalog

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"github.com/bloomlab/bloomlab/variants"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// growthFigure draws the growth experiment, two panels a row, the designs
// in two families so that no panel holds more than eight series: on the
// left Almeida's, RedisBloom's and the dynamic filter beside the standard
// filter sized in advance, on the right Taffy's schedule and the
// horizon-aware filter. (a, b) each design's measured rate with its
// interval beside its theory, and the target, against the items inserted;
// (c, d) bits per key, measured and from the geometry, with (in d) the
// three references: a static Bloom filter sized for the current count,
// log2(1/p)/ln 2, the static lower bound log2(1/p), and the lower bound of
// filters that grow without knowing n, log2(1/p) + log2 log2 n; (e, f) the
// time per query of an absent key and (g, h) the lines it reads, from the
// timed series; (i) bits per key at the final count against how wrong the
// horizon-aware filter's estimate was, from its theory with Spread 1 and
// 10 beside the built filters; (j) stages of the right family and
// Almeida's. A design keeps its colour and marker in every panel; the
// times per add and per present query are in the data and the notes.
func growthFigure(r *experiments.Results) (*plots.Figure, error) {
	var names []string
	for _, name := range plots.SeriesNames(r) {
		if !strings.HasSuffix(name, growthTimed) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no rate series")
	}
	all := []float64{r.Params.P}
	for _, name := range names {
		rows := plots.Rows(r, name, nil)
		all = append(all, ySpan(plots.Rates(rows, items))...)
		if rows[0].Variant != "standard" {
			all = append(all, xysY(plots.Values(rows, items, theory))...)
		}
	}
	lo, hi := plots.LogRange(all...)
	xmin, xmax := xRange(allRows(r), items)
	family := func(name string) int {
		if i := slices.Index(growthDesigns, name); i >= growthFamilyA {
			return 1
		}
		return 0
	}
	logXY := func(title, x, y string) *plot.Plot {
		p := plots.Panel(title, x, y)
		plots.LogX(p)
		p.Y.Scale = plots.LogScale{}
		p.Y.Tick.Marker = plots.Decades{}
		return p
	}
	var a, b, q, l [2]*plot.Plot
	for f, what := range []string{"Almeida, RedisBloom, dynamic, standard", "Taffy and horizon-aware"} {
		a[f] = plots.Panel(fmt.Sprintf("(%c) false-positive rate: %s", 'a'+f, what), "items inserted", plots.RateLabel)
		plots.LogX(a[f])
		plots.LogY(a[f], lo, hi)
		a[f].X.Min, a[f].X.Max = xmin/1.15, xmax*1.15
		b[f] = logXY(fmt.Sprintf("(%c) memory: %s", 'c'+f, what), "items inserted", "bits per key")
		q[f] = logXY(fmt.Sprintf("(%c) absent query time: %s", 'e'+f, what), "items inserted", "ns per query")
		l[f] = logXY(fmt.Sprintf("(%c) lines per absent query: %s", 'g'+f, what), "items inserted", "64-byte lines per query")
		for _, p := range []*plot.Plot{q[f], l[f]} {
			p.X.Min, p.X.Max = xmin/1.15, xmax*1.15
			p.Y.Min, p.Y.Max = 1, 10
		}
	}
	d := logXY("(j) stages, Taffy and horizon-aware (Almeida's for reference)", "items inserted", "stages")
	d.X.Min, d.X.Max = xmin/1.15, xmax*1.15
	d.Y.Min, d.Y.Max = 1, 10
	var bpe [2][]float64
	var times, lines, stages []float64
	for _, name := range names {
		rows := plots.Rows(r, name, nil)
		f := family(name)
		i := growthMarker(name)
		col := growthColor(name)
		var th plotter.XYs
		for _, xy := range plots.Values(rows, items, theory) {
			if xy.Y >= lo {
				th = append(th, xy)
			}
		}
		if err := plots.AddLine(a[f], th, col, nil, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		if err := plots.AddPoints(a[f], plots.Rates(rows, items).ClampLow(lo), col, i, name); err != nil {
			return nil, err
		}
		bp := plots.Values(rows, items, func(r *experiments.Row) float64 { return r.BitsPerKey })
		bpe[f] = append(bpe[f], xysY(bp)...)
		line, err := growthBitsLine(r, name, xmin, xmax)
		if err != nil {
			return nil, err
		}
		bpe[f] = append(bpe[f], xysY(line)...)
		if err := plots.AddLine(b[f], line, col, nil, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		pts, err := plotter.NewScatter(bp)
		if err != nil {
			return nil, err
		}
		pts.GlyphStyle.Color, pts.GlyphStyle.Radius, pts.GlyphStyle.Shape = col, plots.GlyphRadius, plots.Marker(i)
		b[f].Add(pts)
		if f == 1 {
			st := plots.Values(rows, items, func(r *experiments.Row) float64 { return r.Stages })
			stages = append(stages, xysY(st)...)
			if err := plots.AddPolyline(d, st, col, i, nil, ""); err != nil {
				return nil, err
			}
		}
		timed := plots.Rows(r, name+growthTimed, nil)
		if len(timed) == 0 {
			continue
		}
		xy := plots.Values(timed, items, func(r *experiments.Row) float64 { return r.NsPerQuery })
		times = append(times, xysY(xy)...)
		if err := plots.AddPolyline(q[f], xy, col, i, nil, ""); err != nil {
			return nil, err
		}
		xy = plots.Values(timed, items, func(r *experiments.Row) float64 { return r.LinesAbsent })
		if len(xy) > 0 && xy[0].Y > 0 {
			lines = append(lines, xysY(xy)...)
			if err := plots.AddPolyline(l[f], xy, col, i, nil, ""); err != nil {
				return nil, err
			}
		}
	}
	for f := range 2 {
		a[f].Legend.Add(fmt.Sprintf("points: measured, %g%% intervals", 100*r.Params.Conf))
		a[f].Legend.Add("lines: each design's theory")
		if err := hline(a[f], r.Params.P, a[f].X.Min, a[f].X.Max, red, plots.Dashed, fmt.Sprintf("target P = %g (drawn over the series)", r.Params.P)); err != nil {
			return nil, err
		}
		q[f].Legend.Add(fmt.Sprintf("one goroutine, median of the passes; colours and markers as in (%c)", 'a'+f))
		l[f].Legend.Add(fmt.Sprintf("variants.LineCounter on the timed filter; colours as in (%c)", 'a'+f))
	}
	l[1].Legend.Add("the four horizon-aware filters' lines nearly coincide")
	b[0].Legend.Add("points: measured, mean over the filters")
	b[0].Legend.Add("lines: the designs' geometry (a new stage")
	b[0].Legend.Add("  makes each jump); colours as in (a);")
	b[0].Legend.Add("  the bounds are drawn in (d)")
	b[1].Legend.Add("points and lines as in (c); colours as in (b)")
	if err := growthBounds(b[1], r.Params.P, xmin, xmax); err != nil {
		return nil, err
	}
	bpe[1] = append(bpe[1], math.Log2(1/r.Params.P))
	for f := range 2 {
		if len(bpe[f]) > 0 {
			b[f].Y.Min, b[f].Y.Max = plots.LogRange(bpe[f]...)
		}
		b[f].X.Min, b[f].X.Max = xmin/1.15, xmax*1.15
	}
	if len(times) > 0 {
		lo, hi := plots.LogRange(times...)
		for f := range 2 {
			q[f].Y.Min, q[f].Y.Max = lo, hi
		}
	}
	if len(lines) > 0 {
		lo, hi := plots.LogRange(lines...)
		for f := range 2 {
			l[f].Y.Min, l[f].Y.Max = lo, hi
		}
	}
	// Almeida's stages last, dashed: they coincide with some of the others.
	if rows := plots.Rows(r, growthAlmeida, nil); len(rows) > 0 {
		st := plots.Values(rows, items, func(r *experiments.Row) float64 { return r.Stages })
		stages = append(stages, xysY(st)...)
		if err := plots.AddPolyline(d, st, growthColor(growthAlmeida), growthMarker(growthAlmeida), plots.Dashed, growthAlmeida+" (dashed, drawn over the others)"); err != nil {
			return nil, err
		}
	}
	if len(stages) > 0 {
		_, d.Y.Max = plots.LogRange(stages...)
		d.Y.Min = 1
		d.Legend.Add("others: colours and markers as in (b);")
		d.Legend.Add("  designs with the same stages draw one line")
	}
	e, err := growthEstimatePanel(r)
	if err != nil {
		return nil, err
	}
	return twoByTwo(4.3*vg.Inch, a[0], a[1], b[0], b[1], q[0], q[1], l[0], l[1], e, d), nil
}

// growthColor returns the colour of design in every panel: the palette's
// first six for the first family, and for the second (drawn in panels of
// its own, and beside Almeida's only in panels i and j) Taffy's and the
// exact estimate's the palette's last two, the others those of the first
// family's second to fourth.
func growthColor(design string) color.Color {
	i := growthMarker(design)
	if i >= 8 {
		i -= 7
	}
	return plots.Color(i)
}

// growthMarker returns the marker index of design (plots.Marker): its
// place in growthDesigns, so that designs of one colour differ in shape.
func growthMarker(design string) int {
	return max(0, slices.Index(growthDesigns, design))
}

// growthBounds draws in p, from x0 to x1 items, the references of the
// bits-per-key panel at target p: a static Bloom filter sized for the
// current count, log2(1/p)/ln 2; the static lower bound for any filter,
// log2(1/p); and the lower bound for filters that grow without knowing
// n, log2(1/p) + log2 log2 n (to lower-order terms; Pagh, Segev and
// Wieder 2013, Liu, Yin and Yu 2020), drawn as that expression.
func growthBounds(pl *plot.Plot, p, x0, x1 float64) error {
	b := math.Log2(1 / p)
	if err := hline(pl, b/math.Ln2, x0, x1, grey, plots.Dashed, fmt.Sprintf("static filter sized for n: log2(1/p)/ln 2 = %.2f", b/math.Ln2)); err != nil {
		return err
	}
	if err := hline(pl, b, x0, x1, black, plots.Dotted, fmt.Sprintf("static lower bound: log2(1/p) = %.2f", b)); err != nil {
		return err
	}
	var grow plotter.XYs
	for _, x := range logSpace(x0, x1, 100) {
		grow = append(grow, plotter.XY{X: x, Y: growthLowerBound(p, x)})
	}
	return plots.AddLine(pl, grow, black, plots.DashDot, plots.LineWidth, "growing without n: log2(1/p) + log2 log2 n")
}

// growthLowerBound returns log2(1/p) + log2(log2(n)) bits per key, the
// lower bound for filters that grow without knowing n, to lower-order
// terms, as the growth figure draws it.
func growthLowerBound(p, n float64) float64 {
	return math.Log2(1/p) + math.Log2(math.Log2(n))
}

// growthEstimateRatios are the ratios estimate/true of panel (i): 60 per
// decade from 1/10 to 10, enough to draw the jumps of the stages.
func growthEstimateRatios() []float64 { return logSpace(0.1, 10, 121) }

// growthEstimatePanel draws panel (i): the bits per key at the final
// count of the horizon-aware filter against estimate/final, from
// analysis.Horizon (Spread 1 and 10), with the built filters' measured
// bits per key at their ratios, and Almeida's filter and the growing
// lower bound at the final count for reference.
func growthEstimatePanel(r *experiments.Results) (*plot.Plot, error) {
	p := r.Params
	final := uint64(math.Round(float64(p.N) * p.Span))
	e := plots.Panel(fmt.Sprintf("(i) bits per key at %d keys against the estimate", final), "estimate / final count", "bits per key")
	plots.LogX(e)
	e.Y.Scale = plots.LogScale{}
	e.Y.Tick.Marker = plots.Decades{}
	var ys []float64
	for k, spread := range []float64{1, 10} {
		var xys plotter.XYs
		for _, x := range growthEstimateRatios() {
			h := analysis.Horizon{P: p.P, Estimate: max(1, uint64(math.Round(x*float64(final)))), N0: p.N, S: variants.DefaultGrowth, Spread: spread}
			bpk, err := h.BitsPerKey(final)
			if err != nil {
				return nil, err
			}
			xys = append(xys, plotter.XY{X: x, Y: bpk})
		}
		ys = append(ys, xysY(xys)...)
		if err := plots.AddLine(e, xys, grey, theoryDashes(k), plots.LineWidth, fmt.Sprintf("theory (analysis.Horizon), Spread %g", spread)); err != nil {
			return nil, err
		}
	}
	for _, d := range growthDesigns {
		low, _, ok := growthHorizon(d)
		if !ok {
			continue
		}
		rows := plots.Rows(r, d, func(row *experiments.Row) bool { return row.Items == final })
		if len(rows) == 0 {
			continue
		}
		xy := plotter.XYs{{X: 1 / float64(low), Y: rows[0].BitsPerKey}}
		ys = append(ys, xy[0].Y)
		pts, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		pts.GlyphStyle.Color, pts.GlyphStyle.Radius, pts.GlyphStyle.Shape = growthColor(d), 1.6*plots.GlyphRadius, plots.Marker(growthMarker(d))
		e.Add(pts)
	}
	e.Legend.Add("points: the built filters, measured; markers as in (b)")
	if rows := plots.Rows(r, growthAlmeida, func(row *experiments.Row) bool { return row.Items == final }); len(rows) > 0 {
		ys = append(ys, rows[0].BitsPerKey)
		if err := hline(e, rows[0].BitsPerKey, 0.1, 10, growthColor(growthAlmeida), plots.Dotted, fmt.Sprintf("%s, measured (needs no estimate)", growthAlmeida)); err != nil {
			return nil, err
		}
	}
	lb := growthLowerBound(p.P, float64(final))
	ys = append(ys, lb)
	if err := hline(e, lb, 0.1, 10, black, plots.DashDot, "growing without n: log2(1/p) + log2 log2 n"); err != nil {
		return nil, err
	}
	e.X.Min, e.X.Max = 0.1/1.1, 10*1.1
	e.Y.Min, e.Y.Max = plots.LogRange(ys...)
	return e, nil
}

// growthBitsLine returns the bits per key of design's geometry
// (growthBits) at 400 counts from lo to hi items.
func growthBitsLine(r *experiments.Results, design string, lo, hi float64) (plotter.XYs, error) {
	var ns []uint64
	for _, x := range logSpace(lo, hi, 400) {
		n := uint64(math.Round(x))
		if n >= 1 && (len(ns) == 0 || n > ns[len(ns)-1]) {
			ns = append(ns, n)
		}
	}
	bits, err := growthBits(design, r.Params, ns)
	if err != nil {
		return nil, err
	}
	xys := make(plotter.XYs, len(ns))
	for i, n := range ns {
		xys[i] = plotter.XY{X: float64(n), Y: bits[i]}
	}
	return xys, nil
}
