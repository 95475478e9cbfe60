package plots

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
)

const rateLabel = "false-positive rate"

func measuredLabel(r *experiments.Results, rows []*experiments.Row) string {
	f := 0
	if len(rows) > 0 {
		f = rows[0].Filters
	}
	return fmt.Sprintf("measured: mean of %d filters, %g%% interval", f, 100*r.Params.Conf)
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// fillFigure draws the fill experiment of a fixed-size variant: rate
// against items inserted, measured beside the theory of the built geometry
// and the classic formula, with the target rate and the capacity.
func fillFigure(r *experiments.Results) (*Figure, error) {
	rows := Rows(r, SeriesNames(r)[0], nil)
	first := rows[0]
	pts := Rates(rows, items)
	xmin, xmax := xRange(rows, items)
	th := FillTheory(first, first.Model, xmin, xmax, 200)
	cl := FillTheory(first, "classic", xmin, xmax, 200)
	lo, hi := logRange(append(append(pts.ys(), xysY(th)...), append(xysY(cl), first.Target)...)...)
	hi = math.Max(hi, 1)
	pts = clampLow(pts, lo)

	geom := fmt.Sprintf("m = %d bits", first.Bits)
	if first.Cells > 0 {
		geom = fmt.Sprintf("m = %d counters of %d bits", first.Cells, first.Bits/first.Cells)
	}
	p := newPlot(fmt.Sprintf("%s Bloom filter sized for n = %d at p = %g (%s, k = %d)",
		titleCase(first.Variant), first.Capacity, first.Target, geom, first.Hashes),
		"items inserted", rateLabel)
	logY(p, lo, hi)
	if err := vline(p, float64(first.Capacity), lo, hi, grey, dashDot, thinW, fmt.Sprintf("capacity n = %d", first.Capacity)); err != nil {
		return nil, err
	}
	if err := hline(p, first.Target, 0, xmax, red, dotted, fmt.Sprintf("target p = %g", first.Target)); err != nil {
		return nil, err
	}
	if err := addLine(p, th, seriesColor(0), nil, lineW, theoryWords(first.Model)); err != nil {
		return nil, err
	}
	if err := addClassic(p, cl); err != nil {
		return nil, err
	}
	if err := addMeasured(p, pts, black, 0, measuredLabel(r, rows)); err != nil {
		return nil, err
	}
	p.X.Min = 0
	return single(p), nil
}

// logSpace returns n points from lo to hi, evenly spaced on a logarithmic
// scale (linearly when lo is not positive).
func logSpace(lo, hi float64, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		t := float64(i) / float64(n-1)
		if lo > 0 {
			xs[i] = lo * math.Pow(hi/lo, t)
		} else {
			xs[i] = lo + (hi-lo)*t
		}
	}
	return xs
}

// FillTheory returns the rate model predicts for the geometry of row (its
// cells, or bits, and hashes) at n points from lo to hi items: model is
// "exact" (analysis.ExactFPR), "partitioned" (analysis.PartitionedFPR),
// "blocked/B" (analysis.BlockedFPR with blocks of B bits), "split-block"
// (analysis.SplitBlockFPR) or "classic" (analysis.ClassicFPR). Rates of zero are left out.
func FillTheory(row *experiments.Row, model string, lo, hi float64, n int) plotter.XYs {
	m := row.Bits
	if row.Cells > 0 {
		m = row.Cells
	}
	var xys plotter.XYs
	for i := range n {
		x := lo + (hi-lo)*float64(i)/float64(n-1)
		items := uint64(math.Round(x))
		var y float64
		switch model {
		case "exact":
			y = analysis.ExactFPR(m, items, row.Hashes)
		case "partitioned":
			y = analysis.PartitionedFPR(m, items, row.Hashes)
		case "split-block":
			y = analysis.SplitBlockFPR(m, items)
		default:
			if b, ok := blockedModel(model); ok {
				y = analysis.BlockedFPR(m, items, row.Hashes, b)
			} else {
				y = analysis.ClassicFPR(m, items, row.Hashes)
			}
		}
		if y > 0 {
			xys = append(xys, plotter.XY{X: x, Y: y})
		}
	}
	return xys
}

// ScalableTheory returns the compound rate of the stages of s
// (analysis.Scalable.FPR) at n log-spaced points from lo to hi items.
func ScalableTheory(s analysis.Scalable, lo, hi float64, n int) plotter.XYs {
	var xys plotter.XYs
	for _, x := range logSpace(lo, hi, n) {
		y, err := s.FPR(uint64(math.Round(x)))
		if err == nil && y > 0 {
			xys = append(xys, plotter.XY{X: x, Y: y})
		}
	}
	return xys
}

