package analysis

import (
	"errors"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/bloomlab/bloomlab/stats"
	"gonum.org/v1/gonum/floats/scalar"
)

// ratOccupancy returns P(X = j), j = 0..c, for the number X of occupied
// cells after t uniform choices among c cells, as exact rationals from the
// closed form P(X = j) = C(c, j) j! S(t, j) / c^t (S = Stirling numbers of
// the second kind): a different formula, in exact arithmetic, from the
// recurrence under test.
func ratOccupancy(c, t int) []*big.Rat {
	row := make([]*big.Int, c+1) // S(i, j) for the current i
	for j := range row {
		row[j] = new(big.Int)
	}
	row[0].SetInt64(1)
	tmp := new(big.Int)
	for i := 1; i <= t; i++ {
		for j := min(i, c); j >= 1; j-- {
			tmp.Mul(row[j], big.NewInt(int64(j)))
			row[j].Add(tmp, row[j-1])
		}
		row[0].SetInt64(0)
	}
	den := new(big.Int).Exp(big.NewInt(int64(c)), big.NewInt(int64(t)), nil)
	out := make([]*big.Rat, c+1)
	fall := big.NewInt(1) // c!/(c-j)! = C(c, j) j!
	for j := 0; j <= c; j++ {
		if j > 0 {
			fall.Mul(fall, big.NewInt(int64(c-j+1)))
		}
		out[j] = new(big.Rat).SetFrac(new(big.Int).Mul(fall, row[j]), den)
	}
	return out
}

// ratConvolve returns the distribution of the sum of independent counts
// distributed as a and b.
func ratConvolve(a, b []*big.Rat) []*big.Rat {
	out := make([]*big.Rat, len(a)+len(b)-1)
	for i := range out {
		out[i] = new(big.Rat)
	}
	for i, x := range a {
		for j, y := range b {
			out[i+j].Add(out[i+j], new(big.Rat).Mul(x, y))
		}
	}
	return out
}

func TestOccupancyAgainstStirling(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ c, t int }{{1, 5}, {7, 3}, {7, 20}, {64, 150}, {200, 300}, {50, 1000}} {
		want := ratOccupancy(tc.c, tc.t)
		budget := math.Inf(1)
		o := newOccupancy(uint64(tc.c))
		if !o.advance(uint64(tc.t), &budget) {
			t.Fatal("no budget")
		}
		peak := 0.0
		for _, r := range want {
			f, _ := r.Float64()
			peak = math.Max(peak, f)
		}
		var kept float64
		for j, r := range want {
			w, _ := r.Float64()
			var got float64
			if i := uint64(j) - o.d.lo; uint64(j) >= o.d.lo && i < uint64(len(o.d.p)) {
				got = o.d.p[i]
			}
			kept += got
			// The tails below 1e-30 of the peak are dropped as the
			// recurrence runs, which costs the values next to them
			// their share of what was dropped: a relative error of
			// 1e-6 at 1e-25 of the peak, 1e-10 at 1e-21.
			if w < peak*1e-18 {
				if math.Abs(got-w) > peak*1e-24 {
					t.Errorf("c=%d t=%d: P(X=%d) = %g, want %g", tc.c, tc.t, j, got, w)
				}
				continue
			}
			if !scalar.EqualWithinRel(got, w, 1e-11) {
				t.Errorf("c=%d t=%d: P(X=%d) = %.16g, want %.16g", tc.c, tc.t, j, got, w)
			}
		}
		if math.Abs(kept-1) > 1e-13 {
			t.Errorf("c=%d t=%d: kept mass %v", tc.c, tc.t, kept)
		}
	}
}

// ratEstimateMoments returns the mean and standard deviation of
// f.Estimate over the finite estimates and P(saturated), from an exact
// distribution dist[x] = P(X = x) of the set cells.
func ratEstimateMoments(f FillEstimator, dist []*big.Rat) (mean, sd, p0 float64) {
	var w, s, s2 float64
	for x, r := range dist {
		p, _ := r.Float64()
		if uint64(x) == f.Bits {
			p0 = p
			continue
		}
		e := f.Estimate(uint64(x))
		w += p
		s += p * e
		s2 += p * e * e
	}
	mean = s / w
	return mean, math.Sqrt(s2/w - mean*mean), p0
}

