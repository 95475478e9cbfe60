package catalog

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// Series of the cardinality experiment that are not named after a variant.
const (
	// cardinalityCounterSum is the series of a counting filter's exact
	// count, its counter sum over k.
	cardinalityCounterSum = "counting (counter sum)"
	// cardinalityNonZero is the series of a counting filter's estimate
	// from its non-zero counters.
	cardinalityNonZero = "counting (non-zero counters)"
	// cardinalitySaturation is the series of small standard filters filled
	// until few bits are left clear, where the estimate's bias shows and
	// the delta method breaks down.
	cardinalitySaturation = "standard, 256 bits, near saturation"
)

// The filters of the cardinalitySaturation series, and the numbers of
// bits expected to stay clear at its points.
const (
	saturationBits   = 256
	saturationHashes = 3
)

var saturationEmpty = []float64{100, 60, 30, 20, 10, 6, 4, 3, 2, 1.5, 1}

// cardinalitySetSeries returns the series name of the union or
// intersection estimates of a variant's filters: "standard union".
func cardinalitySetSeries(variant, estimate string) string { return variant + " " + estimate }

// cardinalityLoads are the loads of the count rows, as fractions of the
// capacity N; those above Span are left out.
var cardinalityLoads = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 2.5, 3}

// cardinalityOverlaps are the overlaps of the set rows.
var cardinalityOverlaps = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}

var cardinalityExperiment = Experiment{
	Name: "cardinality",
	Summary: "count estimates from the fill: relative error (mean and spread over the filters) of standard, partitioned, " +
		"counting and scalable filters from 1% to 300% of capacity, and of the union and intersection estimates of two filters " +
		"whose sets overlap from 0 to 100%, beside the predicted bias and standard error",
	// "all" runs the first four; cardinalityBlocks runs alone (-variant
	// blocked: the blocked, split-block and multiblock layouts' pooled
	// estimates), with its own notes and figure.
	Variants:  []string{"standard", "partitioned", "counting", "scalable", cardinalityBlocks},
	Shardable: true,
	flags:     fixedFlags("n", "p", "filters"),
	defaults: func(string, bool) experiments.Params {
		return experiments.Params{N: 10_000, P: 0.01, Filters: 1000, Queries: 1, Conf: 0.95, Span: 3, Checkpoints: 1}
	},
	plan:      planCardinality,
	summarize: summarizeCardinality,
	figure:    cardinalityFigure,
}

// planCardinality plans the two parts of the cardinality experiment.
//
// Counts: for each variant, Filters filters sized for N at P (a scalable
// filter with first stage n0 = N/10, P, r = 0.9, s = 2) are filled to
// each load of cardinalityLoads times N; each row's trial error is the
// filter's estimate less the keys it holds (for a scalable filter, those
// it inserted), over the row's Items. The counting filter gives two
// series: its Stats.EstimatedItems, the exact counter sum over k, and the
// estimate from its non-zero counters. Bias and StdError come from
// package analysis at the built geometry.
//
// Sets: for standard, partitioned and counting filters, Filters pairs of
// filters sized for N hold N keys each, sharing Overlap N of them; the
// trial errors of variants.EstimateSets' union and intersection are over
// N, beside analysis.FillEstimator.SetError.
//
// Saturation (with the standard variant): Filters standard filters of 256
// bits and 3 hashes are filled until 100 down to 1 bits are expected to
// stay clear, beside the exact prediction and the share of filters
// saturated.
func planCardinality(variant string, p experiments.Params) (*experiments.Plan, error) {
	vs := []string{"standard", "partitioned", "counting", "scalable"}
	if variant != "all" {
		vs = []string{variant}
	}
	pl := &experiments.Plan{}
	var loads []uint64
	for _, l := range cardinalityLoads {
		if l > p.Span {
			break
		}
		if n := uint64(math.Round(l * float64(p.N))); n > 0 && (len(loads) == 0 || n > loads[len(loads)-1]) {
			loads = append(loads, n)
		}
	}
	if len(loads) == 0 {
		return nil, paramError("n", "%d: a hundredth of it rounds to no item", p.N)
	}
	if variant == cardinalityBlocks {
		// Up to capacity only: the target of the pooled estimates is at
		// n = N, and the loads beyond it would triple the run.
		for len(loads) > 1 && loads[len(loads)-1] > p.N {
			loads = loads[:len(loads)-1]
		}
		if err := planBlockCounts(pl, loads, p); err != nil {
			return nil, err
		}
		vs = nil
	}
	for _, v := range vs {
		if err := planCounts(pl, v, loads, p); err != nil {
			return nil, err
		}
	}
	for _, v := range vs {
		if v != "scalable" {
			if err := planSets(pl, v, p); err != nil {
				return nil, err
			}
		}
	}
	if variant == "all" || variant == "standard" {
		if err := planSaturation(pl, p); err != nil {
			return nil, err
		}
	}
	pl.Notes = append(pl.Notes,
		"errors are the estimate less the true count: over the items inserted for a filter's own count (relative errors), over n for the union and intersection of two sets of n items; columns error and spread are their mean and standard deviation over the filters, bias and std_error the prediction of package analysis at the built geometry (model exact: the exact distribution of the set cells; delta: the delta method); a point is inside when the predicted bias lies in the interval of the mean error and the predicted standard error in the interval of the spread",
		"the points of a count series come from one growing filter per trial, and those of a union or intersection series share the first filter of each pair: the points of a series are correlated, one group of filters, so a chance deviation of that group shows at several of its points")
	return pl, nil
}

