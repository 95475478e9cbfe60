package analysis

import (
	"math"
	"math/bits"
)

// The functions in this file give the false-positive rate of a standard
// Bloom filter of m bits and k hash functions holding n items, under the
// usual model: each item sets the bits at k independent, uniformly random
// positions (so two of an item's positions may coincide), and a query for an
// absent key tests k more such positions.
//
// They are pure formulas for a valid geometry. For m = 0 or k < 1 they
// return NaN, the invalid-input result of every rate function of this
// package that returns only a float64 (see the package documentation,
// "Invalid input"); the models ([Standard] and the others) turn such values
// into an error wrapping [ErrInvalidParams], so a caller with values from
// users asks the model (Standard{Bits: m, Hashes: k}.FPR(n)) or calls its
// Validate first. For n = 0 the rate is 0.

// checkGeometry reports an error unless m >= 1 and 1 <= k <= MaxHashes. Any
// n is valid, including 0.
func checkGeometry(m, n uint64, k int) error {
	if m == 0 {
		return invalid("bits m = 0, want m >= 1")
	}
	if k < 1 || k > MaxHashes {
		return invalid("hashes k = %d, want 1 <= k <= %d", k, MaxHashes)
	}
	return nil
}

// badGeometry reports whether the rate functions must return NaN.
func badGeometry(m uint64, k int) bool { return m == 0 || k < 1 }

