package catalog

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"github.com/bloomlab/bloomlab/variants"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// penaltyItems is the capacity at which blockingFigure draws the memory
// each variant needs: the block penalty depends on p and the block size,
// hardly on n.
const penaltyItems = 1_000_000

// blockingFigure draws the blocking experiment: (a) rate against bits per
// key for the standard, blocked and split-block filters beside each exact
// theory; (b) the same for Boost.Bloom's layouts (blockingLayouts), with
// the standard and split-block theory for reference; (c) the measured
// rate of filters sized for p over their theory, against the number of
// items (from tens of blocks to millions); (d) from theory alone, the bits
// per key each variant needs for a target rate, the block penalty.
func blockingFigure(r *experiments.Results) (*plots.Figure, error) {
	sweep := func(row *experiments.Row) bool { return row.Target == 0 }
	sized := func(row *experiments.Row) bool { return row.Target > 0 }
	bpe := func(row *experiments.Row) float64 { return float64(row.Bits) / float64(row.Items) }
	names := plots.SeriesNames(r)
	boost := map[string]bool{}
	for _, l := range blockingLayouts {
		boost[l.series] = true
	}

	lo, hi := plots.LogRange(rateValues(r, bpe, sweep)...)
	var n uint64
	for i := range r.Rows {
		if row := &r.Rows[i]; sweep(row) {
			n = row.Items
			break
		}
	}
	a := plots.Panel(fmt.Sprintf("(a) rate against memory, n = %d items, best k", n), "bits per key (m/n)", plots.RateLabel)
	b := plots.Panel(fmt.Sprintf("(b) Boost.Bloom's layouts, n = %d items, best K", n), "bits per key (m/n)", plots.RateLabel)
	var points string
	anyBoost, anyPlain := false, false
	for _, p := range []*plot.Plot{a, b} {
		plots.LogY(p, lo, hi)
		p.X.Min = 0
	}
	for i, name := range names {
		rows := plots.Rows(r, name, sweep)
		if len(rows) == 0 {
			continue
		}
		p := a
		if boost[name] {
			p, anyBoost = b, true
		} else {
			anyPlain = true
		}
		if err := plots.AddLine(p, plots.Values(rows, bpe, theory), plots.Color(i), nil, plots.ThinWidth, ""); err != nil {
			return nil, err
		}
		if err := plots.AddPoints(p, plots.Rates(rows, bpe).ClampLow(lo), plots.Color(i), i, name); err != nil {
			return nil, err
		}
		if points == "" {
			points = "points: " + measuredLabel(r, rows)
		}
		if !boost[name] && (name == "standard" || name == "split-block") {
			// The reference lines of (b): this variant's theory, dashed.
			if err := plots.AddLine(b, plots.Values(rows, bpe, theory), plots.Color(i), plots.Dashed, plots.ThinWidth, name+" (theory, as in (a))"); err != nil {
				return nil, err
			}
		}
	}
	a.Legend.Add(points)
	a.Legend.Add("lines: each variant's exact theory at the built m, k")
	b.Legend.Add("lines: analysis.Multiblock's exact rate at the built m, K")

	var target float64
	c := plots.Panel("(c) filters sized for p: measured over theory", "items n (filter sized for n)", "measured rate / exact theory")
	plots.LogX(c)
	c.Y.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		var ts []plot.Tick
		for v := math.Ceil(lo*40) / 40; v <= hi; v += 0.025 {
			ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 3, 64)})
		}
		return ts
	})
	xlo, xhi := 0.0, 0.0
	for i, name := range names {
		rows := plots.Rows(r, name, sized)
		if len(rows) == 0 {
			continue
		}
		target = rows[0].Target
		pts := plots.Ratio(rows, items, theory)
		// Spread the series a little sideways so their bars do not overlap.
		for j := range pts.XYs {
			pts.XYs[j].X *= 1 + 0.05*float64(i-len(names)/2)
		}
		if err := plots.AddPoints(c, pts, plots.Color(i), i, name); err != nil {
			return nil, err
		}
		l, h := xRange(rows, items)
		if xlo == 0 || l < xlo {
			xlo = l
		}
		xhi = max(xhi, h)
	}
	if xhi > 0 {
		if err := hline(c, 1, xlo/1.5, xhi*1.5, black, plots.Dashed, "theory"); err != nil {
			return nil, err
		}
		c.Title.Text = fmt.Sprintf("(c) filters sized for p = %g: measured over theory", target)
	}

	d := plots.Panel(fmt.Sprintf("(d) theory: memory for a target rate, n = %d", penaltyItems), "target false-positive rate p", "bits per key")
	plots.LogX(d)
	if err := penaltyLines(d); err != nil {
		return nil, err
	}
	if !anyBoost || !anyPlain {
		// One of (a) and (b) stays empty and is left out: the others
		// move up a letter.
		c.Title.Text = "(b)" + strings.TrimPrefix(c.Title.Text, "(c)")
		d.Title.Text = "(c)" + strings.TrimPrefix(d.Title.Text, "(d)")
		if !anyPlain {
			b.Title.Text = "(a)" + strings.TrimPrefix(b.Title.Text, "(b)")
		}
	}
	switch {
	case !anyBoost:
		// Results from before the Boost layouts, or of the variants
		// without them: three panels.
		return twoByTwo(4.8*vg.Inch, a, c, d), nil
	case !anyPlain:
		// Results of the Boost layouts alone.
		return twoByTwo(4.8*vg.Inch, b, c, d), nil
	}
	return twoByTwo(4.8*vg.Inch, a, b, c, d), nil
}

