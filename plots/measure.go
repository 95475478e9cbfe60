package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/bloomlab/bloomlab/experiments"
)

// MaxSeries is the most series a panel of [Measure] and [Time] holds;
// more are split over several panels, stacked, on the same axes.
const MaxSeries = 8

// targetColor is the colour of a target rate's line.
var targetColor = color.RGBA{R: 200, G: 30, B: 30, A: 255}

// Measure returns the figure of the results of [experiments.Measure]: for
// every spec (series) its measured rate against the items inserted, with
// the intervals, and its theory, when it has one, as a line of the same
// colour through the theory at the item counts measured (measure at more
// item counts for a smoother curve); the target rate of every spec that
// has one ([experiments.Spec].Target) as a horizontal line. The rate axis
// is logarithmic, and so is the item axis when the counts span a factor
// of ten or more.
//
// The legend, above the data, has one entry per series (its marker and,
// with a theory, its line), then what the lines and markers mean, once:
// the theory's name, the filters and the confidence level. More than
// [MaxSeries] series are split over as many panels, stacked on the same
// axes, so that no panel holds more than MaxSeries.
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
		for _, row := range rows {
			xmin, xmax = math.Min(xmin, items(row)), math.Max(xmax, items(row))
			if row.Queries > 0 && row.Rate > 0 {
				ys = append(ys, row.Rate, row.Hi)
			}
			ys = append(ys, row.Theory, row.Target)
		}
	}
	lo, hi := LogRange(ys...)
	groups := split(names, MaxSeries)
	var panels [][]*plot.Plot
	for g, group := range groups {
		title := "False-positive rate against items inserted"
		if len(names) == 1 {
			title = fmt.Sprintf("%s: false-positive rate against items inserted", names[0])
		}
		if len(groups) > 1 {
			title += fmt.Sprintf(" (%c) of %d", 'a'+g, len(groups))
		}
		p := Panel(title, "items inserted", RateLabel)
		p.Legend.Top = true // above the data, the full width for the data
		LogY(p, lo, hi)
		setItemAxis(p, xmin, xmax)
		if err := measurePanel(p, r, group, lo); err != nil {
			return nil, err
		}
		panels = append(panels, []*plot.Plot{p})
	}
	return &Figure{Panels: panels, Width: stackedWidth, Height: vg.Length(len(panels)) * 5 * vg.Inch}, nil
}

// stackedWidth is the width of the figures of Measure and Time: 9.5 inches,
// 1368 pixels at the PNG resolution, within the 1,400 of the standard.
const stackedWidth = 9.5 * vg.Inch

// split returns names in groups of at most max, as even as can be.
func split(names []string, max int) [][]string {
	n := (len(names) + max - 1) / max
	if n <= 1 {
		return [][]string{names}
	}
	var out [][]string
	for i := range n {
		out = append(out, names[i*len(names)/n:(i+1)*len(names)/n])
	}
	return out
}

// setItemAxis sets the item axis of p to hold xmin to xmax: logarithmic
// when they span a factor of ten.
func setItemAxis(p *plot.Plot, xmin, xmax float64) {
	switch {
	case xmax >= 10*xmin:
		LogX(p)
		lo, hi := xmin/1.2, xmax*1.2
		if hi/lo > 100 && powersOfTen(lo, hi) < 3 {
			// Decades labels only powers of ten over more than two
			// decades: out to the nearer decade, or both, so that
			// three are labelled.
			dlo := math.Pow(10, math.Floor(math.Log10(lo)))
			dhi := math.Pow(10, math.Ceil(math.Log10(hi)))
			switch {
			case powersOfTen(dlo, hi) >= 3 && (powersOfTen(lo, dhi) < 3 || lo/dlo <= dhi/hi):
				lo = dlo
			case powersOfTen(lo, dhi) >= 3:
				hi = dhi
			default:
				lo, hi = dlo, dhi
			}
		}
		p.X.Min, p.X.Max = lo, hi
	case xmax > xmin:
		pad := (xmax - xmin) / 10
		p.X.Min, p.X.Max = math.Max(0, xmin-pad), xmax+pad
	default: // one item count: room on either side of it
		p.X.Min, p.X.Max = xmin*0.8, xmax*1.2
	}
}

// powersOfTen returns how many powers of ten lie in [lo, hi].
func powersOfTen(lo, hi float64) int {
	return int(math.Floor(math.Log10(hi)+1e-9)-math.Ceil(math.Log10(lo)-1e-9)) + 1
}

