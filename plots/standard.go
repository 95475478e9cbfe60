package plots

// The figure standard. Every figure of the package is drawn so that it
// reads true at a glance:
//
//   - tick labels carry enough digits to tell neighbouring ticks apart and
//     sit exactly at the value they print (plain and [Decades]), with at
//     least three labelled ticks per numeric axis;
//   - a linear axis whose range straddles zero has a tick labelled 0;
//   - legends are drawn beside the panel or in a band above it, outside
//     its data area (Render; a panel asks for the band with Legend.Top);
//   - no legend entry names a series that another one covers completely;
//   - an interval whose lower end is zero, which a logarithmic axis cannot
//     show, is drawn as an arrow pointing down, and the legend says so;
//   - axis ranges hold every point and interval of the data;
//   - series take colours from a colour-blind-safe palette (Okabe and
//     Ito's, with two of Tol's) and, with it, distinct markers, so that
//     more series than colours still differ.
//
// standard_test.go checks each rule on the plot data of every figure, both
// of small runs and of the committed runs in plots/figures/data.

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette holds the series colours: Okabe and Ito's colour-blind-safe set
// without its black (kept for measured points) and yellow (too pale on
// white), then Tol's indigo and wine.
var palette = []color.Color{
	color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 255}, // blue
	color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 255}, // orange
	color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 255}, // bluish green
	color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 255}, // reddish purple
	color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 255}, // sky blue
	color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 255}, // vermillion
	color.RGBA{R: 0x33, G: 0x22, B: 0x88, A: 255}, // indigo
	color.RGBA{R: 0x88, G: 0x22, B: 0x55, A: 255}, // wine
}

// shapes are the markers, outlines first: a filled marker drawn over
// another one at the same place would hide it.
var shapes = []draw.GlyphDrawer{
	draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.PlusGlyph{}, draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
}

// Color returns the colour of series i of a panel, from a
// colour-blind-safe palette of eight (Okabe and Ito's without black and
// yellow, then Tol's indigo and wine), repeating after eight.
func Color(i int) color.Color { return palette[((i%len(palette))+len(palette))%len(palette)] }

// Marker returns the marker of series i: the i-th of eight, outlines
// first, shifted by one for every time the colours of [Color] wrap, so
// that series i and i+8 differ.
func Marker(i int) draw.GlyphDrawer {
	if i < 0 {
		i = 0
	}
	return shapes[(i+i/len(palette))%len(shapes)]
}

// plain marks a linear axis (or a logarithmic one spanning less than a
// decade) at multiples of 1, 2 or 5 times a power of ten, three to eight
// of them labelled, each label printed with the digits its step needs and
// exactly at its value; zero is a multiple of every step, so an axis that
// straddles it has a tick labelled 0. On an axis reaching 10,000 or more
// the labels carry an SI suffix, k, M, G or T, so that they stay short:
// 2.5M for 2,500,000.
type plain struct{}

