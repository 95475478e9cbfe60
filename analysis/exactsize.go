package analysis

import "math"

// The classic sizing, StandardSize (with the best integer k for its m),
// aims at p with the classic rate at the real-valued optimum k. Two
// roundings then move the rate a filter really has: k must be an integer,
// and a finite filter's exact rate (ExactFPR) exceeds the classic one. Both
// push the rate up, so the classic geometry often lands just above its
// target: at n = 1e6 and p = 1% it is m = 9,585,059 bits and k = 7, whose
// exact rate is 1.0039%. ExactStandardSize and ExactPartitionedSize size by
// the exact rate instead.

// ExactStandardSize returns the standard filter of the fewest bits m, with
// the number of hashes k with which it is reached, such that its exact
// rate, [ExactFPR](m, n, k), is at most p: no filter of m-1 bits holding n items
// has an exact rate at most p with any integer k. Where several k reach
// that m, k is the one with the lowest rate.
//
// The exact rate exceeds the classic rate at every m and k, so for each k the
// fewest bits by the classic rate, ceil(-k n / ln(1 - p^(1/k))), is a lower
// bound on the answer at that k; the search starts there, and only the k whose
// lower bound is below the best m found are tried. Over n from 1e2 to 1e10 and
// p from 1e-1 to 1e-9 (decades) the answer is at most 0.42% more than the Bits
// of [StandardSize](n, p), at n = 100 and p = 0.1, while the classic geometry's
// exact rate exceeds p by up to 3.03%, at n = 100 and p = 1e-9
// (TestExactStandardSizeGrid logs both). Above [ExactMaxBits] the exact rate is
// ExactFPR's second-order expansion, accurate there to float64 rounding.
//
// The work is bounded: before each evaluation of ExactFPR the search adds
// that evaluation's operation count, computed from m, n and k (the cost
// model of ExactFPR's exact computation, a nominal 100 where it takes the
// expansion), and it stops with an error rather than pass its limit: 1e8
// operations in all (at most about 0.6 s on a current core) at
// p >= 1e-20, where no n reaches it, and 1e7 (about 0.06 s) below, where
// k is in the hundreds and each evaluation costs k^2 operations or more.
// Inside the limit the answer is the search's as described. Below
// p = 1e-20 the limit leaves exact sizing to the large filters whose
// ExactFPR is the expansion: a sweep of n over tenths of a decade from 1
// to 1e10 is served at every n at p = 1e-20, and refused for n up to
// about 4e7 at p = 1e-21, 3e7 at 1e-25, 2.5e7 at 1e-30, 2e7 at 1e-40,
// 1.6e7 at 1e-50, 400 at 1e-100, 100 at 1e-200 and 50 at 1e-300
// (TestExactStandardSizeWork checks a few). The classic sizing,
// [StandardSize], is the answer to use beyond it.
//
// It reports an error wrapping [ErrInvalidParams] if n is zero, p is outside
// (0, 1), m would exceed [MaxBits], or the search would pass its work
// limit.
func ExactStandardSize(n uint64, p float64) (Standard, error) {
	m, k, err := exactSize(n, p, func(m uint64, k int) float64 { return ExactFPR(m, n, k) },
		func(m uint64, k int) float64 { return exactCost(m, n, k) }, 1)
	if err != nil {
		return Standard{}, err
	}
	return Standard{Bits: m, Hashes: k}, nil
}

// ExactPartitionedSize returns the partitioned filter of the fewest bits m, a
// multiple of k, with the number of hashes k with which it is reached, such
// that the exact rate of its k slices of m/k bits, [PartitionedFPR](m, n, k), is
// at most p: no partitioned filter of fewer bits, with any k, reaches p. Where
// several k reach that m, k is the one with the lowest rate.
//
// PartitionedFPR is a closed form, so the search costs a few hundred
// evaluations per k tried, for at most a few thousand k: under 0.1 s at
// any n and p (n = 1 at p = 1e-300, where k is near 1000, takes about
// 20 ms); it has no work limit.
//
// It reports an error wrapping [ErrInvalidParams] if n is zero, p is outside
// (0, 1), or m would exceed [MaxBits].
func ExactPartitionedSize(n uint64, p float64) (Partitioned, error) {
	m, k, err := exactSize(n, p, func(m uint64, k int) float64 { return PartitionedFPR(m, n, k) }, nil, 0)
	if err != nil {
		return Partitioned{}, err
	}
	return Partitioned{Bits: m, Hashes: k}, nil
}

// The work limits of ExactStandardSize, in the operations that exactCost
// counts: exactSizeWork at p >= exactSizeTail, where no n reaches it, and
// the tighter exactTailWork below, where each evaluation costs k^2 or
// more with k in the hundreds and the limit is what ends most searches.
const (
	exactSizeWork = 1e8
	exactTailWork = 1e7
	exactSizeTail = 1e-20
)

