package variants

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/stats"
)

// checkMoments fails unless the mean of samples lies within 4 standard
// errors of mean and their variance within 4 standard errors of sd^2
// (SampleMoments). A prediction of no spread may be off by rounding: the
// variance may then differ by 1e-18.
func checkMoments(t *testing.T, what string, samples []float64, mean, sd float64) {
	t.Helper()
	mo, err := stats.SampleMoments(samples)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	t.Logf("%s: mean %.4g ± %.2g (predicted %.4g), standard deviation %.4g (predicted %.4g), %d samples",
		what, mo.Mean, mo.MeanSE, mean, mo.StdDev(), sd, mo.N)
	if math.Abs(mo.Mean-mean) > 4*mo.MeanSE+1e-12 {
		t.Errorf("%s: mean %.6g, predicted %.6g (%.1f standard errors off)", what, mo.Mean, mean, (mo.Mean-mean)/mo.MeanSE)
	}
	if math.Abs(mo.Variance-sd*sd) > 4*mo.VarianceSE+1e-18 {
		t.Errorf("%s: standard deviation %.6g, predicted %.6g (variance %.1f standard errors off)", what, mo.StdDev(), sd, (mo.Variance-sd*sd)/mo.VarianceSE)
	}
}

// estimateCase is one variant in the statistical tests: how to build one
// of its filters with hash seed seed, and the predicted error of its
// estimate at n items.
type estimateCase struct {
	name     string
	capacity uint64 // the loads are a tenth of, once and three times this
	build    func(t *testing.T, seed uint64) Filter
	predict  func(t *testing.T, st Stats, n uint64) analysis.EstimateError
	// estimate returns the estimate under test from the filter's Stats;
	// nil means Stats.EstimatedItems.
	estimate func(st Stats) float64
	// exact reports that the estimate must equal the items exactly while
	// no counter is saturated.
	exact bool
}

