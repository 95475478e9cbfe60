package catalog

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// errorPoints returns the mean estimate errors of the cardinality
// experiment's rows at x(row), with their t intervals, times scale (100
// for percent). Rows without error columns are skipped.
func errorPoints(rows []*experiments.Row, x func(*experiments.Row) float64, scale float64) plots.Points {
	return cardinalityPoints(rows, x, scale, func(r *experiments.Row) (y, lo, hi float64) { return r.Error, r.ErrorLo, r.ErrorHi })
}

// spreadPoints returns the standard deviations of the estimate errors of
// the cardinality experiment's rows at x(row), with their intervals,
// times scale.
func spreadPoints(rows []*experiments.Row, x func(*experiments.Row) float64, scale float64) plots.Points {
	return cardinalityPoints(rows, x, scale, func(r *experiments.Row) (y, lo, hi float64) { return r.Spread, r.SpreadLo, r.SpreadHi })
}

func cardinalityPoints(rows []*experiments.Row, x func(*experiments.Row) float64, scale float64, col func(*experiments.Row) (y, lo, hi float64)) plots.Points {
	var p plots.Points
	for _, row := range rows {
		if row.Scale == 0 || row.Saturated == row.Filters {
			continue
		}
		y, lo, hi := col(row)
		p.XYs = append(p.XYs, plotter.XY{X: x(row), Y: scale * y})
		p.Errors = append(p.Errors, struct{ Low, High float64 }{scale * (y - lo), scale * (hi - y)})
	}
	return p
}

// predicted returns (x(row), scale y(row)) for the rows whose model gave a
// prediction, zero and negative values included (for linear axes).
func predicted(rows []*experiments.Row, x, y func(*experiments.Row) float64, scale float64) plotter.XYs {
	var xys plotter.XYs
	for _, row := range rows {
		if v := y(row); row.Model != "" && !math.IsNaN(v) && !math.IsInf(v, 0) {
			xys = append(xys, plotter.XY{X: x(row), Y: scale * v})
		}
	}
	return xys
}

// errorSeries draws one series of the cardinality experiment: on mean, its
// mean errors at xPoint with their intervals and the predicted bias at
// xLine; on spread, its spreads and the predicted standard error; all in
// percent of the rows' scale.
//
// With offsets, mean shows instead each mean error less the predicted
// bias over the half-width of its interval (offsetPoints), markers
// without bars: many series of intervals side by side hide each other.
func errorSeries(mean, spread *plot.Plot, rows []*experiments.Row, xLine, xPoint func(*experiments.Row) float64,
	c color.Color, shape int, dashes []vg.Length, name string, offsets bool) error {
	if offsets {
		if err := addMarkers(mean, offsetPoints(rows, xPoint), c, shape, name); err != nil {
			return err
		}
	} else {
		if err := plots.AddLine(mean, predicted(rows, xLine, bias, 100), c, dashes, plots.ThinWidth, ""); err != nil {
			return err
		}
		if err := plots.AddPoints(mean, errorPoints(rows, xPoint, 100), c, shape, name); err != nil {
			return err
		}
	}
	if err := plots.AddLine(spread, predicted(rows, xLine, stdError, 100), c, dashes, plots.LineWidth, ""); err != nil {
		return err
	}
	return plots.AddPoints(spread, spreadPoints(rows, xPoint, 100), c, shape, name)
}

// offsetPoints returns, at x(row), each row's mean error less its
// predicted bias over the half-width of the mean's interval: within -1 to
// 1 exactly when the prediction lies inside the interval. Rows without a
// prediction or an interval are skipped.
func offsetPoints(rows []*experiments.Row, x func(*experiments.Row) float64) plotter.XYs {
	var xys plotter.XYs
	for _, row := range rows {
		h := (row.ErrorHi - row.ErrorLo) / 2
		if row.Scale == 0 || row.Saturated == row.Filters || row.Model == "" || !(h > 0) || math.IsNaN(row.Bias) {
			continue
		}
		xys = append(xys, plotter.XY{X: x(row), Y: (row.Error - row.Bias) / h})
	}
	return xys
}

// addMarkers draws xys as markers of series shape in colour c, named in
// the legend.
func addMarkers(p *plot.Plot, xys plotter.XYs, c color.Color, shape int, name string) error {
	if len(xys) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	sc.GlyphStyle.Color = c
	sc.GlyphStyle.Radius = plots.GlyphRadius
	sc.GlyphStyle.Shape = plots.Marker(shape)
	p.Add(sc)
	p.Legend.Add(name, sc)
	return nil
}

