package main

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/plots"
)

// The figures' sizes and the points of their curves. A blocked rate is a
// mixture over the block's load per point (see analysis.BlockedFPR); the
// points of one curve share their matrices (sharedSizer), so its curves
// have as many points as the others.
const (
	figWidth      = 16 * vg.Centimeter
	figHeight     = 9.5 * vg.Centimeter
	narrowWidth   = 9.5 * vg.Centimeter
	narrowHeight  = 10 * vg.Centimeter
	ratePoints    = 90
	penaltyPoints = 8
	scalePoints   = 48
)

// curve is one theory line of the rate figure.
type curve struct {
	label  string
	rate   func(items uint64) float64
	dashed bool
}

// figures draws the figures of a result: the rate against the items
// inserted for every variant; for blocked and split-block filters the
// block penalty against the bits per key; for a scalable filter the
// compound rate and the bits per key against the items, with the stage
// boundaries.
//
// It stops early, with ctx's error, once ctx is done: the curves check it
// before every point, each of which costs at most one analysis call.
func figures(ctx context.Context, in figInput) ([]figure, error) {
	figs, err := drawFigures(ctx, in)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, ctxErr
	}
	return figs, err
}

func drawFigures(ctx context.Context, in figInput) ([]figure, error) {
	if in.variant == scalable {
		return scalableFigures(in)
	}
	if in.variant == agePartitioned {
		f, err := cycleFigure(ctx, in)
		if err != nil {
			return nil, err
		}
		g, err := recallFigure(ctx, in)
		if err != nil {
			return nil, err
		}
		return []figure{f, g}, nil
	}
	f, err := rateFigure(ctx, in)
	if err != nil {
		return nil, err
	}
	figs := []figure{f}
	if in.variant == counting {
		f, err := saturationFigure(ctx, in)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	if in.variant == blocked || in.variant == splitBlock {
		f, err := penaltyFigure(ctx, in)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// sharedSizer returns f of one analysis.BlockedSizer for blocks of b bits,
// for the points of one figure: the points share the sizer's inner rates
// (its matrices, about 2 MB each at B = 512, made once per k instead of
// once per point), and a mutex makes the sizer safe for parallel's workers.
func sharedSizer(b uint64, f func(z *analysis.BlockedSizer, x uint64) float64) func(x uint64) float64 {
	var mu sync.Mutex
	z := analysis.NewBlockedSizer(b)
	return func(x uint64) float64 {
		mu.Lock()
		defer mu.Unlock()
		return f(z, x)
	}
}

// curves returns the theory lines of the rate figure of in.
func curves(ctx context.Context, in figInput) []curve {
	m, k, b := in.M, in.K, in.BlockBits
	classic := curve{"classic (1 − e^(−kn/m))^k", func(x uint64) float64 { return analysis.ClassicFPR(m, x, k) }, true}
	switch in.variant {
	case partitioned:
		return []curve{{"exact, partitioned (1 − (1 − k/m)^n)^k", func(x uint64) float64 { return analysis.PartitionedFPR(m, x, k) }, false},
			classic}
	case blocked:
		return []curve{
			{"exact, blocked", sharedSizer(b, func(z *analysis.BlockedSizer, x uint64) float64 { return z.FPR(m, x, k) }), false},
			{"approximation of Putze et al.", func(x uint64) float64 { return analysis.BlockedClassicFPR(m, x, k, b) }, true},
			{"standard filter, same m and k (exact)", func(x uint64) float64 { return analysis.ExactFPR(m, x, k) }, false},
		}
	case multiblock:
		b := in.multiblockModel()
		exact := func(x uint64) float64 {
			f, err := detached(ctx, func() (float64, error) { return b.FPR(x) })
			if err != nil {
				return math.NaN()
			}
			return f
		}
		if !b.Multi && !b.Overlapping() && b.WordBits >= 64 {
			// k bits in one w-bit word side by side is the blocked filter
			// of w-bit blocks (analysis.Multiblock), whose points share
			// their matrices.
			exact = sharedSizer(b.WordBits, func(z *analysis.BlockedSizer, x uint64) float64 { return z.FPR(m, x, k) })
		}
		return []curve{
			{"exact, " + multiblockLabel(in), exact, false},
			{"Boost.Bloom's estimate", func(x uint64) float64 { return b.BoostApproxFPR(x) }, true},
			{"standard filter, same m and k (exact)", func(x uint64) float64 { return analysis.ExactFPR(m, x, k) }, false},
		}
	case splitBlock:
		return []curve{
			{"exact, split-block", func(x uint64) float64 { return analysis.SplitBlockFPR(m, x) }, false},
			{"standard filter, same m and k = 8 (exact)", func(x uint64) float64 { return analysis.ExactFPR(m, x, 8) }, false},
		}
	}
	// standard and counting (whose m counters answer as m bits would)
	return []curve{{"exact", func(x uint64) float64 { return analysis.ExactFPR(m, x, k) }, false}, classic}
}

// rateFigure draws the rate against the items inserted, from 0 to 3n,
// with the capacity n and the rate p marked.
func rateFigure(ctx context.Context, in figInput) (figure, error) {
	cs := curves(ctx, in)
	points := ratePoints
	if in.variant == multiblock && in.multiblockModel().Overlapping() {
		// The exact rate of overlapping blocks costs the same at every n,
		// from microseconds to a few tenths of a second: as many points
		// as fit in about 0.3 s of computing.
		start := time.Now()
		cs[0].rate(in.N)
		if t := time.Since(start); t > 0 {
			points = min(ratePoints, max(6, int(300*time.Millisecond/t)*runtime.GOMAXPROCS(0)/len(cs)))
		}
	}
	hi := 3 * float64(in.N)
	lines := make([]plotter.XYs, len(cs))
	for i := range cs {
		lines[i] = make(plotter.XYs, points)
	}
	parallel(ctx, len(cs)*points, func(t int) {
		i, j := t/points, t%points
		x := uint64(math.Round(hi * float64(j+1) / float64(points)))
		y := math.NaN() // not drawn
		if x > 0 {
			y = cs[i].rate(x)
		}
		lines[i][j] = plotter.XY{X: float64(x), Y: y}
	})
	if err := ctx.Err(); err != nil {
		return figure{}, err
	}
	lo, top := rateRange(cs[0].rate(in.N), in.P, lines)
	p := plots.Panel("rate against items inserted, "+in.variant+" filter", "items inserted", "false-positive rate")
	p.X.Min, p.X.Max = 0, hi
	plots.LogY(p, lo, top)
	// The curves rise from the bottom left; the bottom right is empty.
	for i, c := range cs {
		if err := addCurve(p, keep(lines[i], lo), i, c.dashed, c.label); err != nil {
			return figure{}, err
		}
	}
	if err := markX(p, float64(in.N), lo, top, "capacity n = "+groupUint(in.N)); err != nil {
		return figure{}, err
	}
	if in.P >= lo && in.P <= top {
		if err := markY(p, in.P, 0, hi, "p = "+strconv.FormatFloat(in.P, 'g', 4, 64)); err != nil {
			return figure{}, err
		}
	}
	caption := fmt.Sprintf("The rate of this geometry (m = %s, k = %d) as it fills, at %d points from 0 to 3n = %s items; rates below %.3g are not drawn.",
		groupUint(in.M), in.K, points, groupUint(uint64(hi)), lo)
	// Say which lines lie on the first one, where the eye cannot tell.
	for i := 1; i < len(cs); i++ {
		worst := 0.0
		for j, xy := range lines[i] {
			if y0 := lines[0][j].Y; y0 >= lo && xy.Y >= lo {
				worst = math.Max(worst, math.Abs(xy.Y/y0-1))
			}
		}
		if worst < 0.005 {
			caption += fmt.Sprintf(" The line %q lies within %.2g%% of %q throughout.", cs[i].label, math.Max(100*worst, 1e-4), cs[0].label)
		}
	}
	return render(p, "fig-rate", caption)
}

// multiblockModel returns the analysis geometry of a multiblock result.
func (in figInput) multiblockModel() analysis.Multiblock {
	b := analysis.Multiblock{Bits: in.M, Hashes: in.K, WordBits: in.WordBits, Multi: in.Multi}
	if s := 8 * in.StrideBytes; s != b.BlockBits() {
		b.StrideBits = s
	}
	return b
}

// multiblockLabel names a multiblock layout briefly: "k = 5 in one 64-bit
// word", "one bit in each of 5 64-bit words, 1-byte stride".
func multiblockLabel(in figInput) string {
	s := fmt.Sprintf("%d bits in one %d-bit word", in.K, in.WordBits)
	if in.Multi {
		s = fmt.Sprintf("one bit in each of %d %d-bit words", in.K, in.WordBits)
	}
	if in.multiblockModel().Overlapping() {
		s += fmt.Sprintf(", %d-byte stride", in.StrideBytes)
	}
	return s
}

// cyclePoints is the most points of one generation in cycleFigure.
const cyclePoints = 60

// cycleFigure draws an age-partitioned filter's rate through three
// generations (analysis.AgePartitioned.FPR at each position c of the
// cycle): the sawtooth, its mean and the target p.
func cycleFigure(ctx context.Context, in figInput) (figure, error) {
	a := analysis.AgePartitioned{K: in.K, L: in.L, G: in.G, SliceBits: in.SliceBits}
	const gens = 3
	var saw plotter.XYs
	lo, hi := math.Inf(1), 0.0
	step := max(1, in.G/cyclePoints)
	for g := uint64(0); g < gens; g++ {
		for c := uint64(1); ; c += step {
			c = min(c, in.G)
			if err := ctx.Err(); err != nil {
				return figure{}, err
			}
			f := a.FPR(c)
			saw = append(saw, plotter.XY{X: float64(g*in.G + c), Y: f})
			lo, hi = math.Min(lo, f), math.Max(hi, f)
			if c == in.G {
				break
			}
		}
	}
	mean := in.Mean // a.MeanFPR(), as bloomcalc printed it
	// The y range around the sawtooth, the mean and p, on a linear axis
	// (the rate moves by a few percent through a cycle).
	ylo, ytop := math.Min(lo, in.P), math.Max(hi, in.P)
	pad := math.Max((ytop-ylo)*0.15, ytop*1e-3)
	ylo, ytop = math.Max(0, ylo-pad), ytop+pad
	xmax := float64(gens * in.G)
	p := plots.Panel("rate through the generation cycle, age-partitioned filter", "items inserted since a shift", "false-positive rate")
	p.X.Min, p.X.Max = 0, xmax
	p.Y.Min, p.Y.Max = ylo, ytop
	if err := addCurve(p, saw, 0, false, "rate at each position (exact)"); err != nil {
		return figure{}, err
	}
	if err := addCurve(p, plotter.XYs{{X: 0, Y: mean}, {X: xmax, Y: mean}}, 1, true, "mean over the cycle"); err != nil {
		return figure{}, err
	}
	if err := markY(p, in.P, 0, xmax, "target p = "+strconv.FormatFloat(in.P, 'g', 4, 64)); err != nil {
		return figure{}, err
	}
	one := a.OneNumberFPR()
	caption := fmt.Sprintf("The exact rate (analysis.AgePartitioned.FPR) of k = %d of %d slices of %s bits through three generations of g = %s items: "+
		"it rises as the newest slices fill and falls back when the oldest slice is dropped, and its worst, just before a shift, is at most p.",
		in.K, in.K+in.L, groupUint(in.SliceBits), groupUint(in.G))
	if one >= ylo && one <= ytop {
		if err := addCurve(p, plotter.XYs{{X: 0, Y: one}, {X: xmax, Y: one}}, 2, true, "one-number formula of the implementations"); err != nil {
			return figure{}, err
		}
	} else {
		caption += fmt.Sprintf(" The implementations' one-number formula gives %.4g, off this range.", one)
	}
	return render(p, "fig-cycle", caption)
}

// recallPoints is the most ages at which recallFigure computes the
// recall, and recallWork bounds their work in all: a point averages over
// up to 1,024 positions, each a run probability over the K + L slices
// with K states (about 10 ms at K + L = 256 and K = 32).
const (
	recallPoints = 32
	recallWork   = 3e7
)

// recallFigure draws the probability that an item still tests present
// against its age (analysis.AgePartitioned.Recall) from two generations
// before the end of the window until the item's last slice is dropped: 1
// up to the window, then falling as its slices are dropped, one a
// generation, to the rate.
func recallFigure(ctx context.Context, in figInput) (figure, error) {
	a := analysis.AgePartitioned{K: in.K, L: in.L, G: in.G, SliceBits: in.SliceBits}
	w := a.Window()
	lo := float64(w) - 2*float64(in.G)
	lo = math.Max(0, lo)
	// An item's K slices are dropped one a generation from age L G on:
	// by (L + K) G + G none is left and the recall is the rate.
	hi := float64(w) + float64(a.K+1)*float64(in.G)
	perPoint := float64(a.Slices()) * float64(a.K) * float64(min(a.G, 1024))
	points := int(min(recallPoints, max(8, recallWork/perPoint)))
	pts := make(plotter.XYs, points)
	parallel(ctx, points, func(i int) {
		age := uint64(math.Round(lo + (hi-lo)*float64(i)/float64(points-1)))
		pts[i] = plotter.XY{X: float64(age), Y: a.Recall(age)}
	})
	if err := ctx.Err(); err != nil {
		return figure{}, err
	}
	p := plots.Panel("recall against age, age-partitioned filter", "age (items inserted after it)", "P(tests present)")
	p.X.Min, p.X.Max = lo, hi
	p.Y.Min, p.Y.Max = 0, 1.05
	if err := addCurve(p, pts, 0, false, "an item of that age (exact)"); err != nil {
		return figure{}, err
	}
	if err := markX(p, float64(w-1), 0, 1.05, "window: the last "+groupUint(w)+" items"); err != nil {
		return figure{}, err
	}
	return render(p, "fig-recall", fmt.Sprintf("The probability that an item still tests present, by its age, averaged over its position in its generation "+
		"(analysis.AgePartitioned.Recall), at %d ages around the end of the window: every one of the last l g + 1 = %s items tests present; "+
		"older ones are forgotten as their k = %d slices are dropped, one every generation of %s items, down to the rate.", points, groupUint(w), in.K, groupUint(in.G)))
}

// rateRange returns the y range of a rate figure around its data: from
// two decades below the rate at capacity atN (or the target p, if lower),
// or from just below the lowest rate drawn if that is higher, to just above
// the highest, at most 1. So a filter whose rate spans 0.06 to 0.9 is drawn
// over that span, not from 1e-6, and the rates far below the one at
// capacity, where a filter holds few items, are left out (the caption
// says from where).
func rateRange(atN, p float64, lines []plotter.XYs) (lo, top float64) {
	lo = atN
	if p > 0 && p < lo {
		lo = p
	}
	lo /= 100
	if !(lo > 0) {
		lo = 1e-300
	}
	low, high := math.Inf(1), 0.0
	for _, l := range lines {
		for _, xy := range l {
			if xy.Y > 0 && !math.IsInf(xy.Y, 0) {
				low, high = math.Min(low, xy.Y), math.Max(high, xy.Y)
			}
		}
	}
	if !math.IsInf(low, 1) && low/1.5 > lo {
		lo = low / 1.5
	}
	top = math.Min(1, math.Max(high*1.5, lo*10))
	if p > 0 && p*1.5 > top && p < 1 {
		top = math.Min(1, p*1.5)
	}
	return lo, top
}

// saturationFigure draws the probability that some counter of a counting
// filter of this geometry saturates (analysis.SaturationProbability)
// against the items inserted, for each counter width bloomlab builds.
func saturationFigure(ctx context.Context, in figInput) (figure, error) {
	hi := 3 * float64(in.N)
	p := plots.Panel(fmt.Sprintf("counter saturation, m = %d counters, k = %d", in.M, in.K), "items inserted", "P(some counter saturates)")
	p.X.Min, p.X.Max = 0, hi
	const lo = 1e-12
	plots.LogY(p, lo, 2)
	for i, w := range []int{2, 4, 8, 16} {
		// The tail of 16-bit counters costs about 1 ms a point.
		points := ratePoints
		if w == 16 {
			points = 15
		}
		var xys plotter.XYs
		for j := 1; j <= points; j++ {
			if err := ctx.Err(); err != nil {
				return figure{}, err
			}
			x := uint64(math.Round(hi * float64(j) / float64(points)))
			if x > 0 {
				xys = append(xys, plotter.XY{X: float64(x), Y: analysis.SaturationProbability(in.M, x, in.K, w)})
			}
		}
		label := fmt.Sprintf("%d-bit counters", w)
		if w == in.Width {
			label += " (this filter)"
		}
		xys = keep(xys, lo)
		if len(xys) == 0 {
			label += ": below 1e-12 throughout"
			p.Legend.Add(label)
			continue
		}
		if err := addCurve(p, xys, i, w != in.Width, label); err != nil {
			return figure{}, err
		}
	}
	if err := markX(p, float64(in.N), lo, 2, "capacity n = "+groupUint(in.N)); err != nil {
		return figure{}, err
	}
	return render(p, "fig-saturation", "The probability that at least one counter reaches its maximum and sticks there, "+
		"as the filter fills; a stuck counter never decrements, so removals can no longer clear its bit. Probabilities below 1e-12 are not drawn.")
}

// penaltyFigure draws the rate of a blocked or split-block filter against
// that of a standard filter of the same bits per key, each with its best
// k, at this n and block size.
func penaltyFigure(ctx context.Context, in figInput) (figure, error) {
	b, n := in.BlockBits, in.N
	blockedRate := sharedSizer(b, func(z *analysis.BlockedSizer, m uint64) float64 {
		return z.FPR(m, n, z.OptimalHashes(m, n))
	})
	pts := make([]plotter.XY, penaltyPoints)
	parallel(ctx, penaltyPoints, func(i int) {
		pts[i] = plotter.XY{X: math.NaN()} // not drawn
		c := 3 * float64(i+1)              // 3 to 24 bits per key
		blocks := math.Max(1, math.Round(c*float64(n)/float64(b)))
		m := uint64(blocks) * b
		if m < n || m > analysis.MaxBits {
			return
		}
		var rate float64
		if in.variant == splitBlock {
			rate = analysis.SplitBlockFPR(m, n)
		} else {
			rate = blockedRate(m)
		}
		std := analysis.ExactFPR(m, n, analysis.OptimalHashes(m, n))
		if rate > 0 && std > 0 {
			pts[i] = plotter.XY{X: analysis.BitsPerKey(m, n), Y: rate / std}
		}
	})
	if err := ctx.Err(); err != nil {
		return figure{}, err
	}
	var xys plotter.XYs
	for _, xy := range pts {
		if !math.IsNaN(xy.X) {
			xys = append(xys, xy)
		}
	}
	p := plots.Panel(fmt.Sprintf("block penalty, %d-bit blocks, n = %s", b, groupUint(n)), "bits per key", "rate ÷ standard filter's rate")
	p.X.Min, p.X.Max = 0, 25
	// Around the data: the ratios run from about 1 to a few, and a log
	// axis of under a decade is labelled at 1.5, 2, 3, ... (plots.Decades).
	top := 1.5
	for _, xy := range xys {
		top = math.Max(top, xy.Y*1.2)
	}
	plots.LogY(p, 1, top)
	label := "blocked, best k"
	if in.variant == splitBlock {
		label = "split-block, k = 8"
	}
	if err := addCurve(p, xys, 0, false, label); err != nil {
		return figure{}, err
	}
	if c := analysis.BitsPerKey(in.M, in.N); c <= 25 {
		if err := markX(p, c, 1, top, fmt.Sprintf("this filter, %.2f bits per key", c)); err != nil {
			return figure{}, err
		}
	}
	caption := "How many times a standard filter's rate the blocks cost at each bits per key, both with their best k, " +
		"at this n and block size; the bits the blocks cost at this n and p are the block penalty in the table."
	if in.variant == splitBlock {
		caption = "How many times a standard filter's rate (with its best k) the split-block filter (k = 8) has at each bits per key, " +
			"at this n; the bits it costs at this n and p are the block penalty in the table."
	}
	return render(p, "fig-penalty", caption)
}

// scalableFigures draws a scalable filter's compound rate and its bits per
// key against the items held, on logarithmic axes, with the boundaries of
// its stages and the bound P.
func scalableFigures(in figInput) ([]figure, error) {
	sc := analysis.Scalable{P: in.P, R: in.R, S: in.S, N0: in.N0, BlockBits: in.BlockBits}
	lo := math.Max(1, float64(in.N0)/4)
	hi := math.Max(3*float64(in.N), 4*lo)
	points := scalePoints
	// Log-spaced counts; the curves stop at n if the stages for 3n exceed
	// analysis's limits.
	grid := func(lo, hi float64) []uint64 {
		var xs []uint64
		for j := 0; j < points; j++ {
			xs = append(xs, uint64(math.Round(lo*math.Pow(hi/lo, float64(j)/float64(points-1)))))
		}
		return slices.Compact(xs)
	}
	// The stages bloomcalc printed, those of n items, are not built again.
	known := analysisStages(in.Stages)
	xs := grid(lo, hi)
	c, err := sc.CurveFrom(known, xs)
	if err != nil {
		hi = math.Max(float64(in.N), 4*lo)
		xs = grid(lo, hi)
		if c, err = sc.CurveFrom(known, xs); err != nil {
			return nil, err
		}
	}
	var rate plotter.XYs
	for j, x := range xs {
		rate = append(rate, plotter.XY{X: float64(x), Y: c.FPR[j]})
	}
	// The bits per key jump where a stage opens: at a boundary b the
	// stages so far are full, at b+1 the next one is open. Between the
	// grid's points they are the bits of the stages open, over the items.
	var bounds []float64
	var bpi plotter.XYs
	var held uint64 // items in the stages before st
	var bits float64
	j := 0
	for i, st := range c.Stages {
		if i > 0 {
			for ; j < len(xs) && xs[j] <= held; j++ {
				bpi = append(bpi, plotter.XY{X: float64(xs[j]), Y: c.BitsPerKey[j]})
			}
			if len(bpi) == 0 || bpi[len(bpi)-1].X != float64(held) {
				bpi = append(bpi, plotter.XY{X: float64(held), Y: bits / float64(held)})
			}
			bounds = append(bounds, float64(held))
			bpi = append(bpi, plotter.XY{X: float64(held + 1), Y: (bits + float64(st.Bits)) / float64(held+1)})
		}
		bits += float64(st.Bits)
		held += st.Capacity
	}
	for ; j < len(xs); j++ {
		bpi = append(bpi, plotter.XY{X: float64(xs[j]), Y: c.BitsPerKey[j]})
	}
	// The rate.
	p := plots.Panel("compound rate against items held, scalable filter", "items held", "false-positive rate")
	plots.LogX(p)
	p.X.Min, p.X.Max = lo, hi
	// Around the data that matters: the rate once the first stage is full
	// (it rises from 0 before), up to just above the bound P.
	ylo := in.P
	for j, xy := range rate {
		if xs[j] >= in.N0 && xy.Y > 0 {
			ylo = math.Min(ylo, xy.Y)
		}
	}
	ylo /= 1.5
	ytop := math.Min(1, in.P*1.6)
	plots.LogY(p, ylo, ytop)
	// The rate stays just below P; the bottom is empty.
	if err := addCurve(p, keep(rate, ylo), 0, false, "compound rate"); err != nil {
		return nil, err
	}
	if err := markY(p, in.P, lo, hi, "bound P = "+strconv.FormatFloat(in.P, 'g', 4, 64)); err != nil {
		return nil, err
	}
	if err := markStages(p, bounds, ylo, ytop); err != nil {
		return nil, err
	}
	if err := markX(p, float64(in.N), ylo, ytop, "n = "+groupUint(in.N)); err != nil {
		return nil, err
	}
	f1, err := render(p, "fig-rate", fmt.Sprintf("The compound rate of the stages (analysis.Scalable.Curve) at %d points from %s to %s items; "+
		"dotted lines where a stage fills and the next opens; rates below %.3g, where the first stage holds few items, are not drawn.",
		len(rate), groupUint(uint64(lo)), groupUint(uint64(hi)), ylo))
	if err != nil {
		return nil, err
	}
	// The bits per key.
	q := plots.Panel("bits per key against items held, scalable filter", "items held", "bits per key")
	plots.LogX(q)
	q.X.Min, q.X.Max = lo, hi
	top := 1.0
	for _, xy := range bpi {
		top = math.Max(top, xy.Y)
	}
	q.Y.Min, q.Y.Max = 0, top*1.15
	if err := addCurve(q, bpi, 0, false, "bits of all stages ÷ items held"); err != nil {
		return nil, err
	}
	if err := markStages(q, bounds, 0, top*1.15); err != nil {
		return nil, err
	}
	if err := markX(q, float64(in.N), 0, top*1.15, "n = "+groupUint(in.N)); err != nil {
		return nil, err
	}
	f2, err := render(q, "fig-bits", "The memory of all the stages opened so far per item held: each new stage costs its bits at once.")
	if err != nil {
		return nil, err
	}
	return []figure{f1, f2}, nil
}

// parallel calls f(i) for every i from 0 to n-1, on all cores, and returns
// when all have returned; once ctx is done it starts no more calls, so the
// caller must check ctx before using the results. A panic in f is raised
// again in the caller.
func parallel(ctx context.Context, n int, f func(i int)) {
	var (
		wg       sync.WaitGroup
		next     atomic.Int64
		panicked atomic.Value
	)
	for w := 0; w < min(n, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					panicked.Store(fmt.Sprint(r))
				}
			}()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
	if r := panicked.Load(); r != nil {
		panic(r)
	}
}

// analysisStages returns the stages of bloomcalc's JSON as analysis gave
// them; JSON keeps every field exactly.
func analysisStages(sts []scalableStage) []analysis.Stage {
	out := make([]analysis.Stage, len(sts))
	for i, st := range sts {
		out[i] = analysis.Stage{Index: st.Index, Capacity: st.Capacity, Hashes: st.Hashes, SliceBits: st.SliceBits, Bits: st.Bits, Error: st.Error}
	}
	return out
}

// keep returns the points of xys whose y is at least lo (and a number), so
// that a logarithmic axis can show them.
func keep(xys plotter.XYs, lo float64) plotter.XYs {
	var out plotter.XYs
	for _, xy := range xys {
		if xy.Y >= lo && !math.IsInf(xy.Y, 0) && !math.IsNaN(xy.X) {
			out = append(out, xy)
		}
	}
	return out
}

// addCurve draws a theory curve xys in the i-th colour of the palette,
// dashed or solid.
func addCurve(p *plot.Plot, xys plotter.XYs, i int, dashed bool, label string) error {
	var dashes []vg.Length
	if dashed {
		dashes = plots.Dashed
	}
	return plots.AddLine(p, xys, plots.Color(i), dashes, plots.LineWidth, label)
}

// Colours of the marks: grey for the capacity, black for the target or
// bound, orange for the stage boundaries.
var (
	markColor  = color.Gray{Y: 110}
	boundColor = color.Black
	stageColor = color.RGBA{R: 200, G: 120, B: 0, A: 255}
)

// markX draws a vertical grey line at x from lo to hi.
func markX(p *plot.Plot, x, lo, hi float64, label string) error {
	return plots.AddLine(p, plotter.XYs{{X: x, Y: lo}, {X: x, Y: hi}}, markColor, plots.Dotted, plots.ThinWidth, label)
}

// markY draws a horizontal black line at y from lo to hi.
func markY(p *plot.Plot, y, lo, hi float64, label string) error {
	return plots.AddLine(p, plotter.XYs{{X: lo, Y: y}, {X: hi, Y: y}}, boundColor, plots.DashDot, plots.ThinWidth, label)
}

// markStages draws a dotted vertical line at each stage boundary, with one
// legend entry.
func markStages(p *plot.Plot, bounds []float64, lo, hi float64) error {
	for i, x := range bounds {
		label := ""
		if i == 0 {
			label = "stage boundaries"
		}
		if err := plots.AddLine(p, plotter.XYs{{X: x, Y: lo}, {X: x, Y: hi}}, stageColor, plots.Dotted, plots.ThinWidth, label); err != nil {
			return err
		}
	}
	return nil
}

// render writes p as SVG, in the figures' style with its legend beside
// the data, and returns it, without its XML prolog, to be placed inline
// in the page.
//
// It draws p twice: at figWidth by figHeight, its legend in a strip to the
// right of the data, for wide screens, and at narrowWidth by
// narrowHeight, its legend in a band above the data, for phones; the
// page's style shows one of the two (see page.css), each scaled to the
// column's width.
func render(p *plot.Plot, id, caption string) (figure, error) {
	wide, err := renderSVG(p, figWidth, figHeight)
	if err != nil {
		return figure{}, err
	}
	narrow, err := renderSVG(p, narrowWidth, narrowHeight)
	if err != nil {
		return figure{}, err
	}
	// The SVG is gonum's own output, with our labels escaped by it.
	return figure{ID: id, SVG: template.HTML(wide), Narrow: template.HTML(narrow), Caption: caption}, nil
}

// renderSVG returns p drawn at w by h as SVG, without its XML prolog and
// without a fixed size: it scales to its container, keeping its viewBox.
func renderSVG(p *plot.Plot, w, h vg.Length) (string, error) {
	f := &plots.Figure{Panels: [][]*plot.Plot{{p}}, Width: w, Height: h}
	var b bytes.Buffer
	if err := f.Render(&b, "svg"); err != nil {
		return "", err
	}
	s := b.String()
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	// The figure scales to its container (the page's style gives it the
	// column's width): its size in points goes, its viewBox stays.
	if end := strings.Index(s, ">"); end > 0 {
		head := s[:end]
		for _, attr := range []string{"width", "height"} {
			if i := strings.Index(head, " "+attr+`="`); i >= 0 {
				if j := strings.Index(head[i+len(attr)+3:], `"`); j >= 0 {
					head = head[:i] + head[i+len(attr)+3+j+1:]
				}
			}
		}
		if strings.Contains(head, "viewBox=") {
			s = head + ` width="100%" preserveAspectRatio="xMidYMid meet"` + s[end:]
		}
	}
	return s, nil
}
