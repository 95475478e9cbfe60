package analysis

import (
	"math"
	"math/rand/v2"
)

// An age-partitioned Bloom filter (Shtul, Baquero and Almeida,
// "Age-Partitioned Bloom Filters", 2020, arXiv 2001.03147) answers "was this
// key among the recent items of a stream?". It keeps K + L slices of
// SliceBits bits, ordered by age: slice 0 is the newest. An insert sets one
// bit in each of the K newest slices (slices 0 to K-1); after every G
// inserts the slices age by one: when the newest slice already holds G
// items, the next insert first drops the oldest slice and puts a new empty
// one in front. A query is positive when K consecutive slices all hold the
// key's bit.
//
// The position c in the current generation is the number of items in the
// newest slice, 1 <= c <= G between inserts once the stream has started (c
// = 0 only in a new filter, or after a shift triggered by a clock). In the
// steady state (at least K + L generations in) slice j < K holds j G + c
// items and every older slice K G: the load, and with it the rate, rises
// with c through every generation and falls back at each shift, a sawtooth.
//
// An item tests present until the slice that was slice K-1 when it was
// inserted is dropped, L + 1 shifts later. The i-th item of a generation
// has G - i later items in its own generation and L G more after the L
// shifts it survives, so the most recent L G + 1 items (ages 0 to L G, the
// age of an item being the number of items inserted after it) test present
// at every phase: Window. Just after a shift that is all; just before one,
// the most recent (L + 1) G are present.

// AgePartitioned is the geometry of an age-partitioned Bloom filter. Its
// methods give the filter's exact false-positive rate at each position of
// the generation cycle, its worst and mean over the cycle, the one-number
// formula of the implementations, and the recall of items by age.
type AgePartitioned struct {
	K         int    // slices an item sets (hashes), K >= 1
	L         int    // slices beyond K, L >= 1
	G         uint64 // items per generation, G >= 1
	SliceBits uint64 // bits per slice
}

// MaxAgeSlices is the largest number of slices K + L of an age-partitioned
// filter that the sizing functions return and bloomlab's filter accepts.
const MaxAgeSlices = 256

// Validate reports an error unless 1 <= K, 1 <= L, K + L <= MaxAgeSlices,
// G >= 1, SliceBits >= 1 and (K + L) SliceBits <= MaxBits.
func (a AgePartitioned) Validate() error {
	switch {
	case a.K < 1 || a.K > MaxAgeSlices-1:
		return invalid("age-partitioned k = %d, want 1 <= k < %d", a.K, MaxAgeSlices)
	case a.L < 1 || a.L > MaxAgeSlices-a.K:
		return invalid("age-partitioned l = %d, want 1 <= l and k + l <= %d", a.L, MaxAgeSlices)
	case a.G < 1 || a.G > MaxBits:
		return invalid("age-partitioned g = %d, want 1 <= g <= %d", a.G, uint64(MaxBits))
	case a.SliceBits < 1 || a.SliceBits > MaxBits/uint64(a.K+a.L):
		return invalid("age-partitioned slice bits = %d, want 1 <= bits and (k + l) bits <= %d", a.SliceBits, uint64(MaxBits))
	}
	return nil
}

// Slices returns K + L.
func (a AgePartitioned) Slices() int { return a.K + a.L }

// Bits returns the filter's bits, (K + L) SliceBits.
func (a AgePartitioned) Bits() uint64 { return uint64(a.K+a.L) * a.SliceBits }

// Window returns L G + 1, the number of most recent items that test
// present at every phase of the generation cycle (see the package notes
// above AgePartitioned).
func (a AgePartitioned) Window() uint64 { return uint64(a.L)*a.G + 1 }

// SliceLoad returns the number of items in the slice of age j (0 the
// newest) in the steady state at position c of the generation: j G + c for
// j < K, K G for the older ones.
func (a AgePartitioned) SliceLoad(j int, c uint64) uint64 {
	if j < a.K {
		return uint64(j)*a.G + c
	}
	return uint64(a.K) * a.G
}

// fill returns the chance 1 - (1 - 1/b)^n that a given bit of a slice of b
// bits holding n items is set.
func fill(b, n uint64) float64 {
	if n == 0 {
		return 0
	}
	if b == 1 {
		return 1
	}
	return -math.Expm1(float64(n) * math.Log1p(-1/float64(b)))
}

// fills returns the set-bit chance of every slice at position c.
func (a AgePartitioned) fills(c uint64) []float64 {
	f := make([]float64, a.K+a.L)
	for j := range f {
		f[j] = fill(a.SliceBits, a.SliceLoad(j, c))
	}
	return f
}

