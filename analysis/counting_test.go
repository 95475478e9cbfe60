package analysis

import (
	"math"
	"math/big"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// binomialRat returns P[Bin(trials, 1/m) = j] for j = 0..trials as exact
// rationals: C(trials, j) (m-1)^(trials-j) / m^trials.
func binomialRat(trials int64, m int64) []*big.Rat {
	out := make([]*big.Rat, trials+1)
	den := new(big.Int).Exp(big.NewInt(m), big.NewInt(trials), nil)
	for j := int64(0); j <= trials; j++ {
		num := new(big.Int).Binomial(trials, j)
		num.Mul(num, new(big.Int).Exp(big.NewInt(m-1), big.NewInt(trials-j), nil))
		out[j] = new(big.Rat).SetFrac(num, den)
	}
	return out
}

func TestCounterDistributionRational(t *testing.T) {
	t.Parallel()
	// Reference: the binomial distribution in exact rationals via
	// math/big (binomialRat), with the tail summed exactly.
	for _, c := range []struct {
		m, n uint64
		k    int
		max  int
	}{{10, 3, 2, 4}, {10, 3, 2, 6}, {10, 3, 2, 9}, {7, 20, 3, 15}, {50, 40, 5, 16}, {3, 4, 1, 0}} {
		trials := int64(c.n) * int64(c.k)
		ref := binomialRat(trials, int64(c.m))
		got := CounterDistribution(c.m, c.n, c.k, c.max)
		if len(got) != c.max+1 {
			t.Fatalf("len = %d, want %d", len(got), c.max+1)
		}
		for j := 0; j <= c.max; j++ {
			w := new(big.Rat)
			if j < c.max {
				if int64(j) <= trials {
					w.Set(ref[j])
				}
			} else {
				for i := int64(j); i <= trials; i++ {
					w.Add(w, ref[i])
				}
			}
			wf, _ := w.Float64()
			if !scalar.EqualWithinAbsOrRel(got[j], wf, 1e-300, 1e-12) {
				t.Errorf("CounterDistribution(%d, %d, %d, %d)[%d] = %.17g, want %.17g",
					c.m, c.n, c.k, c.max, j, got[j], wf)
			}
		}
	}
}

func TestPoissonCounterDistribution(t *testing.T) {
	t.Parallel()
	// Reference: Poisson(1), P[0] = P[1] = 1/e, P[2] = 1/(2e),
	// 1/e = 0.36787944117144233 (published constant); tail P[>=3] =
	// 1 - 2.5/e.
	e1 := 0.36787944117144233
	got := PoissonCounterDistribution(1, 3)
	want := []float64{e1, e1, e1 / 2, 1 - 2.5*e1}
	for j := range want {
		if !scalar.EqualWithinAbsOrRel(got[j], want[j], 0, 1e-14) {
			t.Errorf("Poisson(1)[%d] = %.17g, want %.17g", j, got[j], want[j])
		}
	}
	// A deep tail: P[>= 16] for lambda = ln 2, the load of an optimally
	// filled counting filter. Reference: the series sum_{j>=16}
	// e^-l l^j/j! in 300-bit floating point via math/big.
	lam := bigF(ln2Digits)
	term := new(big.Float).SetPrec(300).SetInt64(1) // l^j/j!
	for j := 1; j <= 16; j++ {
		term.Mul(term, lam)
		term.Quo(term, big.NewFloat(float64(j)))
	}
	sum := new(big.Float).SetPrec(300)
	for j := 16; j < 200; j++ {
		sum.Add(sum, term)
		term.Mul(term, lam)
		term.Quo(term, big.NewFloat(float64(j+1)))
	}
	// times e^-ln2 = 1/2
	sum.Quo(sum, big.NewFloat(2))
	wantTail, _ := sum.Float64()
	d := PoissonCounterDistribution(math.Ln2, 16)
	if !scalar.EqualWithinAbsOrRel(d[16], wantTail, 0, 1e-12) {
		t.Errorf("Poisson(ln 2)[>=16] = %.17g, want %.17g", d[16], wantTail)
	}
	// Large lambda: the entries still sum to 1 (to the documented accuracy
	// of about 1e-16 x lambda) and the mode is right.
	d = PoissonCounterDistribution(5000, 6000)
	var s float64
	mode := 0
	for j, v := range d {
		s += v
		if v > d[mode] {
			mode = j
		}
	}
	if !scalar.EqualWithinAbsOrRel(s, 1, 0, 1e-10) || mode != 4999 && mode != 5000 {
		t.Errorf("Poisson(5000): sum %v, mode %d", s, mode)
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if PoissonCounterDistribution(bad, 3) != nil {
			t.Errorf("PoissonCounterDistribution(%v) not nil", bad)
		}
	}
	if PoissonCounterDistribution(1, -1) != nil || PoissonCounterDistribution(1, MaxCounterValue+1) != nil {
		t.Error("bad max accepted")
	}
	if d := PoissonCounterDistribution(0, 2); d[0] != 1 || d[1] != 0 || d[2] != 0 {
		t.Errorf("Poisson(0) = %v", d)
	}
}

func TestCounterDistributionLargeLoad(t *testing.T) {
	t.Parallel()
	// With m = 1e9 counters and kn = 7e8 increments the binomial is
	// Poisson(0.7) to within O(j^2/kn + 1/m) relative; the two are computed
	// by different code (log-binomial sums versus log-gamma), so their
	// agreement checks both, far into the tail.
	b := CounterDistribution(1_000_000_000, 100_000_000, 7, 20)
	p := PoissonCounterDistribution(0.7, 20)
	for j := range b {
		if !scalar.EqualWithinAbsOrRel(b[j], p[j], 0, 1e-6) {
			t.Errorf("[%d]: binomial %.10g, Poisson %.10g", j, b[j], p[j])
		}
	}
	// Huge numbers of increments: sums to 1, no NaN.
	d := CounterDistribution(1<<40, 1<<50, 5, 8000)
	var s float64
	for _, v := range d {
		if math.IsNaN(v) {
			t.Fatal("NaN entry")
		}
		s += v
	}
	if !scalar.EqualWithinAbsOrRel(s, 1, 0, 1e-9) {
		t.Errorf("sum %v", s)
	}
	if CounterDistribution(0, 1, 1, 3) != nil || CounterDistribution(1, 1, 0, 3) != nil || CounterDistribution(1, 1, 1, -1) != nil {
		t.Error("invalid input accepted")
	}
	// One counter takes every increment.
	if d := CounterDistribution(1, 3, 2, 10); d[6] != 1 || d[5] != 0 || d[10] != 0 {
		t.Errorf("m = 1: %v", d)
	}
	if d := CounterDistribution(1, 3, 2, 4); d[4] != 1 {
		t.Errorf("m = 1, max 4: %v", d)
	}
	if d := CounterDistribution(5, 0, 2, 3); d[0] != 1 {
		t.Errorf("n = 0: %v", d)
	}
}

func TestSaturationProbability(t *testing.T) {
	t.Parallel()
	// Hand-evaluated: m = 2 counters, one increment, width 1 (maximum 1):
	// each counter reaches 1 with probability 1/2, so the independent
	// model gives 1 - (1/2)^2 = 3/4. (The truth is 1: exactly one counter
	// is hit. The product form is the documented lower bound.)
	if got := SaturationProbability(2, 1, 1, 1); !scalar.EqualWithinAbsOrRel(got, 0.75, 0, 1e-15) {
		t.Errorf("SaturationProbability(2, 1, 1, 1) = %v, want 3/4", got)
	}
	// One counter with 3 increments and width 2 (maximum 3) saturates.
	if got := SaturationProbability(1, 3, 1, 2); got != 1 {
		t.Errorf("SaturationProbability(1, 3, 1, 2) = %v, want 1", got)
	}
	// Small probabilities: equal to the union bound m P[c >= 15] to first
	// order, with P from CounterDistribution.
	m, n, k := uint64(1_000_000), uint64(100_000), 7
	tail := CounterDistribution(m, n, k, 15)[15]
	got := SaturationProbability(m, n, k, 4)
	if !scalar.EqualWithinAbsOrRel(got, float64(m)*tail, 0, 1e-6) || got > float64(m)*tail {
		t.Errorf("SaturationProbability = %.10g, union bound %.10g", got, float64(m)*tail)
	}
	// Wider counters saturate less; width 64 never.
	if w5 := SaturationProbability(m, n, k, 5); !(w5 < got) {
		t.Errorf("width 5: %g not below width 4: %g", w5, got)
	}
	if v := SaturationProbability(m, n, k, 64); v != 0 {
		t.Errorf("width 64: %g", v)
	}
	for _, w := range []int{0, 65} {
		if v := SaturationProbability(m, n, k, w); !math.IsNaN(v) {
			t.Errorf("width %d: %v, want NaN", w, v)
		}
	}
}

func TestFanOverflowBound(t *testing.T) {
	t.Parallel()
	// Fan et al.'s constant: at k n / m = ln 2 and width 4 (j = 16) the
	// bound is m (e ln 2 / 16)^16 = 1.37e-15 m (as printed in the paper).
	// Reference: (e ln 2/16)^16 in 300-bit floating point from the
	// published digits of e and ln 2.
	x := new(big.Float).SetPrec(300).Mul(bigF(eDigits), bigF(ln2Digits))
	x.Quo(x, big.NewFloat(16))
	ref, _ := bigPow(x, 16).Float64()
	if roundSig(ref, 3) != 1.37e-15 {
		t.Fatalf("reference constant %.4g does not round to the printed 1.37e-15", ref)
	}
	// m = 1e9, k = 7, n = 99,021,026 gives kn/m = 0.693147182, within
	// 3e-9 of ln 2, so the bound per counter matches to about 16 x 3e-9.
	m, n, k := uint64(1_000_000_000), uint64(99_021_026), 7
	got := FanOverflowBound(m, n, k, 4) / float64(m)
	if !scalar.EqualWithinAbsOrRel(got, ref, 0, 1e-7) {
		t.Errorf("FanOverflowBound/m = %.6g, want %.6g", got, ref)
	}
	// The bound dominates the binomial probability of reaching 16.
	tail := CounterDistribution(m, n, k, 16)[16]
	if !(float64(m)*tail <= FanOverflowBound(m, n, k, 4)) {
		t.Errorf("union of binomial tails %g exceeds the bound %g", float64(m)*tail, FanOverflowBound(m, n, k, 4))
	}
	if FanOverflowBound(10, 0, 3, 4) != 0 || !math.IsNaN(FanOverflowBound(0, 1, 3, 4)) {
		t.Error("edge cases")
	}
}
