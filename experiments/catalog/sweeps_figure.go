package catalog

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"github.com/bloomlab/bloomlab/variants"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// bitsFigure draws rate against bits per key for each variant, with
// the theory of each and the classic formula.
func bitsFigure(r *experiments.Results) (*plots.Figure, error) {
	bpe := func(row *experiments.Row) float64 { return float64(row.Bits) / float64(row.Items) }
	names := plots.SeriesNames(r)
	lo, hi := plots.LogRange(rateValues(r, bpe, nil)...)
	first := r.Rows[0]
	p := plots.Panel(fmt.Sprintf("False-positive rate against memory, n = %d items, best integer k at each size", first.Items),
		"bits per key (m/n)", plots.RateLabel)
	plots.LogY(p, lo, hi)
	for i, name := range names {
		rows := plots.Rows(r, name, nil)
		if err := plots.AddLine(p, plots.Values(rows, bpe, theory), plots.Color(i), theoryDashes(i), plots.LineWidth, name+": "+plots.TheoryLabel(rows[0].Model)); err != nil {
			return nil, err
		}
		if err := plots.AddPoints(p, plots.Rates(rows, bpe).ClampLow(lo), plots.Color(i), i, name+": "+measuredLabel(r, rows)); err != nil {
			return nil, err
		}
	}
	if err := addClassic(p, plots.Values(plots.Rows(r, names[0], nil), bpe, classic)); err != nil {
		return nil, err
	}
	p.X.Min = 0
	return single(p), nil
}

// hashesFigure draws rate against k at fixed bits per key: (a) the
// measured rates beside the first variant's theory, with the classic
// optimum (m/n) ln 2, on an axis around the data; (b) each variant's
// measured rate over its own theory with the intervals, where the
// differences the rates hide in (a) show.
func hashesFigure(r *experiments.Results) (*plots.Figure, error) {
	k := func(row *experiments.Row) float64 { return float64(row.Hashes) }
	names := plots.SeriesNames(r)
	var all []float64
	for _, name := range names {
		rows := plots.Rows(r, name, nil)
		all = append(all, ySpan(plots.Rates(rows, k))...)
		all = append(all, xysY(plots.Values(rows, k, theory))...)
	}
	// The axis around the data; over two decades, whole decades, which
	// the ticker labels (within two it labels 2 and 5 times each too).
	ylo, yhi := minMax(positive(all))
	lo, hi := ylo/1.1, yhi*1.1
	if hi/lo > 100 {
		lo, hi = plots.LogRange(all...)
	}
	first := r.Rows[0]
	opt := float64(first.Bits) / float64(first.Items) * math.Ln2
	a := plots.Panel(fmt.Sprintf("(a) m = %d bits, n = %d items (%.3g bits per key)%s",
		first.Bits, first.Items, float64(first.Bits)/float64(first.Items), hashingTitle(&first)),
		"hashes k", plots.RateLabel)
	plots.LogY(a, lo, hi)
	if err := vline(a, opt, lo, hi, red, plots.Dotted, plots.LineWidth, fmt.Sprintf("classic optimum k = (m/n) ln 2 = %.2f", opt)); err != nil {
		return nil, err
	}
	ref := plots.Rows(r, names[0], nil)
	if err := plots.AddLine(a, plots.Values(ref, k, theory), black, nil, plots.ThinWidth, "line: "+names[0]+" "+plots.TheoryLabel(ref[0].Model)); err != nil {
		return nil, err
	}
	// The other theories and the classic formula, as far from the
	// first theory as they get: less than a line's width.
	refAt := map[int]float64{}
	for _, row := range ref {
		refAt[row.Hashes] = row.Theory
	}
	apart := 0.0
	for _, row := range allRows(r) {
		if t := refAt[row.Hashes]; t > 0 {
			for _, v := range []float64{row.Theory, row.Classic} {
				if v > 0 {
					apart = math.Max(apart, math.Abs(v/t-1))
				}
			}
		}
	}
	if len(names) > 1 {
		a.Legend.Add(fmt.Sprintf("   (the others' theory and the classic formula lie within %.2g%% of it)", 100*apart))
	} else {
		a.Legend.Add(fmt.Sprintf("   (the classic formula lies within %.2g%% of it)", 100*apart))
	}
	b := plots.Panel("(b) measured rate over each variant's own theory", "hashes k", "measured / theory")
	var rlo, rhi float64 = 1, 1
	for i, name := range names {
		rows := plots.Rows(r, name, nil)
		if err := plots.AddPoints(a, plots.Rates(rows, k).ClampLow(lo), plots.Color(i), i, name+": "+measuredLabel(r, rows)); err != nil {
			return nil, err
		}
		pts := plots.Ratio(rows, k, theory)
		// Side by side, so that the intervals do not overlap.
		for j := range pts.XYs {
			pts.XYs[j].X += 0.15 * (float64(i) - float64(len(names)-1)/2)
		}
		if err := plots.AddPoints(b, pts, plots.Color(i), i, name+" / "+plots.TheoryLabel(rows[0].Model)); err != nil {
			return nil, err
		}
		l, h := minMax(ySpan(pts))
		rlo, rhi = math.Min(rlo, l), math.Max(rhi, h)
	}
	var ks []float64
	for _, row := range ref {
		ks = append(ks, k(row))
	}
	kmin, kmax := minMax(ks)
	if err := hline(b, 1, kmin-0.5, kmax+0.5, black, nil, "theory"); err != nil {
		return nil, err
	}
	pad := 0.1 * (rhi - rlo)
	b.Y.Min, b.Y.Max = rlo-pad, rhi+pad
	a.X.Min, b.X.Min = 0, 0
	a.X.Max, b.X.Max = kmax+0.5, kmax+0.5
	return twoByTwo(5*vg.Inch, a, b), nil
}

