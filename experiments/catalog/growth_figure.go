package catalog

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// growthFigure draws the growth experiment, two panels a row: (a) each
// design's measured rate with its interval beside its theory, and the
// target, against the items inserted; (b) bits per key; (c) time per add
// (filling from empty, stage creation included), (d) per query of an
// absent and (e) of a present key, from the timed series, on one time
// axis; (f) stages. A design keeps its colour and marker in every panel.
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
		all = append(all, ySpan(plots.Rates(rows, items))...)
		if rows[0].Variant != "standard" {
			all = append(all, xysY(plots.Values(rows, items, theory))...)
		}
	}
	lo, hi := plots.LogRange(all...)
	xmin, xmax := xRange(allRows(r), items)

	a := plots.Panel(fmt.Sprintf("(a) false-positive rate, target P = %g", r.Params.P), "items inserted", plots.RateLabel)
	plots.LogX(a)
	plots.LogY(a, lo, hi)
	a.X.Min, a.X.Max = xmin/1.15, xmax*1.15
	b := plots.Panel("(b) memory", "items inserted", "bits per key")
	plots.LogX(b)
	b.Y.Scale = plot.LogScale{}
	b.Y.Tick.Marker = plots.Decades{}
	var cs []*plot.Plot // one panel per operation timed
	for i, op := range growthOps {
		c := plots.Panel(fmt.Sprintf("(%c) %s", 'c'+i, op.title), "items inserted", "ns per operation")
		plots.LogX(c)
		c.Y.Scale = plot.LogScale{}
		c.Y.Tick.Marker = plots.Decades{}
		cs = append(cs, c)
	}
	d := plots.Panel("(f) stages", "items inserted", "stages")
	plots.LogX(d)
	d.Y.Scale = plot.LogScale{}
	d.Y.Tick.Marker = plots.Decades{}
	var bpe, times, stages []float64
	for i, name := range names {
		rows := plots.Rows(r, name, nil)
		col := plots.Color(i)
		var th plotter.XYs
		for _, xy := range plots.Values(rows, items, theory) {
			if xy.Y >= lo {
				th = append(th, xy)
			}
		}
		if err := plots.AddLine(a, th, col, nil, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		if err := plots.AddPoints(a, plots.Rates(rows, items).ClampLow(lo), col, i, name); err != nil {
			return nil, err
		}
		bp := plots.Values(rows, items, func(r *experiments.Row) float64 { return r.BitsPerKey })
		bpe = append(bpe, xysY(bp)...)
		line, err := growthBitsLine(r, name, xmin, xmax)
		if err != nil {
			return nil, err
		}
		bpe = append(bpe, xysY(line)...)
		if err := plots.AddLine(b, line, col, nil, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		pts, err := plotter.NewScatter(bp)
		if err != nil {
			return nil, err
		}
		pts.GlyphStyle.Color, pts.GlyphStyle.Radius, pts.GlyphStyle.Shape = col, plots.GlyphRadius, plots.Marker(i)
		b.Add(pts)
		if rows[0].Variant != "standard" {
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
		for j, op := range growthOps {
			xy := plots.Values(timed, items, op.get)
			times = append(times, xysY(xy)...)
			if err := plots.AddPolyline(cs[j], xy, col, i, nil, ""); err != nil {
				return nil, err
			}
		}
	}
	a.Legend.Add(fmt.Sprintf("points: measured, %g%% intervals", 100*r.Params.Conf))
	a.Legend.Add("lines: each design's theory")
	if err := hline(a, r.Params.P, a.X.Min, a.X.Max, red, plots.Dashed, fmt.Sprintf("target P = %g (drawn over the series)", r.Params.P)); err != nil {
		return nil, err
	}
	cs[0].Legend.Add("one goroutine, median of the passes;")
	cs[0].Legend.Add("  colours and markers as in (a)")
	cs[0].Legend.Add("  (stages made on the way included)")
	cs[1].Legend.Add("colours and markers as in (a)")
	cs[2].Legend.Add("colours and markers as in (a)")
	b.Legend.Add("points: measured, mean over the filters")
	b.Legend.Add("lines: the designs' geometry (a new stage")
	b.Legend.Add("  makes each jump); colours as in (a)")
	if len(bpe) > 0 {
		b.Y.Min, b.Y.Max = plots.LogRange(bpe...)
	}
	if len(times) > 0 {
		lo, hi := plots.LogRange(times...)
		for _, c := range cs {
			c.Y.Min, c.Y.Max = lo, hi
		}
	}
	if len(stages) > 0 {
		_, d.Y.Max = plots.LogRange(stages...)
		d.Y.Min = 1
		// Designs with the same stages draw one line; say which.
		var groups [][]string
		var keys []string
		for _, name := range names {
			rows := plots.Rows(r, name, nil)
			if rows[0].Variant == "standard" {
				continue
			}
			key := fmt.Sprint(plots.Values(rows, items, func(r *experiments.Row) float64 { return r.Stages }))
			if k := slices.Index(keys, key); k >= 0 {
				groups[k] = append(groups[k], name)
			} else {
				keys = append(keys, key)
				groups = append(groups, []string{name})
			}
		}
		for _, g := range groups {
			if len(g) > 1 {
				d.Legend.Add(fmt.Sprintf("one line for %s", strings.Join(g, ", ")))
				d.Legend.Add("  (the same stages)")
			}
		}
		d.Legend.Add("the standard filter has one table")
	}
	return twoByTwo(4.4*vg.Inch, a, b, cs[0], cs[1], cs[2], d), nil
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

// growthOps are the operations of the growth figure's panels (c) to (e).
var growthOps = []struct {
	title string
	get   func(*experiments.Row) float64
}{
	{"time per add, filling from empty", func(r *experiments.Row) float64 { return r.NsPerAdd }},
	{"time per query of an absent key", func(r *experiments.Row) float64 { return r.NsPerQuery }},
	{"time per query of a present key", func(r *experiments.Row) float64 { return r.NsPerPresent }},
}
