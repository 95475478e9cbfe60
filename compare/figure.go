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

// palette holds one colour per entry of Structures.
var palette = []color.Color{
	color.RGBA{31, 119, 180, 255},  // bloomlab standard: blue
	color.RGBA{23, 190, 207, 255},  // bloomlab partitioned: cyan
	color.RGBA{44, 160, 44, 255},   // bloomlab blocked: green
	color.RGBA{148, 103, 189, 255}, // bloomlab split-block: purple
	color.RGBA{255, 127, 14, 255},  // bits-and-blooms: orange
	color.RGBA{214, 39, 40, 255},   // boomfilters classic: red
	color.RGBA{227, 119, 194, 255}, // boomfilters partitioned: pink
	color.RGBA{140, 86, 75, 255},   // bbloom: brown
	color.RGBA{160, 160, 20, 255},  // parquet-go: olive
	color.RGBA{110, 110, 110, 255}, // xor8: grey
	color.RGBA{0, 0, 0, 255},       // binary fuse8: black
	color.RGBA{20, 40, 120, 255},   // binary fuse16: navy
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
		out[i] = plots.Rates(rows, func(r *experiments.Row) float64 { return r.BitsPerElement })
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
	a := newPanel(fmt.Sprintf("(a) rate against space, n = %s keys", count(rateItems)), "bits per key", "false-positive rate")
	const ylo, yhi = 3e-6, 0.08
	a.Y.Scale = plot.LogScale{}
	a.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	a.Legend.Top, a.Legend.Left = true, false
	a.Legend.XOffs, a.Legend.YOffs = -vg.Points(6), -vg.Points(6)
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
	for i, pts := range RatePoints(rates, configs) {
		if pts.Len() == 0 {
			continue
		}
		filled, _ := glyphs(i)
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: palette[i], Radius: vg.Points(3.2), Shape: filled}
		for j := range pts.Errors { // a logarithmic axis cannot reach 0
			pts.Errors[j].Low = min(pts.Errors[j].Low, pts.XYs[j].Y-ylo/2)
		}
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Color, eb.LineStyle.Width, eb.CapWidth = palette[i], vg.Points(0.8), vg.Points(5)
		a.Add(eb, s)
		label := Structures[i]
		if pts.Dropped > 0 {
			label += fmt.Sprintf(" (%d zero rates not drawn)", pts.Dropped)
		}
		a.Legend.Add(label, s)
	}
	a.Legend.Add(fmt.Sprintf("points: mean of %d filters, 95%% t interval; lines for n = %s", filters, count(curveItems)))
	a.Y.Min, a.Y.Max = ylo, yhi // after Add, which widens the axes to the data
	a.X.Min, a.X.Max = 0, 28
	a.X.Tick.Marker = steps(2, 4)

	absent, present, insert := SpeedPoints(speed, items)
	b := newPanel(fmt.Sprintf("(b) query time, n = %s keys, one filter each", count(items)), "bits per key", "ns per query (log scale)")
	c := newPanel(fmt.Sprintf("(c) insertion time (static: build time per key), n = %s", count(items)), "bits per key", "ns per key inserted (log scale)")
	for _, p := range []*plot.Plot{b, c} {
		p.Legend.Top, p.Legend.Left = true, false
		p.Legend.XOffs, p.Legend.YOffs = -vg.Points(6), -vg.Points(6)
	}
	var ymax [2]float64
	ymin := [2]float64{math.Inf(1), math.Inf(1)}
	for i := range Structures {
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
				b.Legend.Add(Structures[i], sc)
			}
		}
	}
	b.Legend.Add("filled: absent key; hollow: present key")
	c.Legend.Add("colours and shapes as in (a)")
	for j, p := range []*plot.Plot{b, c} {
		p.X.Min, p.X.Max = 0, 28
		p.X.Tick.Marker = steps(2, 4)
		if ymax[j] == 0 {
			continue // nothing timed
		}
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = oneTwoFive{}
		p.Y.Min, p.Y.Max = ymin[j]/1.3, ymax[j]*1.3
		if j == 0 {
			p.Y.Max = ymax[j] * 4 // room for the legend
		}
	}
	return &plots.Figure{Panels: [][]*plot.Plot{{a, b, c}}, Width: 22 * vg.Inch, Height: 8 * vg.Inch}, nil
}

// legendEntry is a line of panel (a)'s legend, in the order of the curves.
type legendEntry struct {
	order int
	label string
	thumb plot.Thumbnailer
}

// steps returns a ticker with a tick every minor units, labelled every
// major units.
func steps(minor, major float64) plot.Ticker {
	return plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		var ts []plot.Tick
		for v := math.Ceil(lo/minor) * minor; v <= hi+minor/1e6; v += minor {
			t := plot.Tick{Value: v}
			if r := math.Mod(v, major); math.Abs(r) < minor/1e6 || math.Abs(r-major) < minor/1e6 {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			ts = append(ts, t)
		}
		return ts
	})
}

// oneTwoFive marks a logarithmic time axis: labelled ticks at 1, 2 and 5
// times each power of ten, unlabelled ones at the other multiples.
type oneTwoFive struct{}

// Ticks implements plot.Ticker.
func (oneTwoFive) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	if !(lo > 0) || !(hi > lo) {
		return ts
	}
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for m := 1; m < 10; m++ {
			v := float64(m) * math.Pow(10, e)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// newPanel returns a plot with a title, axis labels and a grid.
func newPanel(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Label.Text, p.Y.Label.Text = x, y
	p.X.Label.TextStyle.Font.Size = vg.Points(12)
	p.Y.Label.TextStyle.Font.Size = vg.Points(12)
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.ThumbnailWidth = vg.Points(24)
	p.Add(plotter.NewGrid())
	return p
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