// must returns a function that returns a constructor's filter, failing t
// on its error.
func must(t testing.TB) func(Filter, error) Filter {
	return func(f Filter, err error) Filter {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
}

// standardPrediction predicts the estimate of a standard filter (or a
// counting one's non-zero counters) of st's geometry.
func standardPrediction(t *testing.T, st Stats, n uint64) analysis.EstimateError {
	e, err := analysis.FillEstimator{Bits: st.Cells, Hashes: st.Hashes}.Error(n)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// fillCountEstimate returns the estimate of a counting filter from its
// non-zero counters, FillRatio times Cells (exact: the ratio is a quotient
// of integers below 2^53).
func fillCountEstimate(st Stats) float64 {
	nz := uint64(math.Round(st.FillRatio * float64(st.Cells)))
	return analysis.FillEstimator{Bits: st.Cells, Hashes: st.Hashes}.Estimate(nz)
}

// blockedGeometry returns the geometry of NewBlockedFor(n, p, ...),
// computed once.
var blockedGeometry = func() func(t *testing.T, n uint64, p float64) Geometry {
	cache := map[[2]float64]Geometry{}
	return func(t *testing.T, n uint64, p float64) Geometry {
		key := [2]float64{float64(n), p}
		if g, ok := cache[key]; ok {
			return g
		}
		f := must(t)(NewBlockedFor(n, p, Hashing{})).(*Blocked)
		cache[key] = f.Geometry()
		return cache[key]
	}
}()

// splitBlockBitsFor returns the bits of NewSplitBlockFor(n, p, ...).
func splitBlockBitsFor(t *testing.T, n uint64, p float64) uint64 {
	return must(t)(NewSplitBlockFor(n, p, Hashing{})).(*SplitBlock).Geometry().Bits
}

func estimateCases() []estimateCase {
	const capacity, p = 200, 0.01
	h := func(seed uint64) Hashing { return Hashing{Seed: seed} }
	scalable := ScalableParams{P: p, R: 0.9, S: 2, N0: 50}
	return []estimateCase{
		{name: "standard", capacity: capacity,
			build: func(t *testing.T, s uint64) Filter {
				return must(t)(NewStandardFor(capacity, p, h(s)))
			},
			predict: standardPrediction},
		{name: "partitioned", capacity: capacity,
			build: func(t *testing.T, s uint64) Filter {
				return must(t)(NewPartitionedFor(capacity, p, h(s)))
			},
			predict: func(t *testing.T, st Stats, n uint64) analysis.EstimateError {
				e, err := analysis.FillEstimator{Bits: st.Cells, Hashes: st.Hashes, Partitioned: true}.Error(n)
				if err != nil {
					t.Fatal(err)
				}
				return e
			}},
		{name: "counting (counter sum)", capacity: capacity, exact: true,
			build: func(t *testing.T, s uint64) Filter {
				return must(t)(NewCountingFor(capacity, p, h(s)))
			},
			// Exact while no counter saturates, which at 4 bits does
			// not happen at these loads (probability below 1e-7).
			predict: func(*testing.T, Stats, uint64) analysis.EstimateError { return analysis.EstimateError{Exact: true} }},
		{name: "counting (non-zero counters)", capacity: capacity,
			build: func(t *testing.T, s uint64) Filter {
				return must(t)(NewCountingFor(capacity, p, h(s)))
			},
			predict:  standardPrediction,
			estimate: fillCountEstimate},
		{name: "scalable", capacity: capacity,
			build: func(t *testing.T, s uint64) Filter {
				q := scalable
				q.Hashing = h(s)
				return must(t)(NewScalable(q))
			},
			predict: func(t *testing.T, _ Stats, n uint64) analysis.EstimateError {
				e, err := analysis.Scalable{P: scalable.P, R: scalable.R, S: scalable.S, N0: scalable.N0}.EstimateError(n)
				if err != nil {
					t.Fatal(err)
				}
				return e
			}},
		{name: "blocked", capacity: 5 * capacity,
			// The geometry NewBlockedFor(1000, 0.01, h) builds, without
			// its sizing search for every filter.
			build: func(t *testing.T, s uint64) Filter {
				return must(t)(NewBlocked(BlockedParams{Geometry: blockedGeometry(t, 5*capacity, p), Hashing: h(s)}))
			},
			predict: func(t *testing.T, st Stats, n uint64) analysis.EstimateError {
				return pooledPrediction(t, analysis.Multiblock{Bits: st.Bits, Hashes: st.Hashes, WordBits: uint64(st.Blocks.Bits)}, n)
			}},
		{name: "split-block", capacity: 5 * capacity,
			build: func(t *testing.T, s uint64) Filter {
				return must(t)(NewSplitBlock(Geometry{Bits: splitBlockBitsFor(t, 5*capacity, p), Hashes: 8}, h(s)))
			},
			predict: func(t *testing.T, st Stats, n uint64) analysis.EstimateError {
				return pooledPrediction(t, analysis.Multiblock{Bits: st.Bits, Hashes: 8, WordBits: 32, Multi: true}, n)
			}},
	}
}

// pooledPrediction predicts the whole-table estimate of a cache-local
// filter of layout b holding n keys (analysis.Multiblock.EstimateError).
func pooledPrediction(t *testing.T, b analysis.Multiblock, n uint64) analysis.EstimateError {
	e, err := b.EstimateError(n)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestEstimatedItemsStatistics fills many independently seeded filters of
// every variant to a tenth of, once and three times their capacity and
// checks that the mean and the spread of Stats.EstimatedItems (less the
// items actually inserted) match the bias and standard error that package
// analysis predicts, within 4 standard errors.
func TestEstimatedItemsStatistics(t *testing.T) {
	t.Parallel()
	filters := 3000
	if testing.Short() {
		filters = 600
	}
	keys := testKeys(14, 1, 5000)
	for _, c := range estimateCases() {
		t.Run(c.name, func(t *testing.T) {
			probe := c.build(t, 0).Stats()
			loads := []uint64{c.capacity / 10, c.capacity, 3 * c.capacity}
			errs := make([][]float64, len(loads))
			for s := range filters {
				f := c.build(t, uint64(s)+1)
				added := 0
				for j, n := range loads {
					for ; added < int(n); added++ {
						f.Add(keys[added])
					}
					st := f.Stats()
					est := st.EstimatedItems
					if c.estimate != nil {
						est = c.estimate(st)
					}
					// A scalable filter skips keys that test present;
					// its estimate counts the keys it inserted. The
					// predictions are of the finite estimates.
					if !math.IsInf(est, 1) {
						errs[j] = append(errs[j], est-float64(st.Items))
					}
					if c.exact && st.Saturated == 0 && est != float64(st.Items) {
						t.Fatalf("n=%d: exact count %v, items %d", n, est, st.Items)
					}
				}
			}
			for j, n := range loads {
				want := c.predict(t, probe, n)
				if want.Saturated > 1e-4 {
					t.Fatalf("n=%d: saturated with probability %g; the test assumes finite estimates", n, want.Saturated)
				}
				checkMoments(t, fmt.Sprintf("%s n=%d", c.name, n), errs[j], want.Bias, want.StdDev)
			}
		})
	}
}

// setCase is a variant in the set-estimate tests.
type setCase struct {
	name  string
	build func(t *testing.T, seed uint64) Filter
	model func(st Stats) analysis.FillEstimator
}

func setCases() []setCase {
	const capacity, p = 300, 0.01
	standard := func(st Stats) analysis.FillEstimator {
		return analysis.FillEstimator{Bits: st.Cells, Hashes: st.Hashes}
	}
	return []setCase{
		{"standard", func(t *testing.T, s uint64) Filter {
			return must(t)(NewStandardFor(capacity, p, Hashing{Seed: s}))
		}, standard},
		{"partitioned", func(t *testing.T, s uint64) Filter {
			return must(t)(NewPartitionedFor(capacity, p, Hashing{Seed: s}))
		}, func(st Stats) analysis.FillEstimator {
			return analysis.FillEstimator{Bits: st.Cells, Hashes: st.Hashes, Partitioned: true}
		}},
		{"counting", func(t *testing.T, s uint64) Filter {
			return must(t)(NewCountingFor(capacity, p, Hashing{Seed: s}))
		}, standard},
	}
}

// TestEstimateSetsStatistics fills many pairs of filters with sets of 300
// keys sharing none, half and all of them, and checks the mean and spread
// of EstimateSets' union, intersection and Jaccard estimates against
// analysis.FillEstimator.SetError, within 4 standard errors.
func TestEstimateSetsStatistics(t *testing.T) {
	t.Parallel()
	const size = 300
	pairs := 2000
	if testing.Short() {
		pairs = 500
	}
	keys := testKeys(14, 2, 2*size)
	for _, c := range setCases() {
		t.Run(c.name, func(t *testing.T) {
			for _, shared := range []int{0, size / 2, size} {
				var us, is, js []float64
				for s := range pairs {
					fa, fb := c.build(t, uint64(s)+1), c.build(t, uint64(s)+1)
					for _, k := range keys[:size] {
						fa.Add(k)
					}
					for _, k := range keys[size-shared : 2*size-shared] {
						fb.Add(k)
					}
					e, err := EstimateSets(fa, fb)
					if err != nil {
						t.Fatal(err)
					}
					us = append(us, e.Union)
					is = append(is, e.Intersection)
					js = append(js, e.Jaccard)
				}
				want, err := c.model(c.build(t, 0).Stats()).SetError(size, size, uint64(shared))
				if err != nil {
					t.Fatal(err)
				}
				union := float64(2*size - shared)
				what := fmt.Sprintf("%s shared=%d", c.name, shared)
				checkMoments(t, what+" union", us, union+want.Union.Bias, want.Union.StdDev)
				checkMoments(t, what+" intersection", is, float64(shared)+want.Intersection.Bias, want.Intersection.StdDev)
				checkMoments(t, what+" Jaccard", js, float64(shared)/union+want.Jaccard.Bias, want.Jaccard.StdDev)
			}
		})
	}
}

// TestEstimatedItemsFormula checks each variant's EstimatedItems against
// package analysis computing from the filter's cells, stage by stage, and
// the blocked and split-block filters' against the closed form of their q.
func TestEstimatedItemsFormula(t *testing.T) {
	keys := testKeys(14, 3, 3000)
	fill := func(f Filter, n int) Stats {
		for _, k := range keys[:n] {
			f.Add(k)
		}
		return f.Stats()
	}
	check := func(what string, got, want float64) {
		t.Helper()
		if !scalar.EqualWithinRel(got, want, 1e-13) {
			t.Errorf("%s: EstimatedItems %v, want %v", what, got, want)
		}
	}

	s := must(t)(NewStandardFor(1000, 0.01, Hashing{})).(*Standard)
	st := fill(s, 2000)
	check("standard", st.EstimatedItems, analysis.FillEstimator{Bits: s.m, Hashes: s.k}.Estimate(s.setBits()))
	c := must(t)(NewConcurrentStandardFor(1000, 0.01, Hashing{}))
	if got := fill(c, 2000).EstimatedItems; got != st.EstimatedItems {
		t.Errorf("concurrent standard: %v, standard %v", got, st.EstimatedItems)
	}

	p := must(t)(NewPartitionedFor(1000, 0.01, Hashing{})).(*Partitioned)
	st = fill(p, 2000)
	check("partitioned", st.EstimatedItems, analysis.FillEstimator{Bits: st.Cells, Hashes: p.k, Partitioned: true}.Estimate(p.setBits()))

	b := must(t)(blockedFor(1000, 0.01, 256, Hashing{})).(*Blocked)
	st = fill(b, 2000)
	// The whole table pooled: one key leaves a given bit clear with
	// probability q = 1 - (1 - (1 - 1/B)^k) B/m.
	m, k := float64(st.Bits), float64(b.k)
	lq := math.Log1p(-(1 - math.Pow(1-1.0/256, k)) * 256 / m)
	want := math.Log1p(-float64(popcount(b.words))/m) / lq
	check("blocked", st.EstimatedItems, want)

	sb := must(t)(NewSplitBlockFor(1000, 0.01, Hashing{})).(*SplitBlock)
	st = fill(sb, 2000)
	// Eight words of 32 bits, one bit each: q = 1 - (1/32) 256/m.
	m = float64(st.Bits)
	lq = math.Log1p(-256 / (32 * m))
	want = math.Log1p(-float64(popcount(sb.words))/m) / lq
	check("split-block", st.EstimatedItems, want)

	sc := must(t)(NewScalable(ScalableParams{P: 0.01, N0: 100})).(*Scalable)
	st = fill(sc, 3000)
	want = 0
	for i, stage := range sc.stages[:sc.live] {
		e := analysis.FillEstimator{Bits: st.Stages[i].Bits, Hashes: stage.f.k, Partitioned: true}.Estimate(stage.f.setBits())
		check(fmt.Sprintf("scalable stage %d", i), st.Stages[i].EstimatedItems, e)
		want += e
	}
	if len(st.Stages) < 4 {
		t.Errorf("scalable: %d stages, want at least 4", len(st.Stages))
	}
	check("scalable", st.EstimatedItems, want)
}

// TestCountingEstimate checks the counting filter's exact count: the
// counter sum over k, through adds, repeated adds and removals, for every
// width, and its fallback to the non-zero counters once a counter
// saturates.
func TestCountingEstimate(t *testing.T) {
	keys := testKeys(14, 4, 2000)
	for _, w := range []int{2, 4, 8, 16} {
		f := must(t)(NewCounting(CountingParams{Geometry: Geometry{Bits: 20000, Hashes: 5}, Width: w})).(*Counting)
		for _, k := range keys[:1000] {
			f.Add(k)
		}
		f.Add(keys[0]) // a key added twice counts twice
		for _, k := range keys[500:700] {
			f.Remove(k)
		}
		var sum uint64
		for v, n := range f.Histogram() {
			sum += uint64(v) * n
		}
		if got := f.counterSum(); got != sum {
			t.Errorf("width %d: counter sum %d, histogram says %d", w, got, sum)
		}
		if st := f.Stats(); st.Saturated == 0 && (st.EstimatedItems != 801 || st.Items != 801) {
			t.Errorf("width %d: EstimatedItems %v, Items %d, want 801", w, st.EstimatedItems, st.Items)
		}
	}
	// 2-bit counters saturate at 3: the sum undercounts, and the estimate
	// is the one from the non-zero counters.
	f := must(t)(NewCounting(CountingParams{Geometry: Geometry{Bits: 2000, Hashes: 5}, Width: 2})).(*Counting)
	for _, k := range keys {
		f.Add(k)
	}
	st := f.Stats()
	if st.Saturated == 0 {
		t.Fatal("no counter saturated")
	}
	if want := fillCountEstimate(st); st.EstimatedItems != want || float64(f.counterSum())/5 >= 2000 {
		t.Errorf("saturated: EstimatedItems %v, want %v from the non-zero counters (counter sum / k %v)", st.EstimatedItems, want, float64(f.counterSum())/5)
	}
}

func TestEstimateSetsErrors(t *testing.T) {
	std := func(m uint64, seed uint64) Filter {
		return must(t)(NewStandard(Geometry{Bits: m, Hashes: 3}, Hashing{Seed: seed}))
	}
	part := must(t)(NewPartitioned(Geometry{Bits: 999, Hashes: 3}, Hashing{}))
	scal := must(t)(NewScalable(ScalableParams{P: 0.01}))
	cnt := func(w int) Filter {
		return must(t)(NewCounting(CountingParams{Geometry: Geometry{Bits: 1000, Hashes: 3}, Width: w}))
	}
	conc := func(m uint64) Filter {
		return must(t)(NewConcurrentStandard(Geometry{Bits: m, Hashes: 3}, Hashing{}))
	}
	for _, c := range []struct {
		f, g Filter
		want string
	}{
		{std(1000, 0), std(1024, 0), "bits 1000 != 1024"},
		{std(1000, 1), std(1000, 2), "seed 1 != 2"},
		{std(1000, 0), part, "not standard and partitioned"},
		{scal, scal, "scalable filters have no set estimates"},
		{cnt(4), cnt(8), "counter width 4 != 8"},
		{conc(1000), conc(1001), "bits 1000 != 1001"},
		{conc(1000), std(1000, 0), "not concurrent standard and standard"},
	} {
		if _, err := EstimateSets(c.f, c.g); !errors.Is(err, ErrIncompatible) || !contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrIncompatible naming %q", c.want, err, c.want)
		}
	}
	var nilStd *Standard
	for _, pair := range [][2]Filter{{nil, std(10, 0)}, {nilStd, std(10, 0)}, {std(10, 0), nilStd}} {
		if _, err := EstimateSets(pair[0], pair[1]); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("nil filter: %v", err)
		}
	}

	// A saturated union: +Inf and NaN, and ErrSaturated.
	keys := testKeys(14, 5, 200)
	a, b := std(64, 0), std(64, 0)
	for i, k := range keys {
		if i%2 == 0 {
			a.Add(k)
		} else {
			b.Add(k)
		}
	}
	e, err := EstimateSets(a, b)
	if !errors.Is(err, ErrSaturated) || !math.IsInf(e.Union, 1) || !math.IsNaN(e.Intersection) || !math.IsNaN(e.Jaccard) {
		t.Errorf("saturated union: %+v, %v", e, err)
	}
	if st := a.Stats(); st.FillRatio == 1 && !math.IsInf(st.EstimatedItems, 1) {
		t.Errorf("saturated filter: EstimatedItems %v, want +Inf", st.EstimatedItems)
	}
	// Two empty filters: Jaccard 0/0.
	if e, err := EstimateSets(std(100, 0), std(100, 0)); err != nil || e.Union != 0 || !math.IsNaN(e.Jaccard) {
		t.Errorf("empty filters: %+v, %v", e, err)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestEstimateSetsAgree checks EstimateSets against the filters it
// stands for: its union estimate is the estimate of the filter of the
// union, and a filter set against itself gives its own estimate with
// Jaccard 1.
func TestEstimateSetsAgree(t *testing.T) {
	keys := testKeys(14, 6, 3000)
	build := []func() Filter{
		func() Filter { return must(t)(NewStandardFor(2000, 0.01, Hashing{})) },
		func() Filter { return must(t)(NewPartitionedFor(2000, 0.01, Hashing{})) },
		func() Filter { return must(t)(NewCountingFor(2000, 0.01, Hashing{})) },
		func() Filter { return must(t)(NewBlockedFor(2000, 0.01, Hashing{})) },
		func() Filter { return must(t)(NewSplitBlockFor(2000, 0.01, Hashing{})) },
		func() Filter { return must(t)(NewConcurrentStandardFor(2000, 0.01, Hashing{})) },
	}
	for _, newFilter := range build {
		a, b, u := newFilter(), newFilter(), newFilter()
		for _, k := range keys[:2000] {
			a.Add(k)
			u.Add(k)
		}
		for _, k := range keys[1000:] {
			b.Add(k)
			u.Add(k)
		}
		e, err := EstimateSets(a, b)
		if err != nil {
			t.Fatal(err)
		}
		name := a.Stats().Variant
		union := u.Stats().EstimatedItems
		if name == "counting" {
			union = fillCountEstimate(u.Stats()) // the union's estimate from its non-zero counters
		}
		if !scalar.EqualWithinRel(e.Union, union, 1e-12) {
			t.Errorf("%s: union estimate %v, the union filter's %v", name, e.Union, union)
		}
		if math.Abs(e.Intersection-1000) > 100 || math.Abs(e.Jaccard-1.0/3) > 0.05 {
			t.Errorf("%s: %+v, want about 1000 in common, Jaccard 1/3", name, e)
		}
		self, err := EstimateSets(a, a)
		if err != nil || self.Jaccard != 1 || self.Intersection != self.A || self.Union != self.A {
			t.Errorf("%s with itself: %+v, %v", name, self, err)
		}
	}
}

// TestFieldMasks checks the masks of counterSum's pairwise addition.
func TestFieldMasks(t *testing.T) {
	for i, m := range fieldMasks {
		w := 1 << i
		if bits.OnesCount64(m) != 32 || m&(1<<w-1) != 1<<w-1 || m>>w&1 != 0 {
			t.Errorf("fieldMasks[%d] = %#x", i, m)
		}
	}
}

// TestEstimatedItemsSmallFilters fills 20,000 seeded standard and
// partitioned filters of 128 bits until about ten bits are expected to
// stay clear, where the estimate's bias is several standard errors of the
// mean, and checks mean, spread and the number of saturated filters
// against the exact theory.
func TestEstimatedItemsSmallFilters(t *testing.T) {
	t.Parallel()
	filters := 20000
	if testing.Short() {
		filters = 4000
	}
	keys := testKeys(14, 7, 200)
	for _, c := range []struct {
		est   analysis.FillEstimator
		build func(s uint64) Filter
	}{
		{analysis.FillEstimator{Bits: 128, Hashes: 3}, func(s uint64) Filter {
			return must(t)(NewStandard(Geometry{Bits: 128, Hashes: 3}, Hashing{Seed: s}))
		}},
		{analysis.FillEstimator{Bits: 128, Hashes: 4, Partitioned: true}, func(s uint64) Filter {
			return must(t)(NewPartitioned(Geometry{Bits: 128, Hashes: 4}, Hashing{Seed: s}))
		}},
	} {
		n, err := c.est.Limit(analysis.MinEmptyCells)
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.est.Error(n)
		if err != nil || !want.Exact {
			t.Fatal(want, err)
		}
		var errs []float64
		saturated := 0
		for s := range filters {
			f := c.build(uint64(s) + 1)
			for _, k := range keys[:n] {
				f.Add(k)
			}
			est := f.Stats().EstimatedItems
			if math.IsInf(est, 1) {
				saturated++
				continue
			}
			errs = append(errs, est-float64(n))
		}
		what := fmt.Sprintf("%+v n=%d", c.est, n)
		checkMoments(t, what, errs, want.Bias, want.StdDev)
		if want.Bias < 6*want.StdDev/math.Sqrt(float64(filters)) {
			t.Errorf("%s: bias %.3g too small beside its standard error for the test to see it", what, want.Bias)
		}
		if d := math.Abs(float64(saturated) - want.Saturated*float64(filters)); d > 4*math.Sqrt(want.Saturated*float64(filters))+1 {
			t.Errorf("%s: %d of %d saturated, predicted %.3g", what, saturated, filters, want.Saturated*float64(filters))
		}
		t.Logf("%s: bias %.3g, sd %.3g, saturated %d (predicted %.3g)", what, want.Bias, want.StdDev, saturated, want.Saturated*float64(filters))
	}
}