// stageBoundaries returns the item counts at which the stages of a scalable
// filter with these parameters fill, up to limit.
func stageBoundaries(s analysis.Scalable, limit uint64) []float64 {
	var out []float64
	var total uint64
	for i := 0; i < analysis.MaxStages; i++ {
		st, err := s.Stage(i)
		if err != nil {
			break
		}
		total += st.Capacity
		if total > limit {
			break
		}
		out = append(out, float64(total))
	}
	return out
}

// scalableFillFigure draws the fill experiment of scalable filters: rate
// against items inserted on logarithmic axes, the compound theory, the
// target P, and, for a single series, the stage boundaries.
func scalableFillFigure(r *experiments.Results) (*Figure, error) {
	names := SeriesNames(r)
	lo, hi := logRange(append(rateValues(r, items, nil), r.Params.P)...)
	hi = math.Max(hi, r.Params.P*10)
	first := Rows(r, names[0], nil)[0]
	xmin, xmax := xRange(allRows(r), items)
	title := fmt.Sprintf("Scalable Bloom filter growing from n0 = %d to %d items, target P = %g", first.Capacity, uint64(xmax), r.Params.P)
	if len(names) == 1 {
		title = fmt.Sprintf("Scalable Bloom filter: P = %g, r = %g, s = %g, n0 = %d", r.Params.P, first.R, first.S, first.Capacity)
	}
	p := newPlot(title, "items inserted", rateLabel)
	logY(p, lo, hi)
	logX(p)
	p.X.Min, p.X.Max = xmin, xmax
	if len(names) == 1 {
		spec := analysis.Scalable{P: r.Params.P, R: first.R, S: first.S, N0: first.Capacity}
		for i, b := range stageBoundaries(spec, uint64(xmax)) {
			label := ""
			if i == 0 {
				label = "stage boundaries (a stage is full, the next one opens)"
			}
			if err := vline(p, b, lo, r.Params.P*3, grey, dotted, thinW, label); err != nil {
				return nil, err
			}
		}
	}
	if err := hline(p, r.Params.P, xmin, xmax, red, dashed, fmt.Sprintf("target P = %g, the bound on the compound rate", r.Params.P)); err != nil {
		return nil, err
	}
	for i, name := range names {
		rows := Rows(r, name, nil)
		label := theoryWords("scalable")
		mlabel := measuredLabel(r, rows)
		if len(names) > 1 {
			label, mlabel = name+": theory", name+": measured"
		}
		c := seriesColor(i)
		if len(names) == 1 {
			c = seriesColor(0)
		}
		spec := analysis.Scalable{P: r.Params.P, R: rows[0].R, S: rows[0].S, N0: rows[0].Capacity}
		if err := addLine(p, ScalableTheory(spec, xmin, xmax, 300), c, nil, lineW, label); err != nil {
			return nil, err
		}
		mc := c
		if len(names) == 1 {
			mc = black
		}
		if err := addMeasured(p, clampLow(Rates(rows, items), lo), mc, i, mlabel); err != nil {
			return nil, err
		}
	}
	return single(p), nil
}

// bitsFigure draws rate against bits per element for each variant, with
// the theory of each and the classic formula.
func bitsFigure(r *experiments.Results) (*Figure, error) {
	bpe := func(row *experiments.Row) float64 { return float64(row.Bits) / float64(row.Items) }
	names := SeriesNames(r)
	lo, hi := logRange(rateValues(r, bpe, nil)...)
	first := r.Rows[0]
	p := newPlot(fmt.Sprintf("False-positive rate against memory, n = %d items, best integer k at each size", first.Items),
		"bits per element (m/n)", rateLabel)
	logY(p, lo, hi)
	for i, name := range names {
		rows := Rows(r, name, nil)
		if err := addLine(p, Values(rows, bpe, theory), seriesColor(i), theoryDashes(i), lineW, name+": "+theoryWords(rows[0].Model)); err != nil {
			return nil, err
		}
		if err := addMeasured(p, clampLow(Rates(rows, bpe), lo), seriesColor(i), i, name+": "+measuredLabel(r, rows)); err != nil {
			return nil, err
		}
	}
	if err := addClassic(p, Values(Rows(r, names[0], nil), bpe, classic)); err != nil {
		return nil, err
	}
	p.X.Min = 0
	return single(p), nil
}

