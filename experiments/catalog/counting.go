package catalog

import (
	"context"
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// Series of the counting experiment.
const (
	// countingHistogram is the series of counter values.
	countingHistogram = "counter values"
	// countingFalseNegatives is the series of members lost to removals of
	// keys that were never inserted.
	countingFalseNegatives = "false negatives"
)

// countingSaturated returns the series name of saturated counters of the
// given width.
func countingSaturated(width int) string { return fmt.Sprintf("saturated, width %d", width) }

var countingExperiment = Experiment{
	Name: "counting",
	Summary: "counting filter: counter-value histogram against its binomial and Poisson predictions, saturated counters at small widths, " +
		"and members turned into false negatives by removing keys that were never inserted",
	Variants:  []string{"counting"},
	Shardable: true,
	flags:     fixedFlags("n", "p", "filters"),
	defaults: func(string, bool) experiments.Params {
		return experiments.Params{N: 10_000, P: 0.01, Filters: 20, Queries: 1, Conf: 0.95, Span: 4, Checkpoints: 1, Widths: []int{2, 4}}
	},
	plan:   planCounting,
	figure: countingFigure,
}

// histogramTop is the largest counter value the histogram shows; larger
// values of wide counters count in its last bin.
const histogramTop = 15

// planCounting plans the three parts of the counting experiment on filters
// sized for N at P.
//
// Counter values: filters of 4-bit counters hold N keys; each row is one
// counter value v (the last, 15, counts saturated counters), its Count the
// number of the filter's m counters with that value and its Queries m, so
// Rate is the fraction of counters with value v; Theory is the binomial
// probability P[c = v] (analysis.CounterDistribution) and Classic its
// Poisson limit.
//
// Saturated counters: for each width in Widths, filters filled to N, 2N
// and Span N keys; Rate is the fraction of saturated counters, Theory the
// binomial tail P[c >= 2^w - 1].
//
// False negatives: filters of 4-bit counters hold N members; keys that were
// never inserted are offered to Remove, N/8 to Span N of them; Rate is the
// fraction of members that then test absent, Removed the mean number of
// removals that succeeded (false positives removed).
func planCounting(_ string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{}
	const width = variants.DefaultCounterWidth
	b := countingBuilder(p.N, p.P, width)
	st, err := probe(b)
	if err != nil {
		return nil, paramError("n", "%v", err)
	}
	m, k := st.Cells, st.Hashes
	h := variants.Hashing{}

	// Counter values.
	dist := analysis.CounterDistribution(m, p.N, k, histogramTop)
	pois := analysis.PoissonCounterDistribution(float64(k)*float64(p.N)/float64(m), histogramTop)
	g := experiments.Group{Key: "counting/histogram", Filters: p.Filters, Hashing: h, Run: counterHistogram(p.N, p.P, width)}
	for v := 0; v <= histogramTop; v++ {
		g.Rows = append(g.Rows, pl.AddRow(experiments.Row{
			Series: countingHistogram, Variant: "counting", Hashing: hashingName(h), Width: width, Value: v,
			Items: p.N, Capacity: p.N, Bits: st.Bits, Cells: m, Hashes: k,
			Filters: p.Filters, Queries: m, Theory: dist[v], Classic: pois[v], Model: "binomial",
		}))
	}
	pl.Groups = append(pl.Groups, g)

	// Saturated counters.
	loads := []float64{1, 2, p.Span}
	if p.Span <= 2 {
		loads = []float64{1, p.Span}
	}
	for _, w := range p.Widths {
		bw := countingBuilder(p.N, p.P, w)
		top := 1<<w - 1
		g := experiments.Group{Key: fmt.Sprintf("counting/saturated/w=%d", w), Filters: p.Filters, Hashing: h, Run: saturation(bw)}
		var last uint64
		for _, l := range loads {
			n := uint64(math.Round(l * float64(p.N)))
			if n <= last {
				continue
			}
			last = n
			tail := analysis.CounterDistribution(m, n, k, top)
			g.Rows = append(g.Rows, pl.AddRow(experiments.Row{
				Series: countingSaturated(w), Variant: "counting", Hashing: hashingName(h), Width: w,
				Items: n, Capacity: p.N, Bits: m * uint64(w), Cells: m, Hashes: k,
				Filters: p.Filters, Queries: m, Theory: tail[top], Model: "binomial tail",
			}))
		}
		pl.Groups = append(pl.Groups, g)
		pl.Notes = append(pl.Notes, fmt.Sprintf("width %d (saturating at %d): at capacity the probability that any counter saturates is %.3g; Fan et al.'s bound on overflow past %d is %.3g",
			w, top, analysis.SaturationProbability(m, p.N, k, w), top+1, analysis.FanOverflowBound(m, p.N, k, w)))
	}

	// False negatives from removing strangers.
	g = experiments.Group{Key: "counting/false-negatives", Filters: p.Filters, Hashing: h, Run: strangerRemovals(b)}
	var last uint64
	for _, l := range []float64{1.0 / 8, 1.0 / 4, 1.0 / 2, 1, 2, p.Span} {
		r := uint64(math.Round(l * float64(p.N)))
		if r <= last {
			continue
		}
		last = r
		g.Rows = append(g.Rows, pl.AddRow(experiments.Row{
			Series: countingFalseNegatives, Variant: "counting", Hashing: hashingName(h), Width: width,
			Items: p.N, Capacity: p.N, Removals: r, Bits: st.Bits, Cells: m, Hashes: k,
			Filters: p.Filters, Queries: p.N, Target: p.P,
		}))
	}
	pl.Groups = append(pl.Groups, g)
	pl.Notes = append(pl.Notes,
		fmt.Sprintf("counting filters sized for n = %d at p = %g: m = %d counters, k = %d", p.N, p.P, m, k),
		"false negatives: members that test absent after keys that were never inserted were offered to Remove; the removals that succeed are the false positives among them")
	return pl, nil
}

// counterHistogram fills a counting filter with the row's Items keys and
// counts its counters by value (variants.Counting.Histogram); values above
// the last row count in it.
func counterHistogram(n uint64, p float64, width int) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		f, err := countingFor(n, p, width, t.Hashing)
		if err != nil {
			return err
		}
		for i := range rows[0].Items {
			if i%interruptEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			f.Add(t.Member(i))
		}
		hist := make([]uint64, len(rows))
		for v, c := range f.Histogram() {
			hist[min(v, len(rows)-1)] += c
		}
		st := f.Stats()
		for j := range rows {
			out[j].Count = hist[j]
			out[j].Bits = st.Bits
			out[j].Estimated = st.EstimatedFPR
		}
		return nil
	}
}