// Ticks implements plot.Ticker.
func (plain) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return nil
	}
	step, minor := tickStep(max - min)
	unit, suffix := siUnit(math.Max(math.Abs(min), math.Abs(max)))
	digits := max0(-int(math.Floor(math.Log10(step/unit) + 1e-9)))
	var ticks []plot.Tick
	first := math.Ceil(min/minor - 1e-9)
	last := math.Floor(max/minor + 1e-9)
	per := int(math.Round(step / minor))
	for i := first; i <= last; i++ {
		v := i * minor
		t := plot.Tick{Value: v}
		if int64(i)%int64(per) == 0 {
			if suffix == "" {
				t.Label = strconv.FormatFloat(v, 'f', digits, 64)
			} else {
				// 1.5M, 2M: no trailing zeros beside a suffix.
				scale := math.Pow(10, float64(digits))
				t.Label = strconv.FormatFloat(math.Round(v/unit*scale)/scale, 'f', -1, 64) + suffix
			}
			if v == 0 {
				t.Value, t.Label = 0, "0" // not -0, nor 0.00
			}
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// siUnit returns the unit and suffix of labels on an axis reaching top:
// none below 10,000, else thousands (k), millions (M), billions (G) or
// trillions (T).
func siUnit(top float64) (float64, string) {
	if top < 1e4 {
		return 1, ""
	}
	for _, u := range []struct {
		f float64
		s string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if top >= u.f {
			return u.f, u.s
		}
	}
	return 1, ""
}

// parseLabel returns the value a tick label of [plain] or [Decades]
// prints, SI suffix included: 2500000 for "2.5M".
func parseLabel(label string) (float64, error) {
	f := 1.0
	for _, u := range []struct {
		f float64
		s string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if rest, ok := strings.CutSuffix(label, u.s); ok {
			label, f = rest, u.f
			break
		}
	}
	v, err := strconv.ParseFloat(label, 64)
	return v * f, err
}

// tickStep returns the step between labelled ticks for a span, giving 4
// to 8 of them, and the step between unlabelled ones.
func tickStep(span float64) (step, minor float64) {
	e := math.Pow(10, math.Floor(math.Log10(span)))
	for _, f := range []struct{ step, minor float64 }{{0.1, 0.05}, {0.2, 0.1}, {0.5, 0.1}, {1, 0.5}, {2, 1}, {5, 1}, {10, 5}} {
		if span/(f.step*e) <= 8 {
			return f.step * e, f.minor * e
		}
	}
	return 10 * e, 5 * e
}

func max0(i int) int {
	if i < 0 {
		return 0
	}
	return i
}

// Decades marks a logarithmic axis so that it stays legible over any
// span: under one decade it is marked as [plain] marks a linear one; up to
// two decades every power of ten and its multiples 2 and 5 are labelled;
// up to twelve, every power of ten; beyond, every second, third or more,
// so that at most about twelve labels remain. Unlabelled ticks mark the
// multiples 2 to 9 of each power of ten up to six decades, and the powers
// of ten left unlabelled beyond. Each label sits exactly at the value it
// prints: 1e-05 as such, not as 9.999999999999999e-06.
type Decades struct{}

// Ticks implements plot.Ticker.
func (Decades) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > 0) || !(max > min) || math.IsInf(max, 0) {
		return nil
	}
	if max/min < 10 {
		var ticks []plot.Tick
		for _, t := range (plain{}).Ticks(min, max) {
			if t.Value > 0 {
				ticks = append(ticks, t)
			}
		}
		return ticks
	}
	few := max/min <= 100+1e-9
	lo := int(math.Floor(math.Log10(min) + 1e-9))
	hi := int(math.Ceil(math.Log10(max) - 1e-9))
	every := 1 // label every power of ten, or every second, third, ...
	for (hi-lo)/every > 12 {
		every++
	}
	multiples := hi-lo <= 6
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		v := math.Pow(10, float64(e))
		if v >= min*(1-1e-9) && v <= max*(1+1e-9) {
			t := plot.Tick{Value: v}
			if (e-lo)%every == 0 {
				t.Label = decadeLabel(1, e)
			}
			ticks = append(ticks, t)
		}
		if !multiples {
			continue
		}
		for i := 2; i < 10; i++ {
			w := float64(i) * v
			if w < min*(1-1e-9) || w > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: w}
			if few && (i == 2 || i == 5) {
				t.Label = decadeLabel(i, e)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// decadeLabel returns d times ten to the e: "0.005" to "5000" for
// exponents -3 to 3, else "5e-5".
func decadeLabel(d, e int) string {
	if e >= -3 && e <= 3 {
		return strconv.FormatFloat(float64(d)*math.Pow(10, float64(e)), 'f', max0(-e), 64)
	}
	if d == 1 {
		return fmt.Sprintf("1e%d", e)
	}
	return fmt.Sprintf("%de%d", d, e)
}

// downArrow is the marker of an interval that reaches down to zero on a
// logarithmic axis: a line from the point down, with an arrowhead.
type downArrow struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (downArrow) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: ThinWidth}
	r := sty.Radius
	tip := vg.Point{X: pt.X, Y: pt.Y - 5*r}
	c.StrokeLines(ls, []vg.Point{pt, tip},
		[]vg.Point{{X: tip.X - r, Y: tip.Y + 1.6*r}, tip, {X: tip.X + r, Y: tip.Y + 1.6*r}})
}

// legendGap is the space between a panel's data and its legend.
const legendGap = 6