// hashesFigure draws rate against k at fixed bits per element, with the
// classic optimum (m/n) ln 2.
func hashesFigure(r *experiments.Results) (*Figure, error) {
	k := func(row *experiments.Row) float64 { return float64(row.Hashes) }
	names := SeriesNames(r)
	var all []float64
	for _, name := range names {
		rows := Rows(r, name, nil)
		all = append(all, Rates(rows, k).ys()...)
		all = append(all, xysY(Values(rows, k, theory))...)
	}
	lo, hi := logRange(all...)
	first := r.Rows[0]
	opt := float64(first.Bits) / float64(first.Items) * math.Ln2
	p := newPlot(fmt.Sprintf("False-positive rate against the number of hashes, m = %d bits, n = %d items (%.3g bits per element)",
		first.Bits, first.Items, float64(first.Bits)/float64(first.Items)),
		"hashes k", rateLabel)
	logY(p, lo, hi)
	if err := vline(p, opt, lo, hi, red, dotted, lineW, fmt.Sprintf("classic optimum k = (m/n) ln 2 = %.2f", opt)); err != nil {
		return nil, err
	}
	for i, name := range names {
		rows := Rows(r, name, nil)
		if err := addLine(p, Values(rows, k, theory), seriesColor(i), theoryDashes(i), lineW, name+": "+theoryWords(rows[0].Model)); err != nil {
			return nil, err
		}
		if err := addMeasured(p, clampLow(Rates(rows, k), lo), seriesColor(i), i, name+": "+measuredLabel(r, rows)); err != nil {
			return nil, err
		}
	}
	if err := addClassic(p, Values(Rows(r, names[0], nil), k, classic)); err != nil {
		return nil, err
	}
	p.X.Min = 0
	return single(p), nil
}

// powerTicks returns ticks labelled with the values xs, for a logarithmic
// axis over sizes such as 64 to 4096.
func powerTicks(xs []float64) plot.ConstantTicks {
	var t plot.ConstantTicks
	for _, x := range xs {
		t = append(t, plot.Tick{Value: x, Label: fmt.Sprintf("%g", x)})
	}
	return t
}

// smallMFigure draws small filters: (a) the measured rate beside the exact
// and classic rates against m; (b) the same as ratios to the classic rate.
func smallMFigure(r *experiments.Results) (*Figure, error) {
	m := func(row *experiments.Row) float64 { return float64(row.Bits) }
	rows := Rows(r, SeriesNames(r)[0], nil)
	var xs []float64
	for _, row := range rows {
		xs = append(xs, m(row))
	}
	pts := Rates(rows, m)
	th := Values(rows, m, theory)
	cl := Values(rows, m, classic)

	a := newPlot("(a) false-positive rate of small filters", "filter size m (bits)", rateLabel)
	logX(a)
	a.X.Tick.Marker = powerTicks(xs)
	a.Y.Scale = plot.LogScale{}
	a.Y.Tick.Marker = decades{}
	ys := append(append(pts.span(), xysY(th)...), xysY(cl)...)
	ylo, yhi := minMax(ys)
	a.Y.Min, a.Y.Max = ylo*0.98, yhi*1.02
	if err := addLine(a, cl, grey, dashed, lineW, "classic formula (1-exp(-kn/m))^k"); err != nil {
		return nil, err
	}
	if err := addLine(a, th, seriesColor(0), nil, lineW, "exact rate E[(X/m)^k]"); err != nil {
		return nil, err
	}
	if err := addMeasured(a, pts, black, 0, measuredLabel(r, rows)); err != nil {
		return nil, err
	}

	b := newPlot("(b) the same, divided by the classic rate", "filter size m (bits)", "rate / classic rate")
	logX(b)
	b.X.Tick.Marker = powerTicks(xs)
	ratio := Ratio(rows, m, classic)
	exact := plotter.XYs{}
	for _, row := range rows {
		if row.Classic > 0 {
			exact = append(exact, plotter.XY{X: m(row), Y: row.Theory / row.Classic})
		}
	}
	rlo, rhi := minMax(append(ratio.span(), xysY(exact)...))
	b.Y.Min, b.Y.Max = math.Min(rlo, 1)-0.01, rhi+0.01
	if err := hline(b, 1, xs[0], xs[len(xs)-1], grey, dashed, "classic formula"); err != nil {
		return nil, err
	}
	if err := addLine(b, exact, seriesColor(0), nil, lineW, "exact rate"); err != nil {
		return nil, err
	}
	if err := addMeasured(b, ratio, black, 0, "measured"); err != nil {
		return nil, err
	}
	return &Figure{Panels: [][]*plot.Plot{{a, b}}, Width: 12 * vg.Inch, Height: 5 * vg.Inch}, nil
}

