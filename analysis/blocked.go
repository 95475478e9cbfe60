package analysis

import (
	"math"
)

// A blocked Bloom filter (Putze, Sanders and Singler, "Cache-, Hash- and
// Space-Efficient Bloom Filters", WEA 2007) divides its m bits into
// b = m/B blocks of B bits. Each item chooses one block uniformly and sets
// k uniformly random bits inside it, so a query costs one memory access.
// The price is the uneven load of the blocks: the number of items J in the
// query's block is Binomial(n, 1/b), not n/b, and since the rate of a block
// is convex in its load, the average over blocks is higher than the rate of
// a standard filter with the same m and k.
//
// Under that model, with positions drawn with replacement inside the
// block, the rate given J = j is exactly the exact rate of a standard filter
// of B bits holding j items, ExactFPR(B, j, k), and the rate of the blocked
// filter is the mixture
//
//	BlockedFPR = sum_j P(J = j) ExactFPR(B, j, k).
//
// The split-block filter of Apache Impala, Kudu and Parquet is the special
// case B = 256 made of eight 32-bit words in which each item sets exactly one
// bit per word: given J = j a word holds the query's bit with probability
// 1 - (31/32)^j, independently of the other words, so
//
//	SplitBlockFPR = sum_j P(J = j) (1 - (31/32)^j)^8.
//
// The sums run over the loads whose probability is at least 1e-30 of the
// most likely load's; nothing is approximated beyond float64 rounding
// of the binomial weights and of ExactFPR.

// SplitBlockBits is the block size of a split-block filter: eight 32-bit
// words.
const SplitBlockBits = 256

// SplitBlockHashes is the number of bits a split-block filter sets per
// item: one in each of its eight words.
const SplitBlockHashes = 8

// MaxBlockBits is the largest block size the blocked-filter functions take.
const MaxBlockBits = 1 << 16

// loads is the distribution of the number of items in one block: w[i] is
// P(J = start + i). Loads outside the table have probability below 1e-30
// of the most likely one.
type loads struct {
	start uint64
	w     []float64
}

// loadTable returns the distribution of J ~ Binomial(n, 1/blocks), the load
// of one block when n items choose among blocks blocks uniformly.
func loadTable(n, blocks uint64) loads {
	if blocks == 1 {
		return loads{start: n, w: []float64{1}}
	}
	mode := math.Floor((float64(n) + 1) / float64(blocks))
	return cutTable(binomialDist(float64(n), 1/float64(blocks)), math.Min(mode, float64(n)))
}

// cutTable tabulates d outward from its mode while the probability stays
// at least 1e-30 of the mode's.
func cutTable(d discrete, mode float64) loads {
	cut := math.Log(1e-30)
	l0 := d.logPMF(mode)
	var below []float64
	l := l0
	for j := mode; j > 0; j-- {
		l -= d.logStep(j - 1)
		if l-l0 < cut {
			break
		}
		below = append(below, math.Exp(l))
	}
	w := make([]float64, 0, 2*len(below)+1)
	for i := len(below) - 1; i >= 0; i-- {
		w = append(w, below[i])
	}
	w = append(w, math.Exp(l0))
	l = l0
	for j := mode; j < d.support; j++ {
		l += d.logStep(j)
		if l-l0 < cut {
			break
		}
		w = append(w, math.Exp(l))
	}
	return loads{start: uint64(mode) - uint64(len(below)), w: w}
}

// mix returns sum_j P(J = j) inner(j) over the load distribution.
func (ld loads) mix(inner func(j uint64) float64) float64 {
	var s float64
	for i, p := range ld.w {
		s += p * inner(ld.start+uint64(i))
	}
	return math.Min(s, 1)
}

// badBlocked reports whether m and blockBits do not describe whole blocks.
func badBlocked(m, blockBits uint64, k int) bool {
	return blockBits == 0 || blockBits > MaxBlockBits || m < blockBits || m%blockBits != 0 || k < 1
}

