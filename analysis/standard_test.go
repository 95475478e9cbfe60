package analysis

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// exactFPRStirling returns E[(X/m)^k] after t = kn probes as an exact
// rational, from the occupancy distribution
// P(X = j) = C(m,j) j! S(t,j) / m^t (S = Stirling numbers of the second
// kind), so that
// E[(X/m)^k] = sum_j m!/(m-j)! S(t,j) j^k / m^(t+k).
// It is independent of the code under test: a different formula, in exact
// integer arithmetic.
func exactFPRStirling(m, n uint64, k int) *big.Rat {
	t := int(n) * k
	mm := int(m)
	// row[j] = S(i, j) for the current i, j = 0..min(i, m).
	row := make([]*big.Int, mm+1)
	for j := range row {
		row[j] = new(big.Int)
	}
	row[0].SetInt64(1) // S(0,0) = 1
	tmp := new(big.Int)
	for i := 1; i <= t; i++ {
		top := min(i, mm)
		for j := top; j >= 1; j-- {
			// S(i,j) = j S(i-1,j) + S(i-1,j-1)
			tmp.Mul(row[j], big.NewInt(int64(j)))
			row[j].Add(tmp, row[j-1])
		}
		row[0].SetInt64(0)
	}
	num := new(big.Int)
	fall := big.NewInt(1) // m!/(m-j)!
	for j := 1; j <= mm; j++ {
		fall.Mul(fall, big.NewInt(int64(mm-j+1)))
		term := new(big.Int).Mul(fall, row[j])
		term.Mul(term, new(big.Int).Exp(big.NewInt(int64(j)), big.NewInt(int64(k)), nil))
		num.Add(num, term)
	}
	den := new(big.Int).Exp(big.NewInt(int64(mm)), big.NewInt(int64(t+k)), nil)
	return new(big.Rat).SetFrac(num, den)
}

// exactFPRInclusionExclusion returns E[(X/m)^k] in 600-bit floating point by
// inclusion and exclusion over the query positions:
// E[(X/m)^k] = sum_d S(k,d) m!/(m-d)!/m^k * sum_i (-1)^i C(d,i) (1-i/m)^(kn).
// The alternating sum cancels catastrophically in float64 but is harmless
// at 600 bits (it loses at most k bits). Independent of the code under test.
func exactFPRInclusionExclusion(m, n uint64, k int) float64 {
	const prec = 600
	t := n * uint64(k)
	newF := func() *big.Float { return new(big.Float).SetPrec(prec) }
	mF := newF().SetUint64(m)
	// Stirling numbers S(k, d).
	st := make([]*big.Int, k+1)
	for d := range st {
		st[d] = new(big.Int)
	}
	st[0].SetInt64(1)
	for i := 1; i <= k; i++ {
		for d := i; d >= 1; d-- {
			x := new(big.Int).Mul(st[d], big.NewInt(int64(d)))
			st[d].Add(x, st[d-1])
		}
		st[0].SetInt64(0)
	}
	// pw[i] = (1 - i/m)^t by binary powering at 600 bits.
	pw := make([]*big.Float, k+1)
	for i := 0; i <= k; i++ {
		base := newF().Quo(newF().SetInt64(int64(i)), mF)
		base.Sub(newF().SetInt64(1), base)
		if base.Sign() < 0 {
			base.SetInt64(0)
		}
		r := newF().SetInt64(1)
		for e := t; e > 0; e >>= 1 {
			if e&1 == 1 {
				r.Mul(r, base)
			}
			base.Mul(base, base)
		}
		pw[i] = r
	}
	sum := newF()
	for d := 1; d <= k && uint64(d) <= m; d++ {
		// q_d = sum_i (-1)^i C(d,i) (1-i/m)^t
		q := newF()
		c := big.NewInt(1)
		for i := 0; i <= d; i++ {
			term := newF().Mul(newF().SetInt(c), pw[i])
			if i%2 == 1 {
				q.Sub(q, term)
			} else {
				q.Add(q, term)
			}
			c.Mul(c, big.NewInt(int64(d-i)))
			c.Quo(c, big.NewInt(int64(i+1)))
		}
		// P(D = d) = S(k,d) m (m-1)...(m-d+1) / m^k
		p := newF().SetInt(st[d])
		for j := 0; j < d; j++ {
			p.Mul(p, newF().SetUint64(m-uint64(j)))
		}
		for j := 0; j < k; j++ {
			p.Quo(p, mF)
		}
		sum.Add(sum, p.Mul(p, q))
	}
	f, _ := sum.Float64()
	return f
}

