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

// MaxBlockBits is the largest block size the blocked-filter functions
// take: 4096 bits, 64 cache lines of 64 bytes, beyond any block that
// keeps a key's bits in a few lines. It is also the largest block of
// variants.Blocked (variants.MaxBlockBits is this constant), so that the
// theory takes every block size the filters build and the models they
// return always validate.
const MaxBlockBits = 4096

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

// decideEps is the relative margin by which a bound must clear p for
// loads.decide to answer from part of the loads: far above the rounding
// error of a sum of positive terms (a few thousand ulps at most), so an
// answer from bounds is the answer the whole sum would give.
const decideEps = 1e-9

// loadSums is a load table with its cumulative masses, for mixBounds.
type loadSums struct {
	ld           loads
	c            int       // index of the most likely load
	below, above []float64 // below[i] = sum of w[:i], above[i] = sum of w[i:]
}

func newLoadSums(ld loads) *loadSums {
	w := ld.w
	n := len(w)
	ls := &loadSums{ld: ld, below: make([]float64, n+1), above: make([]float64, n+1)}
	for i := range w {
		if w[i] > w[ls.c] {
			ls.c = i
		}
		ls.below[i+1] = ls.below[i] + w[i]
	}
	for i := n - 1; i >= 0; i-- {
		ls.above[i] = ls.above[i+1] + w[i]
	}
	return ls
}

// decide reports whether the mixture rate ls.ld.mix(ir.rate) is at most
// p, with an estimate of that rate, evaluating the inner rates of as few
// loads as it can (see mixBounds): it widens the window until a bound
// clears p by decideEps relative. If none does once every load is in, it
// compares ld.mix(ir.rate) itself with p, so the answer is always that of
// the exact rate, and differs only in how many inner rates it costs: near
// the answer of a sizing search the bounds decide with a window of a few
// standard deviations of the load rather than the whole table.
func (ls *loadSums) decide(p float64, ir *innerRates) (float64, bool) {
	mb := newMixBounds(ls, ir)
	hiP, loP := p*(1+decideEps), p*(1-decideEps)
	for {
		lo, hi := mb.bounds()
		if lo > hiP {
			return lo, false
		}
		if hi < loP {
			return (lo + hi) / 2, true
		}
		if mb.full() {
			r := ls.ld.mix(ir.rate)
			return r, r <= p
		}
		mb.grow()
	}
}

// lowerRate reports whether ld.mix(x.rate) < ld.mix(y.rate), two
// mixtures over the same loads, widening both windows until their bounds
// separate by decideEps relative, and comparing the exact rates if they
// never do.
func (ls *loadSums) lowerRate(x, y *innerRates) bool {
	mx, my := newMixBounds(ls, x), newMixBounds(ls, y)
	for {
		xlo, xhi := mx.bounds()
		ylo, yhi := my.bounds()
		if xhi*(1+decideEps) < ylo*(1-decideEps) {
			return true
		}
		if xlo*(1-decideEps) > yhi*(1+decideEps) {
			return false
		}
		if mx.full() && my.full() {
			return ls.ld.mix(x.rate) < ls.ld.mix(y.rate)
		}
		mx.grow()
		my.grow()
	}
}

// mixBounds brackets the mixture rate sum_j P(J = j) inner(j) of a load
// table from a window of loads around the most likely one: the window's
// partial sum is a lower bound (all terms are positive), and adding the
// mass of the loads below the window times the inner rate of its lowest
// load (the inner rate grows with the load) and the mass above it times 1
// gives an upper bound.
type mixBounds struct {
	ls           *loadSums
	ir           *innerRates
	a, b         int // the window w[a:b]
	sum, lowRate float64
}

func newMixBounds(ls *loadSums, ir *innerRates) mixBounds {
	c := ls.c
	mb := mixBounds{ls: ls, ir: ir, a: c, b: c + 1}
	mb.lowRate = ir.rate(ls.ld.start + uint64(c))
	mb.sum = ls.ld.w[c] * mb.lowRate
	return mb
}

// bounds returns the lower and upper bounds of the rate.
func (mb *mixBounds) bounds() (lo, hi float64) {
	return mb.sum, mb.sum + mb.ls.below[mb.a]*mb.lowRate + mb.ls.above[mb.b]
}

// full reports whether the window holds every load.
func (mb *mixBounds) full() bool { return mb.a == 0 && mb.b == len(mb.ls.ld.w) }

// grow adds one load to the window, on the side whose bound is looser.
func (mb *mixBounds) grow() {
	ld := mb.ls.ld
	n := len(ld.w)
	if mb.b < n && (mb.a == 0 || mb.ls.above[mb.b] >= mb.ls.below[mb.a]*mb.lowRate) {
		mb.sum += ld.w[mb.b] * mb.ir.rate(ld.start+uint64(mb.b))
		mb.b++
	} else if mb.a > 0 {
		mb.a--
		mb.lowRate = mb.ir.rate(ld.start + uint64(mb.a))
		mb.sum += ld.w[mb.a] * mb.lowRate
	}
}