// TestCardinalityExact checks the exact path of Error against exact
// rational distributions of the set cells, for standard filters (one
// occupancy over kn choices) and partitioned ones (k slices convolved),
// from sparse to nearly saturated.
func TestCardinalityExact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f FillEstimator
		n uint64
	}{
		{FillEstimator{Bits: 32, Hashes: 3}, 4},
		{FillEstimator{Bits: 32, Hashes: 3}, 12},
		{FillEstimator{Bits: 32, Hashes: 3}, 40},
		{FillEstimator{Bits: 100, Hashes: 1}, 150},
		{FillEstimator{Bits: 24, Hashes: 3, Partitioned: true}, 10},
		{FillEstimator{Bits: 24, Hashes: 3, Partitioned: true}, 25},
		{FillEstimator{Bits: 40, Hashes: 5, Partitioned: true}, 6},
	} {
		var dist []*big.Rat
		k := tc.f.Hashes
		if tc.f.Partitioned {
			slice := ratOccupancy(int(tc.f.Bits)/k, int(tc.n))
			dist = []*big.Rat{big.NewRat(1, 1)}
			for range k {
				dist = ratConvolve(dist, slice)
			}
		} else {
			dist = ratOccupancy(int(tc.f.Bits), int(tc.n)*k)
		}
		mean, sd, p0 := ratEstimateMoments(tc.f, dist)
		got, err := tc.f.Error(tc.n)
		if err != nil || !got.Exact {
			t.Fatalf("%+v n=%d: %+v, %v", tc.f, tc.n, got, err)
		}
		if !scalar.EqualWithinAbsOrRel(got.Bias, mean-float64(tc.n), 1e-11, 1e-11) ||
			!scalar.EqualWithinRel(got.StdDev, sd, 1e-9) || !scalar.EqualWithinAbsOrRel(got.Saturated, p0, 1e-300, 1e-11) {
			t.Errorf("%+v n=%d: %+v, want bias %v, sd %v, saturated %v", tc.f, tc.n, got, mean-float64(tc.n), sd, p0)
		}
	}
}

// TestCardinalityDeltaAgreement measures the delta method against the
// exact values as the empty cells run out: the numbers Error's
// documentation quotes. mu is the expected number of empty cells.
func TestCardinalityDeltaAgreement(t *testing.T) {
	t.Parallel()
	for _, m := range []uint64{256, 1024, 4096} {
		for _, k := range []int{3, 7} {
			f := FillEstimator{Bits: m, Hashes: k}
			fm := f.model()
			for _, mu := range []float64{100, 30, 10, 5, 1} {
				n := uint64(math.Round(math.Log(mu/float64(m)) / fm.lq1))
				mu := fm.mean(float64(n))
				exact, err := f.Error(n)
				if err != nil || !exact.Exact {
					t.Fatalf("m=%d k=%d n=%d: %+v %v", m, k, n, exact, err)
				}
				delta, err := f.DeltaError(n)
				if err != nil || delta.Exact || delta != fm.delta(float64(n)) {
					t.Fatalf("DeltaError(%d) = %+v, %v", n, delta, err)
				}
				low := 1 - delta.StdDev/exact.StdDev
				biasLow := 1 - delta.Bias/exact.Bias
				t.Logf("m=%d k=%d n=%d: mu %.1f, StdDev exact %.4g, delta %.4g (%.2f%% low); Bias exact %.4g, delta %.4g; Saturated %.3g",
					m, k, n, mu, exact.StdDev, delta.StdDev, 100*low, exact.Bias, delta.Bias, exact.Saturated)
				switch {
				case mu >= 9:
					if low < 0 || low > 1/mu {
						t.Errorf("m=%d k=%d mu=%.1f: delta StdDev %.2f%% low, want between 0 and %.2f%%", m, k, mu, 100*low, 100/mu)
					}
					if biasLow < 0 || biasLow > 1.2/mu {
						t.Errorf("m=%d k=%d mu=%.1f: delta Bias %.2f%% low, want between 0 and %.2f%%", m, k, mu, 100*biasLow, 120/mu)
					}
				case mu < 1.5:
					if r := delta.StdDev / exact.StdDev; r < 2 || r > 2.5 {
						t.Errorf("m=%d k=%d mu=%.1f: delta StdDev %.3g times exact, want 2 to 2.5", m, k, mu, r)
					}
				}
			}
		}
	}
	// Large filters at three times their capacity: the partitioned exact
	// computation still runs there, and the delta method agrees.
	f := FillEstimator{Bits: 95851, Hashes: 7, Partitioned: true}
	exact, _ := f.Error(30000)
	delta := f.model().delta(30000)
	if !exact.Exact || !scalar.EqualWithinRel(exact.StdDev, delta.StdDev, 1e-4) || !scalar.EqualWithinRel(exact.Bias, delta.Bias, 1e-3) {
		t.Errorf("m = 95851 at 30000 items: exact %+v, delta %+v", exact, delta)
	}
}