func TestExactFPRStirling(t *testing.T) {
	t.Parallel()
	// Reference: exact rationals from the Stirling-number formula, computed
	// in this test via math/big (exactFPRStirling).
	cases := []struct {
		m, n uint64
		k    int
	}{
		{16, 1, 1}, {16, 2, 3}, {16, 4, 2}, {16, 16, 4}, {16, 3, 7},
		{24, 5, 3}, {32, 4, 5}, {32, 8, 3}, {40, 10, 6}, {48, 6, 4},
		{64, 8, 4}, {64, 8, 6}, {64, 16, 3}, {64, 4, 11}, {64, 1, 20}, {64, 32, 5},
		{1, 3, 2}, {2, 1, 3}, {3, 2, 4},
	}
	for _, c := range cases {
		want, _ := exactFPRStirling(c.m, c.n, c.k).Float64()
		got := ExactFPR(c.m, c.n, c.k)
		if !scalar.EqualWithinAbsOrRel(got, want, 0, 1e-13) {
			t.Errorf("ExactFPR(%d, %d, %d) = %.17g, want %.17g (rel err %.2g)",
				c.m, c.n, c.k, got, want, math.Abs(got/want-1))
		}
		// Both ways of computing the coverage probabilities agree with the
		// rationals, whichever ExactFPR picked.
		for _, square := range []bool{false, true} {
			got := exactFPRUsing(c.m, c.n*uint64(c.k), c.k, square)
			if !scalar.EqualWithinAbsOrRel(got, want, 0, 1e-13) {
				t.Errorf("exactFPRUsing(%d, %d, %d, square=%v) = %.17g, want %.17g",
					c.m, c.n*uint64(c.k), c.k, square, got, want)
			}
		}
	}
}

func TestExactFPRInclusionExclusion(t *testing.T) {
	t.Parallel()
	// Reference: inclusion-exclusion in 600-bit floating point, computed in
	// this test via math/big (exactFPRInclusionExclusion). These cases reach
	// the sizes where ExactFPR uses repeated squaring over many probes.
	cases := []struct {
		m, n uint64
		k    int
	}{
		{100_000, 10_000, 7},
		{100_000, 5_000, 14},
		{1 << 20, 1 << 17, 6},
		{1 << 20, 20_000, 30},
		{5000, 500, 20},
		{1000, 10, 64},
		{1000, 2000, 3},
		{77, 9, 5},
		{1 << 28, 1 << 24, 11},
		{1 << 32, 1 << 26, 30},
		{1 << 44, 1 << 40, 7},
	}
	worst := 0.0
	for _, c := range cases {
		want := exactFPRInclusionExclusion(c.m, c.n, c.k)
		// The exact path, also above ExactMaxBits where ExactFPR would use
		// the expansion.
		got, ok := exactFPR(c.m, c.n*uint64(c.k), c.k)
		if !ok {
			t.Fatalf("m=%d n=%d k=%d over budget", c.m, c.n, c.k)
		}
		rel := math.Abs(got/want - 1)
		worst = math.Max(worst, rel)
		if !scalar.EqualWithinAbsOrRel(got, want, 0, 1e-13) {
			t.Errorf("exact FPR(%d, %d, %d) = %.17g, want %.17g (rel err %.2g)",
				c.m, c.n, c.k, got, want, rel)
		}
	}
	t.Logf("largest relative error %.2g", worst)
}

func BenchmarkExactFPR(b *testing.B) {
	for _, c := range []struct {
		name string
		m, n uint64
		k    int
	}{
		{"m=1e5/n=1e4/k=7", 100_000, 10_000, 7},
		{"m=2^32/n=2^28/k=11", 1 << 32, 1 << 28, 11},
		{"m=2^32/n=2^26/k=45", 1 << 32, 1 << 26, 45},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				ExactFPR(c.m, c.n, c.k)
			}
		})
	}
}