// penaltyLines draws, against p, the bits per key a standard filter
// (analysis.StandardSize), blocked filters of several block sizes
// (analysis.BlockedSize), the split-block filter (analysis.SplitBlockSize)
// and multiblock<uint64_t,K> (variants.MultiblockGeometry) need, with the
// information-theoretic minimum log2(1/p).
func penaltyLines(c *plot.Plot) error {
	ps := logSpace(0.1, 1e-6, 21)
	perKey := func(m uint64) float64 { return float64(m) / penaltyItems }
	var minimum, std, split plotter.XYs
	for _, p := range ps {
		minimum = append(minimum, plotter.XY{X: p, Y: analysis.InformationMinimum(p)})
		if sd, err := analysis.StandardSize(penaltyItems, p); err == nil {
			std = append(std, plotter.XY{X: p, Y: perKey(sd.Bits)})
		}
		if sb, err := analysis.SplitBlockSize(penaltyItems, p); err == nil {
			split = append(split, plotter.XY{X: p, Y: perKey(sb.Bits)})
		}
	}
	if err := plots.AddLine(c, minimum, grey, plots.Dashed, plots.LineWidth, "lower bound log2(1/p)"); err != nil {
		return err
	}
	// Colours as in the other panels: standard, then B = 256, 512, 1024,
	// split-block, multiblock<uint64_t,K>, and B = 64, which is
	// block<uint64_t,K>.
	if err := plots.AddLine(c, std, plots.Color(0), nil, plots.LineWidth, "standard"); err != nil {
		return err
	}
	for _, bc := range []struct {
		b     uint64
		color int
	}{{256, 1}, {512, 2}, {1024, 3}, {64, 6}} {
		b := bc.b
		var xys plotter.XYs
		for _, p := range ps {
			if bl, err := analysis.BlockedSize(penaltyItems, p, b); err == nil {
				xys = append(xys, plotter.XY{X: p, Y: perKey(bl.Bits)})
			}
		}
		var dashes []vg.Length
		label := fmt.Sprintf("blocked B=%d", b)
		if b == 64 {
			dashes = plots.Dotted
			label += " = block<uint64_t,K> (off the top)"
		}
		if err := plots.AddLine(c, xys, plots.Color(bc.color), dashes, plots.LineWidth, label); err != nil {
			return err
		}
	}
	var mb plotter.XYs
	for _, p := range ps {
		l := blockingLayouts["multiblock-64"]
		if g, err := variants.MultiblockGeometry(penaltyItems, p, l.params(variants.Geometry{}, variants.Hashing{})); err == nil {
			mb = append(mb, plotter.XY{X: p, Y: perKey(g.Bits)})
		}
	}
	if err := plots.AddLine(c, mb, plots.Color(5), plots.Dashed, plots.LineWidth, blockingLayouts["multiblock-64"].series); err != nil {
		return err
	}
	if err := plots.AddLine(c, split, plots.Color(4), plots.DashDot, plots.LineWidth, "split-block"); err != nil {
		return err
	}
	// B = 64 runs off the top; the axis shows the others in full.
	c.Y.Min, c.Y.Max = 0, 1.1*split[len(split)-1].Y
	return nil
}