// badBlocked reports whether m and blockBits do not describe whole blocks.
func badBlocked(m, blockBits uint64, k int) bool {
	return blockBits == 0 || blockBits > MaxBlockBits || m < blockBits || m%blockBits != 0 || k < 1
}

// CheckBlocked reports an error unless m is a positive multiple of the
// block size blockBits, 1 <= blockBits <= [MaxBlockBits], and
// 1 <= k <= [MaxHashes].
//
// It takes any block size in that range, not only the powers of two from 64
// to 4096 that variants.Blocked builds: the model (a key picks one of m/B
// equal blocks uniformly and sets k uniform bits in it) holds for every B,
// and the theory serves layouts other than bloomlab's (a 100-bit block, or
// the byte strides of Boost.Bloom's multiblock filters, see [Multiblock]).
// [BlockedFPR](1000, 10, 3, 100) is therefore a rate, not NaN; a caller
// sizing a variants.Blocked checks the power of two itself, as
// [Scalable.Validate] does for its blocked stages.
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
// bits in blocks of blockBits bits, k bits set per item chosen uniformly with
// replacement inside the item's block, holding n items: the mixture over the
// binomial load of the query's block of [ExactFPR](blockBits, load, k), as
// described above. It returns NaN unless m is a positive multiple of
// blockBits, blockBits <= [MaxBlockBits] and k >= 1, and 0 if n = 0.
//
// The work is one evaluation of ExactFPR on B bits for every load whose
// probability is at least 1e-30 of the most likely load's, about
// 25 sqrt(n B/m) + 20 of them, independent of m; the evaluations share
// their matrix powers (innerRates), so each costs a few matrix-vector
// products (BenchmarkBlockedFPR times it).
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
// what most descriptions of blocked filters quote; [BlockedFPR] is the exact rate under the same model,
// and the approximation is below it: by under 5% for blocks of 256 bits or
// more at practical loads, by about 7% for 64-bit blocks at 16 bits per
// key (TestBlockedFPRPracticalSizes logs the figures). Same domain as
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
// above. It returns NaN unless m is a positive multiple of [SplitBlockBits],
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

// BlockedSize returns the blocked filter of blockBits-bit blocks with the
// fewest bits m, a multiple of blockBits, and the number of hashes k that
// make [BlockedFPR](m, n, k, blockBits) at most p, minimising m over k (and,
// among the k that give that m, the rate). It reports an error if n is
// zero, p is outside (0, 1), blockBits is outside 1..MaxBlockBits, or m
// would exceed [MaxBits].
//
// The penalty over a standard filter is modest for large blocks and grows as
// blocks shrink and p falls: at n = 1e6 and B = 512 it is 3.5% more bits
// than [StandardSize] at p = 1%, 8.1% at 0.1% and 14.9% at 1e-4; at B = 64 it
// is 27%, 67% and 137% (TestBlockedSizePenalty logs the table).
//
// The k are tried from a little above the standard filter's optimum
// down, and a k is searched (over the number of blocks) only if it needs
// at most the best size so far, which one test at that size decides.
// Each test "rate <= p" is decided from bounds on part of the mixture
// (loads.decide), the whole mixture only where the bounds cannot decide,
// so the answer is the exact rate's; the rates for one k share their
// inner rates, and all k share the load tables (BenchmarkBlockedSize and
// BenchmarkBlockedSizeLarge time it). TestBlockedSizerReference checks the
// answers against the search over whole mixtures.
func BlockedSize(n uint64, p float64, blockBits uint64) (Blocked, error) {
	m, k, err := NewBlockedSizer(blockBits).Size(n, p)
	if err != nil {
		return Blocked{}, err
	}
	return Blocked{Bits: m, Hashes: k, BlockBits: blockBits}, nil
}

// BlockedSizer sizes blocked filters of one block size as [BlockedSize]
// does, keeping the inner rates ([ExactFPR] on one block, for each k and
// load) that its calls compute, so that later calls reuse them. The inner
// rates depend on the block size, k and the load only, not on n or p, and
// the loads of well-sized blocks lie in one range (about B divided by the
// bits per key, give or take the binomial spread) whatever the size of
// the filter; so sizing the stages of a growing filter one after another
// with one BlockedSizer costs less than sizing each from nothing, as
// BlockedSize does (BenchmarkScalableStagesSizing compares the two);
// after the first stage, the load tables of the search cost more than the
// inner rates. The results are BlockedSize's bit for bit: the inner rates
// are ExactFPR's whatever was computed before (see innerRates).
//
// The cache grows with the distinct (k, load) pairs met: one float64 per
// pair, a few small matrices per k, and the states of the inner rates'
// recurrence every 16 probes, about 150 KB after the fourteen stages of
// the filter above. A BlockedSizer is not safe for concurrent use.
type BlockedSizer struct {
	blockBits uint64
	inner     map[int]*innerRates
}