func TestExactAsymptoticAgreement(t *testing.T) {
	t.Parallel()
	// The asymptotic expansion used above ExactMaxBits against the exact
	// computation, on the grid quoted in the ExactFPR doc comment: m from
	// 2^12 to 2^32, m/n from 2 to 32, k from 1 to twice the optimum. The
	// largest relative difference at each m is logged; its m^2 scaling is
	// checked (the expansion's error is O(1/m^2)), and at ExactMaxBits,
	// where ExactFPR switches, it must be at float64 rounding level.
	var prev float64
	for lm := 12; lm <= 32; lm += 4 {
		m := uint64(1) << lm
		worst := 0.0
		for _, bpe := range []uint64{2, 4, 8, 16, 32} {
			n := m / bpe
			opt := OptimalHashes(m, n)
			for k := 1; k <= 2*opt; k++ {
				e, ok := exactFPR(m, n*uint64(k), k)
				if !ok {
					t.Fatalf("exact computation over budget at m=%d n=%d k=%d", m, n, k)
				}
				a := asymptoticFPR(m, n, k)
				worst = math.Max(worst, math.Abs(a/e-1))
			}
		}
		t.Logf("m = 2^%d: largest relative difference %.2g", lm, worst)
		if prev != 0 && worst > 1e-13 && !(worst < prev/100) {
			// Each step multiplies m by 16; O(1/m^2) divides by 256.
			t.Errorf("m = 2^%d: difference %.2g did not fall like 1/m^2 from %.2g", lm, worst, prev)
		}
		if m == ExactMaxBits && worst > 1e-14 {
			t.Errorf("at ExactMaxBits the expansion differs by %.2g, want rounding level", worst)
		}
		prev = worst
	}
}

func TestExactFPRAboveThreshold(t *testing.T) {
	t.Parallel()
	// Above ExactMaxBits ExactFPR uses the expansion; compare with 600-bit
	// inclusion-exclusion (exactFPRInclusionExclusion, this file).
	for _, c := range []struct {
		m, n uint64
		k    int
	}{
		{1 << 33, 1 << 30, 6},
		{1 << 40, 1 << 36, 11},
		{1<<44 + 12345, 1 << 40, 7},
	} {
		want := exactFPRInclusionExclusion(c.m, c.n, c.k)
		got := ExactFPR(c.m, c.n, c.k)
		if !scalar.EqualWithinAbsOrRel(got, want, 0, 1e-14) {
			t.Errorf("ExactFPR(%d, %d, %d) = %.17g, want %.17g", c.m, c.n, c.k, got, want)
		}
	}
}

func TestRateOrdering(t *testing.T) {
	t.Parallel()
	// ExactFPR >= BloomFPR (Jensen: x^k is convex and E[X/m] is the Bloom
	// fill) >= ClassicFPR ((1-1/m)^(kn) <= e^(-kn/m)), over a grid.
	for _, m := range []uint64{1, 2, 7, 16, 100, 1000, 65536, 1 << 30, 1 << 40} {
		for _, n := range []uint64{1, 2, 3, 10, 100, 1000, 100_000} {
			for _, k := range []int{1, 2, 3, 5, 8, 13, 30} {
				c, b, e := ClassicFPR(m, n, k), BloomFPR(m, n, k), ExactFPR(m, n, k)
				if b < c*(1-1e-14) {
					t.Errorf("m=%d n=%d k=%d: BloomFPR %g < ClassicFPR %g", m, n, k, b, c)
				}
				if e < b*(1-1e-12) {
					t.Errorf("m=%d n=%d k=%d: ExactFPR %g < BloomFPR %g", m, n, k, e, b)
				}
				if e > 1 || c < 0 {
					t.Errorf("m=%d n=%d k=%d: rates out of [0,1]: %g %g %g", m, n, k, c, b, e)
				}
			}
		}
	}
}

func TestExactOverClassicTendsToOne(t *testing.T) {
	t.Parallel()
	// At fixed m/n = 8 and k = 6 the exact rate approaches the classic one
	// as m grows, monotonically, with the gap shrinking like 1/m.
	prev := math.Inf(1)
	for lm := 6; lm <= 36; lm += 2 {
		m := uint64(1) << lm
		gap := ExactFPR(m, m/8, 6)/ClassicFPR(m, m/8, 6) - 1
		if !(gap > 0 && gap < prev) {
			t.Errorf("m = 2^%d: ExactFPR/ClassicFPR - 1 = %.3g, want positive and below %.3g", lm, gap, prev)
		}
		prev = gap
	}
	if prev > 1e-9 {
		t.Errorf("at m = 2^36 the gap is still %.3g", prev)
	}
}