// checkMoments fails unless the mean of samples lies within 4 standard
// errors of mean and their variance within 4 standard errors of sd^2
// (stats.SampleMoments). A prediction of no spread may be off by rounding: the
// variance may then differ by 1e-18.
func checkMoments(t *testing.T, what string, samples []float64, mean, sd float64) {
	t.Helper()
	mo, err := stats.SampleMoments(samples)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if math.Abs(mo.Mean-mean) > 4*mo.MeanSE+1e-12 {
		t.Errorf("%s: mean %.6g, predicted %.6g (%.1f standard errors off)", what, mo.Mean, mean, (mo.Mean-mean)/mo.MeanSE)
	}
	if math.Abs(mo.Variance-sd*sd) > 4*mo.VarianceSE+1e-18 {
		t.Errorf("%s: standard deviation %.6g, predicted %.6g (variance %.1f standard errors off)", what, mo.StdDev(), sd, (mo.Variance-sd*sd)/mo.VarianceSE)
	}
}

// simFill fills a model filter with n items of f's geometry, each choosing
// its cells independently and uniformly (one per slice if partitioned),
// and returns the number of set cells. It sets the items' cells in every
// table of tables.
func simFill(r *rand.Rand, f FillEstimator, n int, tables ...[]uint64) {
	k := uint64(f.Hashes)
	for range n {
		for j := range k {
			var i uint64
			if f.Partitioned {
				b := f.Bits / k
				i = j*b + r.Uint64N(b)
			} else {
				i = r.Uint64N(f.Bits)
			}
			for _, tb := range tables {
				tb[i>>6] |= 1 << (i & 63)
			}
		}
	}
}

func setCount(w []uint64) uint64 {
	var n int
	for _, x := range w {
		n += bits.OnesCount64(x)
	}
	return uint64(n)
}

// TestCardinalityMonteCarlo fills many model filters (independent uniform
// cells, seeded) at three loads, down to ten empty cells, and checks the
// estimates' mean and spread, and the share of saturated filters, against
// Error. At the fullest load the bias is several standard errors from
// zero, so the test would notice a bias predicted as zero.
func TestCardinalityMonteCarlo(t *testing.T) {
	t.Parallel()
	const trials = 20000
	r := rand.New(rand.NewPCG(14, 1))
	for _, f := range []FillEstimator{{Bits: 128, Hashes: 3}, {Bits: 128, Hashes: 4, Partitioned: true}} {
		fm := f.model()
		for _, mu := range []float64{60, 25, 10} {
			n := int(math.Round(math.Log(mu/float64(f.Bits)) / fm.lq1))
			want, err := f.Error(uint64(n))
			if err != nil || !want.Exact {
				t.Fatal(want, err)
			}
			var est []float64
			saturated := 0
			w := make([]uint64, (f.Bits+63)/64)
			for range trials {
				clear(w)
				simFill(r, f, n, w)
				e := f.Estimate(setCount(w))
				if math.IsInf(e, 1) {
					saturated++
					continue
				}
				est = append(est, e)
			}
			checkMoments(t, "model "+f.describe(n), est, float64(n)+want.Bias, want.StdDev)
			se := math.Sqrt(want.Saturated * trials)
			if d := math.Abs(float64(saturated) - want.Saturated*trials); d > 4*se+1 {
				t.Errorf("%s: %d of %d saturated, predicted %.3g", f.describe(n), saturated, trials, want.Saturated*trials)
			}
			if mu == 10 && want.Bias < 6*want.StdDev/math.Sqrt(trials) {
				t.Errorf("%s: bias %.3g is too small beside its standard error for the test to see it", f.describe(n), want.Bias)
			}
		}
	}
}