// panelLayout is where Render draws one panel: its title at the top of
// Tile, the axes and data in Plot, the legend in Legend, a strip to the
// right of the plot or, where that would take more than 45% of the
// panel's width or the panel's Legend.Top asks for it, a band between the
// title and the plot.
type panelLayout struct {
	Tile, Plot, Legend draw.Canvas
	// TitleY is the top of the panel's title: the highest tile top of
	// its row, so that the titles of a row stand at one height whatever
	// plot.Align did to align the data areas.
	TitleY vg.Length
}

// layout splits dc among f's panels, aligned as plot.Align does. Legends
// to the right take a strip as wide as the widest of their column's;
// legends on top, a band as high as the highest of their row's, so that
// the data areas of a row and of a column stay aligned.
func (f *Figure) layout(dc draw.Canvas) [][]panelLayout {
	rows, cols := len(f.Panels), len(f.Panels[0])
	var canvases [][]draw.Canvas
	if rows == 1 && cols == 1 {
		// A margin on the right and at the top, so that the axis end,
		// a legend and the title do not touch the image's edge.
		canvases = [][]draw.Canvas{{draw.Crop(dc, 0, -vg.Millimeter*2, 0, -vg.Millimeter*1.5)}}
	} else {
		t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 6, PadY: vg.Millimeter * 6,
			PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2}
		canvases = plot.Align(f.Panels, t, dc)
	}
	gap := vg.Points(legendGap)
	widths := make([]vg.Length, cols)
	heights := make([]vg.Length, rows)
	right := make([][]bool, rows)
	for i, row := range f.Panels {
		right[i] = make([]bool, cols)
		for j, p := range row {
			if p == nil {
				continue
			}
			size := p.Legend.Rectangle(dc).Size()
			if size.X <= 0 {
				continue
			}
			if size.X <= 0.45*canvases[i][j].Size().X && !p.Legend.Top {
				right[i][j] = true
				widths[j] = max(widths[j], size.X+gap)
			} else {
				heights[i] = max(heights[i], size.Y+gap)
			}
		}
	}
	out := make([][]panelLayout, rows)
	for i, row := range canvases {
		out[i] = make([]panelLayout, cols)
		top := row[0].Max.Y
		for _, c := range row {
			top = max(top, c.Max.Y)
		}
		for j, c := range row {
			var title vg.Length
			if p := f.Panels[i][j]; p != nil && p.Title.Text != "" {
				title = p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
			}
			pc := c
			pc.Max.X -= widths[j]
			pc.Max.Y -= title + heights[i]
			lc := c
			if right[i][j] {
				lc.Min.X = pc.Max.X + gap
				lc.Max.Y -= title
			} else {
				// Under the title, which stands at the row's top.
				lc.Max.Y = top - title
				lc.Min.Y = lc.Max.Y - heights[i] + gap
				lc.Min.X += vg.Points(40) // clear of the y axis' labels
			}
			out[i][j] = panelLayout{Tile: c, Plot: pc, Legend: lc, TitleY: top}
		}
	}
	return out
}

// dataArea returns the canvas of p's data in l.
func dataArea(p *plot.Plot, l panelLayout) draw.Canvas {
	title := p.Title.Text
	p.Title.Text = ""
	defer func() { p.Title.Text = title }()
	return p.DataCanvas(l.Plot)
}

// drawPanel draws p in l: its title centred at the top of the tile, the
// plot without title and legend, then the legend.
func drawPanel(p *plot.Plot, l panelLayout) {
	title, leg := p.Title.Text, p.Legend
	if title != "" {
		descent := p.Title.TextStyle.FontExtents().Descent
		l.Tile.FillText(p.Title.TextStyle, vg.Point{X: l.Tile.Center().X, Y: l.TitleY + descent}, title)
	}
	p.Title.Text, p.Legend = "", plot.NewLegend()
	p.Draw(l.Plot)
	p.Title.Text, p.Legend = title, leg
	// Drawn from the top left of its place; p keeps its own settings
	// (Top asks for the band above the data, see layout).
	top, left, xoffs, yoffs := leg.Top, leg.Left, leg.XOffs, leg.YOffs
	leg.Top, leg.Left = true, true
	leg.XOffs, leg.YOffs = 0, 0
	leg.Draw(l.Legend)
	leg.Top, leg.Left, leg.XOffs, leg.YOffs = top, left, xoffs, yoffs
}
