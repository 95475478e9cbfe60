package catalog

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// memoryFigure draws the bytes each structure needs at each number of keys,
// as grouped bars on a logarithmic axis, labelled with bytes per key.
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
	var vals []float64
	for _, row := range r.Rows {
		vals = append(vals, row.Bytes)
	}
	lo, hi := plots.LogRange(vals...)
	lo /= 10
	p := plots.Panel(fmt.Sprintf("Memory for the same URL-like keys (filters sized for p = %g)", r.Params.P), "keys held", "bytes")
	plots.LogY(p, lo, hi)
	var ticks []string
	for _, n := range keys {
		ticks = append(ticks, fmt.Sprintf("%s keys", count(n)))
	}
	p.NominalX(ticks...)
	width := vg.Points(16)
	var lpts plotter.XYs
	var ltext []string
	for i, name := range names {
		var pos, v []float64
		for j, n := range keys {
			rows := plots.Rows(r, name, func(row *experiments.Row) bool { return row.Items == n })
			if len(rows) == 0 || rows[0].Bytes <= 0 {
				continue
			}
			pos = append(pos, float64(j))
			v = append(v, rows[0].Bytes)
		}
		off := width * vg.Length(float64(i)-float64(len(names)-1)/2)
		b := &bars{pos: pos, vals: v, width: width * 0.9, offset: off, color: plots.Color(i), floor: lo}
		p.Add(b)
		p.Legend.Add(name, b)
		for j := range pos {
			lpts = append(lpts, plotter.XY{X: pos[j], Y: v[j] * 1.15})
			ltext = append(ltext, fmt.Sprintf("%.3g", v[j]/float64(keys[int(pos[j])])))
		}
		_ = off
	}
	// Bytes per key above each bar: positions need the bar offsets, which
	// are in canvas units; draw them with a custom plotter.
	p.Add(&barLabels{width: width, groups: len(names), pts: lpts, text: ltext, perGroup: seriesOf(r, names, keys)})
	p.Legend.Add("numbers above the bars: bytes per key")
	return single(p), nil
}

// seriesOf returns, for each label of memoryFigure in order, the index of
// its series.
func seriesOf(r *experiments.Results, names []string, keys []uint64) []int {
	var out []int
	for i, name := range names {
		for _, n := range keys {
			rows := plots.Rows(r, name, func(row *experiments.Row) bool { return row.Items == n })
			if len(rows) > 0 && rows[0].Bytes > 0 {
				out = append(out, i)
			}
		}
	}
	return out
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