// exactWorkLimit returns the work limit of ExactStandardSize at rate p.
func exactWorkLimit(p float64) float64 {
	if p >= exactSizeTail {
		return exactSizeWork
	}
	return exactTailWork
}

// exactSize finds the fewest bits whose rate(m, k) is at most p over the
// integer k, as ExactStandardSize describes. rate must be at least the classic
// rate and decrease in m. With step 1 every m is a candidate; with step 0
// only the multiples of k are (a partitioned filter's slices). If cost is
// not nil, cost(m, k) is the work of rate(m, k), and the search stops with
// an error before that work would pass exactWorkLimit(p) in all.
func exactSize(n uint64, p float64, rate0 func(m uint64, k int) float64, cost func(m uint64, k int) float64, step uint64) (uint64, int, error) {
	if n == 0 {
		return 0, 0, invalid("capacity n = 0, want n >= 1")
	}
	if err := CheckProbability("p", p); err != nil {
		return 0, 0, err
	}
	if _, err := StandardSize(n, p); err != nil {
		return 0, 0, err
	}
	// Past the work limit, rate answers NaN, which no test "<= p" accepts,
	// so the searches below end at once, and over stops the walk over k.
	var work float64
	over, limit := false, exactWorkLimit(p)
	rate := rate0
	if cost != nil {
		rate = func(m uint64, k int) float64 {
			if !over {
				c := cost(m, k)
				over = work+c > limit
				work += c
			}
			if over {
				return math.NaN()
			}
			return rate0(m, k)
		}
	}
	// lower returns the classic fewest bits at k, a lower bound at k.
	lower := func(k int) (uint64, bool) {
		mf := math.Ceil(-float64(k) * float64(n) / logOneMinusRoot(p, k))
		if !(mf <= MaxBits) {
			return 0, false
		}
		return max(uint64(mf)-1, 1), true
	}
	// The classic fewest bits is a convex-shaped function of k with its
	// minimum near log2(1/p); start there and walk both ways while the
	// lower bound stays below the best size found.
	k0 := max(1, min(MaxHashes, int(math.Round(-math.Log2(p)))))
	var best uint64
	var bestK int
	var bestRate float64
	try := func(k int) bool {
		if over {
			return false
		}
		lo, ok := lower(k)
		if !ok || best != 0 && lo > best {
			return false
		}
		m, ok := fewest(lo, k, step, p, rate)
		if !ok {
			return true
		}
		if r := rate(m, k); best == 0 || m < best || m == best && r < bestRate {
			best, bestK, bestRate = m, k, r
		}
		return true
	}
	// Walk up and down from k0; each side stops once the lower bound at
	// k passes the best size, after a few more k past that point so that
	// a non-convex wrinkle of the bound cannot hide a better k.
	for _, dir := range []int{1, -1} {
		misses := 0
		for k := k0; k >= 1 && k <= MaxHashes && misses < 3 && !over; k += dir {
			if dir == -1 && k == k0 {
				continue
			}
			if try(k) {
				misses = 0
			} else {
				misses++
			}
		}
	}
	if over {
		return 0, 0, invalid("exact sizing of n = %d at p = %g needs more than %.0e operations, its limit (it serves every n at p >= 1e-20); use the classic sizing",
			n, p, limit)
	}
	if best == 0 {
		return 0, 0, invalid("n = %d at p = %g needs more bits than the maximum %d", n, p, uint64(MaxBits))
	}
	return best, bestK, nil
}

// fewest returns the fewest m >= lo (a multiple of k if step is 0) with
// rate(m, k) <= p, by doubling steps from lo and then bisection. It
// reports false if no m up to MaxBits qualifies.
func fewest(lo uint64, k int, step uint64, p float64, rate func(uint64, int) float64) (uint64, bool) {
	unit := step
	if unit == 0 {
		unit = uint64(k)
	}
	// Work in units: candidate m = u * unit.
	u := max((lo+unit-1)/unit, 1)
	maxU := uint64(MaxBits) / unit
	ok := func(u uint64) bool { return rate(u*unit, k) <= p }
	if ok(u) {
		// lo is a lower bound, but rounding may make the bound one unit
		// high: step down while that still qualifies.
		for u > 1 && ok(u-1) {
			u--
		}
		return u * unit, true
	}
	bad, d := u, uint64(1)
	for {
		if bad+d > maxU {
			if !ok(maxU) {
				return 0, false
			}
			return bisectUnits(bad, maxU, ok) * unit, true
		}
		if ok(bad + d) {
			return bisectUnits(bad, bad+d, ok) * unit, true
		}
		bad += d
		d *= 2
	}
}

// bisectUnits returns the least u in (bad, good] with ok(u), given !ok(bad),
// ok(good) and ok monotone.
func bisectUnits(bad, good uint64, ok func(uint64) bool) uint64 {
	for bad+1 < good {
		mid := bad + (good-bad)/2
		if ok(mid) {
			good = mid
		} else {
			bad = mid
		}
	}
	return good
}