func TestSmallHandCases(t *testing.T) {
	t.Parallel()
	// Hand-evaluated cases.
	cases := []struct {
		name string
		got  float64
		want float64
	}{
		// m = 4, n = 1, k = 2: the two probes hit one bit (prob 1/4) or two
		// (3/4): E[(X/4)^2] = (1/4)(1/16) + (3/4)(4/16) = 13/64.
		{"ExactFPR(4,1,2)", ExactFPR(4, 1, 2), 13.0 / 64},
		// Bloom: fill 1 - (3/4)^2 = 7/16, rate 49/256.
		{"BloomFPR(4,1,2)", BloomFPR(4, 1, 2), 49.0 / 256},
		{"ExpectedFill(4,1,2)", ExpectedFill(4, 1, 2), 7.0 / 16},
		// Classic with kn/m = 1: (1 - 1/e)^7, 1/e = 0.36787944117144233
		// (published constant).
		{"ClassicFPR(700,100,7)", ClassicFPR(700, 100, 7), math.Pow(1-0.36787944117144233, 7)},
		// k = 1: the exact rate is the expected fill.
		{"ExactFPR(10,3,1)", ExactFPR(10, 3, 1), 1 - 0.9*0.9*0.9},
		// One bit: after any item it is set.
		{"ExactFPR(1,1,3)", ExactFPR(1, 1, 3), 1},
		{"BloomFPR(1,5,2)", BloomFPR(1, 5, 2), 1},
		{"FPRFromFill(0.5,3)", FPRFromFill(0.5, 3), 0.125},
		{"ClassicFPR(n=0)", ClassicFPR(100, 0, 3), 0},
		{"BloomFPR(n=0)", BloomFPR(100, 0, 3), 0},
		{"ExactFPR(n=0)", ExactFPR(100, 0, 3), 0},
		{"ExactFPR(n=0, huge m)", ExactFPR(1<<40, 0, 3), 0},
	}
	for _, c := range cases {
		if !scalar.EqualWithinAbsOrRel(c.got, c.want, 1e-300, 1e-14) {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
}

func TestInvalidGeometry(t *testing.T) {
	t.Parallel()
	for _, f := range []struct {
		name string
		fn   func(m, n uint64, k int) float64
	}{
		{"ClassicFPR", ClassicFPR}, {"BloomFPR", BloomFPR}, {"ExactFPR", ExactFPR},
		{"ExpectedFill", ExpectedFill}, {"PartitionedFPR", PartitionedFPR},
		{"PartitionedFill", PartitionedFill},
	} {
		for _, g := range []struct {
			m uint64
			k int
		}{{0, 3}, {100, 0}, {100, -1}} {
			if v := f.fn(g.m, 10, g.k); !math.IsNaN(v) {
				t.Errorf("%s(%d, 10, %d) = %v, want NaN", f.name, g.m, g.k, v)
			}
		}
	}
	for _, fill := range []float64{-0.1, 1.1, math.NaN()} {
		if v := FPRFromFill(fill, 2); !math.IsNaN(v) {
			t.Errorf("FPRFromFill(%v, 2) = %v, want NaN", fill, v)
		}
	}
	if v := FPRFromFill(0.5, 0); !math.IsNaN(v) {
		t.Errorf("FPRFromFill(0.5, 0) = %v, want NaN", v)
	}
	for _, g := range []struct {
		m  uint64
		k  int
		ok bool
	}{{1, 1, true}, {1 << 48, MaxHashes, true}, {0, 1, false}, {10, 0, false}, {10, MaxHashes + 1, false}} {
		err := checkGeometry(g.m, 5, g.k)
		if (err == nil) != g.ok {
			t.Errorf("checkGeometry(%d, 5, %d) = %v, want ok=%v", g.m, g.k, err, g.ok)
		}
		if err != nil && (!errors.Is(err, ErrInvalidParams) || !strings.HasPrefix(err.Error(), "analysis: ")) {
			t.Errorf("checkGeometry error %q does not wrap ErrInvalidParams with the package prefix", err)
		}
	}
}

func TestExactFPRHugeProbes(t *testing.T) {
	t.Parallel()
	// k n overflows uint64: every bit is set.
	if v := ExactFPR(1000, 1<<62, 8); v != 1 {
		t.Errorf("ExactFPR with 2^65 probes = %v, want 1", v)
	}
	// A very large k that exceeds the exact budget still answers (by the
	// expansion) with a rate between Bloom's and 1.
	v := ExactFPR(1<<20, 1<<14, 4000)
	if b := BloomFPR(1<<20, 1<<14, 4000); !(v >= b && v <= 1) {
		t.Errorf("ExactFPR(2^20, 2^14, 4000) = %g, Bloom %g", v, b)
	}
}
