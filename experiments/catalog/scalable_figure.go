package catalog

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// scalableFigure draws the scalable sweep: rate, bits per key, stages
// and query time against items, for every (r, s) and the standard filter
// sized in advance. Panel (a) has each series' measured rates with their
// intervals beside its theory (the compound rate of the stages; the exact
// rate of the standard filter), and the target drawn over them.
func scalableFigure(r *experiments.Results) (*plots.Figure, error) {
	names := plots.SeriesNames(r)
	// The rate axis holds the measurements, the target and the scalable
	// theory; the standard filter's theory falls far below it before
	// that filter fills, and is drawn only where the axis reaches.
	all := []float64{r.Params.P}
	for _, name := range names {
		rows := plots.Rows(r, name, nil)
		all = append(all, ySpan(plots.Rates(rows, items))...)
		if rows[0].Variant == "scalable" {
			all = append(all, xysY(plots.Values(rows, items, theory))...)
		}
	}
	lo, hi := plots.LogRange(all...)
	hi = math.Max(hi, r.Params.P*10)
	xmin, xmax := xRange(allRows(r), items)

	a := plots.Panel(fmt.Sprintf("(a) false-positive rate, target P = %g", r.Params.P), "items inserted", plots.RateLabel)
	plots.LogX(a)
	plots.LogY(a, lo, hi)
	a.X.Min, a.X.Max = xmin/1.15, xmax*1.15
	b := plots.Panel("(b) memory", "items inserted", "bits per key")
	plots.LogX(b)
	b.Y.Scale = plots.LogScale{}
	b.Y.Tick.Marker = plots.Decades{}
	c := plots.Panel("(c) stages", "items inserted", "stages")
	plots.LogX(c)
	d := plots.Panel("(d) query time", "items inserted", "ns per query of an absent key")
	plots.LogX(d)
	var bpe []float64
	for i, name := range names {
		rows := plots.Rows(r, name, nil)
		col := plots.Color(i)
		dash := []vg.Length(nil)
		if rows[0].Variant == "standard" {
			col, dash = black, plots.Dashed
		}
		var th plotter.XYs
		for _, xy := range plots.Values(rows, items, theory) {
			if xy.Y >= lo {
				th = append(th, xy)
			}
		}
		if err := plots.AddLine(a, th, col, dash, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		if err := plots.AddPoints(a, plots.Rates(rows, items).ClampLow(lo), col, i, name); err != nil {
			return nil, err
		}
		bp := plots.Values(rows, items, func(r *experiments.Row) float64 { return r.BitsPerKey })
		bpe = append(bpe, xysY(bp)...)
		if err := plots.AddPolyline(b, bp, col, i, dash, ""); err != nil {
			return nil, err
		}
		if rows[0].Variant == "scalable" {
			if err := plots.AddPolyline(c, plots.Values(rows, items, func(r *experiments.Row) float64 { return r.Stages }), col, i, dash, ""); err != nil {
				return nil, err
			}
		}
		if err := plots.AddPolyline(d, plots.Values(rows, items, func(r *experiments.Row) float64 { return r.NsPerQuery }), col, i, dash, ""); err != nil {
			return nil, err
		}
	}
	a.Legend.Add(fmt.Sprintf("points: measured, %g%% intervals", 100*r.Params.Conf))
	a.Legend.Add("lines: each series' theory")
	if err := hline(a, r.Params.P, a.X.Min, a.X.Max, red, plots.Dashed, fmt.Sprintf("target P = %g (drawn over the series)", r.Params.P)); err != nil {
		return nil, err
	}
	// The number of stages depends on s, not on r: lines of equal s
	// coincide, and the legend of (c) says which.
	var groups [][]string
	var keys []string
	for _, name := range names {
		rows := plots.Rows(r, name, nil)
		if rows[0].Variant != "scalable" {
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
			// Names without their common "scalable ", three a line,
			// so that the legend stays narrow.
			var short []string
			for _, name := range g {
				short = append(short, strings.TrimPrefix(name, "scalable "))
			}
			for i := 0; i < len(short); i += 3 {
				text := "  " + strings.Join(short[i:min(i+3, len(short))], ", ")
				if i == 0 {
					text = "one line for " + strings.Join(short[:min(3, len(short))], ", ")
				}
				c.Legend.Add(text)
			}
		}
	}
	blo, bhi := plots.LogRange(bpe...)
	b.Y.Min, b.Y.Max = blo, bhi
	c.Y.Min, d.Y.Min = 0, 0
	return twoByTwo(4.8*vg.Inch, a, b, c, d), nil
}

// blockedModel reports the block size of a Model "blocked/B".
