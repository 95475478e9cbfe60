package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/bloomlab/bloomlab/experiments"
)

// Measure returns the figure of the results of [experiments.Measure]: for every spec
// (series) its measured rate against the items inserted, with the
// intervals, and its theory, when it has one, at the same item counts as
// crosses joined by a line. The rate axis is logarithmic, and so is the
// item axis when the counts span a factor of ten or more.
//
// It reports an error if r holds no rows, holds one shard's partial
// results, or is not the result of [experiments.Measure].
func Measure(r *experiments.Results) (*Figure, error) {
	if err := drawable(r); err != nil {
		return nil, err
	}
	if r.Experiment != experiments.Measured {
		return nil, fmt.Errorf("plots: results of %s are not those of experiments.Measure", r.Experiment)
	}
	names := SeriesNames(r)
	var ys []float64
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, name := range names {
		rows := Rows(r, name, nil)
		ys = append(ys, Rates(rows, items).ys()...)
		for _, xy := range Values(rows, items, theory) {
			ys = append(ys, xy.Y)
		}
		for _, row := range rows {
			xmin, xmax = math.Min(xmin, items(row)), math.Max(xmax, items(row))
		}
	}
	lo, hi := LogRange(ys...)
	title := "False-positive rate against items inserted"
	if len(names) == 1 {
		title = fmt.Sprintf("%s: false-positive rate against items inserted", names[0])
	}
	p := Panel(title, "items inserted", RateLabel)
	LogY(p, lo, math.Min(hi*10, 1)) // room for the legend, up to a rate of 1
	switch {
	case xmax >= 10*xmin:
		LogX(p)
		p.X.Min, p.X.Max = xmin/1.2, xmax*1.2
	case xmax > xmin:
		pad := (xmax - xmin) / 10
		p.X.Min, p.X.Max = math.Max(0, xmin-pad), xmax+pad
	default: // one item count: room on either side of it
		p.X.Min, p.X.Max = xmin*0.8, xmax*1.2
	}
	for i, name := range names {
		rows := Rows(r, name, nil)
		c := Color(i)
		prefix := ""
		if len(names) > 1 {
			prefix = name + ": "
		}
		if th := Values(rows, items, theory); len(th) > 0 {
			if len(th) > 1 {
				if err := AddLine(p, th, c, Dashed, ThinWidth, ""); err != nil {
					return nil, err
				}
			}
			s, err := plotter.NewScatter(th)
			if err != nil {
				return nil, err
			}
			s.GlyphStyle.Color = c
			s.GlyphStyle.Radius = GlyphRadius * 1.3
			s.GlyphStyle.Shape = draw.CrossGlyph{}
			p.Add(s)
			label := TheoryLabel(rows[0].Model)
			if label == rows[0].Model {
				label = "theory: " + label
			}
			p.Legend.Add(prefix+label, s)
		}
		if err := AddPoints(p, Rates(rows, items).ClampLow(lo), c, i, prefix+measuredLabel(r, rows)); err != nil {
			return nil, err
		}
	}
	return &Figure{Panels: [][]*plot.Plot{{p}}, Width: 11 * vg.Inch, Height: 5.5 * vg.Inch}, nil
}

// measuredLabel is the legend text of measured points.
func measuredLabel(r *experiments.Results, rows []*experiments.Row) string {
	f := 0
	if len(rows) > 0 {
		f = rows[0].Filters
	}
	return fmt.Sprintf("measured: mean of %d filters, %g%% interval", f, 100*r.Params.Conf)
}

// drawable reports why r cannot be drawn: a shard's partial results, or
// no rows.
func drawable(r *experiments.Results) error {
	if r.Shard != nil {
		return fmt.Errorf("plots: results of shard %d/%d are partial; merge the shards first", r.Shard.Index, r.Shard.Count)
	}
	if len(r.Rows) == 0 {
		return fmt.Errorf("plots: results of %s hold no rows", r.Experiment)
	}
	return nil
}
