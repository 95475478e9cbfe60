package catalog

import (
	"fmt"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"gonum.org/v1/plot/vg"
)

// countingFigure draws the counting experiment: (a) the histogram of
// counter values beside its binomial and Poisson predictions; (b) the
// fraction of saturated counters against items for each width; (c) the
// fraction of members lost to removals of keys never inserted.
func countingFigure(r *experiments.Results) (*plots.Figure, error) {
	value := func(row *experiments.Row) float64 { return float64(row.Value) }
	hist := plots.Rows(r, countingHistogram, nil)
	if len(hist) == 0 {
		return nil, fmt.Errorf("no counter histogram in the results")
	}
	first := hist[0]
	a := plots.Panel(fmt.Sprintf("(a) counter values: n = %d, m = %d counters, k = %d", first.Items, first.Cells, first.Hashes),
		"counter value (15: saturated)", "fraction of counters")
	pts := plots.Rates(hist, value)
	th := plots.Values(hist, value, theory)
	po := plots.Values(hist, value, classic)
	lo, _ := plots.LogRange(append(ySpan(pts), xysY(th)...)...)
	lo = math.Max(lo, 1e-16)
	plots.LogY(a, lo, 1)
	if err := plots.AddLine(a, th, plots.Color(0), nil, plots.LineWidth, "binomial(kn, 1/m) prediction"); err != nil {
		return nil, err
	}
	if err := plots.AddLine(a, po, grey, plots.Dashed, plots.ThinWidth*1.5, "Poisson(kn/m) approximation (grey dashes, on top)"); err != nil {
		return nil, err
	}
	if err := plots.AddPoints(a, pts.ClampLow(lo), black, 0, fmt.Sprintf("measured, %d filters", first.Filters)); err != nil {
		return nil, err
	}
	a.X.Min, a.X.Max = -0.5, 15.5

	b := plots.Panel("(b) saturated counters, theory P[c >= 2^w - 1]", "items inserted", "fraction of counters saturated")
	plots.LogX(b)
	var all []float64
	var sat []string
	for _, name := range plots.SeriesNames(r) {
		rows := plots.Rows(r, name, nil)
		if len(rows) > 0 && rows[0].Model == "binomial tail" {
			sat = append(sat, name)
			all = append(all, ySpan(plots.Rates(rows, items))...)
			all = append(all, xysY(plots.Values(rows, items, theory))...)
		}
	}
	blo, _ := plots.LogRange(all...)
	plots.LogY(b, blo, 1)
	for i, name := range sat {
		rows := plots.Rows(r, name, nil)
		short := strings.TrimPrefix(name, "saturated, ") // the title says saturated
		if err := plots.AddLine(b, plots.Values(rows, items, theory), plots.Color(i+1), nil, plots.LineWidth, short+": theory"); err != nil {
			return nil, err
		}
		if err := plots.AddPoints(b, plots.Rates(rows, items).ClampLow(blo), plots.Color(i+1), i+1, short+": measured"); err != nil {
			return nil, err
		}
	}
	if len(sat) > 0 {
		rows := plots.Rows(r, sat[0], nil)
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

	fn := plots.Rows(r, countingFalseNegatives, nil)
	c := plots.Panel("(c) members lost to removing keys never inserted", "never-inserted keys offered to Remove", "fraction of members now absent")
	plots.LogX(c)
	removals := func(row *experiments.Row) float64 { return float64(row.Removals) }
	fpts := plots.Rates(fn, removals)
	flo, fhi := plots.LogRange(ySpan(fpts)...)
	plots.LogY(c, flo, math.Max(fhi, 1))
	if err := plots.AddPoints(c, fpts.ClampLow(flo), red, 0, "members testing absent"); err != nil {
		return nil, err
	}
	succ := plots.Values(fn, removals, func(row *experiments.Row) float64 { return row.Removed / float64(row.Items) })
	if err := plots.AddPolyline(c, succ, grey, 1, plots.Dashed, "removals done, per member"); err != nil {
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
	return twoByTwo(4.8*vg.Inch, a, b, c), nil
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