// estimator returns a filter's count estimate from its Stats.
type estimator func(st variants.Stats) float64

func statsEstimate(st variants.Stats) float64 { return st.EstimatedItems }

// nonZeroEstimate is a counting filter's estimate from its non-zero
// counters, FillRatio times Cells (exact: the ratio is a quotient of
// integers below 2^53).
func nonZeroEstimate(st variants.Stats) float64 {
	nz := uint64(math.Round(st.FillRatio * float64(st.Cells)))
	return analysis.FillEstimator{Bits: st.Cells, Hashes: st.Hashes}.Estimate(nz)
}

// planCounts plans the count rows of one variant.
func planCounts(pl *experiments.Plan, v string, loads []uint64, p experiments.Params) error {
	// A series' prediction at every load at once: one pass of the exact
	// computation serves a filter filled through all of them. Its model
	// is "exact" or "delta" unless model says otherwise.
	type series struct {
		name    string
		est     estimator
		predict func(ns []uint64) ([]analysis.EstimateError, error)
		model   string
	}
	var b builder
	var ss []series
	var capacity uint64 = p.N
	if v == "scalable" {
		spec := scalableSpec{P: p.P, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: max(1, p.N/10)}
		geom := analysis.Scalable{P: spec.P, R: spec.R, S: spec.S, N0: spec.N0}
		if err := geom.Validate(); err != nil {
			return paramError("p", "%v", err)
		}
		b, capacity = scalableBuilder(spec), spec.N0
		stages, err := geom.Stages(loads[len(loads)-1])
		if err != nil {
			return paramError("n", "%v", err)
		}
		ss = []series{{name: v, est: statsEstimate, predict: geom.EstimateErrors}}
		pl.Notes = append(pl.Notes, fmt.Sprintf("scalable: first stage n0 = n/10 = %d items, P = %g, r = %g, s = %g; %d stages at the last load; errors are over the keys it inserted (it skips keys that test present)",
			spec.N0, spec.P, spec.R, spec.S, len(stages)))
	} else {
		var err error
		if b, err = sized(v, p.N, p.P, 0); err != nil {
			return err
		}
	}
	st, err := probe(b)
	if err != nil {
		return paramError("n", "%v", err)
	}
	standard := analysis.FillEstimator{Bits: st.Cells, Hashes: st.Hashes}
	switch v {
	case "standard":
		ss = []series{{name: v, est: statsEstimate, predict: standard.Errors}}
	case "partitioned":
		ss = []series{{name: v, est: statsEstimate, predict: analysis.FillEstimator{Bits: st.Cells, Hashes: st.Hashes, Partitioned: true}.Errors}}
	case "counting":
		exact := func(ns []uint64) ([]analysis.EstimateError, error) {
			out := make([]analysis.EstimateError, len(ns))
			for i := range out {
				out[i].Exact = true
			}
			return out, nil
		}
		ss = []series{
			{name: cardinalityCounterSum, est: statsEstimate, predict: exact, model: "counter sum"},
			{name: cardinalityNonZero, est: nonZeroEstimate, predict: standard.Errors},
		}
	}
	if v != "scalable" {
		pl.Notes = append(pl.Notes, fmt.Sprintf("%s filter sized for n = %d at p = %g: %s, k = %d", v, p.N, p.P, geometryWords(st), st.Hashes))
	}
	if v == "counting" {
		top := loads[len(loads)-1]
		pl.Notes = append(pl.Notes, fmt.Sprintf("%s: exact (error 0) while no counter saturates; at %d items a %d-bit counter of the filter saturates with probability %.2g, and the estimate then falls back to the non-zero counters",
			cardinalityCounterSum, top, st.CellBits, analysis.SaturationProbability(st.Cells, top, st.Hashes, st.CellBits)))
	}

	// Rows of each series together in the results; the group measures
	// them in order of load, one filter growing through all of them.
	idx := make([][]int, len(ss))
	for i, s := range ss {
		errs, err := s.predict(loads)
		if err != nil {
			return paramError("n", "%v", err)
		}
		for j, n := range loads {
			e, model := errs[j], s.model
			if model == "" {
				model = modelOf(e)
			}
			row := experiments.Row{Series: s.name, Variant: v, Hashing: hashingName(variants.Hashing{}), Items: n, Capacity: capacity,
				Bits: st.Bits, Cells: cellsColumn(st), Hashes: st.Hashes, Filters: p.Filters, Model: model}
			if v == "scalable" {
				row.Bits, row.Hashes = 0, 0 // they grow; the trials record them
			}
			setPrediction(&row, experiments.EstimateItems, 0, float64(n), e)
			row.PSaturated = e.Saturated
			idx[i] = append(idx[i], pl.AddRow(row))
		}
	}
	g := experiments.Group{Key: "cardinality/" + v, Filters: p.Filters, Hashing: variants.Hashing{}}
	var ests []estimator
	for j := range loads {
		for i, s := range ss {
			g.Rows = append(g.Rows, idx[i][j])
			ests = append(ests, s.est)
		}
	}
	g.Run = countErrors(b, ests)
	pl.Groups = append(pl.Groups, g)
	return nil
}