func (f FillEstimator) describe(n int) string {
	kind := "standard"
	if f.Partitioned {
		kind = "partitioned"
	}
	return kind + " m=" + itoa(f.Bits) + " k=" + itoa(uint64(f.Hashes)) + " n=" + itoa(uint64(n))
}

func itoa(x uint64) string { return new(big.Int).SetUint64(x).String() }

// TestSetErrorMonteCarlo fills pairs of model filters whose sets overlap
// by 0, half and all of their items and checks the union, intersection and
// Jaccard estimates against SetError.
func TestSetErrorMonteCarlo(t *testing.T) {
	t.Parallel()
	const trials = 10000
	const size = 200
	r := rand.New(rand.NewPCG(14, 2))
	for _, f := range []FillEstimator{{Bits: 1024, Hashes: 4}, {Bits: 1024, Hashes: 4, Partitioned: true}} {
		for _, shared := range []int{0, size / 2, size} {
			want, err := f.SetError(size, size, uint64(shared))
			if err != nil {
				t.Fatal(err)
			}
			a, b, u := make([]uint64, 16), make([]uint64, 16), make([]uint64, 16)
			var us, is, js []float64
			for range trials {
				clear(a)
				clear(b)
				simFill(r, f, shared, a, b)
				simFill(r, f, size-shared, a)
				simFill(r, f, size-shared, b)
				for i := range u {
					u[i] = a[i] | b[i]
				}
				e := f.EstimateSets(setCount(a), setCount(b), setCount(u))
				us = append(us, e.Union)
				is = append(is, e.Intersection)
				js = append(js, e.Jaccard)
			}
			what := f.describe(shared) + " shared"
			union := float64(2*size - shared)
			checkMoments(t, what+" union", us, union+want.Union.Bias, want.Union.StdDev)
			checkMoments(t, what+" intersection", is, float64(shared)+want.Intersection.Bias, want.Intersection.StdDev)
			checkMoments(t, what+" Jaccard", js, float64(shared)/union+want.Jaccard.Bias, want.Jaccard.StdDev)
		}
	}
}

// TestBlockedEstimateMonteCarlo fills many model blocked and split-block
// filters and checks the sum of the blocks' estimates against the
// mixture of BlockedEstimateError and SplitBlockEstimateError, including
// a load where the blocks' bias is several standard errors.
func TestBlockedEstimateMonteCarlo(t *testing.T) {
	t.Parallel()
	const trials = 20000
	r := rand.New(rand.NewPCG(14, 3))
	block := func(b uint64, k int, partitioned bool) FillEstimator {
		return FillEstimator{Bits: b, Hashes: k, Partitioned: partitioned}
	}
	for _, tc := range []struct {
		m, b uint64
		k    int
		n    int
	}{
		{512, 64, 3, 20}, {512, 64, 3, 80}, {2048, 256, 8, 40}, {2048, 256, 8, 200},
	} {
		split := tc.b == SplitBlockBits
		var want EstimateError
		var err error
		if split {
			want, err = SplitBlockEstimateError(tc.m, uint64(tc.n))
		} else {
			want, err = BlockedEstimateError(tc.m, uint64(tc.n), tc.k, tc.b)
		}
		if err != nil {
			t.Fatal(err)
		}
		one := block(tc.b, tc.k, split)
		blocks := tc.m / tc.b
		tables := make([][]uint64, blocks)
		for i := range tables {
			tables[i] = make([]uint64, tc.b/64)
		}
		var est []float64
		for range trials {
			for _, tb := range tables {
				clear(tb)
			}
			for range tc.n {
				simFill(r, one, 1, tables[r.Uint64N(blocks)])
			}
			var e float64
			for _, tb := range tables {
				e += one.Estimate(setCount(tb))
			}
			if !math.IsInf(e, 1) {
				est = append(est, e)
			}
		}
		what := "blocked"
		if split {
			what = "split-block"
		}
		what += " m=" + itoa(tc.m) + " n=" + itoa(uint64(tc.n))
		checkMoments(t, what, est, float64(tc.n)+want.Bias, want.StdDev)
		t.Logf("%s: bias %.3g, sd %.3g, saturated %.3g", what, want.Bias, want.StdDev, want.Saturated)
	}
}

