package analysis

import (
	"math"
	"strings"
)

// Sizing is the geometry of a standard Bloom filter together with its
// capacity and target rate: N items (capacity), M bits, K hash functions
// and false-positive rate P. For Solve, a zero field is unknown.
type Sizing struct {
	N uint64  // capacity, items
	M uint64  // bits
	K int     // hash functions
	P float64 // false-positive rate (as input, 0 < P < 1)
}

// consistencyTolerance is the relative difference between a given P and the
// classic rate of the given N, M and K that Solve accepts as rounding when
// all of them are known.
const consistencyTolerance = 0.01

// Solve fills in the unknown (zero) fields of known from the known ones,
// with the classic rate (1 - e^(-kn/m))^k and the conventions of the common
// online calculator (hur.st/bloomfilter):
//
//   - N, P: M and K of StandardSize(N, P): M = ceil(-N ln P / (ln 2)^2) and
//     K = OptimalHashes(M, N), the best integer k for that M (the calculator
//     rounds (M/N) ln 2 instead; the two differ only where rounding picks
//     the worse neighbour).
//   - N, P, K: M = ceil(-K N / ln(1 - P^(1/K))), checked to be the fewest
//     bits whose classic rate is at most P.
//   - N, M: K = OptimalHashes(M, N), P = ClassicFPR(M, N, K).
//   - N, M, K: P = ClassicFPR(M, N, K).
//   - M, P, K: N = the largest n with ClassicFPR(M, n, K) <= P, that is
//     floor(-M ln(1 - P^(1/K)) / K) (the calculator takes the ceiling, which
//     can exceed P).
//   - M, P: N = the largest n whose best integer k gives a classic rate at
//     most P, found by bisection below floor(M (ln 2)^2 / -ln P) (the value
//     at the real optimum k, which the calculator uses with a ceiling), and
//     K = OptimalHashes(M, N).
//   - N, M, P (with or without K): K is OptimalHashes(M, N) if unknown, and
//     the four must be consistent: P within 1% of
//     ClassicFPR(M, N, K), or M and K exactly what Solve computes from N and
//     P (with K, if K was given).
//
// Known fields are returned unchanged: a known P stays the target, so the
// classic rate at the returned geometry, ClassicFPR(M, N, K), may differ
// from it by the rounding of M and K (for N, P it can exceed P by a fraction
// of a percent, from the integer K).
//
// Solve returns known unchanged with an error wrapping ErrInvalidParams if a
// known field is out of range (P outside (0, 1), K outside 1..MaxHashes, M
// above MaxBits), if the known fields do not determine the rest (naming
// what is missing), if they contradict each other, or if the answer is out
// of range (M above MaxBits, or M too small to hold a single item at rate
// P).
//
// It also refuses an answer with fewer bits than items (M < N), whether
// both were given (N = 10^6, M = 100) or one was computed (N, P with P
// above about 0.62): under one bit per item no k gives a classic rate below
// 0.6, so no such filter is useful, and cmd/bloomcalc, which sizes with
// Solve, refuses the same inputs with the same reason. (bloomcalc also
// refuses a given K whose rate rounds to 1, such as N = 1000, M = 2000,
// K = 100; Solve answers it, P = ClassicFPR(M, N, K) being what was asked.)
func Solve(known Sizing) (Sizing, error) {
	s := known
	var err error
	// Given M < N is refused below, before any contradiction with P, but
	// after the range checks of solve.
	badRange := s.K < 0 || s.K > MaxHashes || (s.P != 0 && CheckProbability("p", s.P) != nil)
	if s.M == 0 || s.M >= s.N || badRange {
		if s, err = solve(known); err != nil {
			return known, err
		}
	}
	if s.M < s.N {
		k := s.K
		if k == 0 {
			k = OptimalHashes(s.M, s.N)
		}
		return known, invalid("%d bits for %d items is %.3g bits per key (classic rate %.3g); a useful filter has at least one bit per item (m >= %d)",
			s.M, s.N, BitsPerKey(s.M, s.N), ClassicFPR(s.M, s.N, k), s.N)
	}
	return s, nil
}

func solve(known Sizing) (Sizing, error) {
	s := known
	if s.K < 0 || s.K > MaxHashes {
		return s, invalid("hashes k = %d, want 1 <= k <= %d (or 0 for unknown)", s.K, MaxHashes)
	}
	if s.P != 0 {
		if err := CheckProbability("p", s.P); err != nil {
			return s, err
		}
	}
	if s.M > MaxBits {
		return s, invalid("bits m = %d exceeds the maximum %d", s.M, uint64(MaxBits))
	}
	hasN, hasM, hasK, hasP := s.N != 0, s.M != 0, s.K != 0, s.P != 0
	switch {
	case hasN && hasM && hasP:
		return solveAll(s, hasK)
	case hasN && hasP && hasK: // m
		m, err := bitsFor(s.N, s.P, s.K)
		if err != nil {
			return s, err
		}
		s.M = m
		return s, nil
	case hasN && hasP: // m, k
		std, err := StandardSize(s.N, s.P)
		if err != nil {
			return s, err
		}
		s.M, s.K = std.Bits, std.Hashes
		return s, nil
	case hasN && hasM: // p (and k)
		if !hasK {
			s.K = OptimalHashes(s.M, s.N)
		}
		s.P = ClassicFPR(s.M, s.N, s.K)
		return s, nil
	case hasM && hasP && hasK: // n
		n := capacityFor(s.M, s.P, s.K)
		if n == 0 {
			return s, invalid("m = %d bits with k = %d cannot hold even one item at p = %g (that needs %d bits)",
				s.M, s.K, s.P, mustBits(1, s.P, s.K))
		}
		s.N = n
		return s, nil
	case hasM && hasP: // n, k
		n := capacityForBestK(s.M, s.P)
		if n == 0 {
			one, _ := StandardSize(1, s.P)
			return s, invalid("m = %d bits cannot hold even one item at p = %g (that needs about %d bits)", s.M, s.P, one.Bits)
		}
		s.N, s.K = n, OptimalHashes(s.M, n)
		return s, nil
	}
	return s, invalid("insufficient: %s", missing(hasN, hasM, hasK, hasP))
}

