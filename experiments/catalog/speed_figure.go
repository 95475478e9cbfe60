package catalog

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// speedFigure draws nanoseconds per Add and per Contains against the
// filter's memory for every variant.
func speedFigure(r *experiments.Results) (*plots.Figure, error) {
	size := func(row *experiments.Row) float64 { return float64(row.Bits) / 8 }
	names := plots.SeriesNames(r)
	a := plots.Panel("(a) add", "filter memory (bytes)", "nanoseconds per add")
	b := plots.Panel("(b) query of an absent key", "filter memory (bytes)", "nanoseconds per query")
	for _, p := range []*plot.Plot{a, b} {
		plots.LogX(p)
	}
	var all []float64
	xlo, xhi := math.Inf(1), 0.0
	for i, name := range names {
		rows := plots.Rows(r, name, nil)
		for _, row := range rows {
			if x := size(row); x > 0 {
				xlo, xhi = math.Min(xlo, x), math.Max(xhi, x)
			}
		}
		addXY := plots.Values(rows, size, func(r *experiments.Row) float64 { return r.NsPerAdd })
		qXY := plots.Values(rows, size, func(r *experiments.Row) float64 { return r.NsPerQuery })
		all = append(append(all, xysY(addXY)...), xysY(qXY)...)
		c, shape, dashes := speedStyle(names, i)
		if err := plots.AddPolyline(a, addXY, c, shape, dashes, name); err != nil {
			return nil, err
		}
		qLabel := "" // named in (a), unless it has no adds (the random-line baseline)
		if len(addXY) == 0 {
			qLabel = name
		}
		if err := plots.AddPolyline(b, qXY, c, shape, dashes, qLabel); err != nil {
			return nil, err
		}
	}
	lo, hi := plots.LogRange(all...)
	// The x axis spans the filters measured; a cache beyond it (a quick
	// run's small filters) is named in the legend, not drawn, so that it
	// does not stretch the axis.
	var caches []string
	for _, c := range r.Caches {
		t := fmt.Sprintf("L%d %s", c.Level, bytesText(c.Bytes))
		if float64(c.Bytes) < xlo/1.3 || float64(c.Bytes) > xhi*1.3 {
			t += " (off the axis)"
		}
		caches = append(caches, t)
	}
	for _, p := range []*plot.Plot{a, b} {
		plots.LogY(p, lo, hi)
		for _, c := range r.Caches {
			if x := float64(c.Bytes); x >= xlo/1.3 && x <= xhi*1.3 {
				if err := vline(p, x, lo, hi, grey, plots.Dotted, plots.ThinWidth, ""); err != nil {
					return nil, err
				}
			}
		}
		if xhi > 0 {
			p.X.Min, p.X.Max = xlo/1.3, xhi*1.3
		}
	}
	if len(caches) > 0 {
		a.Legend.Add("dotted verticals: the caches of the machine measured,")
		a.Legend.Add("   " + strings.Join(caches, ", ") + " (one of each, as the system reports)")
		if r.Machine != nil {
			a.Legend.Add("   " + r.Machine.String())
		}
	} else {
		a.Legend.Add("(no cache sizes recorded with these results)")
	}
	a.Legend.Add("dashed: batched, 256 keys per call")
	if slices.Contains(names, scalableBlocked) {
		a.Legend.Add("dash-dotted: scalable with blocked stages (512 bits)")
	}
	c, err := linesPanel(r, names, size)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return oneAbove(5*vg.Inch, a, b), nil
	}
	a.Legend.Add("(c) wide grey: the lines analysis predicts")
	if xhi > 0 {
		c.X.Min, c.X.Max = xlo/1.3, xhi*1.3
	}
	return oneAbove(5*vg.Inch, a, b, c), nil
}

// linesPanel draws the speed figure's panel (c): the distinct 64-byte
// lines a query of an absent key reads against the filter's memory, each
// series in its style from panels (a) and (b), and the prediction of
// package analysis in grey where the results have one. It returns nil if
// no row counts lines.
func linesPanel(r *experiments.Results, names []string, size func(*experiments.Row) float64) (*plot.Plot, error) {
	c := plots.Panel("(c) lines read by a query of an absent key", "filter memory (bytes)", "distinct 64-byte lines per query")
	plots.LogX(c)
	hi := 0.0
	// The predictions first, wide and grey, so that the measured series
	// stay visible on top of them.
	for _, name := range names {
		pred := plots.Values(plots.Rows(r, name, nil), size, func(r *experiments.Row) float64 { return r.LinesPredicted })
		if err := plots.AddLine(c, pred, grey, nil, 3*plots.LineWidth, ""); err != nil {
			return nil, err
		}
	}
	for i, name := range names {
		xy := plots.Values(plots.Rows(r, name, nil), size, func(r *experiments.Row) float64 { return r.LinesAbsent })
		for _, p := range xy {
			hi = math.Max(hi, p.Y)
		}
		col, shape, dashes := speedStyle(names, i)
		if err := plots.AddPolyline(c, xy, col, shape, dashes, ""); err != nil {
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
// figure: a batched series takes its variant's colour, plots.Dashed; the
// scalable filter with blocked stages takes the scalable one's colour,
// dash-plots.Dotted; the random-line baseline is black and plots.Dotted.
func speedStyle(names []string, i int) (color.Color, int, []vg.Length) {
	name := names[i]
	if name == experiments.RandomLines {
		return black, i, plots.Dotted
	}
	if name == scalableBlocked {
		if j := slices.Index(names, "scalable"); j >= 0 {
			return plots.Color(j), i, plots.DashDot
		}
		return plots.Color(i), i, plots.DashDot
	}
	if base, ok := strings.CutSuffix(name, " batched"); ok {
		if j := slices.Index(names, base); j >= 0 {
			return plots.Color(j), j, plots.Dashed
		}
		return plots.Color(i), i, plots.Dashed
	}
	return plots.Color(i), i, nil
}