func TestEstimateFormula(t *testing.T) {
	t.Parallel()
	// The exact inverse of the expected fill 1 - (1-1/m)^(kn), written
	// out; and Swamidass and Baldi's large-m form within 1/(2m).
	f := FillEstimator{Bits: 1000, Hashes: 5}
	for _, x := range []uint64{1, 10, 500, 999} {
		got := f.Estimate(x)
		want := math.Log(1-float64(x)/1000) / (5 * math.Log(1-1.0/1000))
		sb := -1000.0 / 5 * math.Log(1-float64(x)/1000)
		if !scalar.EqualWithinRel(got, want, 1e-13) || !scalar.EqualWithinRel(got, sb*(1-0.5/1000), 1e-6) {
			t.Errorf("Estimate(%d) = %v, want %v (Swamidass-Baldi %v)", x, got, want, sb)
		}
	}
	p := FillEstimator{Bits: 24, Hashes: 3, Partitioned: true}
	if got, want := p.Estimate(12), math.Log(0.5)/math.Log(1-1.0/8); !scalar.EqualWithinRel(got, want, 1e-14) {
		t.Errorf("partitioned Estimate(12) = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		f    FillEstimator
		x    uint64
		want float64
	}{
		{f, 0, 0},
		{f, 1000, math.Inf(1)},
		{f, 1001, math.NaN()},
		{FillEstimator{Bits: 1, Hashes: 1}, 1, math.Inf(1)},
		{FillEstimator{Bits: 1, Hashes: 1}, 0, 0},
		{FillEstimator{Bits: 0, Hashes: 1}, 0, math.NaN()},
		{FillEstimator{Bits: 10, Hashes: 0}, 0, math.NaN()},
		{FillEstimator{Bits: 10, Hashes: 3, Partitioned: true}, 0, math.NaN()},
	} {
		got := tc.f.Estimate(tc.x)
		if got != tc.want && !(math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("%+v.Estimate(%d) = %v, want %v", tc.f, tc.x, got, tc.want)
		}
	}
	if got := CounterSumItems(21, 7); got != 3 {
		t.Errorf("CounterSumItems(21, 7) = %v", got)
	}
	if got := CounterSumItems(21, 0); !math.IsNaN(got) {
		t.Errorf("CounterSumItems(21, 0) = %v, want NaN", got)
	}
}

func TestEstimateSetsEdges(t *testing.T) {
	t.Parallel()
	f := FillEstimator{Bits: 100, Hashes: 2}
	same := f.EstimateSets(30, 30, 30)
	if same.Intersection != f.Estimate(30) || same.Jaccard != 1 || same.A != f.Estimate(30) || same.B != f.Estimate(30) {
		t.Errorf("identical filters: %+v", same)
	}
	if e := f.EstimateSets(20, 40, 50); e.A != f.Estimate(20) || e.B != f.Estimate(40) || e.Intersection != e.A+e.B-e.Union {
		t.Errorf("A and B: %+v, want %v and %v", e, f.Estimate(20), f.Estimate(40))
	}
	if e := f.EstimateSets(0, 0, 0); e.Union != 0 || e.Intersection != 0 || !math.IsNaN(e.Jaccard) {
		t.Errorf("empty filters: %+v, want 0, 0, NaN", e)
	}
	if e := f.EstimateSets(90, 60, 100); !math.IsInf(e.Union, 1) || !math.IsNaN(e.Intersection) || !math.IsNaN(e.Jaccard) || e.A != f.Estimate(90) || e.B != f.Estimate(60) {
		t.Errorf("saturated union: %+v, want +Inf, NaN, NaN", e)
	}
	for _, c := range [][3]uint64{{30, 40, 20}, {30, 40, 71}, {30, 40, 101}} {
		if e := f.EstimateSets(c[0], c[1], c[2]); !math.IsNaN(e.Union) || !math.IsNaN(e.Intersection) || !math.IsNaN(e.Jaccard) || !math.IsNaN(e.A) || !math.IsNaN(e.B) {
			t.Errorf("inconsistent counts %v: %+v, want NaN", c, e)
		}
	}
}

func TestCardinalityErrors(t *testing.T) {
	t.Parallel()
	bad := []FillEstimator{{Bits: 0, Hashes: 1}, {Bits: 10, Hashes: 0}, {Bits: MaxBits + 1, Hashes: 1},
		{Bits: 10, Hashes: MaxHashes + 1}, {Bits: 10, Hashes: 3, Partitioned: true}}
	for _, f := range bad {
		if _, err := f.Error(5); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v.Error: %v", f, err)
		}
		if _, err := f.SetError(5, 5, 1); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v.SetError: %v", f, err)
		}
		if _, err := f.DeltaError(5); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v.DeltaError: %v", f, err)
		}
		if _, err := f.Limit(10); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v.Limit: %v", f, err)
		}
	}
	f := FillEstimator{Bits: 100, Hashes: 2}
	if _, err := f.SetError(5, 4, 5); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("shared > b: %v", err)
	}
	if _, err := f.SetError(math.MaxUint64, 2, 1); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("overflowing sizes: %v", err)
	}
	for _, v := range []float64{0, -1, math.NaN()} {
		if _, err := f.Limit(v); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("Limit(%v): %v", v, err)
		}
	}
	if _, err := (Scalable{P: 2}).EstimateError(10); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("bad scalable: %v", err)
	}
	if _, err := BlockedEstimateError(1000, 10, 3, 512); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("bad blocked: %v", err)
	}
	if _, err := SplitBlockEstimateError(300, 10); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("bad split-block: %v", err)
	}
	// Extreme but valid inputs give values, not panics: a huge filter at a
	// huge load, an overflowing number of choices, one cell.
	for _, tc := range []struct {
		f FillEstimator
		n uint64
	}{
		{FillEstimator{Bits: MaxBits, Hashes: 64}, math.MaxUint64},
		{FillEstimator{Bits: 1, Hashes: 1}, 3},
		{FillEstimator{Bits: 4, Hashes: 4, Partitioned: true}, 2},
		{FillEstimator{Bits: 1 << 40, Hashes: 7}, 1 << 38},
	} {
		e, err := tc.f.Error(tc.n)
		if err != nil || math.IsNaN(e.Saturated) {
			t.Errorf("%+v n=%d: %+v, %v", tc.f, tc.n, e, err)
		}
	}
	// Filters certain to be saturated, or likely to be, have no finite
	// estimate to describe: NaN moments, Saturated near 1, at once.
	for _, e := range []EstimateError{
		must(FillEstimator{Bits: MaxBits, Hashes: MaxHashes}.Error(math.MaxUint64)),
		must(BlockedEstimateError(1<<20, 1<<62, 7, 512)),
		must(BlockedEstimateError(1<<20, 1<<27, 1, 64)),
		must(SplitBlockEstimateError(256, math.MaxUint64)),
		must(SplitBlockEstimateError(256, 300)),
	} {
		if !math.IsNaN(e.Bias) || !math.IsNaN(e.StdDev) || e.Saturated < 0.5 {
			t.Errorf("saturated filter: %+v, want NaN moments", e)
		}
	}
}

