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
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// hashingFigure draws the hashing experiment: (a) the measured rate's
// excess over the exact theory against m for every hashing option, with
// the excess that the theory of each of bloomlab's derivations predicts
// (analysis.DerivationRate) dashed in its series' colour; (b) the time per
// key of each option.
func hashingFigure(r *experiments.Results) (*plots.Figure, error) {
	m := func(row *experiments.Row) float64 { return float64(row.Bits) }
	names := plots.SeriesNames(r)
	a := plots.Panel("(a) measured rate above the exact theory", "filter size m (bits)", "excess over exact theory (%)")
	plots.LogX(a)
	var xs, ys []float64
	// Options far off the others would flatten them all to a line; they
	// are left off the scale and named in the legend with their range.
	const offScale = 15.0
	type offSeries struct {
		i        int
		name     string
		xys      plotter.XYs
		elo, ehi float64
	}
	var off []offSeries
	for i, name := range names {
		rows := plots.Rows(r, name, nil)
		if i == 0 {
			for _, row := range rows {
				xs = append(xs, m(row))
			}
		}
		pts := plots.Excess(rows, m)
		elo, ehi := minMax(xysY(pts.XYs))
		if math.Max(math.Abs(elo), math.Abs(ehi)) > offScale {
			off = append(off, offSeries{i, name, pts.XYs, elo, ehi})
			continue
		}
		ys = append(ys, ySpan(pts)...)
		// Spread the series a little along x so their bars do not overlap.
		shift := math.Pow(1.06, float64(i)-float64(len(names)-1)/2)
		for j := range pts.XYs {
			pts.XYs[j].X *= shift
		}
		if err := plots.AddLine(a, pts.XYs, plots.Color(i), nil, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		if err := plots.AddPoints(a, pts, plots.Color(i), i, name); err != nil {
			return nil, err
		}
	}
	// The theory of each bloomlab derivation, dashed in its series'
	// colour: its rate's excess over the exact rate of independent probes.
	theoryDrawn := false
	for i, name := range names {
		xys, err := derivationExcess(r, name, xs)
		if err != nil {
			return nil, err
		}
		if len(xys) == 0 {
			continue
		}
		for _, xy := range xys {
			ys = append(ys, xy.Y)
		}
		if err := plots.AddLine(a, xys, plots.Color(i), plots.Dashed, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		theoryDrawn = true
	}
	if theoryDrawn {
		key := &plotter.Line{}
		key.LineStyle.Color, key.LineStyle.Width, key.LineStyle.Dashes = color.Gray{Y: 110}, plots.ThinWidth, plots.Dashed
		a.Legend.Add("dashed, series colour: its derivation's theory", key)
	}
	lo, hi := minMax(append(ys, 0))
	a.Y.Min, a.Y.Max = lo-0.05*(hi-lo), hi+0.05*(hi-lo) // the legend stands above the panel
	a.X.Tick.Marker = powerTicks(xs)
	a.X.Min, a.X.Max = xs[0]/1.4, xs[len(xs)-1]*1.4
	if err := hline(a, 0, a.X.Min, a.X.Max, black, plots.Dashed, "exact theory"); err != nil {
		return nil, err
	}
	// An option off the scale: a marker at the edge it lies beyond, at
	// each m, pointing that way, and its range in the legend.
	for _, o := range off {
		var edge plotter.XYs
		shape := draw.GlyphDrawer(draw.PyramidGlyph{})
		for _, xy := range o.xys {
			y := a.Y.Max - 0.03*(a.Y.Max-a.Y.Min)
			if xy.Y < 0 {
				y, shape = a.Y.Min+0.03*(a.Y.Max-a.Y.Min), plots.Marker(o.i)
			}
			edge = append(edge, plotter.XY{X: xy.X, Y: y})
		}
		sc, err := plotter.NewScatter(edge)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: plots.Color(o.i), Radius: plots.GlyphRadius, Shape: shape}
		a.Add(sc)
		a.Legend.Add(fmt.Sprintf("%s: %+.0f%% to %+.0f%%, off the scale", o.name, o.elo, o.ehi), sc)
	}

	// (b) times at the largest m.
	b := plots.Panel(fmt.Sprintf("(b) time per key at m = %g bits", xs[len(xs)-1]), "nanoseconds per key", "")
	var pos, add, query []float64
	var labels []string
	for i := len(names) - 1; i >= 0; i-- {
		rows := plots.Rows(r, names[i], func(row *experiments.Row) bool { return m(row) == xs[len(xs)-1] })
		if len(rows) == 0 {
			continue
		}
		pos = append(pos, float64(len(pos)))
		add = append(add, rows[0].NsPerAdd)
		query = append(query, rows[0].NsPerQuery)
		labels = append(labels, names[i])
	}
	b.NominalY(labels...)
	b.Add(&bars{pos: pos, vals: add, width: vg.Points(9), offset: vg.Points(5), color: plots.Color(0), horizontal: true})
	b.Add(&bars{pos: pos, vals: query, width: vg.Points(9), offset: vg.Points(-5), color: plots.Color(1), horizontal: true})
	b.Legend.Add("add (all k indexes)", &bars{color: plots.Color(0)})
	b.Legend.Add("query of an absent key", &bars{color: plots.Color(1)})
	b.X.Min = 0
	if len(pos) > 0 {
		b.X.Max = 1.08 * math.Max(slices.Max(add), slices.Max(query)) // no bar at the edge
	}
	b.Y.Min, b.Y.Max = -0.7, float64(len(pos))-0.3
	return twoByTwo(5*vg.Inch, a, b), nil
}

// derivationExcess returns, for a series of xxh3 with a bloomlab
// derivation of its own cells (double, enhanced-double, triple), the
// excess in percent of the derivation's rate (analysis.DerivationRate) over
// the exact rate of independent probes, at sizes from xs[0] to the last of
// xs in steps of 2^(1/4), with the run's bits per key and the best k;
// nothing for the other series.
func derivationExcess(r *experiments.Results, series string, xs []float64) (plotter.XYs, error) {
	d, ok := strings.CutPrefix(series, "xxh3/")
	if !ok || d == analysis.DerivationIndependent || len(xs) == 0 || len(r.Params.BitsPerKey) == 0 {
		return nil, nil
	}
	bpe := r.Params.BitsPerKey[0]
	var xys plotter.XYs
	for m := xs[0]; m <= xs[len(xs)-1]*1.0001; m *= math.Pow(2, 0.25) {
		bits := uint64(math.Round(m))
		n := uint64(math.Round(m / bpe))
		k := analysis.OptimalHashes(bits, n)
		rate, err := analysis.DerivationFPR(bits, n, k, d)
		if err != nil {
			return nil, err
		}
		xys = append(xys, plotter.XY{X: m, Y: 100 * (rate/analysis.ExactFPR(bits, n, k) - 1)})
	}
	return xys, nil
}