// CheckBlocked reports an error unless m is a positive multiple of the
// block size blockBits, 1 <= blockBits <= MaxBlockBits, and
// 1 <= k <= MaxHashes.
func CheckBlocked(m, blockBits uint64, k int) error {
	if blockBits == 0 || blockBits > MaxBlockBits {
		return invalid("block bits = %d, want 1 <= B <= %d", blockBits, MaxBlockBits)
	}
	if m < blockBits || m%blockBits != 0 {
		return invalid("bits m = %d is not a positive multiple of the block size %d", m, blockBits)
	}
	if k < 1 || k > MaxHashes {
		return invalid("hashes k = %d, want 1 <= k <= %d", k, MaxHashes)
	}
	return nil
}

// BlockedFPR returns the false-positive rate of a blocked Bloom filter of m
// bits in blocks of blockBits bits, k bits per item chosen uniformly with
// replacement inside the item's block, holding n items: the mixture over the
// binomial load of the query's block of ExactFPR(blockBits, load, k), as
// described above. It returns NaN unless m is a positive multiple of
// blockBits, blockBits <= MaxBlockBits and k >= 1, and 0 if n = 0.
//
// The work is one evaluation of ExactFPR on B bits for every load whose
// probability is at least 1e-30 of the most likely load's, about
// 25 sqrt(n B/m) + 20 of them, independent of m; the evaluations share
// their matrix powers (innerRates), so each costs a few matrix-vector
// products: about 0.09 ms for B = 512 at 10 bits per item
// (BenchmarkBlockedFPR).
func BlockedFPR(m, n uint64, k int, blockBits uint64) float64 {
	if badBlocked(m, blockBits, k) {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	return blockedFPR(loadTable(n, m/blockBits), blockBits, k, nil)
}

// blockedFPR mixes ExactFPR(blockBits, j, k) over the loads ld, taking the
// inner rates from ir, an innerRates for blockBits and k (a new one if
// nil), which keeps them for later calls.
func blockedFPR(ld loads, blockBits uint64, k int, ir *innerRates) float64 {
	if ir == nil {
		ir = newInnerRates(blockBits, k)
	}
	return ld.mix(ir.rate)
}

// BlockedClassicFPR returns the approximation of Putze, Sanders and Singler
// (2007, equation 3): the load of a block is taken as Poisson with mean
// n B/m and the rate given load j as Bloom's (1 - (1 - 1/B)^(kj))^k. It is
// what most descriptions of blocked filters quote; BlockedFPR is the exact rate under the same model,
// and the approximation is below it: by under 5% for blocks of 256 bits or
// more at practical loads, by about 7% for 64-bit blocks at 16 bits per
// item (TestBlockedFPRPracticalSizes logs the figures). Same domain as
// BlockedFPR.
func BlockedClassicFPR(m, n uint64, k int, blockBits uint64) float64 {
	if badBlocked(m, blockBits, k) {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	lambda := float64(n) * float64(blockBits) / float64(m)
	b := float64(blockBits)
	return poissonLoads(lambda).mix(func(j uint64) float64 {
		return math.Pow(-math.Expm1(float64(k)*float64(j)*math.Log1p(-1/b)), float64(k))
	})
}

// splitInner returns (1 - (31/32)^j)^8, the rate of a split-block filter's
// block holding j items.
func splitInner(j uint64) float64 {
	return math.Pow(-math.Expm1(float64(j)*math.Log1p(-1.0/32)), SplitBlockHashes)
}

// SplitBlockFPR returns the false-positive rate of a split-block filter of m
// bits (a positive multiple of 256) holding n items: the mixture over the
// binomial load of the query's block of (1 - (31/32)^j)^8, as described
// above. It returns NaN unless m is a positive multiple of SplitBlockBits,
// and 0 if n = 0.
func SplitBlockFPR(m, n uint64) float64 {
	if badBlocked(m, SplitBlockBits, 1) {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	return loadTable(n, m/SplitBlockBits).mix(splitInner)
}

// BlockedSize returns the fewest bits m, a multiple of blockBits, and the
// number of hashes k that make BlockedFPR(m, n, k, blockBits) at most p,
// minimising m over k (and, among the k that give that m, the rate). It reports an
// error if n is zero, p is outside (0, 1), blockBits is outside
// 1..MaxBlockBits, or m would exceed MaxBits.
//
// The penalty over a standard filter is modest for large blocks and grows as
// blocks shrink and p falls: at n = 1e6 and B = 512 it is 3.5% more bits
// than OptimalBits at p = 1%, 8.1% at 0.1% and 14.9% at 1e-4; at B = 64 it
// is 27%, 67% and 137% (TestBlockedSizePenalty logs the table).
//
// Each k tried costs a search over the number of blocks of about six
// blocked rates; the rates for one k share their inner rates, and all k
// share the load tables: about 0.7 ms at n = 1e6, p = 1% and B = 512
// (BenchmarkBlockedSize), 2.5 ms at p = 1e-4 and B = 4096
// (BenchmarkBlockedSizeLarge).
func BlockedSize(n uint64, p float64, blockBits uint64) (m uint64, k int, err error) {
	if err := checkBlockedSizing(n, p, blockBits); err != nil {
		return 0, 0, err
	}
	std, err := OptimalBits(n, p)
	if err != nil {
		return 0, 0, err
	}
	k0 := OptimalHashes(std, n)
	best := uint64(0)
	var bestK int
	var bestRate float64
	// The best k for a blocked filter is at or below the standard one
	// (fuller blocks favour fewer hashes); scan down from a little above it
	// and stop once the size has grown for three k in a row past the best.
	worse := 0
	// The load tables depend on the number of blocks only, and the
	// searches for neighbouring k visit mostly the same numbers.
	tables := make(map[uint64]loads)
	table := func(blocks uint64) loads {
		ld, ok := tables[blocks]
		if !ok {
			ld = loadTable(n, blocks)
			tables[blocks] = ld
		}
		return ld
	}
	for k := min(k0+3, MaxHashes); k >= 1; k-- {
		cache := newInnerRates(blockBits, k)
		rate := func(blocks uint64) float64 { return blockedFPR(table(blocks), blockBits, k, cache) }
		blocks, ok := fewestBlocks(p, std/blockBits, MaxBits/blockBits, rate)
		if !ok {
			worse++
		} else if mb := blocks * blockBits; best == 0 || mb < best ||
			mb == best && rate(blocks) < bestRate {
			best, bestK, worse = mb, k, 0
			bestRate = rate(blocks)
		} else {
			worse++
		}
		if worse >= 3 && k < k0 {
			break
		}
	}
	if best == 0 {
		return 0, 0, invalid("n = %d at p = %g needs more bits than the maximum %d", n, p, uint64(MaxBits))
	}
	return best, bestK, nil
}

// SplitBlockSize returns the fewest bits m, a multiple of 256, that make
// SplitBlockFPR(m, n) at most p. It reports an error if n is zero, p is
// outside (0, 1), or m would exceed MaxBits.
func SplitBlockSize(n uint64, p float64) (uint64, error) {
	if err := checkBlockedSizing(n, p, SplitBlockBits); err != nil {
		return 0, err
	}
	std, err := OptimalBits(n, p)
	if err != nil {
		return 0, err
	}
	blocks, ok := fewestBlocks(p, std/SplitBlockBits, MaxBits/SplitBlockBits, func(blocks uint64) float64 {
		return loadTable(n, blocks).mix(splitInner)
	})
	if !ok {
		return 0, invalid("n = %d at p = %g needs more bits than the maximum %d", n, p, uint64(MaxBits))
	}
	return blocks * SplitBlockBits, nil
}

func checkBlockedSizing(n uint64, p float64, blockBits uint64) error {
	if n == 0 {
		return invalid("capacity n = 0, want n >= 1")
	}
	if err := CheckProbability("p", p); err != nil {
		return err
	}
	if blockBits == 0 || blockBits > MaxBlockBits {
		return invalid("block bits = %d, want 1 <= B <= %d", blockBits, MaxBlockBits)
	}
	return nil
}

// fewestBlocks returns the smallest number of blocks b >= 1 whose rate,
// rate(b), is at most p, searching upward from about lo by doubling until
// it has a bracket and then narrowing it (the rate falls as b grows). It
// reports false if that needs more than maxBlocks blocks.
//
// Since the rate falls strictly with b (by about 1/b relative per block,
// far above its rounding error), any bracket narrowed to adjacent numbers
// gives the same answer, so the narrowing can guess where to look: the log
// of the rate is nearly linear in log b, and interpolating between the
// bracket's ends usually lands within a few blocks of the answer, and
// the next interpolation, from the narrowed bracket, closes it. In case
// the interpolation keeps moving the same end (as false position can), a
// bisection step follows every two such guesses, so the search takes at
// most about three times bisection's evaluations and usually half of them
// (TestFewestBlocksBisection compares with plain bisection).
func fewestBlocks(p float64, lo, maxBlocks uint64, rate func(blocks uint64) float64) (uint64, bool) {
	ok := func(b uint64) bool { return rate(b) <= p }
	if lo < 1 {
		lo = 1
	}
	rlo := rate(lo)
	if rlo <= p {
		// Rare (a standard filter is never smaller), but search down.
		hi := lo
		lo = 0
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if mid >= 1 && ok(mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		return hi, true
	}
	hi := lo + lo/8 + 1
	rhi := rate(hi)
	for rhi > p {
		if hi >= maxBlocks {
			return 0, false
		}
		lo, rlo = hi, rhi
		hi = min(2*hi, maxBlocks)
		rhi = rate(hi)
	}
	// Invariant: rate(lo) > p >= rate(hi), with rlo and rhi those rates.
	lp := math.Log(p)
	side := 0 // which end the last guess moved: -1 lo, +1 hi
	same := 0 // how many guesses in a row moved that end
	for hi-lo > 1 {
		g := lo + (hi-lo)/2
		if y0, y1 := math.Log(rlo), math.Log(rhi); same < 2 && y0 > y1 && !math.IsInf(y1, 0) {
			x0, x1 := math.Log(float64(lo)), math.Log(float64(hi))
			f := math.Round(math.Exp(x0 + (lp-y0)*(x1-x0)/(y1-y0)))
			g = uint64(min(max(f, float64(lo+1)), float64(hi-1)))
		}
		s := -1
		if r := rate(g); r <= p {
			hi, rhi, s = g, r, 1
		} else {
			lo, rlo = g, r
		}
		if s == side {
			same++
		} else {
			side, same = s, 1
		}
		if same > 2 {
			same = 0 // the bisection step just taken resets the count
		}
	}
	return hi, true
}

// poissonLoads returns the Poisson(lambda) distribution of a block's load,
// cut like loadTable.
func poissonLoads(lambda float64) loads {
	return cutTable(poissonDist(lambda), math.Floor(lambda))
}

// BlockedOptimalHashes returns the k in 1..MaxHashes that minimises
// BlockedFPR(m, n, k, blockBits), the smaller on a tie, taking the rate to
// be unimodal in k. It starts at OptimalHashes(m, n), the best k of a
// standard filter of m bits, and moves the way the rate falls, in steps
// that double while it keeps falling; the minimum then lies between the
// last two points passed, and a ternary search finds it. Near the usual 8
// to 32 bits per item the best k is at or a step below the start, but at
// 100 bits per item with 512-bit blocks it is 23 against a start of 69
// (full blocks favour few hashes). It returns 1 for n = 0 and 0 if the
// geometry is invalid (see CheckBlocked).
func BlockedOptimalHashes(m, n, blockBits uint64) int {
	if badBlocked(m, blockBits, 1) {
		return 0
	}
	if n == 0 {
		return 1
	}
	ld := loadTable(n, m/blockBits)
	rates := make(map[int]float64)
	rate := func(k int) float64 {
		f, ok := rates[k]
		if !ok {
			f = blockedFPR(ld, blockBits, k, nil)
			rates[k] = f
		}
		return f
	}
	k0 := OptimalHashes(m, n)
	var dir int
	switch {
	case k0 > 1 && rate(k0-1) < rate(k0):
		dir = -1
	case k0 < MaxHashes && rate(k0+1) < rate(k0):
		dir = 1
	default:
		return k0
	}
	// best is the lowest point so far and behind the one before it, so
	// the minimum lies between behind and the next point that is no lower.
	behind, best := k0, k0+dir
	next := best
	for step := 2; ; step *= 2 {
		next = min(max(best+dir*step, 1), MaxHashes)
		if next == best || rate(next) >= rate(best) {
			break
		}
		behind, best = best, next
	}
	lo, hi := min(behind, next), max(behind, next)
	for hi-lo > 2 {
		m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
		switch f1, f2 := rate(m1), rate(m2); {
		case f1 < f2:
			hi = m2 - 1
		case f1 > f2:
			lo = m1 + 1
		default:
			lo, hi = m1, m2
		}
	}
	k := lo
	for i := lo + 1; i <= hi; i++ {
		if rate(i) < rate(k) {
			k = i
		}
	}
	return k
}