// positive returns the positive finite values of ys.
func positive(ys []float64) []float64 {
	var out []float64
	for _, y := range ys {
		if y > 0 && !math.IsInf(y, 0) {
			out = append(out, y)
		}
	}
	return out
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
func smallMFigure(r *experiments.Results) (*plots.Figure, error) {
	m := func(row *experiments.Row) float64 { return float64(row.Bits) }
	rows := plots.Rows(r, plots.SeriesNames(r)[0], nil)
	var xs []float64
	for _, row := range rows {
		xs = append(xs, m(row))
	}
	pts := plots.Rates(rows, m)
	th := plots.Values(rows, m, theory)
	cl := plots.Values(rows, m, classic)

	// n and k as the panels' titles say them: n = m/(bits per key), and
	// the best integer k, the same at every m when the bits per key are.
	ks := map[int]bool{}
	for _, row := range rows {
		ks[row.Hashes] = true
	}
	kWords := "the best integer k"
	if len(ks) == 1 {
		kWords = fmt.Sprintf("k = %d", rows[0].Hashes)
	}
	bpk := 0.0
	if len(r.Params.BitsPerKey) > 0 {
		bpk = r.Params.BitsPerKey[0]
	}
	a := plots.Panel(fmt.Sprintf("(a) small filters holding n = m/%g keys, %s%s", bpk, kWords, hashingTitle(rows[0])), "filter size m (bits)", plots.RateLabel)
	plots.LogX(a)
	a.X.Tick.Marker = powerTicks(xs)
	a.Y.Scale = plots.LogScale{}
	a.Y.Tick.Marker = plots.Decades{}
	ys := append(append(ySpan(pts), xysY(th)...), xysY(cl)...)
	ylo, yhi := minMax(ys)
	a.Y.Min, a.Y.Max = ylo*0.98, yhi*1.02
	if err := plots.AddLine(a, cl, grey, plots.Dashed, plots.LineWidth, "classic formula (1-exp(-kn/m))^k"); err != nil {
		return nil, err
	}
	if err := plots.AddLine(a, th, plots.Color(0), nil, plots.LineWidth, "exact rate E[(X/m)^k]"); err != nil {
		return nil, err
	}
	if err := plots.AddPoints(a, pts, black, 0, measuredLabel(r, rows)); err != nil {
		return nil, err
	}

	b := plots.Panel(fmt.Sprintf("(b) the same, divided by the classic rate (n = m/%g, %s)", bpk, kWords), "filter size m (bits)", "rate / classic rate")
	plots.LogX(b)
	b.X.Tick.Marker = powerTicks(xs)
	ratio := plots.Ratio(rows, m, classic)
	exact := plotter.XYs{}
	for _, row := range rows {
		if row.Classic > 0 {
			exact = append(exact, plotter.XY{X: m(row), Y: row.Theory / row.Classic})
		}
	}
	rlo, rhi := minMax(append(ySpan(ratio), xysY(exact)...))
	b.Y.Min, b.Y.Max = math.Min(rlo, 1)-0.01, rhi+0.01
	if err := hline(b, 1, xs[0], xs[len(xs)-1], grey, plots.Dashed, "classic formula"); err != nil {
		return nil, err
	}
	if err := plots.AddLine(b, exact, plots.Color(0), nil, plots.LineWidth, "exact rate"); err != nil {
		return nil, err
	}
	if err := plots.AddPoints(b, ratio, black, 0, "measured"); err != nil {
		return nil, err
	}
	return twoByTwo(5*vg.Inch, a, b), nil
}

func minMax(v []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// hashingTitle returns what a title adds for a row's hashing: ", H
// hashing" unless it is the default.
func hashingTitle(row *experiments.Row) string {
	if row.Hashing == "" || row.Hashing == hashingName(variants.Hashing{}) {
		return ""
	}
	return ", " + row.Hashing + " hashing"
}