func minMax(v []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// scalableFigure draws the scalable sweep: rate, bits per element, stages
// and query time against items, for every (r, s) and the standard filter
// sized in advance. Panel (a) has each series' measured rates with their
// intervals beside its theory (the compound rate of the stages; the exact
// rate of the standard filter), and the target drawn over them.
func scalableFigure(r *experiments.Results) (*Figure, error) {
	names := SeriesNames(r)
	// The rate axis holds the measurements, the target and the scalable
	// theory; the standard filter's theory falls far below it before
	// that filter fills, and is drawn only where the axis reaches.
	all := []float64{r.Params.P}
	for _, name := range names {
		rows := Rows(r, name, nil)
		all = append(all, Rates(rows, items).ys()...)
		if rows[0].Variant == "scalable" {
			all = append(all, xysY(Values(rows, items, theory))...)
		}
	}
	lo, hi := logRange(all...)
	hi = math.Max(hi, r.Params.P*10)
	xmin, xmax := xRange(allRows(r), items)

	a := newPlot(fmt.Sprintf("(a) false-positive rate, target P = %g", r.Params.P), "items inserted", rateLabel)
	logX(a)
	logY(a, lo, hi)
	a.X.Min, a.X.Max = xmin/1.15, xmax*1.15
	b := newPlot("(b) memory", "items inserted", "bits per element")
	logX(b)
	b.Y.Scale = plot.LogScale{}
	b.Y.Tick.Marker = decades{}
	c := newPlot("(c) stages", "items inserted", "stages")
	logX(c)
	d := newPlot("(d) query time", "items inserted", "ns per query of an absent key")
	logX(d)
	var bpe []float64
	for i, name := range names {
		rows := Rows(r, name, nil)
		col := seriesColor(i)
		dash := []vg.Length(nil)
		if rows[0].Variant == "standard" {
			col, dash = black, dashed
		}
		var th plotter.XYs
		for _, xy := range Values(rows, items, theory) {
			if xy.Y >= lo {
				th = append(th, xy)
			}
		}
		if err := addLine(a, th, col, dash, thinW, ""); err != nil {
			return nil, err
		}
		if err := addMeasured(a, clampLow(Rates(rows, items), lo), col, i, name); err != nil {
			return nil, err
		}
		bp := Values(rows, items, func(r *experiments.Row) float64 { return r.BitsPerElement })
		bpe = append(bpe, xysY(bp)...)
		if err := addPolyline(b, bp, col, i, dash, ""); err != nil {
			return nil, err
		}
		if rows[0].Variant == "scalable" {
			if err := addPolyline(c, Values(rows, items, func(r *experiments.Row) float64 { return r.Stages }), col, i, dash, ""); err != nil {
				return nil, err
			}
		}
		if err := addPolyline(d, Values(rows, items, func(r *experiments.Row) float64 { return r.NsPerQuery }), col, i, dash, ""); err != nil {
			return nil, err
		}
	}
	a.Legend.Add(fmt.Sprintf("points: measured, %g%% intervals", 100*r.Params.Conf))
	a.Legend.Add("lines: each series' theory")
	if err := hline(a, r.Params.P, a.X.Min, a.X.Max, red, dashed, fmt.Sprintf("target P = %g (drawn over the series)", r.Params.P)); err != nil {
		return nil, err
	}
	// The number of stages depends on s, not on r: lines of equal s
	// coincide, and the legend of (c) says which.
	var groups [][]string
	var keys []string
	for _, name := range names {
		rows := Rows(r, name, nil)
		if rows[0].Variant != "scalable" {
			continue
		}
		key := fmt.Sprint(Values(rows, items, func(r *experiments.Row) float64 { return r.Stages }))
		if k := slices.Index(keys, key); k >= 0 {
			groups[k] = append(groups[k], name)
		} else {
			keys = append(keys, key)
			groups = append(groups, []string{name})
		}
	}
	for _, g := range groups {
		if len(g) > 1 {
			c.Legend.Add(fmt.Sprintf("one line for %s (same stages)", strings.Join(g, ", ")))
		}
	}
	blo, bhi := logRange(bpe...)
	b.Y.Min, b.Y.Max = blo, bhi
	c.Y.Min, d.Y.Min = 0, 0
	return &Figure{Panels: [][]*plot.Plot{{a, b}, {c, d}}, Width: 18 * vg.Inch, Height: 10 * vg.Inch}, nil
}

// blockedModel reports the block size of a Model "blocked/B".
func blockedModel(model string) (uint64, bool) {
	rest, ok := strings.CutPrefix(model, "blocked/")
	if !ok {
		return 0, false
	}
	b, err := strconv.ParseUint(rest, 10, 64)
	return b, err == nil
}

// classicWords names the classic formula in a legend; it is drawn last,
// dashed and thin, so that it stays visible where it lies on a theory
// line.
const classicWords = "classic formula (1-exp(-kn/m))^k (grey dashes, on top)"

// addClassic draws the classic formula's rates xys over the other lines.
func addClassic(p *plot.Plot, xys plotter.XYs) error {
	return addLine(p, xys, grey, dashed, thinW*1.5, classicWords)
}

// theoryDashes returns the dash pattern of the theory line of series i of
// a figure whose series' theories may coincide (standard and partitioned
// filters, at these sizes): the first solid, the others dashed, dotted and
// dash-dotted, so that a line drawn over another does not hide it.
func theoryDashes(i int) []vg.Length {
	return [][]vg.Length{nil, {vg.Points(7), vg.Points(3)}, dotted, dashDot}[i%4]
}