// planSaturation plans the cardinalitySaturation rows.
func planSaturation(pl *experiments.Plan, p experiments.Params) error {
	b, err := geometry("standard", saturationBits, saturationHashes)
	if err != nil {
		return err
	}
	est := analysis.FillEstimator{Bits: saturationBits, Hashes: saturationHashes}
	perItem := saturationHashes * math.Log1p(-1.0/saturationBits) // ln q
	g := experiments.Group{Key: "cardinality/saturation", Filters: p.Filters, Hashing: variants.Hashing{}}
	var last uint64
	for _, mu := range saturationEmpty {
		n := uint64(math.Round(math.Log(mu/saturationBits) / perItem))
		if n <= last {
			continue
		}
		last = n
		e, err := est.Error(n)
		if err != nil {
			return err
		}
		row := experiments.Row{Series: cardinalitySaturation, Variant: "standard", Hashing: hashingName(variants.Hashing{}), Items: n,
			Bits: saturationBits, Hashes: saturationHashes, Filters: p.Filters, Model: modelOf(e)}
		setPrediction(&row, experiments.EstimateItems, 0, float64(n), e)
		row.PSaturated = e.Saturated
		g.Rows = append(g.Rows, pl.AddRow(row))
	}
	ests := make([]estimator, len(g.Rows))
	for i := range ests {
		ests[i] = statsEstimate
	}
	g.Run = countErrors(b, ests)
	pl.Groups = append(pl.Groups, g)
	lim, _ := est.Limit(analysis.MinEmptyCells)
	pl.Notes = append(pl.Notes, fmt.Sprintf("%s: m = %d bits, k = %d, filled until %g down to %g bits are expected to stay clear (fill 1 - mu/m); bloomlab calls the estimate meaningless below %d clear bits expected, here beyond %d items (analysis.FillEstimator.Limit)",
		cardinalitySaturation, saturationBits, saturationHashes, saturationEmpty[0], saturationEmpty[len(saturationEmpty)-1], analysis.MinEmptyCells, lim))
	return nil
}