// missing describes what Solve needs beyond the known fields.
func missing(hasN, hasM, hasK, hasP bool) string {
	var have []string
	for _, f := range []struct {
		ok   bool
		name string
	}{{hasN, "n"}, {hasM, "m"}, {hasK, "k"}, {hasP, "p"}} {
		if f.ok {
			have = append(have, f.name)
		}
	}
	what := "nothing is known"
	if len(have) > 0 {
		what = "only " + strings.Join(have, " and ") + " known"
	}
	var need string
	switch {
	case hasN:
		need = "need m or p as well"
	case hasM:
		need = "need n or p as well"
	case hasP:
		need = "need n or m as well"
	default:
		need = "need two of n, m and p (k is optional)"
	}
	return what + "; " + need
}

// solveAll checks N, M, P (and K if hasK) for consistency, computing K if
// unknown.
func solveAll(s Sizing, hasK bool) (Sizing, error) {
	if !hasK {
		s.K = OptimalHashes(s.M, s.N)
	}
	c := ClassicFPR(s.M, s.N, s.K)
	if math.Abs(c-s.P) <= consistencyTolerance*s.P {
		return s, nil
	}
	// The solver's own output for (N, P) or (N, P, K) is consistent too.
	if hasK {
		if m, err := bitsFor(s.N, s.P, s.K); err == nil && m == s.M {
			return s, nil
		}
	}
	if std, err := StandardSize(s.N, s.P); err == nil && std.Bits == s.M && std.Hashes == s.K {
		return s, nil
	}
	kWhat := "k"
	if !hasK {
		kWhat = "the optimal k"
	}
	return s, invalid("contradictory: n = %d, m = %d and %s = %d give p = %.4g, not the given p = %g",
		s.N, s.M, kWhat, s.K, c, s.P)
}

// logOneMinusRoot returns ln(1 - p^(1/k)), which is negative: by log1p
// when the root is small and by expm1 when it is close to 1.
func logOneMinusRoot(p float64, k int) float64 {
	l := math.Log(p) / float64(k) // ln p^(1/k)
	if l < -math.Ln2 {
		return math.Log1p(-math.Exp(l))
	}
	return math.Log(-math.Expm1(l))
}

// bitsFor returns the fewest bits whose classic rate with n items and k
// hashes is at most p: ceil(-k n / ln(1 - p^(1/k))), corrected for rounding.
func bitsFor(n uint64, p float64, k int) (uint64, error) {
	mf := math.Ceil(-float64(k) * float64(n) / logOneMinusRoot(p, k))
	if !(mf <= MaxBits) { // also NaN
		return 0, invalid("n = %d at p = %g with k = %d needs %.4g bits, more than the maximum %d",
			n, p, k, mf, uint64(MaxBits))
	}
	m := max(uint64(mf), 1)
	for m > 1 && ClassicFPR(m-1, n, k) <= p {
		m--
	}
	for ClassicFPR(m, n, k) > p && m < MaxBits {
		m++
	}
	return m, nil
}

// mustBits is bitsFor for use in messages.
func mustBits(n uint64, p float64, k int) uint64 {
	m, err := bitsFor(n, p, k)
	if err != nil {
		return MaxBits
	}
	return m
}

// capacityFor returns the largest n with ClassicFPR(m, n, k) <= p, or 0.
func capacityFor(m uint64, p float64, k int) uint64 {
	nf := math.Floor(-float64(m) * logOneMinusRoot(p, k) / float64(k))
	n := uint64(math.Max(nf, 0))
	for n > 0 && ClassicFPR(m, n, k) > p {
		n--
	}
	for ClassicFPR(m, n+1, k) <= p {
		n++
	}
	return n
}

// capacityForBestK returns the largest n for which the best integer k gives
// ClassicFPR(m, n, k) <= p, or 0. That rate increases with n, and at the
// real optimum k it is e^(-(m/n)(ln 2)^2), so the answer is at most
// floor(m (ln 2)^2 / -ln p); bisect below it.
func capacityForBestK(m uint64, p float64) uint64 {
	ok := func(n uint64) bool { return ClassicFPR(m, n, OptimalHashes(m, n)) <= p }
	hif := math.Floor(float64(m) * math.Ln2 * math.Ln2 / -math.Log(p))
	hi := uint64(1) << 62 // for p so close to 1 that the bound overflows
	if hif < 1<<62 {
		hi = uint64(hif)
	}
	if hi > 0 && ok(hi) {
		for ok(hi + 1) { // guard against rounding in the bound
			hi++
		}
		return hi
	}
	lo := uint64(0) // ok(lo) holds (or lo = 0)
	for lo+1 < hi {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