// offsetBand draws the lines at -1, 0 and 1 of a panel of offsetPoints
// from x0 to x1, and sets its y range to hold them and ys.
func offsetBand(p *plot.Plot, x0, x1 float64) error {
	if err := hline(p, 0, x0, x1, black, nil, ""); err != nil {
		return err
	}
	for _, y := range []float64{-1, 1} {
		label := ""
		if y == 1 {
			label = "±1: predicted bias at the 95% interval's edge"
		}
		if err := hline(p, y, x0, x1, grey, plots.Dashed, label); err != nil {
			return err
		}
	}
	p.Y.Min, p.Y.Max = math.Min(p.Y.Min-0.2, -1.5), math.Max(p.Y.Max+0.2, 1.5)
	return nil
}

func bias(r *experiments.Row) float64     { return r.Bias }
func stdError(r *experiments.Row) float64 { return r.StdError }

// cardinalityFigure draws the cardinality experiment: the mean and the
// spread of the relative error of each variant's count estimate against
// the load, and of the union and intersection estimates against the
// overlap, each beside its prediction.
func cardinalityFigure(r *experiments.Results) (*plots.Figure, error) {
	n := float64(r.Params.N)
	load := func(row *experiments.Row) float64 { return 100 * float64(row.Items) / n }
	overlap := func(row *experiments.Row) float64 { return 100 * row.Overlap }
	var counts, sets []string
	for _, name := range plots.SeriesNames(r) {
		rows := plots.Rows(r, name, nil)
		if len(rows) == 0 || rows[0].Scale == 0 || name == cardinalitySaturation {
			continue
		}
		if rows[0].Estimate == experiments.EstimateItems {
			counts = append(counts, name)
		} else {
			sets = append(sets, name)
		}
	}
	saturation := plots.Rows(r, cardinalitySaturation, nil)
	if len(counts)+len(sets)+len(saturation) == 0 {
		return nil, fmt.Errorf("no cardinality rows in the results")
	}
	filters := r.Params.Filters

	a := plots.Panel(fmt.Sprintf("(a) count estimate, %d filters: mean error less prediction", filters), "items inserted, % of the capacity n", "(mean error - predicted bias) / interval half-width")
	b := plots.Panel("(b) count estimate: spread over the filters", "items inserted, % of the capacity n", "standard deviation of the relative error (%)")
	for _, p := range []*plot.Plot{a, b} {
		plots.LogX(p)
	}
	// Shift each series a little sideways so that their bars do not
	// overlap.
	shift := func(x func(*experiments.Row) float64, i, of int, log bool) func(*experiments.Row) float64 {
		d := float64(i) - float64(of-1)/2
		if log {
			return func(row *experiments.Row) float64 { return x(row) * math.Pow(1.04, d) }
		}
		return func(row *experiments.Row) float64 { return x(row) + 0.6*d }
	}
	for i, name := range counts {
		rows := plots.Rows(r, name, nil)
		if err := errorSeries(a, b, rows, load, shift(load, i, len(counts), true), plots.Color(i), i, nil, name, true); err != nil {
			return nil, err
		}
	}
	if len(counts) > 0 {
		var xs []float64
		for _, row := range allRows(r) {
			if row.Estimate == experiments.EstimateItems && row.Scale != 0 {
				xs = append(xs, load(row))
			}
		}
		lo, hi := minMax(xs)
		if err := offsetBand(a, lo/1.2, hi*1.2); err != nil {
			return nil, err
		}
	}
	b.Legend.Add("lines: predicted standard error")
	b.Y.Min = 0

	c := plots.Panel(fmt.Sprintf("(c) union, intersection of n = %d: mean error less prediction", r.Params.N), "overlap, % of n", "(mean error - predicted bias) / interval half-width")
	d := plots.Panel("(d) union, intersection: spread over the pairs", "overlap, % of n", "standard deviation of the error, % of n")
	variantsSeen := map[string]int{}
	for i, name := range sets {
		rows := plots.Rows(r, name, nil)
		// One colour per filter: the series' name less its estimate (the
		// variant, or the layout of the blocked variant's series).
		v := strings.TrimSuffix(strings.TrimSuffix(name, " "+experiments.EstimateUnion), " "+experiments.EstimateIntersection)
		col, ok := variantsSeen[v]
		if !ok {
			col = len(variantsSeen)
			variantsSeen[v] = col
		}
		var dashes []vg.Length
		if strings.HasSuffix(name, experiments.EstimateIntersection) {
			dashes = plots.Dashed
		}
		if err := errorSeries(c, d, rows, overlap, shift(overlap, i, len(sets), false), plots.Color(col), i, dashes, name, true); err != nil {
			return nil, err
		}
	}
	if len(sets) > 0 {
		if err := offsetBand(c, -4, 104); err != nil {
			return nil, err
		}
	}
	d.Legend.Add("lines: predicted standard error (dashed: intersection)")
	for _, p := range []*plot.Plot{c, d} {
		p.X.Min, p.X.Max = -4, 104
	}
	d.Y.Min = 0
	var panels [][]*plot.Plot
	if len(counts) > 0 {
		panels = append(panels, []*plot.Plot{a, b})
	}
	if len(sets) > 0 {
		panels = append(panels, []*plot.Plot{c, d})
	}
	if len(saturation) > 0 {
		e, f, err := saturationPanels(saturation)
		if err != nil {
			return nil, err
		}
		panels = append(panels, []*plot.Plot{e, f})
	}
	for _, row := range panels {
		for _, p := range row {
			p.Legend.Top = true // a band above: beside, it narrows the column
		}
	}
	return &plots.Figure{Panels: panels, Width: readmeWidth, Height: 5 * vg.Length(len(panels)) * vg.Inch}, nil
}

