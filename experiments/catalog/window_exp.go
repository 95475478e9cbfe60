package catalog

import (
	"fmt"
	"math"
	"slices"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

var windowExperiment = Experiment{
	Name: "window",
	Summary: "sliding-window filters (age-partitioned, blocked age-partitioned, two standard filters used alternately, one cleared when full) " +
		"at the same guaranteed window: rate against stream position, recall against age, bits per window item, time per operation",
	Variants:  []string{"window"},
	Timed:     true,
	Shardable: true,
	flags:     fixedFlags("n", "p", "filters", "queries"),
	defaults: func(string, bool) experiments.Params {
		return experiments.Params{N: 2000, P: 1e-4, Filters: 20, Queries: 4000, Conf: 0.95, Span: 1, Checkpoints: 1}
	},
	plan:      planWindow,
	summarize: summarizeWindow,
	figure:    windowFigure,
}

// The window experiment's geometry of a run, in units of the window G
// (Params.N): rate positions every G/8 up to windowSpan G, with 16 more
// per cycle over each design's last two cycles before it; recall at 8
// positions over one cycle after that, for ages in buckets of G/8 up to
// windowAges G.
const (
	windowSpan     = 4
	windowAges     = 3
	windowCoarse   = 8
	windowDense    = 16
	windowPhases   = 8
	windowMinRate  = 5 // expected false positives per filter and point, at least
	windowMinItems = 64
)

// windowDesign is one design of the window experiment at one target rate:
// its filter, geometry and exact theory.
type windowDesign struct {
	name   string // the series
	kind   string // the Row.Variant
	model  string
	window uint64 // the guaranteed window
	cycle  uint64 // the period of its rate, in adds
	steady uint64 // the adds from which its rate repeats with the cycle
	bits   uint64
	hashes int
	build  func(h variants.Hashing) (experiments.Filter, error)
	rate   func(t uint64) float64
	recall func(age, t uint64) float64
	// worst and mean are the rate's largest and mean values over the
	// steady cycle; formula is the one-number formula of the
	// implementations, where the design has one.
	worst, mean, formula float64
	note                 string
}

// windowTargets returns the target rates of a run: the decades from 0.1
// down to p, and p itself if it is not one.
func windowTargets(p float64) []float64 {
	var ts []float64
	for e := -1; ; e-- {
		t := math.Pow(10, float64(e))
		if t < p*(1+1e-9) {
			break
		}
		ts = append(ts, t)
	}
	if len(ts) == 0 || math.Abs(ts[len(ts)-1]-p) > 1e-12*p {
		ts = append(ts, p)
	}
	return ts
}

// baselineDesigns returns the alternating pair guaranteeing window items
// and the filter cleared at 2 window items (its mean hold is about the
// window), both at worst rate p.
func baselineDesigns(window uint64, p float64) ([]windowDesign, error) {
	a, err := analysis.AlternatingWindowSize(window, p)
	if err != nil {
		return nil, paramError("n", "%v", err)
	}
	c, err := analysis.ClearedWindowSize(2*window, p)
	if err != nil {
		return nil, paramError("n", "%v", err)
	}
	// The recall theories evaluate the rate once per position.
	aRate, cRate := memoRate(a.FPR), memoRate(c.FPR)
	aRecall := func(age, t uint64) float64 {
		if age < a.Held(t) {
			return 1
		}
		return aRate(t)
	}
	cRecall := func(age, t uint64) float64 {
		if age < c.Held(t) {
			return 1
		}
		return cRate(t)
	}
	return []windowDesign{
		{name: fmt.Sprintf("alternating p=%g", p), kind: "alternating", model: "exact", window: a.Window(), cycle: a.Half, steady: a.Half,
			bits: a.TotalBits(), hashes: a.Hashes, build: func(h variants.Hashing) (experiments.Filter, error) { return asFilter(newAlternating(a, h)) },
			rate: aRate, recall: aRecall, worst: a.WorstFPR(), mean: a.MeanFPR(),
			note: fmt.Sprintf("two standard filters of m = %d bits, k = %d, swapped every %d adds", a.Bits, a.Hashes, a.Half)},
		{name: fmt.Sprintf("cleared p=%g", p), kind: "cleared", model: "exact", window: c.Window(), cycle: c.Capacity, steady: 1,
			bits: c.Bits, hashes: c.Hashes, build: func(h variants.Hashing) (experiments.Filter, error) { return asFilter(newCleared(c, h)) },
			rate: cRate, recall: cRecall, worst: c.WorstFPR(), mean: c.MeanFPR(),
			note: fmt.Sprintf("one standard filter of m = %d bits, k = %d, cleared at %d items (twice the window, so it holds the window on average, but only its newest item at every point)", c.Bits, c.Hashes, c.Capacity)},
	}, nil
}

// windowEnd returns the last rate position of design d for window g:
// 4 g, or two cycles into its steady state if that is later.
func windowEnd(g uint64, d windowDesign) uint64 { return max(windowSpan*g, d.steady+2*d.cycle) }

// windowPositions returns the rate positions of design d for window g:
// every g/8 up to its end, and 16 per cycle over its last two cycles.
func windowPositions(g uint64, d windowDesign) []uint64 {
	end := windowEnd(g, d)
	var ps []uint64
	for x := g / windowCoarse; x <= end; x += g / windowCoarse {
		ps = append(ps, x)
	}
	start := end - min(end-1, 2*d.cycle)
	for j := uint64(0); j <= 2*windowDense; j++ {
		ps = append(ps, start+j*(end-start)/(2*windowDense))
	}
	slices.Sort(ps)
	return slices.Compact(slices.DeleteFunc(ps, func(x uint64) bool { return x == 0 }))
}

// planWindow plans the window experiment: for each target rate from 0.1
// down to P (decades), every design sized to guarantee the newest N items
// at that worst rate, measured on Filters filters with at least Queries
// (and 5/target) never-inserted keys per position.
func planWindow(_ string, p experiments.Params) (*experiments.Plan, error) {
	g := p.N
	if g < windowMinItems || g > 1<<24 {
		return nil, paramError("n", "%d, want a window of %d <= n <= 2^24 items", g, windowMinItems)
	}
	pl := &experiments.Plan{}
	for _, target := range windowTargets(p.P) {
		designs, err := windowDesigns(g, target)
		if err != nil {
			return nil, err
		}
		q := max(p.Queries, uint64(math.Ceil(windowMinRate/target)))
		for _, d := range designs {
			var ages []uint64
			for j := uint64(0); j <= windowAges*windowCoarse; j++ {
				ages = append(ages, j*g/windowCoarse)
			}
			var at []uint64
			for j := range uint64(windowPhases) {
				at = append(at, windowEnd(g, d)+j*d.cycle/windowPhases+1)
			}
			at = slices.Compact(at)
			d := d
			err := pl.AddWindowSpec("window/"+d.name, experiments.WindowSpec{
				Name:         d.name,
				New:          func(seed uint64) (experiments.Filter, error) { return d.build(variants.Hashing{Seed: seed}) },
				Positions:    windowPositions(g, d),
				Filters:      p.Filters,
				Queries:      q,
				Window:       d.window,
				Theory:       d.rate,
				Model:        d.model,
				Ages:         ages,
				RecallAt:     at,
				RecallTheory: d.recall,
			}, func(r *experiments.Row) {
				r.Variant = d.kind
				r.Hashing = hashingName(variants.Hashing{})
				r.Hashes = d.hashes
				r.Target = target
				r.Capacity = g
				if d.formula > 0 && r.AgeEnd == 0 {
					r.Classic = d.formula
				}
			})
			if err != nil {
				return nil, err
			}
			alloc := ""
			if f, err := d.build(variants.Hashing{}); err == nil {
				if st, ok := f.(statser); ok && st.Stats().Bits != d.bits {
					b := st.Stats().Bits
					alloc = fmt.Sprintf(" (%d allocated, %.2f per item, the slices padded to whole words)", b, float64(b)/float64(g))
				}
			}
			note := fmt.Sprintf("%s: %s; guarantees the newest %d items, %d bits, %.2f bits per key of the window %d%s; exact rate over its steady cycle: worst %.4g, mean %.4g",
				d.name, d.note, d.window, d.bits, float64(d.bits)/float64(g), g, alloc, d.worst, d.mean)
			if d.formula > 0 {
				note += fmt.Sprintf("; the implementations' one-number formula %.4g (%+.1f%% of the worst, %+.1f%% of the mean)",
					d.formula, 100*(d.formula/d.worst-1), 100*(d.formula/d.mean-1))
			}
			pl.Notes = append(pl.Notes, note)
		}
	}
	pl.Notes = append(pl.Notes, fmt.Sprintf("every design is sized so that its exact rate at the worst point of its cycle is at most the target; rates are measured every %d adds up to %d, and more densely over each design's last two cycles; recall at %d positions over one cycle after %d adds, for ages in buckets of %d",
		g/windowCoarse, windowSpan*g, windowPhases, windowSpan*g, g/windowCoarse))
	return pl, nil
}

// windowDesigns returns every design of the experiment guaranteeing
// window items at worst rate p: the age-partitioned filter, its blocked
// layout, the double-hashed model on the age-partitioned geometry, and
// the two baselines.
func windowDesigns(window uint64, p float64) ([]windowDesign, error) {
	ap, err := apDesigns(window, p)
	if err != nil {
		return nil, err
	}
	base, err := baselineDesigns(window, p)
	if err != nil {
		return nil, err
	}
	return append(ap, base...), nil
}

// windowBlockedSamples is the number of draws of the Monte Carlo estimate
// of the blocked layout's rate (analysis.AgePartitioned.BlockedFPR) at
// every position: those with which analysis.BlockedAgePartitionedSize
// sizes it.
const windowBlockedSamples = analysis.BlockedSamples

// apDesigns returns the age-partitioned designs guaranteeing window items
// at worst rate p: the filter sized by analysis.AgePartitionedSize, the
// blocked layout sized by analysis.BlockedAgePartitionedSize, and the
// double-hashed model (doubleHashedAP) on the first one's geometry, whose
// rate the independent-slice theory predicts only if double hashing
// across slices costs nothing.
func apDesigns(window uint64, p float64) ([]windowDesign, error) {
	a, err := analysis.AgePartitionedSize(window, p)
	if err != nil {
		return nil, paramError("n", "%v", err)
	}
	b, err := analysis.BlockedAgePartitionedSize(window, p)
	if err != nil {
		return nil, paramError("n", "%v", err)
	}
	build := func(g analysis.AgePartitioned, blocked bool) func(variants.Hashing) (experiments.Filter, error) {
		return func(h variants.Hashing) (experiments.Filter, error) {
			return asFilter(variants.NewAgePartitioned(variants.AgePartitionedParams{K: g.K, L: g.L, G: g.G, SliceBits: g.SliceBits,
				AgePartitionedOptions: variants.AgePartitionedOptions{Blocked: blocked, Hashing: h}}))
		}
	}
	steady := func(g analysis.AgePartitioned) uint64 { return uint64(g.K+g.L-1)*g.G + 1 }
	rate := func(t uint64) float64 { return analysis.AgePartitionedStreamFPR(a, t) }
	type ageAt struct{ age, i uint64 }
	recalls := map[ageAt]float64{} // shared by the two designs of geometry a
	recall := func(age, t uint64) float64 {
		if t < steady(a) {
			return -1
		}
		x := ageAt{age, (t-1-age)%a.G + 1}
		r, ok := recalls[x]
		if !ok {
			r = a.RecallAt(x.age, x.i)
			recalls[x] = r
		}
		return r
	}
	blocked := map[uint64]float64{}
	blockedAt := func(c uint64) float64 {
		r, ok := blocked[c]
		if !ok {
			r, _ = b.BlockedFPR(c, windowBlockedSamples)
			blocked[c] = r
		}
		return r
	}
	blockedRate := func(t uint64) float64 {
		if t < steady(b) {
			return -1 // the estimate describes the steady state only
		}
		return blockedAt((t-1)%b.G + 1)
	}
	// The blocked layout's mean over the cycle, from the midpoints of up
	// to 16 equal runs of positions (its rate rises smoothly with c).
	var bMean float64
	runs := min(b.G, 16)
	for i := range runs {
		lo, hi := 1+i*b.G/runs, (i+1)*b.G/runs
		bMean += blockedAt((lo+hi)/2) * float64(hi-lo+1) / float64(b.G)
	}
	bWorst, bErr := b.BlockedFPR(b.G, windowBlockedSamples)
	geom := func(g analysis.AgePartitioned) string {
		return fmt.Sprintf("k = %d, l = %d, g = %d, %d-bit slices", g.K, g.L, g.G, g.SliceBits)
	}
	ap := fmt.Sprintf("age-partitioned k=%d l=%d p=%g", a.K, a.L, p)
	return []windowDesign{
		{name: ap, kind: "age-partitioned", model: "exact", window: a.Window(), cycle: a.G, steady: steady(a),
			bits: a.Bits(), hashes: a.K, build: build(a, false), rate: rate, recall: recall,
			worst: a.WorstFPR(), mean: a.MeanFPR(), formula: a.OneNumberFPR(),
			note: geom(a) + ", independent slices"},
		{name: fmt.Sprintf("blocked age-partitioned k=%d l=%d p=%g", b.K, b.L, p), kind: "age-partitioned-blocked",
			model: fmt.Sprintf("blocked (%d draws)", windowBlockedSamples), window: b.Window(), cycle: b.G, steady: steady(b),
			bits: b.Bits(), hashes: b.K, build: build(b, true), rate: blockedRate,
			worst: bWorst, mean: bMean, formula: b.OneNumberFPR(),
			note: fmt.Sprintf("%s, one word per slice for every key; theory: the Monte Carlo estimate of its exact rate (standard error %.2g%% at the worst point), from %d adds on, no recall theory", geom(b), 100*bErr/bWorst, steady(b))},
		{name: fmt.Sprintf("double-hashed age-partitioned k=%d l=%d p=%g", a.K, a.L, p), kind: "double-hashed",
			model: "exact", window: a.Window(), cycle: a.G, steady: steady(a),
			bits: a.Bits(), hashes: a.K, build: func(h variants.Hashing) (experiments.Filter, error) {
				return asFilter(newDoubleHashedAP(a.K, a.L, a.G, a.SliceBits, h))
			}, rate: rate, recall: recall, worst: a.WorstFPR(), mean: a.MeanFPR(),
			note: geom(a) + " as the age-partitioned filter, each slot's position by decred's enhanced double hashing over the slot number (a model built for this experiment); theory: that of independent slices"},
	}, nil
}

// summarizeWindow states, per series, the largest measured rate beside the
// theory there, the recall just past the window, and the bits per key of
// the window at each target.
func summarizeWindow(r *experiments.Results) []string {
	var notes []string
	var order []string
	worst := map[string]*experiments.Row{}
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.AgeEnd > 0 || row.Queries == 0 {
			continue
		}
		w := worst[row.Series]
		if w == nil {
			order = append(order, row.Series)
		}
		if w == nil || row.Rate > w.Rate {
			worst[row.Series] = row
		}
	}
	for _, s := range order {
		w := worst[s]
		// Times: per add weighted by the adds before each position, per
		// query the mean over the positions (each has the same queries).
		var add, query, present, n float64
		var adds, prev uint64
		for i := range r.Rows {
			if x := &r.Rows[i]; x.Series == s && x.AgeEnd == 0 {
				d := x.Items - prev
				prev = x.Items
				add += x.NsPerAdd * float64(d)
				adds += d
				query += x.NsPerQuery
				present += x.NsPerPresent
				n++
			}
		}
		add /= float64(max(adds, 1))
		theory := ""
		if w.Model != "" {
			theory = fmt.Sprintf(", theory there %.4g", w.Theory)
		}
		notes = append(notes, fmt.Sprintf("%s: largest measured rate %.4g [%.4g, %.4g] at %d adds%s (target %g); %.2f bits per key of the window n = %d, %.2f per key it guarantees (%d); %.0f ns per add, %.0f per absent and %.0f per present query (the adds' over the stream, the queries' mean over the positions; measured on all workers at once)",
			s, w.Rate, w.Lo, w.Hi, w.Items, theory, w.Target, float64(w.Bits)/float64(w.Capacity), w.Capacity, w.BitsPerKey, w.Window, add, query/n, present/n))
	}
	return notes
}

// asFilter turns a constructor's (*T, error) into (Filter, error) without
// making a nil *T into a non-nil interface.
func asFilter[T experiments.Filter](f T, err error) (experiments.Filter, error) {
	if err != nil {
		return nil, err
	}
	return f, nil
}

// memoRate returns f remembering its values.
func memoRate(f func(uint64) float64) func(uint64) float64 {
	seen := map[uint64]float64{}
	return func(t uint64) float64 {
		r, ok := seen[t]
		if !ok {
			r = f(t)
			seen[t] = r
		}
		return r
	}
}
