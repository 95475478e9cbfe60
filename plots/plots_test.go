package plots

import (
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"gonum.org/v1/plot"
)

func row(items uint64, rate, lo, hi, theory float64) experiments.Row {
	return experiments.Row{Series: "s", Items: items, Queries: 100, Rate: rate, Lo: lo, Hi: hi, Theory: theory, Classic: theory / 2}
}

func ptrs(rows []experiments.Row) []*experiments.Row {
	var p []*experiments.Row
	for i := range rows {
		p = append(p, &rows[i])
	}
	return p
}

func TestRatesDropZeros(t *testing.T) {
	rows := []experiments.Row{row(1, 0, 0, 0.01, 1e-5), row(2, 0.02, 0.01, 0.03, 0.02), row(3, 0.1, 0, 0.2, 0.09)}
	p := Rates(ptrs(rows), items)
	if p.Dropped != 1 || p.Len() != 2 {
		t.Fatalf("Rates = %+v", p)
	}
	if x, y := p.XY(0); x != 2 || y != 0.02 {
		t.Errorf("point 0 = (%g, %g)", x, y)
	}
	if lo, hi := p.YError(0); math.Abs(lo-0.01) > 1e-15 || math.Abs(hi-0.01) > 1e-15 {
		t.Errorf("errors of point 0 = %g, %g", lo, hi)
	}
	// An interval reaching zero loses its lower bar and is marked for an
	// arrow; the others keep theirs.
	c := p.ClampLow(1e-3)
	if lo, _ := c.YError(1); lo != 0 || len(c.open) != 1 || c.open[0] != 1 {
		t.Errorf("clamped low error %g, open %v", lo, c.open)
	}
	if lo, _ := c.YError(0); math.Abs(lo-0.01) > 1e-15 {
		t.Errorf("low error of point 0 changed to %g", lo)
	}
	if lo, _ := p.YError(1); lo != 0.1 {
		t.Errorf("clampLow changed its argument: %g", lo)
	}
	th := Values(ptrs(rows), items, theory)
	if len(th) != 3 || th[0].Y != 1e-5 {
		t.Errorf("theory values %v", th)
	}
	ex := Excess(ptrs(rows), items)
	if len(ex.XYs) != 3 || math.Abs(ex.XYs[2].Y-100*(0.1/0.09-1)) > 1e-9 {
		t.Errorf("excess %v", ex.XYs)
	}
	ra := Ratio(ptrs(rows), items, func(r *experiments.Row) float64 { return r.Classic })
	if math.Abs(ra.XYs[1].Y-2) > 1e-12 {
		t.Errorf("ratio %v", ra.XYs)
	}
}

func TestLogRange(t *testing.T) {
	for _, c := range []struct {
		in     []float64
		lo, hi float64
	}{
		{[]float64{0.003, 0.2}, 0.001, 1},
		{[]float64{0, 1e-5, 1e-5}, 1e-5, 1e-4},
		{nil, 1e-3, 1},
		{[]float64{0.01, 0.1}, 0.01, 0.1},
	} {
		lo, hi := LogRange(c.in...)
		if math.Abs(lo/c.lo-1) > 1e-9 || math.Abs(hi/c.hi-1) > 1e-9 {
			t.Errorf("LogRange(%v) = %g, %g, want %g, %g", c.in, lo, hi, c.lo, c.hi)
		}
	}
	ticks := Decades{}.Ticks(1e-6, 0.1)
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "1e-6 1e-5 1e-4 0.001 0.01 0.1" {
		t.Errorf("decade labels %q", got)
	}
}

// TestLogScale: the figures' log scale is gonum's, except at the
// arithmetic midpoint of a range of a decade or more, where gonum/plot
// centres an axis label's box, and which it maps to the centre.
func TestLogScale(t *testing.T) {
	for _, c := range []struct{ min, max, x, want float64 }{
		{0.001, 1, 0.5005, 0.5},
		{1, 1e6, 500000.5, 0.5},
		{0.001, 1, 0.01, 1.0 / 3},
		{0.001, 1, 1, 1},
		{0.9, 1.1, 1, plot.LogScale{}.Normalize(0.9, 1.1, 1)}, // less than a decade: gonum's
	} {
		if got := (LogScale{}).Normalize(c.min, c.max, c.x); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Normalize(%g, %g, %g) = %g, want %g", c.min, c.max, c.x, got, c.want)
		}
	}
}