// RunProbability returns the probability that a sequence of independent
// trials, trial j succeeding with probability p[j], holds a run of at least
// k consecutive successes. It is computed exactly by a recursion over the
// trials whose state is the length of the current run (0 to k-1): q[r] is
// the probability of no run of k so far and a current run of r; a success
// moves r to r + 1 (reaching k ends in a run), a failure to 0. It returns
// NaN if k < 1.
//
// With p[j] the chance that the key's bit in the slice of age j is set,
// this is the false-positive rate of an age-partitioned filter whose slices
// are independent.
func RunProbability(p []float64, k int) float64 {
	if k < 1 {
		return math.NaN()
	}
	return runProbability(p, k, make([]float64, k))
}

// runProbability is RunProbability with the state in q, len(q) = k.
func runProbability(p []float64, k int, q []float64) float64 {
	clear(q)
	q[0] = 1
	var run float64
	for _, pj := range p {
		var fail float64
		for r := k - 1; r >= 0; r-- {
			fail += q[r]
			if r == k-1 {
				run += q[r] * pj
			} else {
				q[r+1] = q[r] * pj
			}
		}
		q[0] = fail * (1 - pj)
	}
	return run
}

// FPR returns the exact false-positive rate of the filter in the steady
// state at position c of the generation (0 <= c <= G): RunProbability of
// the slices' set-bit chances 1 - (1 - 1/b)^(n_j) with the loads n_j of
// SliceLoad, K in a row. It is exact for a filter whose slices take
// independent uniform positions for every key, as variants.AgePartitioned
// does (not for the blocked layout; see BlockedFPR). It returns NaN for an
// invalid geometry or c > G.
func (a AgePartitioned) FPR(c uint64) float64 {
	if a.Validate() != nil || c > a.G {
		return math.NaN()
	}
	return RunProbability(a.fills(c), a.K)
}

// WorstFPR returns the largest rate over the cycle, FPR(G), just before a
// shift: every load rises with c, so the rate does.
func (a AgePartitioned) WorstFPR() float64 { return a.FPR(a.G) }

// meanPhases is the number of positions beyond which MeanFPR and Recall
// average over a grid of positions instead of every one.
const meanPhases = 1024

// phases returns the positions 1..G to average over with their weights:
// every position if G <= meanPhases, otherwise the two ends of each of
// meanPhases/2 equal runs of positions, each end weighted by half its
// run's length (the trapezoid rule over each run).
func (a AgePartitioned) phases() (cs []uint64, w []float64) {
	if a.G <= meanPhases {
		for c := uint64(1); c <= a.G; c++ {
			cs, w = append(cs, c), append(w, 1/float64(a.G))
		}
		return cs, w
	}
	const runs = meanPhases / 2
	for i := range uint64(runs) {
		lo, hi := 1+i*a.G/runs, (i+1)*a.G/runs // positions lo..hi
		h := float64(hi-lo+1) / float64(a.G) / 2
		cs, w = append(cs, lo, hi), append(w, h, h)
	}
	return cs, w
}

// MeanFPR returns the rate averaged over the positions c = 1..G of the
// cycle, which is what a stream of queries spread evenly over the inserts
// meets. For G > 1024 it averages over 512 equal runs of positions, each
// by the trapezoid rule (the mean of FPR at its two ends, weighted by its
// length); the rate is smooth and monotone within a generation, so the
// error is far below the rate's own spread (2e-6 relative at G = 5000,
// K = 7, L = 5, TestAgePartitionedCycle).
func (a AgePartitioned) MeanFPR() float64 {
	if a.Validate() != nil {
		return math.NaN()
	}
	cs, w := a.phases()
	var s float64
	for i, c := range cs {
		s += w[i] * a.FPR(c)
	}
	return s
}

// OneNumberFPR returns the rate formula that implementations of the filter
// use (the paper's, and decred's CalcFPRate): the slices of age j < K are
// taken to be filled to (j+1)/(2K), the older ones to 1/2, and the rate is
// RunProbability of those fills. It depends on K and L only, and describes
// the end of a generation in a filter whose slices have K G/ln 2 bits
// (fill 1 - e^(-K G/b) = 1/2 when full), with the fill of a partial slice
// taken as linear in its load.
func (a AgePartitioned) OneNumberFPR() float64 {
	if a.K < 1 || a.L < 0 {
		return math.NaN()
	}
	p := make([]float64, a.K+a.L)
	for j := range p {
		p[j] = 0.5
		if j < a.K {
			p[j] = float64(j+1) / float64(2*a.K)
		}
	}
	return RunProbability(p, a.K)
}