// modelOf names the source of a prediction.
func modelOf(e analysis.EstimateError) string {
	if e.Exact {
		return "exact"
	}
	return "delta"
}

// setPrediction fills a row's prediction, divided by scale; a prediction
// that is not finite (a filter certain to saturate) is left out, with the
// row's Model.
func setPrediction(r *experiments.Row, estimate string, overlap, scale float64, e analysis.EstimateError) {
	r.Estimate, r.Overlap, r.Scale = estimate, overlap, scale
	bias, sd := e.Bias/scale, e.StdDev/scale
	if math.IsNaN(bias) || math.IsInf(bias, 0) || math.IsNaN(sd) || math.IsInf(sd, 0) {
		r.Model = ""
		return
	}
	r.Bias, r.StdError = bias, sd
}

// countErrors returns the experiments.RunFunc that grows a filter through its rows'
// loads and records each row's estimate error, the estimate coming from
// the row's estimator.
func countErrors(build builder, ests []estimator) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		f, err := build(t.Hashing)
		if err != nil {
			return err
		}
		var inserted uint64
		for j, r := range rows {
			if err := addMembers(t, ctx, f, inserted, r.Items); err != nil {
				return err
			}
			inserted = max(inserted, r.Items)
			st := f.Stats()
			out[j].Bits = st.Bits
			out[j].Stages = len(st.Stages)
			recordError(&out[j], ests[j](st), float64(st.Items), r.Scale)
		}
		return nil
	}
}

// addMembers adds the trial's member keys from to to (exclusive) to f,
// or returns the context's error if the run is interrupted.
func addMembers(t *experiments.Job, ctx context.Context, f filter, from, to uint64) error {
	for i := from; i < to; i++ {
		if (i-from)%interruptEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		f.Add(t.Member(i))
	}
	return nil
}

// recordError stores est - truth over scale in a trial, or marks it
// saturated if est is infinite.
func recordError(o *experiments.Trial, est, truth, scale float64) {
	if math.IsInf(est, 1) || math.IsNaN(est) {
		o.Saturated = true
		return
	}
	o.Error = (est - truth) / scale
}

// planSets plans the union and intersection rows of one variant.
func planSets(pl *experiments.Plan, v string, p experiments.Params) error {
	b, err := sized(v, p.N, p.P, 0)
	if err != nil {
		return err
	}
	st, err := probe(b)
	if err != nil {
		return paramError("n", "%v", err)
	}
	model := analysis.FillEstimator{Bits: st.Cells, Hashes: st.Hashes, Partitioned: v == "partitioned"}
	n := float64(p.N)
	var union, inter []int
	shares := make([]uint64, len(cardinalityOverlaps))
	for i, o := range cardinalityOverlaps {
		shares[i] = uint64(math.Round(o * n))
	}
	errs, err := model.SetErrors(p.N, p.N, shares)
	if err != nil {
		return paramError("n", "%v", err)
	}
	for i, o := range cardinalityOverlaps {
		shared, e := shares[i], errs[i]
		base := experiments.Row{Variant: v, Hashing: hashingName(variants.Hashing{}), Capacity: p.N, Bits: st.Bits, Cells: cellsColumn(st),
			Hashes: st.Hashes, Filters: p.Filters}
		u := base
		u.Series, u.Items, u.Model = cardinalitySetSeries(v, experiments.EstimateUnion), 2*p.N-shared, modelOf(e.Union)
		setPrediction(&u, experiments.EstimateUnion, o, n, e.Union)
		in := base
		in.Series, in.Items, in.Model = cardinalitySetSeries(v, experiments.EstimateIntersection), shared, modelOf(e.Intersection)
		setPrediction(&in, experiments.EstimateIntersection, o, n, e.Intersection)
		union = append(union, pl.AddRow(u))
		inter = append(inter, pl.AddRow(in))
	}
	// The union rows first, then the intersection rows; measured in pairs.
	g := experiments.Group{Key: "cardinality/sets/" + v, Filters: p.Filters, Hashing: variants.Hashing{}, Run: setErrors(b)}
	for i := range union {
		g.Rows = append(g.Rows, union[i], inter[i])
	}
	pl.Groups = append(pl.Groups, g)
	return nil
}