func must(e EstimateError, err error) EstimateError {
	if err != nil {
		panic(err)
	}
	return e
}

// TestCardinalityEmptyAndSaturated checks the ends: no items give an exact
// zero; one cell that any item fills is saturated.
func TestCardinalityEmptyAndSaturated(t *testing.T) {
	t.Parallel()
	for _, f := range []FillEstimator{{Bits: 1000, Hashes: 7}, {Bits: 1001, Hashes: 7, Partitioned: true}, {Bits: 1 << 40, Hashes: 7}} {
		e, err := f.Error(0)
		if err != nil || e.Bias != 0 || e.StdDev != 0 || e.Saturated != 0 {
			t.Errorf("%+v at 0 items: %+v, %v", f, e, err)
		}
	}
	b, errB := BlockedEstimateError(1024, 0, 3, 512)
	s, errS := SplitBlockEstimateError(1024, 0)
	if b != (EstimateError{}) || s != (EstimateError{}) || errB != nil || errS != nil {
		t.Errorf("blocked at 0 items: %+v, %v; split-block %+v, %v", b, errB, s, errS)
	}
	e, _ := FillEstimator{Bits: 1, Hashes: 1}.Error(1)
	if e.Saturated != 1 || !math.IsNaN(e.Bias) || !math.IsNaN(e.StdDev) {
		t.Errorf("one cell, one item: %+v, want saturated for sure", e)
	}
}