// RecallAt returns the probability that an item that was the i-th insert
// of its generation (1 <= i <= G) tests present after age more inserts, in
// the steady state. It is 1 while the item's K slices all exist (age <=
// G - i + L G); beyond, its surviving slices hold its bit for sure and the
// others by chance, and the probability is RunProbability over the slices
// with 1 for the item's own slices. Once all its slices are gone it is the
// rate FPR(c). It returns NaN for an invalid geometry or i outside 1..G.
func (a AgePartitioned) RecallAt(age, i uint64) float64 {
	if a.Validate() != nil || i < 1 || i > a.G {
		return math.NaN()
	}
	// s shifts have happened since the insert, and c items are in the
	// newest slice now.
	var s, c uint64
	if rest := a.G - i; age <= rest {
		s, c = 0, i+age
	} else {
		s, c = 1+(age-rest-1)/a.G, (age-rest-1)%a.G+1
	}
	p := a.fills(c)
	for j := range p {
		if uint64(j) >= s && uint64(j) < s+uint64(a.K) {
			p[j] = 1
		}
	}
	return RunProbability(p, a.K)
}

// Recall returns the probability that an item of the given age (inserts
// since it was added) tests present, averaged over the item's position in
// its generation (uniform over 1..G, with the grid of MeanFPR for G > 1024):
// 1 up to age L G, falling over the next G inserts (the items of the
// youngest positions leave first) and to the rate beyond.
func (a AgePartitioned) Recall(age uint64) float64 {
	if a.Validate() != nil {
		return math.NaN()
	}
	cs, w := a.phases()
	var s float64
	for n, i := range cs {
		s += w[n] * a.RecallAt(age, i)
	}
	return s
}

// AgePartitionedSize returns the geometry that holds the given window (the
// number of most recent items that must test present at every phase) with
// the fewest bits whose worst rate over the cycle, WorstFPR, is at most p.
//
// The rule: for every K from k0 - 2 to k0 + 8, k0 = ceil(log2(1/p)) (the
// minimum lies at about k0 + 4 for p from 0.1 to 1e-4), and every L from
// 1 up (K + L <= MaxAgeSlices, L <= window - 1), G is the smallest generation
// with L G + 1 >= window, G = ceil((window - 1)/L) (at least 1), and
// SliceBits the smallest slice whose WorstFPR is at most p (found by
// bisection; the rate falls as slices grow). It returns the (K, L) of the
// fewest total bits (K + L) SliceBits, the smaller K on ties. For each K
// the scan over L stops once the bits exceed 1.25 times the best of that
// K seen so far, past which they only grow, and the scan over K once the
// best of a K exceeds 1.25 times the best of all.
//
// It reports an error if window is 0, p is outside (0, 1), or no geometry
// within MaxBits meets p.
func AgePartitionedSize(window uint64, p float64) (AgePartitioned, error) {
	return agePartitionedSize(window, p, 1, MaxAgeSlices)
}

// agePartitionedSize is AgePartitionedSize over the geometries whose K + L
// is a multiple of step and at most maxSlices.
func agePartitionedSize(window uint64, p float64, step, maxSlices int) (AgePartitioned, error) {
	if err := CheckProbability("p", p); err != nil {
		return AgePartitioned{}, err
	}
	if window == 0 || window > MaxBits {
		return AgePartitioned{}, invalid("window = %d, want 1 <= window <= %d", window, uint64(MaxBits))
	}
	best := AgePartitioned{}
	bestBits := uint64(math.MaxUint64)
	k0 := int(math.Ceil(-math.Log2(p)))
	for k := max(1, k0-2); k <= min(k0+8, maxSlices-1); k++ {
		kBest := uint64(math.MaxUint64)
		var guess, guessG uint64 // the previous L's slice and generation
		lMax := maxSlices - k
		if window-1 < uint64(lMax) {
			lMax = max(int(window-1), 1)
		}
		for l := 1; l <= lMax; l++ {
			if (k+l)%step != 0 {
				continue
			}
			g := max((window-1+uint64(l)-1)/uint64(l), 1)
			a := AgePartitioned{K: k, L: l, G: g}
			if guessG != 0 {
				guess = uint64(float64(guess) * float64(g) / float64(guessG))
			}
			b, ok := a.smallestSlice(p, guess)
			if !ok {
				continue
			}
			guess, guessG = b, g
			bits := uint64(k+l) * b
			if bits < bestBits {
				a.SliceBits = b
				best, bestBits = a, bits
			}
			kBest = min(kBest, bits)
			if float64(bits) > 1.25*float64(kBest) {
				break
			}
		}
		if bestBits < math.MaxUint64 && float64(kBest) > 1.25*float64(bestBits) {
			break
		}
	}
	if best.K == 0 {
		return AgePartitioned{}, invalid("window = %d at p = %g needs more than %d bits", window, p, uint64(MaxBits))
	}
	return best, nil
}