// NewBlockedSizer returns an empty [BlockedSizer] for blocks of blockBits
// bits. An invalid blockBits is reported by Size.
func NewBlockedSizer(blockBits uint64) *BlockedSizer {
	return &BlockedSizer{blockBits: blockBits, inner: make(map[int]*innerRates)}
}

// BlockBits returns the block size the sizer was made for.
func (z *BlockedSizer) BlockBits() uint64 { return z.blockBits }

// innerRates returns the sizer's inner rates for k, made on first use.
func (z *BlockedSizer) innerRates(k int) *innerRates {
	ir := z.inner[k]
	if ir == nil {
		ir = newInnerRates(z.blockBits, k)
		z.inner[k] = ir
	}
	return ir
}

// FPR returns [BlockedFPR](m, n, k, z.BlockBits()), bit for bit, with the
// inner rates kept for later calls: along a curve of n at one k, each
// point after the first costs a few matrix-vector products instead of new
// matrices (about 2 MB each for 512-bit blocks).
func (z *BlockedSizer) FPR(m, n uint64, k int) float64 {
	if badBlocked(m, z.blockBits, k) {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	return blockedFPR(loadTable(n, m/z.blockBits), z.blockBits, k, z.innerRates(k))
}

// OptimalHashes returns [BlockedOptimalHashes](m, n, z.BlockBits()), with
// the inner rates of every k it tries kept for later calls, as FPR does.
func (z *BlockedSizer) OptimalHashes(m, n uint64) int {
	return blockedOptimalHashes(m, n, z.blockBits, func(k int) *innerRates {
		if k < 1 || k > MaxHashes {
			return nil
		}
		return z.innerRates(k)
	})
}

// Size returns the Bits and Hashes of [BlockedSize](n, p, z.BlockBits()).
func (z *BlockedSizer) Size(n uint64, p float64) (m uint64, k int, err error) {
	blockBits := z.blockBits
	if err := checkBlockedSizing(n, p, blockBits); err != nil {
		return 0, 0, err
	}
	std, err := StandardSize(n, p)
	if err != nil {
		return 0, 0, err
	}
	k0 := std.Hashes
	best := uint64(0)
	var bestK int
	// The best k for a blocked filter is at or below the standard one
	// (fuller blocks favour fewer hashes); scan down from a little above it
	// and stop once the size has grown for three k in a row past the best.
	worse := 0
	// The load tables depend on the number of blocks only, and the
	// searches for neighbouring k visit mostly the same numbers.
	tables := make(map[uint64]*loadSums)
	table := func(blocks uint64) *loadSums {
		ls, ok := tables[blocks]
		if !ok {
			ls = newLoadSums(loadTable(n, blocks))
			tables[blocks] = ls
		}
		return ls
	}
	for k := min(k0+3, MaxHashes); k >= 1; k-- {
		ir := z.innerRates(k)
		decide := func(blocks uint64) (float64, bool) { return table(blocks).decide(p, ir) }
		improved := false
		if best == 0 {
			blocks, ok := fewestBlocksBy(p, std.Bits/blockBits, MaxBits/blockBits, decide)
			if ok {
				best, bestK, improved = blocks*blockBits, k, true
			}
		} else {
			// This k beats the best only if it needs at most as many
			// blocks: decide that first, which takes a few loads, and
			// search only if it does.
			bb := best / blockBits
			if _, le := decide(bb); le {
				fewer, rFewer := false, 0.0
				if bb > 1 {
					rFewer, fewer = decide(bb - 1)
				}
				if fewer {
					// Bracket the answer below bb-1, guessing from the
					// rate there (log rate falls about k times as fast
					// as log blocks), then narrow the bracket.
					hi, rhi := bb-1, rFewer
					gap := max(uint64(math.Ceil(float64(hi)*(1-math.Pow(rhi/p, 1/float64(k))))), 1)
					lo, rlo := uint64(0), 1.0 // no blocks is never enough
					for hi > gap {
						g := hi - gap
						r, le := decide(g)
						if !le {
							lo, rlo = g, r
							break
						}
						hi, rhi, gap = g, r, 2*gap
					}
					if lo == 0 {
						rlo = math.Inf(1)
					}
					hi = narrowBlocks(p, lo, rlo, hi, rhi, decide)
					best, bestK, improved = hi*blockBits, k, true
				} else {
					// A tie in bits: the lower rate wins.
					if table(bb).lowerRate(ir, z.inner[bestK]) {
						bestK, improved = k, true
					}
				}
			}
		}
		if improved {
			worse = 0
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

// SplitBlockSize returns the split-block filter of the fewest bits m, a
// multiple of 256, that make [SplitBlockFPR](m, n) at most p. It reports an
// error if n is zero, p is outside (0, 1), or m would exceed [MaxBits].
func SplitBlockSize(n uint64, p float64) (SplitBlock, error) {
	if err := checkBlockedSizing(n, p, SplitBlockBits); err != nil {
		return SplitBlock{}, err
	}
	std, err := StandardSize(n, p)
	if err != nil {
		return SplitBlock{}, err
	}
	blocks, ok := fewestBlocks(p, std.Bits/SplitBlockBits, MaxBits/SplitBlockBits, func(blocks uint64) float64 {
		return loadTable(n, blocks).mix(splitInner)
	})
	if !ok {
		return SplitBlock{}, invalid("n = %d at p = %g needs more bits than the maximum %d", n, p, uint64(MaxBits))
	}
	return SplitBlock{Bits: blocks * SplitBlockBits}, nil
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
	return fewestBlocksBy(p, lo, maxBlocks, func(b uint64) (float64, bool) {
		r := rate(b)
		return r, r <= p
	})
}

// fewestBlocksBy is fewestBlocks with the test rate(b) <= p made by
// decide, which returns an estimate of rate(b) and that answer. The
// estimate (the rate itself, or a value between its bounds when decide
// stops early) steers the interpolation only, never the answer.
func fewestBlocksBy(p float64, lo, maxBlocks uint64, decide func(blocks uint64) (float64, bool)) (uint64, bool) {
	if lo < 1 {
		lo = 1
	}
	rlo, le := decide(lo)
	if le {
		// Rare (a standard filter is never smaller), but search down.
		hi := lo
		lo = 0
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if _, le := decide(mid); mid >= 1 && le {
				hi = mid
			} else {
				lo = mid
			}
		}
		return hi, true
	}
	hi := lo + lo/8 + 1
	rhi, le := decide(hi)
	for !le {
		if hi >= maxBlocks {
			return 0, false
		}
		lo, rlo = hi, rhi
		hi = min(2*hi, maxBlocks)
		rhi, le = decide(hi)
	}
	return narrowBlocks(p, lo, rlo, hi, rhi, decide), true
}

// narrowBlocks narrows a bracket lo < hi with rate(lo) > p >= rate(hi),
// whose rates are estimated by rlo and rhi, to adjacent numbers and
// returns hi, interpolating as fewestBlocks describes.
func narrowBlocks(p float64, lo uint64, rlo float64, hi uint64, rhi float64, decide func(blocks uint64) (float64, bool)) uint64 {
	lp := math.Log(p)
	side := 0 // which end the last guess moved: -1 lo, +1 hi
	same := 0 // how many guesses in a row moved that end
	for hi-lo > 1 {
		g := lo + (hi-lo)/2
		if y0, y1 := math.Log(rlo), math.Log(rhi); lo > 0 && same < 2 && y0 > y1 && !math.IsInf(y0, 0) && !math.IsInf(y1, 0) {
			x0, x1 := math.Log(float64(lo)), math.Log(float64(hi))
			f := math.Round(math.Exp(x0 + (lp-y0)*(x1-x0)/(y1-y0)))
			g = uint64(min(max(f, float64(lo+1)), float64(hi-1)))
		}
		s := -1
		if r, le := decide(g); le {
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
	return hi
}

// poissonLoads returns the Poisson(lambda) distribution of a block's load,
// cut like loadTable.
func poissonLoads(lambda float64) loads {
	return cutTable(poissonDist(lambda), math.Floor(lambda))
}

// BlockedOptimalHashes returns the k in 1..MaxHashes that minimises
// [BlockedFPR](m, n, k, blockBits), the smaller on a tie, taking the rate to
// be unimodal in k. It starts at [OptimalHashes](m, n), the best k of a
// standard filter of m bits, and moves the way the rate falls, in steps
// that double while it keeps falling; the minimum then lies between the
// last two points passed, and a ternary search finds it. Near the usual 8
// to 32 bits per key the best k is at or a step below the start, but at
// 100 bits per key with 512-bit blocks it is 23 against a start of 69
// (full blocks favour few hashes). It returns 1 for n = 0 and 0 if the
// geometry is invalid (see [CheckBlocked]).
func BlockedOptimalHashes(m, n, blockBits uint64) int {
	return blockedOptimalHashes(m, n, blockBits, func(int) *innerRates { return nil })
}

// blockedOptimalHashes is BlockedOptimalHashes with the inner rates of
// each k from inner (a new innerRates where it returns nil).
func blockedOptimalHashes(m, n, blockBits uint64, inner func(k int) *innerRates) int {
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
			f = blockedFPR(ld, blockBits, k, inner(k))
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
