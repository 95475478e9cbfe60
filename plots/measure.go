package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/bloomlab/bloomlab/experiments"
)

// measureFigure draws the results of experiments.Measure: for every spec
// (series) its measured rate against the items inserted, with the
// intervals, and its theory, when it has one, at the same item counts as
// crosses joined by a line. The rate axis is logarithmic, and so is the
// item axis when the counts span a factor of ten or more.
func measureFigure(r *experiments.Results) (*Figure, error) {
	names := SeriesNames(r)
	lo, hi := logRange(rateValues(r, items, nil)...)
	xmin, xmax := xRange(allRows(r), items)
	title := "False-positive rate against items inserted"
	if len(names) == 1 {
		title = fmt.Sprintf("%s: false-positive rate against items inserted", names[0])
	}
	p := newPlot(title, "items inserted", rateLabel)
	logY(p, lo, math.Min(hi*10, 1)) // room for the legend, up to a rate of 1
	switch {
	case xmax >= 10*xmin:
		logX(p)
		p.X.Min, p.X.Max = xmin/1.2, xmax*1.2
	case xmax > xmin:
		pad := (xmax - xmin) / 10
		p.X.Min, p.X.Max = math.Max(0, xmin-pad), xmax+pad
	default: // one item count: room on either side of it
		p.X.Min, p.X.Max = xmin*0.8, xmax*1.2
	}
	for i, name := range names {
		rows := Rows(r, name, nil)
		c := seriesColor(i)
		prefix := ""
		if len(names) > 1 {
			prefix = name + ": "
		}
		if th := Values(rows, items, theory); len(th) > 0 {
			if len(th) > 1 {
				if err := addLine(p, th, c, dashed, thinW, ""); err != nil {
					return nil, err
				}
			}
			s, err := plotter.NewScatter(th)
			if err != nil {
				return nil, err
			}
			s.GlyphStyle.Color = c
			s.GlyphStyle.Radius = glyphR * 1.3
			s.GlyphStyle.Shape = draw.CrossGlyph{}
			p.Add(s)
			label := theoryWords(rows[0].Model)
			if label == rows[0].Model {
				label = "theory: " + label
			}
			p.Legend.Add(prefix+label, s)
		}
		if err := addMeasured(p, clampLow(Rates(rows, items), lo), c, i, prefix+measuredLabel(r, rows)); err != nil {
			return nil, err
		}
	}
	return single(p), nil
}