// setErrors returns the experiments.RunFunc of the set rows, which come in (union,
// intersection) pairs: filter A holds the first Capacity member keys,
// filter B, refilled for each pair, the Capacity keys from Capacity -
// shared on, so that the two share the intersection row's Items keys.
func setErrors(build builder) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		fa, err := build(t.Hashing)
		if err != nil {
			return err
		}
		fb, err := build(t.Hashing)
		if err != nil {
			return err
		}
		a, okA := fa.(variants.Filter)
		bf, okB := fb.(variants.Filter)
		if !okA || !okB {
			return fmt.Errorf("experiments: %T has no set estimates", fa)
		}
		n := rows[0].Capacity
		if err := addMembers(t, ctx, a, 0, n); err != nil {
			return err
		}
		bits := fa.Stats().Bits
		for j := 0; j+1 < len(rows); j += 2 {
			shared := rows[j+1].Items
			bf.Reset()
			if err := addMembers(t, ctx, bf, n-shared, 2*n-shared); err != nil {
				return err
			}
			s, err := variants.EstimateSets(a, bf)
			if err != nil && !errors.Is(err, variants.ErrSaturated) {
				return err
			}
			recordError(&out[j], s.Union, float64(rows[j].Items), rows[j].Scale)
			recordError(&out[j+1], s.Intersection, float64(shared), rows[j+1].Scale)
			out[j].Bits, out[j+1].Bits = bits, bits
		}
		return nil
	}
}

// summarizeCardinality notes, per series, how the measured spread
// compares with the predicted standard error, and the largest measured
// error of the exact counts.
func summarizeCardinality(res *experiments.Results) []string {
	var notes []string
	var order []string
	type span struct {
		lo, hi  float64
		maxBias float64
		points  int
		sat     int
		trials  int
		inexact int     // trials with a nonzero error
		psat    float64 // predicted saturated estimates
	}
	by := map[string]*span{}
	for _, r := range res.Rows {
		s := by[r.Series]
		if s == nil {
			s = &span{lo: math.Inf(1), hi: math.Inf(-1)}
			by[r.Series] = s
			order = append(order, r.Series)
		}
		s.points++
		s.sat += r.Saturated
		s.psat += r.PSaturated * float64(r.Filters)
		for _, t := range r.Trials {
			s.trials++
			if t.Error != 0 {
				s.inexact++
			}
		}
		s.maxBias = math.Max(s.maxBias, math.Abs(r.Error))
		if r.StdError > 0 {
			ratio := r.Spread / r.StdError
			s.lo, s.hi = math.Min(s.lo, ratio), math.Max(s.hi, ratio)
		}
	}
	for _, name := range order {
		s := by[name]
		var b strings.Builder
		if math.IsInf(s.lo, 1) {
			fmt.Fprintf(&b, "%s: predicted exact; the error is 0 in %d of %d filter-points (the others had a saturated counter), the largest mean error over the %d points %.3g",
				name, s.trials-s.inexact, s.trials, s.points, s.maxBias)
		} else {
			fmt.Fprintf(&b, "%s: measured spread / predicted standard error from %.3f to %.3f over %d points; the largest mean error is %.3g of the scale",
				name, s.lo, s.hi, s.points, s.maxBias)
		}
		if s.sat > 0 || s.psat > 0 {
			fmt.Fprintf(&b, "; %d saturated estimates (+Inf) left out, %.3g predicted", s.sat, s.psat)
		}
		notes = append(notes, b.String())
	}
	return notes
}
