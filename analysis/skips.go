package analysis

import "math"

// A growing filter (variants.Scalable, RedisBloom's chain) adds a key only
// when it tests absent, and counts only the keys it adds. A key that tests
// present in the stage being filled finds all its bits there set already:
// adding it would change nothing, so skipping it leaves the stage exactly
// as a filter that had added it. The stage that holds C items has
// therefore been offered T >= C distinct keys, and its rate is the rate of
// a stage of T keys, not of C. Keys that test present only in an older
// stage never reach the stage being filled and do not count: they change
// nothing here.
//
// The t-th key offered to the stage is added with probability
// 1 - f(t - 1), f(t) the stage's exact expected rate after t keys, so the
// expected number of items after T keys is exactly T - S(T), S(T) the sum
// of f(0) .. f(T - 1). skippingRate solves T - S(T) = C for T (the mean of
// the stopping time, replacing the random T by its mean: the spread of T
// is about sqrt(S), a few keys, and changes the rate by a part in 10^6 or
// less at the sizes where the effect is visible) and returns f(T). The
// effect is about C times the mean rate over the stage's filling:
// +0.17% keys and +0.8% in the rate for a stage of rate 1% and 7 hashes,
// +1.3% keys and +3.7% for a stage of 5% and 4 hashes, under 0.1% in the
// rate below 0.1%; paper-notes.md, "Keys that test present are not added".

// maxExactSkipSum is the largest stage load for which skippingRate sums
// S(T) term by term; above it S is an integral by Gauss–Legendre
// quadrature with the Euler–Maclaurin end correction.
const maxExactSkipSum = 64

// skippingRate returns the expected rate of a stage holding c items of a
// filter that skips keys that test present, where rate(n) is the stage's
// rate after n keys all added (see above). It returns rate(c) itself when
// the keys skipped are expected to number below 10^-6.
func skippingRate(c uint64, rate func(n uint64) float64) float64 {
	t, ok := offeredKeys(c, rate, rate)
	if !ok {
		return rate(c)
	}
	return rateAt(t, rate)
}

// offeredKeys returns T, the keys a stage holding c items was offered
// (see skippingRate), and true; or c and false when the keys skipped are
// expected to number below 10^-6, or rate(c) is 0 or NaN. The sum S is
// taken of integrand, rate itself or a cheaper form of it: S is a small
// part of T, so a relative error e in it moves T by e S.
func offeredKeys(c uint64, rate, integrand func(n uint64) float64) (float64, bool) {
	fc := rate(c)
	if c == 0 || !(fc > 0) || float64(c)*fc < 1e-6 {
		return float64(c), false
	}
	at := func(x float64) float64 { return rateAt(x, integrand) }
	t := float64(c)
	s := skipSum(t, integrand)
	// T = C + S(T): S' = f <= 1/2 here, so each step at least halves the
	// distance; the increments after the first are a trapezoid of f.
	next := float64(c) + s
	for range 8 {
		s += (next - t) * (at(t) + at(next)) / 2
		t, next = next, float64(c)+s
		if math.Abs(next-t) <= 1e-9*t {
			break
		}
	}
	return next, true
}

// rateAt is rate at a real count of keys, linear between the integers.
func rateAt(x float64, rate func(n uint64) float64) float64 {
	lo := math.Floor(x)
	f := rate(uint64(lo))
	if x == lo {
		return f
	}
	return f + (x-lo)*(rate(uint64(lo)+1)-f)
}

// skipSum returns S(t) = f(0) + ... + f(t - 1) for a whole t: term by term
// up to maxExactSkipSum, else the integral of f over [0, t] less
// (f(t) - f(0))/2.
func skipSum(t float64, rate func(uint64) float64) float64 {
	n := uint64(t)
	if n <= maxExactSkipSum {
		var s float64
		for i := range n {
			s += rate(i)
		}
		return s
	}
	// Above 2^20 keys the nodes are rounded to whole keys: half a key off
	// in f's argument moves the integral by a part in 2^21 of itself at
	// most, and the integral is itself a small part of T.
	var integral float64
	for i, x := range skipNodes {
		if y := t * (1 + x) / 2; t < 1<<20 {
			integral += skipWeights[i] * rateAt(y, rate)
		} else {
			integral += skipWeights[i] * rate(uint64(math.Round(y)))
		}
	}
	integral *= t / 2
	return integral - (rate(n)-rate(0))/2
}

// skipNodes and skipWeights are the 32-point Gauss–Legendre rule on
// [-1, 1], exact for polynomials of degree 63: a stage's rate after t keys
// is close to (1 - e^(-a t))^k, smooth.
var skipNodes, skipWeights = legendreRule(32)

// legendreRule returns the nodes and weights of the n-point Gauss–Legendre
// rule, by Newton's method on the Legendre polynomial P_n.
func legendreRule(n int) (nodes, weights []float64) {
	nodes = make([]float64, n)
	weights = make([]float64, n)
	for i := range n {
		x := math.Cos(math.Pi * (float64(i) + 0.75) / (float64(n) + 0.5))
		var dp float64
		for range 100 {
			p0, p1 := 1.0, x
			for j := 2; j <= n; j++ {
				p0, p1 = p1, ((2*float64(j)-1)*x*p1-(float64(j)-1)*p0)/float64(j)
			}
			dp = float64(n) * (x*p1 - p0) / (x*x - 1)
			dx := p1 / dp
			x -= dx
			if math.Abs(dx) < 1e-16 {
				break
			}
		}
		nodes[i] = x
		weights[i] = 2 / ((1 - x*x) * dp * dp)
	}
	return nodes, weights
}

// blockedRate returns n -> [BlockedFPR](m, n, k, blockBits) with the inner
// rates computed once for all the calls, as skippingRate makes many.
func blockedRate(m uint64, k int, blockBits uint64) func(n uint64) float64 {
	if badBlocked(m, blockBits, k) {
		return func(uint64) float64 { return math.NaN() }
	}
	ir := newInnerRates(blockBits, k)
	return func(n uint64) float64 {
		if n == 0 {
			return 0
		}
		return blockedFPR(loadTable(n, m/blockBits), blockBits, k, ir)
	}
}