// saturationPanels draws the rows of small filters filled close to
// saturation against the number of bits expected to stay clear, falling
// to the right: the measured mean and spread of the relative error beside
// the exact prediction (solid) and the delta method's (plots.Dashed).
func saturationPanels(rows []*experiments.Row) (mean, spread *plot.Plot, err error) {
	first := rows[0]
	m, k := first.Bits, first.Hashes
	est := analysis.FillEstimator{Bits: m, Hashes: k}
	clear := func(row *experiments.Row) float64 {
		return float64(m) * (1 - analysis.ExpectedFill(m, row.Items, k))
	}
	delta := func(col func(analysis.EstimateError) float64) func(*experiments.Row) float64 {
		return func(row *experiments.Row) float64 {
			e, err := est.DeltaError(row.Items)
			if err != nil {
				return math.NaN()
			}
			return col(e) / float64(row.Items)
		}
	}
	title := fmt.Sprintf("standard, m = %d, k = %d, near saturation", m, k)
	mean = plots.Panel("(e) "+title+": mean error", "bits expected to stay clear, m(1 - fill)", "mean relative error (%)")
	spread = plots.Panel("(f) "+title+": spread", "bits expected to stay clear, m(1 - fill)", "standard deviation of the relative error (%)")
	for _, p := range []*plot.Plot{mean, spread} {
		p.X.Scale = plot.InvertedScale{Normalizer: plots.LogScale{}}
		p.X.Tick.Marker = plots.Decades{}
	}
	var satRows []*experiments.Row
	for _, row := range rows {
		if row.Saturated > 0 || row.PSaturated >= 0.5/float64(row.Filters) {
			satRows = append(satRows, row)
		}
	}
	if err := errorSeries(mean, spread, rows, clear, clear, plots.Color(0), 0, nil, fmt.Sprintf("measured, %d filters", first.Filters), false); err != nil {
		return nil, nil, err
	}
	if err := plots.AddLine(mean, predicted(rows, clear, delta(func(e analysis.EstimateError) float64 { return e.Bias }), 100), black, plots.Dashed, plots.LineWidth, "delta method"); err != nil {
		return nil, nil, err
	}
	if err := plots.AddLine(spread, predicted(rows, clear, delta(func(e analysis.EstimateError) float64 { return e.StdDev }), 100), black, plots.Dashed, plots.LineWidth, "delta method"); err != nil {
		return nil, nil, err
	}
	mean.Legend.Add("solid line: exact prediction")
	mean.Legend.Add("  (of the finite estimates)")
	spread.Legend.Add("solid line: exact prediction")
	spread.Legend.Add("  (of the finite estimates)")
	if len(satRows) > 0 {
		// Saturated filters, from the first load that has any to the
		// last: measured (predicted).
		f, l := satRows[0], satRows[len(satRows)-1]
		mean.Legend.Add("saturated filters (+Inf) left out, measured")
		mean.Legend.Add(fmt.Sprintf("  (predicted): %d (%.3g) at %.3g clear bits", f.Saturated, f.PSaturated*float64(f.Filters), clear(f)))
		mean.Legend.Add(fmt.Sprintf("  to %d (%.3g) at %.3g", l.Saturated, l.PSaturated*float64(l.Filters), clear(l)))
	}
	spread.Y.Min = 0
	for _, p := range []*plot.Plot{mean, spread} {
		p.X.Min, p.X.Max = 0.8, 130
	}
	return mean, spread, nil
}