// theoryText returns the legend text of a theory column named model:
// [TheoryLabel]'s, and never "theory: theory" nor "theory: theory: ...".
func theoryText(model string) string {
	label := TheoryLabel(model)
	if label == model && model != "theory" && !strings.HasPrefix(model, "theory") {
		label = "theory: " + model
	}
	return label
}

// measurePanel draws the series names of r on p, the targets first, and
// their legend: one entry per series, then the meaning of lines and
// markers once.
func measurePanel(p *plot.Plot, r *experiments.Results, names []string, lo float64) error {
	var targets []float64
	var models []string
	var filters []int
	for _, name := range names {
		for _, row := range Rows(r, name, nil) {
			if row.Target > 0 && !slices.Contains(targets, row.Target) {
				targets = append(targets, row.Target)
			}
			if row.Model != "" && !slices.Contains(models, row.Model) {
				models = append(models, row.Model)
			}
			if !slices.Contains(filters, row.Filters) {
				filters = append(filters, row.Filters)
			}
		}
	}
	for _, t := range targets {
		if err := AddLine(p, plotter.XYs{{X: p.X.Min, Y: t}, {X: p.X.Max, Y: t}}, targetColor, DashDot, ThinWidth, ""); err != nil {
			return err
		}
	}
	var drawn []plotter.XYs // theory lines drawn, to draw none twice
	for i, name := range names {
		rows := Rows(r, name, nil)
		c := Color(i)
		var thumbs []plot.Thumbnailer
		if th := Values(rows, items, theory); len(th) > 0 {
			covered := slices.ContainsFunc(drawn, func(d plotter.XYs) bool { return slices.Equal(d, th) })
			if !covered {
				drawn = append(drawn, th)
				if len(th) == 1 {
					// One item count: a short level mark, not a point
					// that reads as a measurement.
					x := th[0].X
					th = plotter.XYs{{X: x / 1.08, Y: th[0].Y}, {X: x * 1.08, Y: th[0].Y}}
				}
				l, err := plotter.NewLine(th)
				if err != nil {
					return err
				}
				l.LineStyle.Color, l.LineStyle.Width = c, LineWidth
				p.Add(l)
				thumbs = append(thumbs, l)
			}
		}
		pts := Rates(rows, items).ClampLow(lo)
		if err := AddPoints(p, pts, c, i, ""); err != nil {
			return err
		}
		label := name
		if len(models) > 1 && rows[0].Model != "" {
			label += " (" + theoryText(rows[0].Model) + ")"
		}
		if len(filters) > 1 {
			label += fmt.Sprintf(", %d filters", rows[0].Filters)
		}
		p.Legend.Add(label, append(thumbs, keyScatter(c, i))...)
		// Notes on lines of their own, as AddPoints puts them.
		if pts.Dropped > 0 {
			p.Legend.Add(fmt.Sprintf("   (%d zero %s not drawn)", pts.Dropped, plural(pts.Dropped, "rate", "rates")))
		}
		if n := len(pts.open); n > 0 {
			p.Legend.Add(fmt.Sprintf("   (arrows: %d %s down to 0)", n, plural(n, "interval reaches", "intervals reach")))
		}
	}
	// What lines and markers mean, once.
	if len(models) == 1 {
		p.Legend.Add("lines: "+theoryText(models[0]), keyLine(black, nil))
	} else if len(models) > 1 {
		p.Legend.Add("lines: theory (as named)", keyLine(black, nil))
	}
	if len(targets) > 0 {
		label := fmt.Sprintf("target p = %g", targets[0])
		if len(targets) > 1 {
			label = "targets p the filters were sized for"
		}
		p.Legend.Add(label, keyLine(targetColor, DashDot))
	}
	measured := fmt.Sprintf("markers: measured, mean of %d filters, %g%% interval", filters[0], 100*r.Params.Conf)
	if len(filters) > 1 {
		measured = fmt.Sprintf("markers: measured, mean of the filters, %g%% interval", 100*r.Params.Conf)
	}
	p.Legend.Add(measured, keyScatter(black, 0))
	return nil
}

var black = color.Gray{Y: 0}

// keyLine returns a line that only a legend draws.
func keyLine(c color.Color, dashes []vg.Length) *plotter.Line {
	l := &plotter.Line{}
	l.LineStyle.Color, l.LineStyle.Width, l.LineStyle.Dashes = c, LineWidth, dashes
	return l
}

// keyScatter returns a marker that only a legend draws: series shape's.
func keyScatter(c color.Color, shape int) *plotter.Scatter {
	s := &plotter.Scatter{}
	s.GlyphStyle.Color, s.GlyphStyle.Radius, s.GlyphStyle.Shape = c, GlyphRadius, Marker(shape)
	return s
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
