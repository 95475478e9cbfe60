package plots

import (
	"math"

	"gonum.org/v1/plot/plotter"

	"github.com/bloomlab/bloomlab/experiments"
)

// Points are measured values ready to draw: positions and the interval
// around each. Values that cannot be drawn on a logarithmic axis (zero
// rates) are left out and counted in Dropped.
type Points struct {
	XYs     plotter.XYs
	Errors  plotter.YErrors
	Dropped int

	open []int // points whose interval reaches below a logarithmic axis (see ClampLow)
}

// Len returns the number of points; with [Points.XY] and [Points.YError]
// it makes Points usable by plotter.NewYErrorBars.
func (p Points) Len() int { return len(p.XYs) }

// XY returns the i-th position.
func (p Points) XY(i int) (x, y float64) { return p.XYs[i].X, p.XYs[i].Y }

// YError returns the distances from the i-th value down to the lower and up
// to the upper end of its interval.
func (p Points) YError(i int) (low, high float64) { return p.Errors[i].Low, p.Errors[i].High }

// SeriesNames returns the series of r in the order their first row
// appears.
func SeriesNames(r *experiments.Results) []string {
	var names []string
	seen := map[string]bool{}
	for _, row := range r.Rows {
		if !seen[row.Series] {
			seen[row.Series] = true
			names = append(names, row.Series)
		}
	}
	return names
}

// Rows returns the rows of series whose predicate keep holds (all rows of
// the series when keep is nil).
func Rows(r *experiments.Results, series string, keep func(*experiments.Row) bool) []*experiments.Row {
	var out []*experiments.Row
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.Series == series && (keep == nil || keep(row)) {
			out = append(out, row)
		}
	}
	return out
}

// Rates returns the measured rates of rows at x(row), with their
// confidence intervals. Rows without queries are skipped; zero rates are
// dropped and counted, since a logarithmic axis cannot show them.
func Rates(rows []*experiments.Row, x func(*experiments.Row) float64) Points {
	var p Points
	for _, row := range rows {
		if row.Queries == 0 {
			continue
		}
		if row.Rate <= 0 {
			p.Dropped++
			continue
		}
		p.XYs = append(p.XYs, plotter.XY{X: x(row), Y: row.Rate})
		p.Errors = append(p.Errors, struct{ Low, High float64 }{row.Rate - row.Lo, row.Hi - row.Rate})
	}
	return p
}

// Values returns (x(row), y(row)) for the rows where y is positive and
// finite: theory columns, times, sizes.
func Values(rows []*experiments.Row, x, y func(*experiments.Row) float64) plotter.XYs {
	var xys plotter.XYs
	for _, row := range rows {
		v := y(row)
		if v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			xys = append(xys, plotter.XY{X: x(row), Y: v})
		}
	}
	return xys
}

// Ratio returns the measured rates of rows divided by ref(row), with their
// intervals divided alike: how far a measurement lies from a reference
// such as the classic formula. Rows whose reference is not positive are
// skipped.
func Ratio(rows []*experiments.Row, x, ref func(*experiments.Row) float64) Points {
	var p Points
	for _, row := range rows {
		d := ref(row)
		if row.Queries == 0 || d <= 0 {
			continue
		}
		y := row.Rate / d
		p.XYs = append(p.XYs, plotter.XY{X: x(row), Y: y})
		p.Errors = append(p.Errors, struct{ Low, High float64 }{y - row.Lo/d, row.Hi/d - y})
	}
	return p
}

// Excess returns the measured rates of rows as the relative excess over
// the theory column, Rate/Theory - 1, in percent, with their intervals.
func Excess(rows []*experiments.Row, x func(*experiments.Row) float64) Points {
	p := Ratio(rows, x, func(r *experiments.Row) float64 { return r.Theory })
	for i := range p.XYs {
		p.XYs[i].Y = 100 * (p.XYs[i].Y - 1)
		p.Errors[i].Low *= 100
		p.Errors[i].High *= 100
	}
	return p
}

// LogRange returns the range of a logarithmic axis that holds every
// positive finite value of ys: lo and hi powers of ten, at least one
// decade apart; 0.001 to 1 when ys holds no such value.
func LogRange(ys ...float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		if y > 0 && !math.IsInf(y, 0) {
			lo = math.Min(lo, y)
			hi = math.Max(hi, y)
		}
	}
	if math.IsInf(lo, 1) {
		return 1e-3, 1
	}
	lo = math.Pow(10, math.Floor(math.Log10(lo)+1e-9))
	hi = math.Pow(10, math.Ceil(math.Log10(hi)-1e-9))
	if hi <= lo {
		hi = lo * 10
	}
	return lo, hi
}

// ClampLow returns p ready for a logarithmic axis that starts at floor:
// an interval whose lower end lies below it, zero typically, loses its
// lower bar, and [AddPoints] draws an arrow pointing down from the point
// instead, so that no bar runs to the bottom of the axis as if the
// interval ended there. p is not changed.
func (p Points) ClampLow(floor float64) Points {
	p.open = nil
	p.Errors = append(plotter.YErrors(nil), p.Errors...)
	for i := range p.XYs {
		if p.XYs[i].Y-p.Errors[i].Low < floor*(1-1e-9) {
			p.Errors[i].Low = 0
			p.open = append(p.open, i)
		}
	}
	return p
}