// ClassicFPR returns the classic approximation (1 - e^(-kn/m))^k of the
// false-positive rate (Broder and Mitzenmacher 2004, section 2.1). It is
// the limit of the exact rate as m and n grow with m/n fixed and slightly
// underestimates it for finite m. It uses expm1 so that sparse filters keep
// full relative accuracy. It returns NaN if m = 0 or k < 1, and 0 if n = 0.
func ClassicFPR(m, n uint64, k int) float64 {
	if badGeometry(m, k) {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	fill := -math.Expm1(-float64(k) * float64(n) / float64(m))
	return FPRFromFill(fill, k)
}

// ExpectedFill returns 1 - (1 - 1/m)^(kn), the expected fraction of the m
// bits that are set after n items with k hashes each: every one of the kn
// probes misses a given bit with probability 1 - 1/m. It uses log1p and
// expm1 for accuracy at large m and small fill. It returns NaN if m = 0 or
// k < 1.
func ExpectedFill(m, n uint64, k int) float64 {
	if badGeometry(m, k) {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	if m == 1 {
		return 1
	}
	t := float64(k) * float64(n)
	return -math.Expm1(t * math.Log1p(-1/float64(m)))
}

// BloomFPR returns Bloom's formula (1 - (1 - 1/m)^(kn))^k, the expected
// fill raised to the k-th power (Bloom 1970). It treats the k tested bits
// as independent given the expected fill, which they are not, so it lies
// between ClassicFPR and ExactFPR. It returns NaN if m = 0 or k < 1, and 0
// if n = 0.
func BloomFPR(m, n uint64, k int) float64 {
	if badGeometry(m, k) {
		return math.NaN()
	}
	return FPRFromFill(ExpectedFill(m, n, k), k)
}

// FPRFromFill returns fill^k, the rate at which a query of k independent
// uniform positions finds all of them set in a filter whose fraction fill of
// bits is set. Given the actual fill of one filter it is that filter's
// conditional false-positive rate. It returns NaN if k < 1 or fill is
// outside [0, 1].
func FPRFromFill(fill float64, k int) float64 {
	if k < 1 || math.IsNaN(fill) || fill < 0 || fill > 1 {
		return math.NaN()
	}
	return math.Pow(fill, float64(k))
}

// ExactMaxBits is the largest m for which ExactFPR computes the exact rate;
// above it ExactFPR uses the asymptotic expansion described there, which at
// this size agrees with the exact rate to float64 rounding.
const ExactMaxBits = 1 << 32

// exactBudget bounds the floating-point operations that ExactFPR spends on
// the exact computation; beyond it the asymptotic expansion is used.
const exactBudget = 5e7

// ExactFPR returns the exact false-positive rate E[(X/m)^k] of a standard
// Bloom filter, where X is the number of set bits after kn uniform probes
// into m bits (Bose et al., "On the false-positive rate of Bloom filters",
// IPL 108(4), 2008; Christensen, Roginsky and Jimeno, "A new analysis of the
// false positive rate of a Bloom filter", IPL 110(21), 2010). For finite m
// and k >= 2 it exceeds BloomFPR (for k = 1 they are equal), which exceeds
// ClassicFPR; the three agree as m grows with m/n fixed.
//
// For m <= ExactMaxBits the value is computed exactly up to floating-point
// rounding, by counting from the side of the query rather than summing over
// the distribution of X. E[(X/m)^k] is the probability that k uniform query
// positions are all set. Let D be the number of distinct positions among
// them: its distribution follows from the recurrence
// P_{s+1}(d) = P_s(d) d/m + P_s(d-1) (m-d+1)/m over the k draws. Given D = d
// the query set is a uniform d-subset, so the rate is sum_d P(D=d) q_d,
// where q_d is the probability that kn probes cover d fixed bits. q_d is
// the chance that a pure-death chain on the number u of still-uncovered bits
// (u -> u-1 with probability u/m per probe) goes from d to 0 within kn
// steps; all q_d come from one power T^(kn) of its transition matrix on
// u = 0..min(k, m), taken by repeated squaring. Every quantity is a sum of products of
// non-negative numbers, so nothing cancels; the work is
// O(k^3 log(kn)), or O(kn k) by direct iteration when that is smaller,
// independent of m. For m = 100,000, n = 10,000, k = 7 it takes about
// 8 microseconds (BenchmarkExactFPR).
//
// For m > ExactMaxBits, or when the exact computation would exceed about
// 5e7 operations (k above about 200 with kn in the millions), it returns
// the second-order expansion
//
//	E[(X/m)^k] ≈ p^k + C(k,2) p^(k-2) Var(X)/m^2,
//
// the delta method for E[f(X/m)] with f(x) = x^k around the mean
// p = E[X]/m = ExpectedFill(m, n, k), with the closed-form variance
// Var(X) = m a(1-a) + m(m-1) a^2 (b/a^2 - 1), a = (1-1/m)^(kn),
// b = (1-2/m)^(kn). The first term is BloomFPR; the second is the O(1/m)
// correction, and the error is O(1/m^2) relative. Over the grid of
// TestExactAsymptoticAgreement (2 to 32 bits per key, k from 1 to twice
// the optimum, so up to k = 44) the largest relative difference between the
// expansion and the exact computation is 7.5e-4 at m = 2^12, 1.2e-8 at
// m = 2^20 and 4.9e-15 at m = 2^32 = ExactMaxBits, where ExactFPR switches:
// there the two agree to float64 rounding. The error of the expansion grows
// like k^4/m^2, so in the over-budget case at small m it is only an
// approximation. The exact computation itself agrees with 600-bit
// inclusion-exclusion to 1.5e-14 relative or better for m from 77 to 2^44
// and k up to 64 (TestExactFPRInclusionExclusion).
//
// It returns NaN if m = 0 or k < 1, and 0 if n = 0.
func ExactFPR(m, n uint64, k int) float64 {
	if badGeometry(m, k) {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	if m > ExactMaxBits {
		return asymptoticFPR(m, n, k)
	}
	hi, t := bits.Mul64(uint64(k), n)
	if hi != 0 {
		// At least 2^64 probes into at most 2^32 bits: the chance that any
		// bit is still clear is below 2^32 e^(-2^32), so every bit is set.
		return 1
	}
	if f, ok := exactFPR(m, t, k); ok {
		return f
	}
	return asymptoticFPR(m, n, k)
}

// exactFPR computes E[(X/m)^k] after t probes by the query-side method
// described at ExactFPR. It reports false if that would cost more than
// exactBudget operations.
func exactFPR(m, t uint64, k int) (float64, bool) {
	square, ok := exactPlan(m, t, k)
	if !ok {
		return 0, false
	}
	return exactFPRUsing(m, t, k, square), true
}

// exactPlan reports whether exactFPR(m, t, k) fits in exactBudget and, if
// so, whether it takes q by squaring (coverSquare) rather than by
// iterating (coverIterate).
func exactPlan(m, t uint64, k int) (square, ok bool) {
	square, cost := planCost(m, t, k)
	return square, cost <= exactBudget
}

// planCost returns the operations of exactFPR(m, t, k) by the cheaper of
// squaring and iterating, and whether that is squaring.
func planCost(m, t uint64, k int) (square bool, cost float64) {
	// At most min(k, m) distinct query positions.
	kk := k
	if uint64(kk) > m {
		kk = int(m)
	}
	steps := float64(bits.Len64(t))
	squaring := steps * (float64(kk)*float64(kk)*float64(kk)/3 + float64(kk)*float64(kk))
	iterating := float64(t) * float64(kk)
	return squaring < iterating, math.Min(squaring, iterating) + float64(k)*float64(kk)
}

// expansionCost is the nominal operation count of ExactFPR where it takes
// the expansion (asymptoticFPR) or a closed case: a few logarithms and
// powers.
const expansionCost = 100

// exactCost returns the operations that ExactFPR(m, n, k) spends, from its
// parameters alone: planCost's count where it computes the exact rate, and
// expansionCost where it does not. It is what ExactStandardSize counts
// against its work limit.
func exactCost(m, n uint64, k int) float64 {
	if badGeometry(m, k) || n == 0 || m > ExactMaxBits {
		return expansionCost
	}
	hi, t := bits.Mul64(uint64(k), n)
	if hi != 0 {
		return expansionCost
	}
	if _, cost := planCost(m, t, k); cost <= exactBudget {
		return cost
	}
	return expansionCost
}

// exactFPRUsing computes E[(X/m)^k] after t probes, with q from coverSquare
// if square is set and from coverIterate otherwise.
func exactFPRUsing(m, t uint64, k int, square bool) float64 {
	kk := k
	if uint64(kk) > m {
		kk = int(m)
	}
	mf := float64(m)
	dist := queryDist(mf, k, kk)

	// q[u] = P(u fixed bits are all covered after t probes).
	var q []float64
	if square {
		q = coverSquare(mf, t, kk)
	} else {
		q = coverIterate(mf, t, kk)
	}
	return coverMix(dist, q)
}

// queryDist returns dist[d] = P(D = d), d = 0..kk, the distribution of
// the number of distinct positions among k query draws from m bits.
func queryDist(mf float64, k, kk int) []float64 {
	dist := make([]float64, kk+1)
	dist[1] = 1
	for s := 1; s < k; s++ {
		top := min(s+1, kk)
		for d := top; d >= 1; d-- {
			v := dist[d] * (float64(d) / mf)
			if d > 1 {
				v += dist[d-1] * ((mf - float64(d-1)) / mf)
			}
			dist[d] = v
		}
	}
	return dist
}

// coverMix returns sum_d dist[d] q[d], capped at 1.
func coverMix(dist, q []float64) float64 {
	var sum float64
	for d := 1; d < len(dist); d++ {
		sum += dist[d] * q[d]
	}
	return math.Min(sum, 1)
}

// coverIterate returns q[u], u = 0..kk, the probability that t probes into
// m bits cover u fixed bits, by t steps of the recurrence
// q_u(s+1) = (u/m) q_{u-1}(s) + (1-u/m) q_u(s), q_u(0) = [u = 0].
func coverIterate(m float64, t uint64, kk int) []float64 {
	q := make([]float64, kk+1)
	q[0] = 1
	for s := uint64(0); s < t; s++ {
		top := kk
		if s+1 < uint64(kk) {
			top = int(s + 1)
		}
		for u := top; u >= 1; u-- {
			q[u] = q[u-1]*(float64(u)/m) + q[u]*((m-float64(u))/m)
		}
	}
	return q
}

// coverSquare computes the same vector as coverIterate as T^t e_0, where
// T[u][u] = 1 - u/m and T[u][u-1] = u/m, by binary powering. The matrices
// are lower triangular and non-negative. After each squaring the diagonal,
// (1-u/m)^(2^j), is reset to its value computed directly by exp and log1p,
// which removes the rounding that squaring would otherwise accumulate there.
func coverSquare(m float64, t uint64, kk int) []float64 {
	n := kk + 1
	a := make([]float64, n*n) // a[u*n+v] = P(u -> v in 2^j probes)
	b := make([]float64, n*n)
	for u := 0; u < n; u++ {
		a[u*n+u] = (m - float64(u)) / m
		if u > 0 {
			a[u*n+u-1] = float64(u) / m
		}
	}
	r := make([]float64, n)
	r[0] = 1
	tmp := make([]float64, n)
	power := 1.0 // a = T^power
	for {
		if t&1 == 1 {
			for u := 0; u < n; u++ {
				var s float64
				for v := 0; v <= u; v++ {
					s += a[u*n+v] * r[v]
				}
				tmp[u] = s
			}
			r, tmp = tmp, r
		}
		t >>= 1
		if t == 0 {
			return r
		}
		for u := 0; u < n; u++ {
			for v := 0; v <= u; v++ {
				var s float64
				for w := v; w <= u; w++ {
					s += a[u*n+w] * a[w*n+v]
				}
				b[u*n+v] = s
			}
		}
		a, b = b, a
		power *= 2
		for u := 1; u < n; u++ {
			a[u*n+u] = math.Exp(power * math.Log1p(-float64(u)/m))
		}
	}
}

// asymptoticFPR returns the second-order expansion of E[(X/m)^k] given at
// ExactFPR.
func asymptoticFPR(m, n uint64, k int) float64 {
	if m == 1 {
		return 1
	}
	mf := float64(m)
	t := float64(k) * float64(n)
	la := t * math.Log1p(-1/mf)
	a := math.Exp(la)    // P(a given bit is clear)
	p := -math.Expm1(la) // expected fill
	// b/a^2 - 1 with b = (1-2/m)^t: (1-2/m)/(1-1/m)^2 = 1 - 1/(m-1)^2.
	e := math.Expm1(t * math.Log1p(-1/((mf-1)*(mf-1))))
	v := (a*p + (mf-1)*a*a*e) / mf // Var(X)/m^2
	if v < 0 {
		v = 0
	}
	kf := float64(k)
	f := math.Pow(p, kf)
	if k >= 2 {
		f += kf * (kf - 1) / 2 * math.Pow(p, kf-2) * v
	}
	return math.Min(f, 1)
}