// saturation fills a counting filter to each row's Items and counts its
// saturated counters.
func saturation(build builder) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		f, err := build(t.Hashing)
		if err != nil {
			return err
		}
		var inserted uint64
		for j, r := range rows {
			for ; inserted < r.Items; inserted++ {
				if inserted%interruptEvery == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				f.Add(t.Member(inserted))
			}
			st := f.Stats()
			out[j].Count = st.Saturated
			out[j].Bits = st.Bits
			out[j].Estimated = st.EstimatedFPR
		}
		return nil
	}
}

// strangerRemovals fills a counting filter with the row's Items members,
// then offers never-inserted keys to Remove up to each row's Removals and
// counts the members that test absent.
func strangerRemovals(build builder) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		f, err := build(t.Hashing)
		if err != nil {
			return err
		}
		rm, ok := f.(variants.Remover)
		if !ok {
			return fmt.Errorf("experiments: %T cannot remove", f)
		}
		members := rows[0].Items
		for i := range members {
			if i%interruptEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			f.Add(t.Member(i))
		}
		var offered, removed uint64
		for j, r := range rows {
			for ; offered < r.Removals; offered++ {
				if offered%interruptEvery == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				if rm.Remove(t.Stranger(offered)) {
					removed++
				}
			}
			var lost uint64
			for i := range members {
				if !f.Contains(t.Member(i)) {
					lost++
				}
			}
			st := f.Stats()
			out[j].Count = lost
			out[j].Removed = removed
			out[j].Bits = st.Bits
			out[j].Estimated = st.EstimatedFPR
		}
		return nil
	}
}
