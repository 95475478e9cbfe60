package catalog

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"github.com/bloomlab/bloomlab/variants"
	"gonum.org/v1/plot/plotter"
)

// fillFigure draws the fill experiment of a fixed-size variant: rate
// against items inserted, measured beside the theory of the built geometry
// and the classic formula, with the target rate and the capacity.
func fillFigure(r *experiments.Results) (*plots.Figure, error) {
	rows := plots.Rows(r, plots.SeriesNames(r)[0], nil)
	first := rows[0]
	pts := plots.Rates(rows, items)
	xmin, xmax := xRange(rows, items)
	th := fillTheory(first, first.Model, xmin, xmax, 200)
	cl := fillTheory(first, "classic", xmin, xmax, 200)
	lo, hi := plots.LogRange(append(append(ySpan(pts), xysY(th)...), append(xysY(cl), first.Target)...)...)
	hi = math.Max(hi, 1)
	pts = pts.ClampLow(lo)

	geom := fmt.Sprintf("m = %d bits", first.Bits)
	if first.Cells > 0 {
		geom = fmt.Sprintf("m = %d counters of %d bits", first.Cells, first.Bits/first.Cells)
	}
	title := fmt.Sprintf("%s Bloom filter sized for n = %d at p = %g (%s, k = %d)",
		titleCase(first.Variant), first.Capacity, first.Target, geom, first.Hashes)
	if first.Target == 0 {
		// A geometry given (experiment -m, -k): sized for no rate.
		title = fmt.Sprintf("%s Bloom filter, %s, k = %d", titleCase(first.Variant), geom, first.Hashes)
	}
	if first.Hashing != "" && first.Hashing != hashingName(variants.Hashing{}) {
		title += ", " + first.Hashing + " hashing"
	}
	p := plots.Panel(title, "items inserted", plots.RateLabel)
	plots.LogY(p, lo, hi)
	if err := vline(p, float64(first.Capacity), lo, hi, grey, plots.DashDot, plots.ThinWidth, fmt.Sprintf("capacity n = %d", first.Capacity)); err != nil {
		return nil, err
	}
	if first.Target > 0 {
		if err := hline(p, first.Target, 0, xmax, red, plots.Dotted, fmt.Sprintf("target p = %g", first.Target)); err != nil {
			return nil, err
		}
	}
	if err := plots.AddLine(p, th, plots.Color(0), nil, plots.LineWidth, plots.TheoryLabel(first.Model)); err != nil {
		return nil, err
	}
	if err := addClassic(p, cl); err != nil {
		return nil, err
	}
	if err := plots.AddPoints(p, pts, black, 0, measuredLabel(r, rows)); err != nil {
		return nil, err
	}
	p.X.Min = 0
	return single(p), nil
}

// logSpace returns n points from lo to hi, evenly spaced on a logarithmic
// scale (linearly when lo is not positive).
func logSpace(lo, hi float64, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		t := float64(i) / float64(n-1)
		if lo > 0 {
			xs[i] = lo * math.Pow(hi/lo, t)
		} else {
			xs[i] = lo + (hi-lo)*t
		}
	}
	return xs
}

// fillTheory returns the rate model predicts for the geometry of row (its
// cells, or bits, and hashes) at n points from lo to hi items: model is
// "exact" (analysis.ExactFPR), "partitioned" (analysis.PartitionedFPR),
// "blocked/B" (analysis.BlockedFPR with blocks of B bits), "split-block"
// (analysis.SplitBlockFPR) or "classic" (analysis.ClassicFPR). Rates of zero are left out.
func fillTheory(row *experiments.Row, model string, lo, hi float64, n int) plotter.XYs {
	m := row.Bits
	if row.Cells > 0 {
		m = row.Cells
	}
	var xys plotter.XYs
	for i := range n {
		x := lo + (hi-lo)*float64(i)/float64(n-1)
		items := uint64(math.Round(x))
		var y float64
		switch model {
		case "exact":
			y = analysis.ExactFPR(m, items, row.Hashes)
		case "partitioned":
			y = analysis.PartitionedFPR(m, items, row.Hashes)
		case "split-block":
			y = analysis.SplitBlockFPR(m, items)
		default:
			if b, ok := modelBlockBits(model); ok {
				y = analysis.BlockedFPR(m, items, row.Hashes, b)
			} else {
				y = analysis.ClassicFPR(m, items, row.Hashes)
			}
		}
		if y > 0 {
			xys = append(xys, plotter.XY{X: x, Y: y})
		}
	}
	return xys
}

