package plots

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// checker collects the findings of [Figure.Check].
type checker struct{ errs []error }

func (c *checker) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf(format, args...))
}

// legendEntry is a legend line as the tests see it.
type legendEntry struct {
	text   string
	thumbs []plot.Thumbnailer
}

// unexported reads the unexported field name of the struct v points to.
func unexported(v any, name string) reflect.Value {
	f := reflect.ValueOf(v).Elem().FieldByName(name)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// inspect returns what p draws, in order, and its legend: gonum/plot
// keeps both unexported.
func inspect(p *plot.Plot) ([]plot.Plotter, []legendEntry) {
	ps := unexported(p, "plotters").Interface().([]plot.Plotter)
	es := unexported(&p.Legend, "entries")
	var out []legendEntry
	for i := range es.Len() {
		e := es.Index(i)
		text := reflect.NewAt(e.Field(0).Type(), unsafe.Pointer(e.Field(0).UnsafeAddr())).Elem().String()
		thumbs := reflect.NewAt(e.Field(1).Type(), unsafe.Pointer(e.Field(1).UnsafeAddr())).Elem().Interface().([]plot.Thumbnailer)
		out = append(out, legendEntry{text, thumbs})
	}
	return ps, out
}

// isLog reports whether a is logarithmic.
func isLog(a *plot.Axis) bool {
	switch s := a.Scale.(type) {
	case plot.LogScale:
		return true
	case plot.InvertedScale:
		_, ok := s.Normalizer.(plot.LogScale)
		return ok
	}
	return false
}

// checkAxis checks the ticks of a: at least three labelled (two for an
// axis of categories), distinct, each at the value it prints, and zero
// labelled on a linear axis that straddles it.
func checkAxis(c *checker, where string, a *plot.Axis) {
	ticks := a.Tick.Marker.Ticks(a.Min, a.Max)
	var labels []plot.Tick
	numeric := true
	seen := map[string]bool{}
	for _, tk := range ticks {
		if tk.Label == "" || tk.Value < a.Min-1e-9*math.Abs(a.Min) || tk.Value > a.Max+1e-9*math.Abs(a.Max) {
			continue
		}
		labels = append(labels, tk)
		if seen[tk.Label] {
			c.errorf("%s: tick label %q appears twice", where, tk.Label)
		}
		seen[tk.Label] = true
		v, err := parseLabel(tk.Label)
		if err != nil {
			numeric = false
			continue
		}
		if tol := 1e-9 * math.Max(math.Abs(tk.Value), math.Abs(a.Max-a.Min)*boolf(!isLog(a))); math.Abs(v-tk.Value) > tol {
			c.errorf("%s: tick labelled %q sits at %g", where, tk.Label, tk.Value)
		}
	}
	want := 3
	if !numeric {
		want = 2
	}
	if _, ok := a.Tick.Marker.(plot.ConstantTicks); ok {
		want = min(want, len(labels)) // ticks at the data's own values
		if len(labels) < 2 {
			want = 2
		}
	}
	if len(labels) < want {
		c.errorf("%s: %d labelled ticks over [%g, %g], want at least %d", where, len(labels), a.Min, a.Max, want)
	}
	if numeric && !isLog(a) && a.Min < 0 && a.Max > 0 {
		if !seen["0"] {
			c.errorf("%s: the axis runs from %g to %g and has no tick labelled 0 (%v)", where, a.Min, a.Max, labels)
		}
	}
	if isLog(a) && !(a.Min > 0) {
		c.errorf("%s: logarithmic axis from %g", where, a.Min)
	}
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// inside reports whether v lies in [lo, hi], give or take rounding.
func inside(v, lo, hi float64) bool {
	tol := 1e-9 * math.Max(math.Abs(lo), math.Abs(hi))
	return v >= lo-tol && v <= hi+tol
}

// canvasXY returns where (x, y) is drawn in a data area of w by h points.
func canvasXY(p *plot.Plot, w, h vg.Length, x, y float64) (float64, float64) {
	return p.X.Norm(x) * float64(w), p.Y.Norm(y) * float64(h)
}

// covered reports whether line l is hidden under m: m is solid, at least
// nearly as wide, and passes within tol points of every point of l.
func coveredLine(p *plot.Plot, w, h vg.Length, l, m *plotter.Line) bool {
	if len(m.LineStyle.Dashes) > 0 || m.LineStyle.Width < 0.8*l.LineStyle.Width || len(m.XYs) < 2 {
		return false
	}
	const tol = 0.75 // points
	mx := make([]float64, len(m.XYs))
	my := make([]float64, len(m.XYs))
	for i, xy := range m.XYs {
		mx[i], my[i] = canvasXY(p, w, h, xy.X, xy.Y)
	}
	for _, xy := range l.XYs {
		x, y := canvasXY(p, w, h, xy.X, xy.Y)
		hit := false
		for i := 1; i < len(mx); i++ {
			x0, x1 := math.Min(mx[i-1], mx[i]), math.Max(mx[i-1], mx[i])
			if x < x0-tol || x > x1+tol {
				continue
			}
			var yi float64
			if x1-x0 < 1e-9 {
				yi = my[i]
			} else {
				yi = my[i-1] + (my[i]-my[i-1])*(x-mx[i-1])/(mx[i]-mx[i-1])
			}
			if math.Abs(yi-y) <= tol {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// filled reports whether g is a filled marker.
func filled(g draw.GlyphDrawer) bool {
	switch g.(type) {
	case draw.CircleGlyph, draw.BoxGlyph, draw.PyramidGlyph:
		return true
	}
	return false
}

// coveredScatter reports whether every marker of s lies under a filled
// marker of m at least as large.
func coveredScatter(p *plot.Plot, w, h vg.Length, s, m *plotter.Scatter) bool {
	if !filled(m.GlyphStyle.Shape) || m.GlyphStyle.Radius < s.GlyphStyle.Radius {
		return false
	}
	for _, a := range s.XYs {
		ax, ay := canvasXY(p, w, h, a.X, a.Y)
		hit := false
		for _, b := range m.XYs {
			bx, by := canvasXY(p, w, h, b.X, b.Y)
			if math.Hypot(ax-bx, ay-by) < 0.5*float64(s.GlyphStyle.Radius) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// Check reports where f breaks the figure standard of the package, as
// [Figure.Render] would lay it out: tick labels that are missing, repeated
// or not at the value they print; a linear axis straddling zero without a
// tick labelled 0; a legend over the data area or larger than its place;
// a point or interval outside the axes or reaching zero on a logarithmic
// axis; a legend entry whose series another covers completely. It checks
// the plot data, not pixels, and reads what a gonum/plot Plot keeps
// unexported (its plotters and legend entries) by reflection. It returns
// nil when f meets the standard, else one error per finding, joined.
func (f *Figure) Check() error {
	c := &checker{}
	vc := vgimg.New(f.Width, f.Height)
	dc := draw.New(vc)
	lay := f.layout(dc)
	for i, row := range f.Panels {
		for j, p := range row {
			if p == nil {
				continue
			}
			where := fmt.Sprintf("panel %q", p.Title.Text)
			checkAxis(c, where+" x axis", &p.X)
			checkAxis(c, where+" y axis", &p.Y)
			da := dataArea(p, lay[i][j])
			w, h := da.Size().X, da.Size().Y
			// The legend is clear of the data area and fits its place.
			if _, es := inspect(p); len(es) > 0 {
				lc := lay[i][j].Legend
				lr := p.Legend.Rectangle(lc)
				if lc.Min.X < da.Max.X && lc.Min.Y < da.Max.Y {
					c.errorf("%s: legend (%v) overlaps the data area (%v)", where, lc.Rectangle, da.Rectangle)
				}
				if lr.Size().X > lc.Size().X+vg.Points(2) || lr.Size().Y > lc.Size().Y+vg.Points(2) {
					c.errorf("%s: legend of %v does not fit its place of %v", where, lr.Size(), lc.Size())
				}
			}
			ps, es := inspect(p)
			logY := isLog(&p.Y)
			for _, pl := range ps {
				switch v := pl.(type) {
				case *plotter.Scatter:
					for _, xy := range v.XYs {
						if !inside(xy.X, p.X.Min, p.X.Max) || !inside(xy.Y, p.Y.Min, p.Y.Max) {
							c.errorf("%s: point (%g, %g) outside the axes [%g, %g] x [%g, %g]", where, xy.X, xy.Y, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
						}
					}
				case *plotter.YErrorBars:
					for k, xy := range v.XYs {
						lo, hi := xy.Y-v.YErrors[k].Low, xy.Y+v.YErrors[k].High
						if logY && lo <= 0 {
							c.errorf("%s: interval of (%g, %g) reaches %g on a logarithmic axis", where, xy.X, xy.Y, lo)
						}
						if !inside(lo, p.Y.Min, p.Y.Max) || !inside(hi, p.Y.Min, p.Y.Max) {
							c.errorf("%s: interval [%g, %g] at x = %g is cut by the axis [%g, %g]", where, lo, hi, xy.X, p.Y.Min, p.Y.Max)
						}
					}
				}
			}
			// Every series in the legend is visible: no later series
			// covers it completely.
			index := map[any]int{}
			for k, pl := range ps {
				index[pl] = k
			}
			for _, e := range es {
				if len(e.thumbs) == 0 {
					continue
				}
				visible := false
				for _, th := range e.thumbs {
					k, ok := index[th]
					if !ok {
						visible = true // a key to something not drawn as a plotter
						continue
					}
					hidden := false
					for _, later := range ps[k+1:] {
						switch a := th.(type) {
						case *plotter.Line:
							if b, ok := later.(*plotter.Line); ok && coveredLine(p, w, h, a, b) {
								hidden = true
							}
						case *plotter.Scatter:
							if b, ok := later.(*plotter.Scatter); ok && coveredScatter(p, w, h, a, b) {
								hidden = true
							}
						}
					}
					if !hidden {
						visible = true
					}
				}
				if !visible {
					c.errorf("%s: legend entry %q names a series hidden under another", where, e.text)
				}
			}
		}
	}
	return errors.Join(c.errs...)
}