// smallestSlice returns the smallest SliceBits for which a's WorstFPR is
// at most p, and false if none within MaxBits is. It starts from guess
// (or from the slice that a full slice half fills, if guess is 0),
// brackets the answer by steps of 5%, and bisects.
func (a AgePartitioned) smallestSlice(p float64, guess uint64) (uint64, bool) {
	limit := uint64(MaxBits) / uint64(a.K+a.L)
	fills := make([]float64, a.K+a.L)
	q := make([]float64, a.K)
	worst := func(b uint64) float64 {
		for j := range fills {
			if j <= a.K {
				fills[j] = fill(b, a.SliceLoad(j, a.G))
			} else {
				fills[j] = fills[a.K]
			}
		}
		return runProbability(fills, a.K, q)
	}
	if guess == 0 {
		guess = uint64(float64(a.K) * float64(a.G) / math.Ln2)
	}
	hi := min(max(guess, 1), limit)
	lo := uint64(0) // worst(lo) > p, or lo = 0
	if worst(hi) > p {
		for lo = hi; ; lo = hi {
			if hi >= limit {
				return 0, false
			}
			hi = min(hi+hi/20+1, limit)
			if worst(hi) <= p {
				break
			}
		}
	} else {
		for hi > 1 {
			next := hi - hi/20 - 1
			if next < 1 || worst(next) > p {
				lo = next
				break
			}
			hi = next
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if worst(mid) <= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// Blocked layout. The blocked age-partitioned filter (the paper's
// age-partitioned blocked Bloom filter; variants.AgePartitioned with
// Blocked set) splits every slice into SliceBits/64 words; a key picks one
// word index x, the same in every slice, and one bit of word x in each
// slice, and the words of index x of all K + L slices lie side by side in
// memory, so that an insert and a query touch two or three cache lines.
// The slices are then no longer independent: the items that picked word x
// load it in all their K slices, so a word that is heavily loaded in one
// slice tends to be in its neighbours, and runs of set bits are likelier
// than RunProbability of the mean fills says.

// maxBlockedSlices is the largest K + L that BlockedAgePartitionedSize
// returns: four 64-byte lines of words per index.
const maxBlockedSlices = 32

// blockWordBits is the width of one slice's word in the blocked layout.
const blockWordBits = 64

// BlockedFPR returns the false-positive rate of the blocked layout at
// position c (0 <= c <= G) in the steady state, estimated by integrating
// over the key's word index: with X = SliceBits/64 words per slice, the
// numbers of items of each generation that picked the key's word are
// independent binomials, Bin(G, 1/X) for the full generations and Bin(c,
// 1/X) for the current one; slice j's word holds the sum n_j over the
// generations it received (the K newest ones of its lifetime), and given
// those sums the rate is exactly RunProbability of 1 - (1 - 1/64)^(n_j).
// The integral over the binomials is estimated from samples draws (common
// random numbers from a fixed seed, so the result is a deterministic,
// monotone function of the geometry), and returned with its standard
// error. It returns NaN if the geometry is invalid, SliceBits is not a
// multiple of 64, c > G or samples < 2.
func (a AgePartitioned) BlockedFPR(c uint64, samples int) (rate, stderr float64) {
	if a.Validate() != nil || a.SliceBits%blockWordBits != 0 || c > a.G || samples < 2 {
		return math.NaN(), math.NaN()
	}
	x := a.SliceBits / blockWordBits
	full, cur := binomialCDF(a.G, x), binomialCDF(c, x)
	n := a.K + a.L
	// setP[v] is the chance 1 - (1 - 1/64)^v that the key's bit is set in
	// a word of load v, tabulated for the loads the draws can reach (up
	// to 2^16; beyond, a word is full to within 2^-1400).
	maxLoad := min(uint64(a.K)*uint64(len(full)-1), 1<<16)
	setP := make([]float64, maxLoad+1)
	for v := range setP {
		setP[v] = fill(blockWordBits, uint64(v))
	}
	r := rand.New(rand.NewPCG(0x41504246, uint64(a.K)<<32|uint64(a.L)))
	gen := make([]uint64, n) // items of generation t in the key's word
	p := make([]float64, n)
	q := make([]float64, a.K)
	var mean, m2 float64 // Welford's running mean and sum of squares
	for i := range samples {
		gen[0] = invert(cur, r.Float64())
		for t := 1; t < n; t++ {
			gen[t] = invert(full, r.Float64())
		}
		// Slice j received generations max(0, j-K+1) to j: a sliding sum.
		var load uint64
		for j := range p {
			load += gen[j]
			if j >= a.K {
				load -= gen[j-a.K]
			}
			p[j] = setP[min(load, maxLoad)]
		}
		v := runProbability(p, a.K, q)
		d := v - mean
		mean += d / float64(i+1)
		m2 += d * (v - mean)
	}
	s := float64(samples)
	return mean, math.Sqrt(m2 / (s - 1) / s)
}

// binomialCDF returns the cumulative probabilities of Bin(n, 1/x) up to
// the value past which the tail is below 1e-15.
func binomialCDF(n, x uint64) []float64 {
	if n == 0 {
		return []float64{1}
	}
	q := 1 / float64(x)
	if x == 1 {
		cdf := make([]float64, n+1)
		cdf[n] = 1
		return cdf
	}
	pm := math.Exp(float64(n) * math.Log1p(-q))
	ratio := q / (1 - q)
	cdf := []float64{pm}
	for i := uint64(0); i < n && cdf[len(cdf)-1] < 1-1e-15; i++ {
		pm *= float64(n-i) / float64(i+1) * ratio
		cdf = append(cdf, cdf[len(cdf)-1]+pm)
	}
	return cdf
}

// invert returns the smallest v with cdf[v] >= u (the last value if none).
func invert(cdf []float64, u float64) uint64 {
	for v, c := range cdf {
		if c >= u {
			return uint64(v)
		}
	}
	return uint64(len(cdf) - 1)
}

// BlockedSamples is the number of draws with which BlockedAgePartitionedSize
// estimates BlockedFPR.
const BlockedSamples = 1 << 13

// BlockedAgePartitionedSize returns the geometry of the blocked layout for
// the given window and worst rate p: K and L are those of
// [AgePartitionedSize] restricted to K + L a multiple of 8 (so that the words
// of one index fill whole 64-byte lines) and at most 32 (so
// that they fill at most four lines: an insert then touches at most three,
// a query at most four), and SliceBits is then the
// smallest multiple of 64 for which the estimate of BlockedFPR(G) with
// BlockedSamples draws is at most p. It reports the errors of
// AgePartitionedSize.
func BlockedAgePartitionedSize(window uint64, p float64) (AgePartitioned, error) {
	a, err := agePartitionedSize(window, p, 8, maxBlockedSlices)
	if err != nil {
		return a, err
	}
	worst := func(words uint64) float64 {
		b := a
		b.SliceBits = words * blockWordBits
		r, _ := b.BlockedFPR(b.G, BlockedSamples)
		return r
	}
	limit := uint64(MaxBits) / uint64(a.K+a.L) / blockWordBits
	lo, hi := uint64(0), (a.SliceBits+blockWordBits-1)/blockWordBits
	for worst(hi) > p {
		if hi >= limit {
			return AgePartitioned{}, invalid("window = %d at p = %g needs more than %d bits in the blocked layout", window, p, uint64(MaxBits))
		}
		lo, hi = hi, min(hi+hi/4+1, limit)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if worst(mid) <= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	a.SliceBits = hi * blockWordBits
	return a, nil
}

// BlockedLines returns ceil((K+L)/8), the 64-byte lines that hold one index
// of the blocked layout (the words of its K + L slots, from a line
// boundary): no insert or query reads more.
func (a AgePartitioned) BlockedLines() int { return (a.K + a.L + 7) / 8 }

// BlockedInsertLines returns the mean number of 64-byte lines that an
// insert writes in the blocked layout: slot r's word of an index lies on
// line r/8 of the index, an insert writes the K slots from the newest
// slice's on, cyclically over the K + L slots, and the newest slice takes
// every slot in turn, one generation each; the mean is over those slots.
func (a AgePartitioned) BlockedInsertLines() float64 {
	n := a.K + a.L
	if a.K < 1 || a.L < 1 {
		return math.NaN()
	}
	var total int
	for front := range n {
		var seen [MaxAgeSlices/8 + 1]bool
		for j := range a.K {
			line := (front + j) % n / 8
			if !seen[line] {
				seen[line] = true
				total++
			}
		}
	}
	return float64(total) / float64(n)
}
