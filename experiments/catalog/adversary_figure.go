package catalog

import (
	"fmt"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// adversaryFigure draws the adversary experiment: (a) the rate after n
// random keys, n keys chosen with known hashing, and n keys chosen so
// against a keyed filter, per variant, beside the theory; (b) the queries
// an attacker spends per false positive: blind (1/rate), forging with
// known hashing and bits, and forging against a keyed filter; (c) the
// members of a counting filter lost to removals of random and of forged
// keys. Rates are on logarithmic axes, legends above the data.
func adversaryFigure(r *experiments.Results) (*plots.Figure, error) {
	var vs []string
	for i := range r.Rows {
		v := r.Rows[i].Variant
		if v != "counting" && !contains(vs, v) {
			vs = append(vs, v)
		}
	}
	find := func(series string) *experiments.Row {
		for i := range r.Rows {
			if r.Rows[i].Series == series {
				return &r.Rows[i]
			}
		}
		return nil
	}
	var panels []*plot.Plot
	if len(vs) > 0 {
		a, err := pollutionPanel(vs, find)
		if err != nil {
			return nil, err
		}
		b, err := forgingPanel(vs, find)
		if err != nil {
			return nil, err
		}
		panels = append(panels, a, b)
	}
	if c, err := removalPanel(r); err != nil {
		return nil, err
	} else if c != nil {
		panels = append(panels, c)
	}
	if len(panels) == 0 {
		return nil, fmt.Errorf("no adversary rows to draw")
	}
	return &plots.Figure{Panels: [][]*plot.Plot{panels}, Width: 6 * vg.Inch * vg.Length(len(panels)), Height: 6 * vg.Inch}, nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// attackStyles are the three series of panels (a) and (b): colour index,
// glyph shape and horizontal offset.
var attackStyles = []struct {
	color, shape int
	dx           float64
}{{0, 0, -0.22}, {1, 1, 0}, {2, 2, 0.22}}

// categories labels integer x positions with names.
type categories []string

// Ticks implements plot.Ticker.
func (c categories) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for i, name := range c {
		if float64(i) >= min && float64(i) <= max {
			ts = append(ts, plot.Tick{Value: float64(i), Label: name})
		}
	}
	return ts
}

// point returns the row's rate at x with its interval, or with invert its
// inverse 1/rate, the interval's ends swapped, and an upper end cut at top
// (where the rate's interval reaches zero).
func point(row *experiments.Row, x float64, invert bool, top float64) plots.Points {
	y, lo, hi := row.Rate, row.Lo, row.Hi
	if invert {
		y, lo, hi = 1/row.Rate, 1/row.Hi, top
		if row.Lo > 0 {
			hi = math.Min(1/row.Lo, top)
		}
	}
	var p plots.Points
	p.XYs = plotter.XYs{{X: x, Y: y}}
	p.Errors = plotter.YErrors{{Low: y - lo, High: hi - y}}
	return p
}

// pollutionPanel is panel (a).
func pollutionPanel(vs []string, find func(string) *experiments.Row) (*plot.Plot, error) {
	attacks := []string{attackRandom, attackChosen, attackChosenKeyed}
	var ys []float64
	for _, v := range vs {
		for _, a := range attacks {
			if row := find(v + ": " + a); row != nil {
				ys = append(ys, row.Lo, row.Hi, row.Theory)
			}
		}
	}
	lo, hi := plots.LogRange(ys...)
	title := "(a) pollution: rate after n keys"
	if row := find(vs[0] + ": " + attacks[0]); row != nil {
		title = fmt.Sprintf("(a) pollution: rate after n = %d keys (sized for p = %g)", row.Items, row.Target)
	}
	p := plots.Panel(title, "variant", "false-positive rate")
	plots.LogY(p, lo, hi*10) // a decade of headroom holds the legend above the data
	p.X.Tick.Marker = categories(vs)
	p.X.Min, p.X.Max = -0.6, float64(len(vs))-0.4
	for j, a := range attacks {
		var pts plots.Points
		for i, v := range vs {
			row := find(v + ": " + a)
			if row == nil || row.Rate <= 0 {
				continue
			}
			q := point(row, float64(i)+attackStyles[j].dx, false, 0)
			pts.XYs = append(pts.XYs, q.XYs...)
			pts.Errors = append(pts.Errors, q.Errors...)
		}
		label := a
		if a == attackChosen {
			label += fmt.Sprintf(" (best of up to T = %d)", pollutionCandidates)
		}
		if err := plots.AddPoints(p, pts.ClampLow(lo), plots.Color(attackStyles[j].color), attackStyles[j].shape, label); err != nil {
			return nil, err
		}
	}
	for i, v := range vs {
		row := find(v + ": " + attacks[0])
		if row == nil {
			continue
		}
		label := ""
		if i == 0 {
			label = "theory for random keys"
		}
		if err := hline(p, row.Theory, float64(i)-0.4, float64(i)+0.4, black, plots.Dashed, label); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// forgingPanel is panel (b).
func forgingPanel(vs []string, find func(string) *experiments.Row) (*plot.Plot, error) {
	series := []struct{ attack, label string }{
		{attackRandom, "blind: 1/rate"},
		{attackForgedOnline, "forging with known hashing and bits"},
		{attackForgedKeyed, "forging against a keyed filter"},
	}
	var ys []float64
	for _, v := range vs {
		for _, s := range series {
			if row := find(v + ": " + s.attack); row != nil && row.Rate > 0 {
				ys = append(ys, 1/row.Rate)
				if row.Lo > 0 {
					ys = append(ys, 1/row.Lo)
				}
			}
		}
	}
	lo, hi := plots.LogRange(ys...)
	p := plots.Panel("(b) forging: queries per false positive", "variant", "queries per false positive")
	top := hi * 30
	plots.LogY(p, math.Min(lo, 0.5), top)
	p.X.Tick.Marker = categories(vs)
	p.X.Min, p.X.Max = -0.6, float64(len(vs))-0.4
	for j, s := range series {
		var pts plots.Points
		for i, v := range vs {
			row := find(v + ": " + s.attack)
			if row == nil || row.Rate <= 0 {
				continue
			}
			q := point(row, float64(i)+attackStyles[j].dx, true, top)
			pts.XYs = append(pts.XYs, q.XYs...)
			pts.Errors = append(pts.Errors, q.Errors...)
		}
		if err := plots.AddPoints(p, pts, plots.Color(attackStyles[j].color), attackStyles[j].shape, s.label); err != nil {
			return nil, err
		}
	}
	if off := find(vs[0] + ": " + attackForgeOffline); off != nil && off.Rate > 0 {
		p.Legend.Add(fmt.Sprintf("(the forger's offline search: %.0f trials per key for %s)", 1/off.Rate, vs[0]))
	}
	return p, nil
}

// removalPanel is panel (c), or nil if r has no counting rows.
func removalPanel(r *experiments.Results) (*plot.Plot, error) {
	attacks := []string{attackRemoveRandom, attackRemoveForged, attackRemoveKeyed}
	var ys []float64
	found := false
	for _, a := range attacks {
		for _, row := range plots.Rows(r, "counting: "+a, nil) {
			ys = append(ys, row.Rate, row.Lo, row.Hi)
			found = true
		}
	}
	if !found {
		return nil, nil
	}
	lo, _ := plots.LogRange(ys...)
	p := plots.Panel("(c) counting filter: members lost to removals", "keys removed", "fraction of members that test absent")
	plots.LogX(p)
	plots.LogY(p, lo, 1) // a fraction; the legend sits left of the data
	var xmin, xmax float64
	for j, a := range attacks {
		rows := plots.Rows(r, "counting: "+a, nil)
		pts := plots.Rates(rows, func(row *experiments.Row) float64 { return float64(row.Removals) })
		if err := plots.AddPoints(p, pts.ClampLow(lo), plots.Color(attackStyles[j].color), attackStyles[j].shape, strings.Replace(a, "removing ", "", 1)); err != nil {
			return nil, err
		}
		var line plotter.XYs
		for _, xy := range pts.XYs {
			line = append(line, xy)
			if xmin == 0 || xy.X < xmin {
				xmin = xy.X
			}
			xmax = math.Max(xmax, xy.X)
		}
		if err := plots.AddLine(p, line, plots.Color(attackStyles[j].color), nil, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
	}
	if xmax > 0 {
		p.X.Min, p.X.Max = xmin/10, xmax*10 // at least three labelled decades
	}
	return p, nil
}