// TestErrors checks the one-pass form against separate calls, in any
// order of the counts, exact and delta alike.
func TestErrors(t *testing.T) {
	t.Parallel()
	for _, f := range []FillEstimator{{Bits: 1024, Hashes: 5}, {Bits: 1025, Hashes: 5, Partitioned: true}, {Bits: 95851, Hashes: 7}} {
		ns := []uint64{300, 0, 50, 1000, 300, 7, 30000}
		got, err := f.Errors(ns)
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range ns {
			want, _ := f.Error(n)
			if got[i].Exact != want.Exact && n < 30000 {
				t.Errorf("%+v n=%d: exact %v, separately %v", f, n, got[i].Exact, want.Exact)
			}
			same := func(a, b float64) bool {
				return math.IsNaN(a) && math.IsNaN(b) || scalar.EqualWithinAbsOrRel(a, b, 1e-9, 1e-6)
			}
			if !same(got[i].Bias, want.Bias) || !same(got[i].StdDev, want.StdDev) || !same(got[i].Saturated, want.Saturated) {
				t.Errorf("%+v n=%d: %+v, separately %+v", f, n, got[i], want)
			}
		}
	}
	if _, err := (FillEstimator{}).Errors([]uint64{1}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("invalid estimator: %v", err)
	}
	f := FillEstimator{Bits: 2048, Hashes: 4, Partitioned: true}
	shares := []uint64{0, 100, 50, 200}
	all, err := f.SetErrors(200, 300, shares)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range shares {
		one, _ := f.SetError(200, 300, s)
		if all[i] != one {
			t.Errorf("shared %d: %+v, alone %+v", s, all[i], one)
		}
	}
	if _, err := f.SetErrors(200, 300, []uint64{10, 201}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("shared > a: %v", err)
	}
}

func TestLimit(t *testing.T) {
	t.Parallel()
	f := FillEstimator{Bits: 95851, Hashes: 7}
	n, err := f.Limit(MinEmptyCells)
	if err != nil {
		t.Fatal(err)
	}
	fm := f.model()
	if mu := fm.mean(float64(n)); mu < MinEmptyCells || fm.mean(float64(n+1)) >= MinEmptyCells {
		t.Errorf("Limit = %d: %v empty cells expected there, %v one item later", n, mu, fm.mean(float64(n+1)))
	}
	if n, _ := f.Limit(1e6); n != 0 {
		t.Errorf("Limit(1e6) = %d, want 0", n)
	}
}

// TestScalableEstimateError checks that a scalable filter's error is that
// of its stages added up, and equals the first stage's within it.
func TestScalableEstimateError(t *testing.T) {
	t.Parallel()
	s := Scalable{P: 0.01, R: 0.9, S: 2, N0: 100}
	stages, _ := s.Stages(1000)
	var bias, variance float64
	left := uint64(1000)
	for _, st := range stages {
		ni := min(left, st.Capacity)
		left -= ni
		e, _ := FillEstimator{Bits: st.Bits, Hashes: st.Hashes, Partitioned: true}.Error(ni)
		bias += e.Bias
		variance += e.StdDev * e.StdDev
	}
	got, err := s.EstimateError(1000)
	if err != nil || !got.Exact || !scalar.EqualWithinRel(got.Bias, bias, 1e-12) || !scalar.EqualWithinRel(got.StdDev, math.Sqrt(variance), 1e-12) {
		t.Errorf("EstimateError(1000) = %+v, %v; want bias %v, sd %v", got, err, bias, math.Sqrt(variance))
	}
	st0, _ := s.Stage(0)
	one, _ := FillEstimator{Bits: st0.Bits, Hashes: st0.Hashes, Partitioned: true}.Error(60)
	if got, _ := s.EstimateError(60); got != one {
		t.Errorf("within the first stage: %+v, want %+v", got, one)
	}
	counts := []uint64{1000, 60, 0, 250}
	all, err := s.EstimateErrors(counts)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range counts {
		alone, _ := s.EstimateError(n)
		if !scalar.EqualWithinAbsOrRel(all[i].Bias, alone.Bias, 1e-12, 1e-9) || !scalar.EqualWithinAbsOrRel(all[i].StdDev, alone.StdDev, 1e-12, 1e-9) || all[i].Exact != alone.Exact {
			t.Errorf("n=%d: %+v, alone %+v", n, all[i], alone)
		}
	}
}
