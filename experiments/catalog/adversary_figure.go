package catalog

import (
	"fmt"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// adversaryFigure draws the adversary experiment in a 2 x 2 grid: (a) the
// rate after n keys chosen with known hashing as the best of T
// candidates, per variant, against T, with the standard filter's theory
// (analysis.PollutedFPR) as a curve and the bound (n k/m)^k; (b) the rate
// after n random keys, n keys chosen with the largest T, and n keys
// chosen so against a keyed filter, per variant, beside the theory for
// random keys; (c) the queries an attacker spends per false positive:
// blind (1/rate), forging with known hashing and bits, and forging
// against a keyed filter; (d) the members of a counting filter lost to
// removals of random and of forged keys. Rates are on logarithmic axes.
func adversaryFigure(r *experiments.Results) (*plots.Figure, error) {
	var vs []string
	for i := range r.Rows {
		v := r.Rows[i].Variant
		if v != "counting" && !contains(vs, v) {
			vs = append(vs, v)
		}
	}
	most := uint64(0)
	for i := range r.Rows {
		most = max(most, r.Rows[i].Candidates)
	}
	// find returns the row of series; for the chosen keys with known
	// hashing, the one with the most candidates.
	find := func(series string) *experiments.Row {
		for i := range r.Rows {
			row := &r.Rows[i]
			if row.Series == series && (row.Candidates == 0 || row.Candidates == most || !strings.HasSuffix(series, ": "+attackChosen)) {
				return row
			}
		}
		return nil
	}
	var panels []*plot.Plot
	if len(vs) > 0 {
		a, err := candidatesPanel(r, vs)
		if err != nil {
			return nil, err
		}
		b, err := pollutionPanel(vs, find, most)
		if err != nil {
			return nil, err
		}
		c, err := forgingPanel(vs, find)
		if err != nil {
			return nil, err
		}
		panels = append(panels, a, b, c)
	}
	if d, err := removalPanel(r); err != nil {
		return nil, err
	} else if d != nil {
		panels = append(panels, d)
	}
	if len(panels) == 0 {
		return nil, fmt.Errorf("no adversary rows to draw")
	}
	// Two panels a row, 1,440 pixels wide: a panel's data area is then
	// wide enough for a legend band above it that holds the notes of
	// plots.AddPoints.
	const width, height = 5 * vg.Inch, 4.8 * vg.Inch
	if len(panels) == 1 {
		return &plots.Figure{Panels: [][]*plot.Plot{panels}, Width: width, Height: height}, nil
	}
	var grid [][]*plot.Plot
	for i := 0; i < len(panels); i += 2 {
		row := []*plot.Plot{panels[i], nil}
		if i+1 < len(panels) {
			row[1] = panels[i+1]
		}
		grid = append(grid, row)
	}
	return &plots.Figure{Panels: grid, Width: 2 * width, Height: height * vg.Length(len(grid))}, nil
}

// candidateShift spreads the variants' points at one T apart on the
// logarithmic T axis; the first variant, standard in a run of all, stays
// at T, on its theory curve.
var candidateShift = []float64{1, 0.84, 1.18, 1.4}

// theoryCandidates are the T at which panel (a) evaluates the standard
// filter's theory, up to the largest T measured.
var theoryCandidates = []uint64{1, 2, 3, 5, 7, 10, 20, 30, 50, 70, 100, 200, 300, 500, 700, 1000, 2000, 3000, 5000, 10000}

// candidatesPanel is panel (a): rate against T.
func candidatesPanel(r *experiments.Results, vs []string) (*plot.Plot, error) {
	var ys []float64
	var std *experiments.Row
	tmax := uint64(1)
	for i := range r.Rows {
		row := &r.Rows[i]
		if !strings.HasSuffix(row.Series, ": "+attackChosen) || row.Candidates == 0 {
			continue
		}
		ys = append(ys, row.Lo, row.Hi, row.Rate)
		if row.Theory > 0 {
			ys = append(ys, row.Theory)
		}
		tmax = max(tmax, row.Candidates)
		if row.Variant == "standard" && std == nil {
			std = row
		}
	}
	var curve plotter.XYs
	bound := 0.0
	if std != nil && std.Bits > 0 {
		for _, t := range theoryCandidates {
			if t > tmax {
				break
			}
			f, err := analysis.PollutedFPR(std.Bits, std.Items, std.Hashes, t)
			if err != nil {
				curve = nil
				break
			}
			curve = append(curve, plotter.XY{X: float64(t), Y: f})
			ys = append(ys, f)
		}
		bound = analysis.PollutionBound(std.Bits, std.Items, std.Hashes)
		ys = append(ys, bound)
	}
	lo, hi := plots.LogRange(ys...)
	title := "(a) pollution: rate after n chosen keys"
	if std != nil {
		title = fmt.Sprintf("(a) pollution: rate after n = %d keys chosen as the best of T", std.Items)
	}
	p := plots.Panel(title, "candidates per key T (T = 1: random keys)", plots.RateLabel)
	plots.LogY(p, lo, hi)
	plots.LogX(p)
	p.X.Min, p.X.Max = 0.5, 2*float64(tmax)
	for j, v := range vs {
		rows := plots.Rows(r, v+": "+attackChosen, func(row *experiments.Row) bool { return row.Candidates > 0 })
		if len(rows) == 0 {
			continue
		}
		pts := plots.Rates(rows, func(row *experiments.Row) float64 {
			return float64(row.Candidates) * candidateShift[j%len(candidateShift)]
		})
		if err := plots.AddPoints(p, pts.ClampLow(lo), plots.Color(j), j, v+", measured"); err != nil {
			return nil, err
		}
	}
	if len(curve) > 0 {
		if err := plots.AddLine(p, curve, black, nil, plots.LineWidth, "standard, theory: greedy chain (analysis.PollutedFPR)"); err != nil {
			return nil, err
		}
	}
	if bound > 0 {
		if err := hline(p, bound, p.X.Min, p.X.Max, black, plots.Dashed, "standard, every key k new bits: (n k/m)^k"); err != nil {
			return nil, err
		}
	}
	return p, nil
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

// pollutionPanel is panel (b).
func pollutionPanel(vs []string, find func(string) *experiments.Row, most uint64) (*plot.Plot, error) {
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
	title := "(b) known hashing or a keyed hash"
	if row := find(vs[0] + ": " + attacks[0]); row != nil {
		title = fmt.Sprintf("(b) rate after n = %d keys (sized for p = %g)", row.Items, row.Target)
	}
	p := plots.Panel(title, "variant", "false-positive rate")
	plots.LogY(p, lo, hi)
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
		if a != attackRandom {
			label += fmt.Sprintf(", best of T = %d", most)
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
			label = "theory for random keys, and for a keyed hash"
		}
		if err := hline(p, row.Theory, float64(i)-0.4, float64(i)+0.4, black, plots.Dashed, label); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// forgingPanel is panel (c).
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
	p := plots.Panel("(c) forging: queries per false positive", "variant", "queries per false positive")
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

// removalPanel is panel (d), or nil if r has no counting rows.
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
	p := plots.Panel("(d) counting filter: members lost to removals", "keys removed", "fraction of members that test absent")
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
	if rows := plots.Rows(r, "counting: "+attacks[0], nil); len(rows) > 0 {
		row := rows[0]
		p.Legend.Add(fmt.Sprintf("(k = %d counters of %d bits per member)", row.Hashes, row.Width))
	}
	return p, nil
}