// scalableTheory returns the compound rate of the stages of s
// (analysis.Scalable.FPR) at n log-spaced points from lo to hi items.
func scalableTheory(s analysis.Scalable, lo, hi float64, n int) plotter.XYs {
	var xys plotter.XYs
	for _, x := range logSpace(lo, hi, n) {
		y, err := s.FPR(uint64(math.Round(x)))
		if err == nil && y > 0 {
			xys = append(xys, plotter.XY{X: x, Y: y})
		}
	}
	return xys
}

// stageBoundaries returns the item counts at which the stages of a scalable
// filter with these parameters fill, up to limit.
func stageBoundaries(s analysis.Scalable, limit uint64) []float64 {
	var out []float64
	var total uint64
	for i := 0; i < analysis.MaxStages; i++ {
		st, err := s.Stage(i)
		if err != nil {
			break
		}
		total += st.Capacity
		if total > limit {
			break
		}
		out = append(out, float64(total))
	}
	return out
}

// scalableFillFigure draws the fill experiment of scalable filters: rate
// against items inserted on logarithmic axes, the compound theory, the
// target P, and, for a single series, the stage boundaries.
func scalableFillFigure(r *experiments.Results) (*plots.Figure, error) {
	names := plots.SeriesNames(r)
	lo, _ := plots.LogRange(append(rateValues(r, items, nil), r.Params.P)...)
	// Room above the target, not a decade of it: every rate stays
	// below P.
	hi := math.Max(r.Params.P*2, maxRate(r))
	first := plots.Rows(r, names[0], nil)[0]
	xmin, xmax := xRange(allRows(r), items)
	title := fmt.Sprintf("Scalable Bloom filter growing from n0 = %d to %d items, target P = %g", first.Capacity, uint64(xmax), r.Params.P)
	if len(names) == 1 {
		title = fmt.Sprintf("Scalable Bloom filter: P = %g, r = %g, s = %g, n0 = %d", r.Params.P, first.R, first.S, first.Capacity)
	}
	p := plots.Panel(title, "items inserted", plots.RateLabel)
	plots.LogY(p, lo, hi)
	plots.LogX(p)
	p.X.Min, p.X.Max = xmin, xmax
	if len(names) == 1 {
		spec := analysis.Scalable{P: r.Params.P, R: first.R, S: first.S, N0: first.Capacity}
		for i, b := range stageBoundaries(spec, uint64(xmax)) {
			label := ""
			if i == 0 {
				label = "stage boundaries (a stage is full, the next one opens)"
			}
			if err := vline(p, b, lo, hi, grey, plots.Dotted, plots.ThinWidth, label); err != nil {
				return nil, err
			}
		}
	}
	if err := hline(p, r.Params.P, xmin, xmax, red, plots.Dashed, fmt.Sprintf("target P = %g, the bound on the compound rate", r.Params.P)); err != nil {
		return nil, err
	}
	for i, name := range names {
		rows := plots.Rows(r, name, nil)
		label := plots.TheoryLabel("scalable")
		mlabel := measuredLabel(r, rows)
		if len(names) > 1 {
			label, mlabel = name+": theory", name+": measured"
		}
		c := plots.Color(i)
		if len(names) == 1 {
			c = plots.Color(0)
		}
		spec := analysis.Scalable{P: r.Params.P, R: rows[0].R, S: rows[0].S, N0: rows[0].Capacity}
		if err := plots.AddLine(p, scalableTheory(spec, xmin, xmax, 300), c, nil, plots.LineWidth, label); err != nil {
			return nil, err
		}
		mc := c
		if len(names) == 1 {
			mc = black
		}
		if err := plots.AddPoints(p, plots.Rates(rows, items).ClampLow(lo), mc, i, mlabel); err != nil {
			return nil, err
		}
	}
	return single(p), nil
}

// fillFigures draws the fill experiment: [scalableFillFigure] for the
// scalable variant, [fillFigure] for the fixed-size ones.
func fillFigures(r *experiments.Results) (*plots.Figure, error) {
	if r.Variant == "scalable" {
		return scalableFillFigure(r)
	}
	return fillFigure(r)
}

// maxRate returns the largest upper end of r's measured intervals, and of
// its theory.
func maxRate(r *experiments.Results) float64 {
	var m float64
	for i := range r.Rows {
		m = math.Max(m, math.Max(r.Rows[i].Hi, r.Rows[i].Theory))
	}
	return m
}
