package compare

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
)

// palette holds one colour per entry of Structures, from the
// colour-blind-safe sets of Okabe and Ito and of Tol; the glyphs (circles,
// squares, triangles) tell the three groups apart as well.
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 255}, // bloomlab standard: blue
	color.RGBA{0x56, 0xB4, 0xE9, 255}, // bloomlab partitioned: sky blue
	color.RGBA{0x00, 0x9E, 0x73, 255}, // bloomlab blocked: bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 255}, // bloomlab split-block: reddish purple
	color.RGBA{0xE6, 0x9F, 0x00, 255}, // bits-and-blooms: orange
	color.RGBA{0xD5, 0x5E, 0x00, 255}, // boomfilters classic: vermillion
	color.RGBA{0x88, 0x22, 0x55, 255}, // boomfilters partitioned: wine
	color.RGBA{0x99, 0x99, 0x33, 255}, // bbloom: olive
	color.RGBA{0x33, 0x22, 0x88, 255}, // parquet-go: indigo
	color.RGBA{0x77, 0x77, 0x77, 255}, // xor8: grey
	color.RGBA{0x00, 0x00, 0x00, 255}, // binary fuse8: black
	color.RGBA{0x44, 0xAA, 0x99, 255}, // binary fuse16: teal
}

// drawOrder is the order in which the structures' points are drawn: the
// other libraries first, bloomlab's last, so that bloomlab's circles stay
// visible on the squares of the libraries that build the same geometry.
func drawOrder() []int {
	var order []int
	for i := 4; i < len(Structures); i++ {
		order = append(order, i)
	}
	return append(order, 0, 1, 2, 3)
}

// downArrow marks an interval that reaches below a logarithmic axis: a
// line down from the point with an arrowhead.
type downArrow struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (downArrow) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: vg.Points(0.8)}
	r := sty.Radius
	tip := vg.Point{X: pt.X, Y: pt.Y - 5*r}
	c.StrokeLines(ls, []vg.Point{pt, tip}, []vg.Point{{X: tip.X - r, Y: tip.Y + 1.6*r}, tip, {X: tip.X + r, Y: tip.Y + 1.6*r}})
}

// glyphs returns the filled and the hollow glyph of structure i: circles
// for bloomlab's variants, squares for the other Bloom filters, triangles
// for the static filters.
func glyphs(i int) (filled, hollow draw.GlyphDrawer) {
	switch {
	case i < 4:
		return draw.CircleGlyph{}, draw.RingGlyph{}
	case i < 9:
		return draw.BoxGlyph{}, draw.SquareGlyph{}
	}
	return draw.PyramidGlyph{}, draw.TriangleGlyph{}
}

// RatePoints returns, for each structure of Structures in order, the
// measured rates of its rows in rates against their bits per key, with
// their intervals; configs map the rows' series to structures.
func RatePoints(rates *experiments.Results, configs []Config) []plots.Points {
	of := map[string]string{}
	for _, c := range configs {
		of[c.Spec.Name] = c.Structure
	}
	out := make([]plots.Points, len(Structures))
	for i, s := range Structures {
		var rows []*experiments.Row
		for j := range rates.Rows {
			if row := &rates.Rows[j]; of[row.Series] == s {
				rows = append(rows, row)
			}
		}
		out[i] = plots.Rates(rows, func(r *experiments.Row) float64 { return r.BitsPerKey })
	}
	return out
}

// SpeedPoints returns, for each structure of Structures in order, its
// timings among speed at items keys as (bits per key, ns) points: absent
// queries, present queries and insertions.
func SpeedPoints(speed []Timing, items uint64) (absent, present, insert []plotter.XYs) {
	absent = make([]plotter.XYs, len(Structures))
	present = make([]plotter.XYs, len(Structures))
	insert = make([]plotter.XYs, len(Structures))
	for _, t := range speed {
		i := structureIndex(t.Structure)
		if i < 0 || t.Items != items {
			continue
		}
		absent[i] = append(absent[i], plotter.XY{X: t.BitsPerKey, Y: t.NsPerAbsent})
		present[i] = append(present[i], plotter.XY{X: t.BitsPerKey, Y: t.NsPerPresent})
		insert[i] = append(insert[i], plotter.XY{X: t.BitsPerKey, Y: t.NsPerInsert})
	}
	return absent, present, insert
}

