package catalog

import (
	"fmt"
	"math"
	"slices"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// memoryFigure draws the memory each structure needs at each number of
// keys: (a) the filters' bits per key as grouped bars on a linear axis
// from zero, labelled with their values, beside the information-theoretic
// minimum log2(1/p); (b) bytes per key of the filters and the Go map as
// points on logarithmic axes, where the map's hundredfold cost shows
// without a bar whose height would mean nothing.
func memoryFigure(r *experiments.Results) (*plots.Figure, error) {
	names := plots.SeriesNames(r)
	var keys []uint64
	seen := map[uint64]bool{}
	for _, row := range r.Rows {
		if !seen[row.Items] {
			seen[row.Items] = true
			keys = append(keys, row.Items)
		}
	}
	isFilter := func(name string) bool {
		rows := plots.Rows(r, name, nil)
		return len(rows) > 0 && rows[0].Bits > 0
	}
	var filters []string
	for _, name := range names {
		if isFilter(name) {
			filters = append(filters, name)
		}
	}
	a := plots.Panel(fmt.Sprintf("(a) filters sized for p = %g: bits per key (m/n)", r.Params.P), "keys held", "bits per key")
	var ticks []string
	for _, n := range keys {
		ticks = append(ticks, fmt.Sprintf("%s keys", count(n)))
	}
	a.NominalX(ticks...)
	width := vg.Points(22)
	var lpts plotter.XYs
	var ltext []string
	var group []int
	top := 0.0
	for i, name := range names {
		if !isFilter(name) {
			continue
		}
		slot := slices.Index(filters, name)
		var pos, v []float64
		for j, n := range keys {
			rows := plots.Rows(r, name, func(row *experiments.Row) bool { return row.Items == n })
			if len(rows) == 0 || rows[0].Bits == 0 {
				continue
			}
			pos = append(pos, float64(j))
			v = append(v, float64(rows[0].Bits)/float64(n))
			top = max(top, v[len(v)-1])
		}
		off := width * vg.Length(float64(slot)-float64(len(filters)-1)/2)
		b := &bars{pos: pos, vals: v, width: width * 0.9, offset: off, color: plots.Color(i), floor: 0}
		a.Add(b)
		a.Legend.Add(name, b)
		for j := range pos {
			lpts = append(lpts, plotter.XY{X: pos[j], Y: v[j] + 0.012*top})
			ltext = append(ltext, fmt.Sprintf("%.3g", v[j]))
			group = append(group, slot)
		}
	}
	a.Add(&barLabels{width: width, groups: len(filters), pts: lpts, text: ltext, perGroup: group})
	a.Y.Min, a.Y.Max = 0, 1.1*top
	if p := r.Params.P; p > 0 && p < 1 {
		minimum := -math.Log2(p)
		if err := hline(a, minimum, -0.5, float64(len(keys))-0.5, black, plots.Dashed, fmt.Sprintf("lower bound log2(1/p) = %.2f bits per key", minimum)); err != nil {
			return nil, err
		}
	}
	a.Legend.Add("numbers above the bars: bits per key; the Go map, at hundreds of bits per key, is in (b)")

	b := plots.Panel("(b) bytes per key, filters beside a Go map holding the keys", "keys held", "bytes per key")
	plots.LogX(b)
	b.Y.Scale = plots.LogScale{}
	b.Y.Tick.Marker = plots.Decades{}
	var all []float64
	for i, name := range names {
		var xys plotter.XYs
		for _, row := range plots.Rows(r, name, nil) {
			if row.Bytes > 0 && row.Items > 0 {
				xys = append(xys, plotter.XY{X: float64(row.Items), Y: row.Bytes / float64(row.Items)})
				all = append(all, row.Bytes/float64(row.Items))
			}
		}
		if len(xys) == 0 {
			continue
		}
		if err := plots.AddLine(b, xys, plots.Color(i), nil, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		// One structure per point: no interval to draw.
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = plots.Color(i)
		sc.GlyphStyle.Radius = plots.GlyphRadius
		sc.GlyphStyle.Shape = plots.Marker(i)
		b.Add(sc)
		b.Legend.Add(name, sc)
	}
	lo, hi := minMax(all)
	b.Y.Min, b.Y.Max = lo/1.5, hi*1.5
	xlo, xhi := float64(keys[0]), float64(keys[len(keys)-1])
	b.X.Min, b.X.Max = xlo/1.5, xhi*1.5
	return oneAbove(4.5*vg.Inch, a, b), nil
}

// barLabels writes text above grouped bars.
type barLabels struct {
	width    vg.Length
	groups   int
	pts      plotter.XYs
	text     []string
	perGroup []int
}

// Plot implements plot.Plotter.
func (l *barLabels) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	sty := plt.Legend.TextStyle
	sty.Font.Size = vg.Points(7.5)
	sty.XAlign = draw.XCenter
	for i, xy := range l.pts {
		off := l.width * vg.Length(float64(l.perGroup[i])-float64(l.groups-1)/2)
		c.FillText(sty, vg.Point{X: trX(xy.X) + off, Y: trY(xy.Y)}, l.text[i])
	}
}

func count(n uint64) string {
	e := math.Log10(float64(n))
	if e == math.Trunc(e) && n >= 1000 {
		return fmt.Sprintf("1e%d", int(e))
	}
	return fmt.Sprintf("%d", n)
}
