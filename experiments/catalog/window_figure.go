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
)

// windowKinds are the designs of the window experiment that panels (a) to
// (c) draw, in order, with their legend names; the double-hashed model
// is drawn in (d).
var windowKinds = []struct{ kind, name string }{
	{"age-partitioned", "age-partitioned"},
	{"age-partitioned-blocked", "blocked age-partitioned"},
	{"alternating", "two filters used alternately"},
	{"cleared", "one filter cleared when full"},
}

// windowFigure draws the window experiment: (a) the rate against the
// stream position at the target nearest 1%, every design with its exact
// theory, the target and the implementations' one-number formula; (b) the
// recall against age at that target; (c) the bits per key of the window
// against the target for every design; (d) the rate of the
// age-partitioned filter and of the same geometry indexed by double
// hashing across slices, at the smallest target, against the theory of
// independent slices.
func windowFigure(r *experiments.Results) (*plots.Figure, error) {
	var targets []float64
	for _, row := range r.Rows {
		if row.Target > 0 && !slices.Contains(targets, row.Target) {
			targets = append(targets, row.Target)
		}
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("no window rows to draw")
	}
	slices.Sort(targets)
	mid := targets[0]
	for _, t := range targets {
		if math.Abs(math.Log(t/0.01)) < math.Abs(math.Log(mid/0.01)) {
			mid = t
		}
	}
	window := float64(r.Rows[0].Capacity)
	find := func(kind string, target float64, recall bool) []*experiments.Row {
		var out []*experiments.Row
		for i := range r.Rows {
			row := &r.Rows[i]
			if row.Variant == kind && row.Target == target && (row.AgeEnd > 0) == recall {
				out = append(out, row)
			}
		}
		return out
	}
	pos := func(row *experiments.Row) float64 { return float64(row.Items) / window }
	age := func(row *experiments.Row) float64 { return float64(row.Age+row.AgeEnd-1) / 2 / window }

	a, err := windowRatePanel(fmt.Sprintf("(a) rate against stream position, target %g", mid), r, windowKinds, mid, find, pos, window)
	if err != nil {
		return nil, err
	}

	b := plots.Panel(fmt.Sprintf("(b) recall against age, target %g", mid), "age (adds since the item) / window", "fraction of the items that test present")
	b.Y.Min, b.Y.Max = 0, 1.05
	for i, k := range windowKinds {
		rows := find(k.kind, mid, true)
		if len(rows) == 0 {
			continue
		}
		if err := plots.AddLine(b, plots.Values(rows, age, theory), plots.Color(i), nil, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		if err := plots.AddPoints(b, plots.Rates(rows, age), plots.Color(i), i, k.name); err != nil {
			return nil, err
		}
	}
	b.Legend.Add("lines: exact recall (none for the blocked layout)")

	c := plots.Panel("(c) memory at the same guaranteed window", "target rate (worst point of the cycle)", "bits per key of the window")
	plots.LogX(c)
	var bpis []float64
	for i, k := range windowKinds {
		var xys plotter.XYs
		for _, t := range targets {
			rows := find(k.kind, t, false)
			if len(rows) == 0 {
				continue
			}
			y := float64(rows[0].Bits) / window
			xys = append(xys, plotter.XY{X: t, Y: y})
			bpis = append(bpis, y)
		}
		name := k.name
		if k.kind == "cleared" {
			name += " (sure of 1 item)"
		}
		if err := plots.AddPolyline(c, xys, plots.Color(i), i, nil, name); err != nil {
			return nil, err
		}
	}
	c.X.Min, c.X.Max = targets[0]/1.5, targets[len(targets)-1]*1.5
	c.Y.Min, c.Y.Max = 0, 1.1*slices.Max(bpis)

	low := targets[0]
	dh := []struct{ kind, name string }{{"age-partitioned", "independent slices (bloomlab)"}, {"double-hashed", "double hashing across slices (model)"}}
	d, err := windowRatePanel(fmt.Sprintf("(d) double hashing across slices, target %g", low), r, dh, low, find, pos, window)
	if err != nil {
		return nil, err
	}
	e, err := windowSawtooth(r, targets[len(targets)-1], find)
	if err != nil {
		return nil, err
	}

	f := plots.Panel("(f) time per operation (all workers measuring at once)", "target rate (worst point of the cycle)", "ns per operation over the stream")
	plots.LogX(f)
	var ns []float64
	for i, k := range windowKinds {
		var add, query plotter.XYs
		for _, t := range targets {
			rows := find(k.kind, t, false)
			if len(rows) == 0 {
				continue
			}
			a, q := windowTimes(rows)
			add = append(add, plotter.XY{X: t, Y: a})
			query = append(query, plotter.XY{X: t, Y: q})
			ns = append(ns, a, q)
		}
		if err := plots.AddPolyline(f, add, plots.Color(i), i, nil, k.name+": add"); err != nil {
			return nil, err
		}
		if err := plots.AddPolyline(f, query, plots.Color(i), i, plots.Dashed, k.name+": absent query"); err != nil {
			return nil, err
		}
	}
	f.X.Min, f.X.Max = targets[0]/1.5, targets[len(targets)-1]*1.5
	if len(ns) > 0 {
		f.Y.Min, f.Y.Max = 0, 1.1*slices.Max(ns)
	}
	return twoByTwo(4.8*vg.Inch, a, b, c, d, e, f), nil
}

// windowSawtooth draws the rate of the age-partitioned filter at target
// over its last two generations measured, against the position in the
// generation, with its exact theory, its mean over the cycle and the
// one-number formula.
func windowSawtooth(r *experiments.Results, target float64, find func(string, float64, bool) []*experiments.Row) (*plot.Plot, error) {
	rows := find("age-partitioned", target, false)
	if len(rows) < 2 {
		return nil, fmt.Errorf("no age-partitioned rows at target %g", target)
	}
	// The dense positions are the last 33, over two generations of g adds
	// (the series names k and l; g is the spacing of the sawtooth).
	dense := rows[max(0, len(rows)-33):]
	first, last := dense[0].Items, dense[len(dense)-1].Items
	g := float64(last-first) / 2
	x := func(row *experiments.Row) float64 { return float64(row.Items-first) / g }
	p := plots.Panel(fmt.Sprintf("(e) the sawtooth of the age-partitioned filter, target %g", target), "adds / generation, over the last two", plots.RateLabel)
	pts := plots.Rates(dense, x)
	th := plots.Values(dense, x, theory)
	var mean float64
	for _, row := range dense {
		mean += row.Theory / float64(len(dense))
	}
	formula := dense[0].Classic
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, y := range append(ySpan(pts), xysY(th)...) {
		lo, hi = math.Min(lo, y), math.Max(hi, y)
	}
	hi = math.Max(hi, target)
	// The formula is drawn where it falls near the data; far above, the
	// legend gives its value instead of squashing the sawtooth.
	drawFormula := formula > 0 && formula <= 1.2*hi
	if drawFormula {
		hi = math.Max(hi, formula)
	}
	p.Y.Min, p.Y.Max = lo*0.97, hi*1.03
	if err := plots.AddLine(p, th, plots.Color(0), nil, plots.LineWidth, "exact theory"); err != nil {
		return nil, err
	}
	if err := plots.AddPoints(p, pts, plots.Color(0), 0, fmt.Sprintf("measured, %g%% intervals", 100*r.Params.Conf)); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = -0.05, 2.05
	if err := hline(p, target, p.X.Min, p.X.Max, red, plots.Dashed, fmt.Sprintf("target %g", target)); err != nil {
		return nil, err
	}
	if err := hline(p, mean, p.X.Min, p.X.Max, grey, plots.DashDot, fmt.Sprintf("theory's mean over the points %.4g", mean)); err != nil {
		return nil, err
	}
	switch {
	case drawFormula:
		if err := hline(p, formula, p.X.Min, p.X.Max, black, plots.Dotted, fmt.Sprintf("one-number formula %.4g", formula)); err != nil {
			return nil, err
		}
	case formula > 0:
		p.Legend.Add(fmt.Sprintf("one-number formula: %.4g, above the axis", formula))
	}
	return p, nil
}

// windowRatePanel draws the rate rows of kinds at target against the
// stream position, with each one's theory, the target, and the
// one-number formula of the first kind that has one.
func windowRatePanel(title string, r *experiments.Results, kinds []struct{ kind, name string }, target float64,
	find func(string, float64, bool) []*experiments.Row, pos func(*experiments.Row) float64, window float64) (*plot.Plot, error) {
	p := plots.Panel(title, "adds / window", plots.RateLabel)
	var all []float64
	var rows [][]*experiments.Row
	formula := 0.0
	for _, k := range kinds {
		rs := find(k.kind, target, false)
		rows = append(rows, rs)
		all = append(all, ySpan(plots.Rates(rs, pos))...)
		all = append(all, xysY(plots.Values(rs, pos, theory))...)
		if formula == 0 && len(rs) > 0 && rs[0].Classic > 0 {
			formula = rs[0].Classic
		}
	}
	all = append(all, target, formula)
	// The axis starts a decade under the target: the first adds, whose
	// rates are far lower, are cut (their arrows point down).
	lo, hi := plots.LogRange(all...)
	lo = math.Max(lo, target/10)
	plots.LogY(p, lo, hi)
	var xmax float64
	for i, rs := range rows {
		if len(rs) == 0 {
			continue
		}
		col := plots.Color(i)
		if kinds[i].kind == "double-hashed" {
			col = plots.Color(5)
		}
		// The theory is drawn in pieces that break where it leaves the
		// axis (a filter cleared: its rate falls below the axis and climbs
		// back), never as a chord across the gap.
		var th plotter.XYs
		for _, xy := range plots.Values(rs, pos, theory) {
			if xy.Y >= lo {
				th = append(th, xy)
				continue
			}
			if err := plots.AddLine(p, th, col, nil, plots.ThinWidth, ""); err != nil {
				return nil, err
			}
			th = nil
		}
		if err := plots.AddLine(p, th, col, nil, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		// The last generation's dense checkpoints (panel e's sawtooth)
		// would pile up at the right edge: points closer than a hundredth
		// of the axis to the last one drawn are left out here.
		_, right := xRange(rs, pos)
		var keep []*experiments.Row
		last := math.Inf(-1)
		for _, row := range rs {
			if x := pos(row); row.Hi >= lo && x-last >= right/100 {
				keep = append(keep, row)
				last = x
			}
		}
		if err := plots.AddPoints(p, plots.Rates(keep, pos).ClampLow(lo), col, i, kinds[i].name); err != nil {
			return nil, err
		}
		_, x := xRange(rs, pos)
		xmax = math.Max(xmax, x)
	}
	p.X.Min, p.X.Max = 0, xmax*1.02
	p.Legend.Add(fmt.Sprintf("points: measured, %g%% intervals, at most", 100*r.Params.Conf))
	p.Legend.Add("  one a hundredth of the axis; lines: exact theory")
	if err := hline(p, target, 0, xmax*1.02, red, plots.Dashed, fmt.Sprintf("target %g", target)); err != nil {
		return nil, err
	}
	if formula > 0 && formula <= hi {
		if err := hline(p, formula, 0, xmax*1.02, black, plots.Dotted, fmt.Sprintf("one-number formula %.3g", formula)); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// windowTimes returns a design's mean time per add over the stream, each
// position's time weighted by the adds before it, and per absent query
// (every position has the same queries).
func windowTimes(rows []*experiments.Row) (add, query float64) {
	var adds, prev uint64
	for _, row := range rows {
		n := row.Items - prev
		prev = row.Items
		add += row.NsPerAdd * float64(n)
		adds += n
		query += row.NsPerQuery / float64(len(rows))
	}
	if adds > 0 {
		add /= float64(adds)
	}
	return add, query
}
