package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/bloomlab/bloomlab/experiments"
)

// baselineColor is the colour of the random-lines baseline of [Time].
var baselineColor = color.Gray{Y: 120}

// Time returns the figure of the results of [experiments.Time]: a 2 x 2
// grid, 1368 pixels wide as PNG, of (a) the time per add, (b) the time
// per query of a held key and (c) of a key never added, against the keys
// the filter is sized for and holds, each spec a line with its marker;
// the random-lines baseline ([experiments.RandomLines], the time of one
// random cache-line load in a table of a standard filter's size) in grey
// in (b) and (c); and (d) the false-positive rate measured on the first
// pass with its interval. One legend, above (b), names the series. The
// key axis is logarithmic when the sizes span a factor of ten, the time
// axes too when the times do (else linear from zero).
//
// More than [MaxSeries] specs are split over several such grids, stacked.
// It reports an error if r holds no rows, holds one shard's partial
// results, or is not the result of [experiments.Time].
func Time(r *experiments.Results) (*Figure, error) {
	if err := drawable(r); err != nil {
		return nil, err
	}
	if r.Experiment != experiments.Timed {
		return nil, fmt.Errorf("plots: results of %s are not those of experiments.Time", r.Experiment)
	}
	var names []string
	for _, n := range SeriesNames(r) {
		if n != experiments.RandomLines {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("plots: results of time hold only the %s baseline", experiments.RandomLines)
	}
	baseline := Rows(r, experiments.RandomLines, nil)
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for i := range r.Rows {
		xmin, xmax = math.Min(xmin, items(&r.Rows[i])), math.Max(xmax, items(&r.Rows[i]))
	}
	type measure struct {
		title string
		y     func(*experiments.Row) float64
		lines bool // with the baseline
	}
	measures := []measure{
		{"time per add", func(r *experiments.Row) float64 { return r.NsPerAdd }, false},
		{"time per query, key held", func(r *experiments.Row) float64 { return r.NsPerPresent }, true},
		{"time per query, key never added", func(r *experiments.Row) float64 { return r.NsPerQuery }, true},
	}
	// Common time range over all panels, so that they compare at a glance.
	var ts []float64
	for i := range r.Rows {
		row := &r.Rows[i]
		for _, m := range measures {
			if v := m.y(row); v > 0 {
				ts = append(ts, v)
			}
		}
	}
	groups := split(names, MaxSeries)
	var panels [][]*plot.Plot
	for g, group := range groups {
		suffix := ""
		if len(groups) > 1 {
			suffix = fmt.Sprintf(", series %d to %d", g*len(group)+1, g*len(group)+len(group))
		}
		grid := make([]*plot.Plot, 4)
		for j, m := range measures {
			p := Panel(fmt.Sprintf("(%c) %s%s", 'a'+j, m.title, suffix), "keys (filter sized for and holding them)", "nanoseconds")
			setTimeAxes(p, ts, xmin, xmax)
			if m.lines {
				// The baseline's one time, a line load, is its NsPerQuery.
				lineLoad := func(r *experiments.Row) float64 { return r.NsPerQuery }
				if err := AddPolyline(p, Values(baseline, items, lineLoad), baselineColor, 0, Dashed, ""); err != nil {
					return nil, err
				}
			}
			for i, name := range group {
				if err := AddPolyline(p, Values(Rows(r, name, nil), items, m.y), Color(i), i, nil, ""); err != nil {
					return nil, err
				}
			}
			grid[j] = p
		}
		rp, err := timeRates(r, group, xmin, xmax, suffix)
		if err != nil {
			return nil, err
		}
		grid[3] = rp
		// The one legend, above (b): beside it, it would narrow the
		// right-hand column.
		leg := grid[1]
		leg.Legend.Top = true
		for i, name := range group {
			leg.Legend.Add(name, keyLineMarker(Color(i), i, nil)...)
		}
		if len(baseline) > 0 {
			leg.Legend.Add(experiments.RandomLines+": one random 64-byte line load", keyLineMarker(baselineColor, 0, Dashed)...)
		}
		panels = append(panels, grid[:2], grid[2:])
	}
	return &Figure{Panels: panels, Width: stackedWidth, Height: vg.Length(len(groups)) * 7.2 * vg.Inch}, nil
}

// setTimeAxes sets p's axes for times ts against keys from xmin to xmax.
func setTimeAxes(p *plot.Plot, ts []float64, xmin, xmax float64) {
	setItemAxis(p, xmin, xmax)
	tmin, tmax := math.Inf(1), math.Inf(-1)
	for _, t := range ts {
		tmin, tmax = math.Min(tmin, t), math.Max(tmax, t)
	}
	if len(ts) == 0 {
		tmin, tmax = 1, 10
	}
	if tmax >= 10*tmin {
		lo, hi := LogRange(ts...)
		LogY(p, lo, hi)
		return
	}
	p.Y.Min, p.Y.Max = 0, tmax*1.1
}

// timeRates returns panel (d) of [Time]: the false-positive rates of the
// first pass against the keys, with their intervals.
func timeRates(r *experiments.Results, names []string, xmin, xmax float64, suffix string) (*plot.Plot, error) {
	var ys []float64
	for _, name := range names {
		for _, row := range Rows(r, name, nil) {
			if row.Queries > 0 && row.Rate > 0 {
				ys = append(ys, row.Rate, row.Hi)
			}
		}
	}
	lo, hi := LogRange(ys...)
	p := Panel("(d) false-positive rate, first pass"+suffix, "keys (filter sized for and holding them)", RateLabel)
	LogY(p, lo, hi)
	setItemAxis(p, xmin, xmax)
	for i, name := range names {
		if err := AddPoints(p, Rates(Rows(r, name, nil), items).ClampLow(lo), Color(i), i, ""); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// keyLineMarker returns a line with a marker that only a legend draws.
func keyLineMarker(c color.Color, shape int, dashes []vg.Length) []plot.Thumbnailer {
	return []plot.Thumbnailer{keyLine(c, dashes), keyScatter(c, shape)}
}