// FrontierFigure draws the frontier in three panels: (a) the measured rate
// of every structure in rates against its bits per key, with intervals,
// beside curves (FrontierCurves, drawn for curveItems keys); (b) the ns per
// absent (filled glyphs) and present (hollow) query of the timings in
// speed at items keys against their bits per key; (c) the ns per insert
// (per key of the build, for static filters) of the same timings.
func FrontierFigure(rates *experiments.Results, configs []Config, curves []Curve, curveItems uint64, speed []Timing, items uint64) (*plots.Figure, error) {
	var filters int
	var rateItems uint64
	if len(rates.Rows) > 0 {
		filters, rateItems = rates.Rows[0].Filters, rates.Rows[0].Items
	}
	a := plots.Panel(fmt.Sprintf("(a) rate against space, n = %s keys", count(rateItems)), "bits per key", "false-positive rate")
	const ylo, yhi = 3e-6, 0.08
	a.Y.Scale = plot.LogScale{}
	a.Y.Tick.Marker = plots.Decades{}
	lines := []struct {
		c      color.Color
		dashes []vg.Length
		w      vg.Length
	}{
		{color.Black, []vg.Length{vg.Points(6), vg.Points(4)}, vg.Points(1.5)},
		{color.Black, []vg.Length{vg.Points(2), vg.Points(3)}, vg.Points(1.5)},
		{palette[0], nil, vg.Points(1)},
		{palette[1], []vg.Length{vg.Points(4), vg.Points(2)}, vg.Points(1)},
		{palette[2], nil, vg.Points(1)},
		{palette[3], nil, vg.Points(1)},
	}
	order := make([]int, 0, len(curves)) // bloomlab's curves first, the two bounds on top
	for i := range curves {
		if i >= 2 {
			order = append(order, i)
		}
	}
	order = append(order, 0, 1)[:len(curves)]
	var legend []legendEntry
	for _, i := range order {
		cv := curves[i]
		xys := make(plotter.XYs, len(cv.Rate))
		for j := range xys {
			xys[j] = plotter.XY{X: cv.BitsPerKey[j], Y: cv.Rate[j]}
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("compare: curve %s: %w", cv.Name, err)
		}
		st := lines[min(i, len(lines)-1)]
		l.LineStyle.Color, l.LineStyle.Dashes, l.LineStyle.Width = st.c, st.dashes, st.w
		a.Add(l)
		label := cv.Name
		if i >= 2 {
			label += " theory"
		}
		legend = append(legend, legendEntry{i, label, l})
	}
	slices.SortFunc(legend, func(x, y legendEntry) int { return x.order - y.order })
	for _, e := range legend {
		a.Legend.Add(e.label, e.thumb)
	}
	points := RatePoints(rates, configs)
	scatters := make([]*plotter.Scatter, len(points))
	open := 0
	for _, i := range drawOrder() {
		pts := points[i]
		if pts.Len() == 0 {
			continue
		}
		filled, _ := glyphs(i)
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: palette[i], Radius: vg.Points(3.2), Shape: filled}
		if i < 4 {
			s.GlyphStyle.Radius = vg.Points(2.6) // inside the squares it sits on
		}
		var arrows plotter.XYs
		errs := append(plotter.YErrors(nil), pts.Errors...)
		for j := range errs { // a logarithmic axis cannot reach 0: an arrow instead
			if pts.XYs[j].Y-errs[j].Low < ylo {
				errs[j].Low = 0
				arrows = append(arrows, pts.XYs[j])
			}
		}
		pts.Errors = errs
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Color, eb.LineStyle.Width, eb.CapWidth = palette[i], vg.Points(0.8), vg.Points(5)
		a.Add(eb, s)
		if len(arrows) > 0 {
			ar, err := plotter.NewScatter(arrows)
			if err != nil {
				return nil, err
			}
			ar.GlyphStyle = draw.GlyphStyle{Color: palette[i], Radius: vg.Points(3), Shape: downArrow{}}
			a.Add(ar)
			open += len(arrows)
		}
		scatters[i] = s
	}
	for i, s := range scatters {
		label := Structures[i]
		if points[i].Dropped > 0 {
			label += fmt.Sprintf(" (%d zero rates not drawn)", points[i].Dropped)
		}
		if s != nil {
			a.Legend.Add(label, s)
		} else if points[i].Dropped > 0 {
			a.Legend.Add(label)
		}
	}
	if open > 0 {
		a.Legend.Add(fmt.Sprintf("arrows: %d intervals reach down to 0", open))
	}
	a.Legend.Add(fmt.Sprintf("points: mean of %d filters, 95%% t interval", filters))
	a.Legend.Add(fmt.Sprintf("lines: for n = %s; the standard, partitioned", count(curveItems)))
	a.Legend.Add("   and optimal Bloom lines coincide")
	a.Y.Min, a.Y.Max = ylo, yhi // after Add, which widens the axes to the data
	a.X.Min, a.X.Max = 0, 28

	absent, present, insert := SpeedPoints(speed, items)
	b := plots.Panel(fmt.Sprintf("(b) query time, n = %s keys, one filter each", count(items)), "bits per key", "ns per query (log scale)")
	c := plots.Panel(fmt.Sprintf("(c) insertion time (static: build time per key), n = %s", count(items)), "bits per key", "ns per key inserted (log scale)")
	thumbs := make([]*plotter.Scatter, len(Structures))
	var ymax [2]float64
	ymin := [2]float64{math.Inf(1), math.Inf(1)}
	for _, i := range drawOrder() {
		filled, hollow := glyphs(i)
		for _, s := range []struct {
			p     *plot.Plot
			xys   plotter.XYs
			glyph draw.GlyphDrawer
		}{{b, absent[i], filled}, {b, present[i], hollow}, {c, insert[i], filled}} {
			if len(s.xys) == 0 {
				continue
			}
			sc, err := plotter.NewScatter(s.xys)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: palette[i], Radius: vg.Points(3.2), Shape: s.glyph}
			s.p.Add(sc)
			j := 0
			if s.p == c {
				j = 1
			}
			for _, xy := range s.xys {
				ymax[j], ymin[j] = max(ymax[j], xy.Y), min(ymin[j], xy.Y)
			}
			if s.glyph == filled && s.p == b {
				thumbs[i] = sc
			}
		}
	}
	for i, sc := range thumbs {
		if sc != nil {
			b.Legend.Add(Structures[i], sc)
		}
	}
	b.Legend.Add("filled: absent key")
	b.Legend.Add("hollow: present key")
	c.Legend.Add("colours and shapes as in (a)")
	for j, p := range []*plot.Plot{b, c} {
		p.X.Min, p.X.Max = 0, 28
		if ymax[j] == 0 {
			continue // nothing timed
		}
		plots.LogY(p, ymin[j]/1.3, ymax[j]*1.3)
	}
	return &plots.Figure{Panels: [][]*plot.Plot{{a, b, c}}, Width: 22 * vg.Inch, Height: 8 * vg.Inch}, nil
}

// legendEntry is a line of panel (a)'s legend, in the order of the curves.
type legendEntry struct {
	order int
	label string
	thumb plot.Thumbnailer
}

// count writes n as 1e4, 3e7, or in full where that is shorter.
func count(n uint64) string {
	if n == 0 {
		return "0"
	}
	e := int(math.Floor(math.Log10(float64(n))))
	mant := float64(n) / math.Pow(10, float64(e))
	if e >= 4 && mant == math.Trunc(mant) {
		return strconv.Itoa(int(mant)) + "e" + strconv.Itoa(e)
	}
	return strconv.FormatUint(n, 10)
}
