package analysis

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// A Bloom filter does not store its items, but the number of its cells that
// are set tells how many there are. Swamidass and Baldi ("Mathematical
// correction for fingerprint similarity measures to improve chemical
// retrieval", J. Chem. Inf. Model. 47(3), 2007) invert the expected fill
// 1 - e^(-kn/m) of a standard filter of m bits and k hashes: with X bits
// set, the estimate is -(m/k) ln(1 - X/m). bloomlab inverts the exact
// expected fill 1 - q^n instead, q being the probability that one item
// leaves a given cell empty ((1 - 1/m)^k for a standard filter):
//
//	n̂ = ln(1 - X/m) / ln q,
//
// of which Swamidass and Baldi's form is the large-m limit
// (-1/ln q = m/k - 1/2 + O(1/m)). The difference is a relative bias of
// about 1/(2m) for a standard filter, negligible, but k/(2m) for a
// partitioned one (one over twice the slice width) and 1.6% for the 32-bit
// words of a split-block filter, which the exact inverse does not have.
//
// The same formula serves a partitioned filter (k slices of m/k bits, one
// bit per item in each, so q = 1 - k/m) with X the set bits of all slices
// together: each slice alone gives ln(1 - X_j k/m) / ln q, and pooling the
// slices, as the formula does, is better than averaging those k
// estimates. Both have the same variance to first order, but the pooled
// estimate has the second-order bias of one filter of m cells rather than
// k times it, and it is infinite only when every bit is set, where the mean
// of the slices' estimates is infinite as soon as one slice is full. A
// counting filter gives the estimate of a standard filter from its
// non-zero counters; it also has an exact count (CounterSumItems). A
// scalable filter's estimate is the sum of its stages' (partitioned)
// estimates, a blocked filter's the sum over its blocks of each block's
// (standard) estimate, and a split-block filter's the sum over its blocks
// of each block's (partitioned, eight 32-bit slices) estimate; summing per
// block, rather than pooling the whole table, keeps the estimate
// consistent although the blocks receive unequal numbers of items.
//
// A filter whose every cell is set is saturated: its estimate is +Inf, the
// honest answer "at least this many, perhaps any number". Since that
// happens with positive probability once the kn cell choices can cover all
// m cells, the expectation of n̂ is infinite for every finite filter beyond
// that point; the moments reported here (EstimateError) are therefore those
// of the finite estimates, conditional on the filter not being saturated,
// beside the probability that it is (EstimateError.Saturated). Short of
// saturation the estimate degrades as the empty cells run out: see
// FillEstimator.Limit.
//
// Two filters of the same geometry and hashing estimate the sizes of the
// union and intersection of their sets (Swamidass and Baldi 2007;
// Papapetrou, Siberski and Nejdl, "Cardinality estimation and dynamic
// length adaptation for Bloom filters", Distributed and Parallel Databases
// 28, 2010): the OR of their cells is exactly the filter of the union, so
// its estimate is |A ∪ B|^, and inclusion-exclusion gives
// |A ∩ B|^ = n̂_A + n̂_B - |A ∪ B|^ and the Jaccard similarity
// |A ∩ B|^ / |A ∪ B|^. Their errors follow from the exact covariances of the
// three filters' empty-cell counts (FillEstimator.SetError).

// EstimateError is the predicted error of a count estimated from a filter's
// fill, given the true count n: the estimate's bias and standard deviation
// conditional on a finite estimate, and the probability that the estimate
// is infinite because every cell is set.
type EstimateError struct {
	// Bias is E[n̂] - n over the finite estimates.
	Bias float64
	// StdDev is the standard deviation of the finite estimates.
	StdDev float64
	// Saturated is the probability that every cell is set, so that the
	// estimate is +Inf.
	Saturated float64
	// Exact reports that Bias, StdDev and Saturated come from the exact
	// distribution of the set cells (up to floating-point rounding); if
	// false they come from the delta method (see [FillEstimator.Error]), or
	// for blocked filters from a mixture over the blocks' loads with one
	// large-table approximation.
	Exact bool
}

// RMSE returns the root mean square error sqrt(Bias^2 + StdDev^2).
func (e EstimateError) RMSE() float64 { return math.Hypot(e.Bias, e.StdDev) }

// SetEstimate holds the estimates of the sizes of two sets A and B, of
// their union and of their intersection from the set cells of their
// filters, and the Jaccard similarity |A ∩ B| / |A ∪ B| that they give.
// [FillEstimator.EstimateSets] and variants.EstimateSets return it.
type SetEstimate struct {
	// A and B are the estimated items of each filter, n̂_A and n̂_B,
	// from its fill (for a counting filter, from its non-zero counters,
	// so that the estimates are alike); +Inf for a saturated filter.
	A, B float64
	// Union estimates |A ∪ B| from the OR of the two filters' cells,
	// which is exactly the filter of the union.
	Union float64
	// Intersection estimates |A ∩ B| as A + B - Union, by
	// inclusion-exclusion. It is not clamped: by chance it can be
	// negative or exceed min(A, B).
	Intersection float64
	// Jaccard is Intersection / Union, NaN when both filters are empty.
	Jaccard float64
}

// SetError holds the predicted errors of the three estimates of a
// [SetEstimate]. The Jaccard error is that of the ratio, so its Bias and
// StdDev are in units of similarity, not of items.
type SetError struct {
	Union        EstimateError // of SetEstimate.Union, in items
	Intersection EstimateError // of SetEstimate.Intersection, in items
	Jaccard      EstimateError // of SetEstimate.Jaccard, in units of similarity
}

// FillEstimator estimates the number of items in a standard or a
// partitioned filter from the number of its cells that are set, and
// predicts the error of that estimate. A counting filter's non-zero
// counters are the set bits of the standard filter of the same geometry, so
// it is described as a standard one.
type FillEstimator struct {
	// Bits is the number of cells m.
	Bits uint64
	// Hashes is the number of cells an item sets, k.
	Hashes int
	// Partitioned reports that the cells are Hashes slices of
	// Bits/Hashes cells each, an item setting one uniform cell in every
	// slice (a partitioned filter, a stage of a scalable filter). If
	// false an item sets Hashes independent uniform cells, two of which
	// may coincide (a standard filter).
	Partitioned bool
}

// Validate reports an error unless 1 <= Bits <= [MaxBits] and
// 1 <= Hashes <= [MaxHashes], and, for a partitioned filter, Bits is a
// multiple of Hashes.
func (f FillEstimator) Validate() error {
	if f.Bits == 0 || f.Bits > MaxBits {
		return invalid("bits m = %d, want 1 <= m <= %d", f.Bits, uint64(MaxBits))
	}
	if f.Hashes < 1 || f.Hashes > MaxHashes {
		return invalid("hashes k = %d, want 1 <= k <= %d", f.Hashes, MaxHashes)
	}
	if f.Partitioned && f.Bits%uint64(f.Hashes) != 0 {
		return invalid("bits m = %d is not a multiple of the k = %d slices of a partitioned filter", f.Bits, f.Hashes)
	}
	return nil
}

// Estimate returns the estimate ln(1 - set/m) / ln q of the number of
// items in a filter with set of its m cells set, q being the probability
// that one item leaves a given cell empty: (1 - 1/m)^k for a standard
// filter, 1 - k/m for a partitioned one. It returns 0 for an empty filter,
// +Inf for a saturated one (set = m), and NaN if the estimator is invalid
// (see Validate) or set > m.
func (f FillEstimator) Estimate(set uint64) float64 {
	if f.Validate() != nil || set > f.Bits {
		return math.NaN()
	}
	switch set {
	case 0:
		return 0
	case f.Bits:
		return math.Inf(1)
	}
	return f.model().scale * -math.Log1p(-float64(set)/float64(f.Bits))
}

// EstimateSets returns the estimates of the sizes of two sets A and B, of
// their union and intersection, and their Jaccard similarity, from the set cells of
// their filters (setA, setB) and of the OR of the two (setUnion); the two
// filters must have this geometry and the same hashing. Each count is
// estimated by Estimate. If setUnion = m the union is +Inf and the
// intersection and Jaccard similarity are NaN; if both filters are empty the
// Jaccard similarity is NaN (0/0). The intersection is not clamped: by
// chance it can be negative or exceed the smaller set, and clamping it
// would bias it. It returns NaN everywhere if the counts are inconsistent
// (setUnion < max(setA, setB), setUnion > setA + setB or any count
// above m) or the estimator is invalid.
func (f FillEstimator) EstimateSets(setA, setB, setUnion uint64) SetEstimate {
	if f.Validate() != nil || setUnion > f.Bits || setUnion < max(setA, setB) || setUnion-setA > setB {
		nan := math.NaN()
		return SetEstimate{A: nan, B: nan, Union: nan, Intersection: nan, Jaccard: nan}
	}
	a, b, u := f.Estimate(setA), f.Estimate(setB), f.Estimate(setUnion)
	if math.IsInf(u, 1) {
		return SetEstimate{A: a, B: b, Union: u, Intersection: math.NaN(), Jaccard: math.NaN()}
	}
	in := a + b - u
	return SetEstimate{A: a, B: b, Union: u, Intersection: in, Jaccard: in / u}
}

// CounterSumItems returns the exact number of items in a counting filter
// with k hashes whose counters sum to sum: every add increments k counters
// and every removal of an added key decrements them, so the sum is k times
// the items. It holds while no counter has saturated (a saturated counter
// no longer counts, and the sum is then only a lower bound on k times the
// items) and only added keys have been removed. It returns NaN if k < 1.
func CounterSumItems(sum uint64, k int) float64 {
	if k < 1 {
		return math.NaN()
	}
	return float64(sum) / float64(k)
}

// Error returns the predicted error of [FillEstimator.Estimate] for a
// filter holding n items.
//
// Where it is affordable (filters up to about 10^4 bits at any load, and
// larger ones at small loads) it is exact: Bias and StdDev are sums over
// the exact distribution of the number of set cells, conditional on the
// filter not being saturated, and Saturated is the probability that every
// cell is set. Beyond that budget it uses the delta method with the exact
// variance of the empty cells, which holds while many cells are still
// empty: its StdDev is low by about 0.75/mu relatively with mu empty cells
// expected, and it breaks down below about [MinEmptyCells] (see
// [FillEstimator.Limit]). For large filters at practical loads the two
// agree to 1e-4 or better (derivation and accuracy: paper-notes.md §9a).
//
// When the filter is saturated for certainty (not one cell expected to
// stay clear, to float64 precision), there is no finite estimate to
// describe: Bias and StdDev are NaN and Saturated is 1. It reports an
// error if the estimator is invalid (see [FillEstimator.Validate]).
func (f FillEstimator) Error(n uint64) (EstimateError, error) {
	if err := f.Validate(); err != nil {
		return EstimateError{}, err
	}
	return f.errorsAt([]uint64{n})[0], nil
}

// Errors returns Error for each of the item counts ns, in one pass of the
// recurrence over the cell choices: a filter filled through several loads
// costs what the largest alone costs. The budget of the exact computation
// covers the whole pass, so the pass may turn to the delta method at a
// smaller count than separate calls of Error would; where both are exact
// they agree to rounding. The counts may come in any order. It reports an
// error if the estimator is invalid.
func (f FillEstimator) Errors(ns []uint64) ([]EstimateError, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	order := make([]int, len(ns))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ns[a], ns[b]) })
	sorted := make([]uint64, len(ns))
	for i, j := range order {
		sorted[i] = ns[j]
	}
	errs := f.errorsAt(sorted)
	out := make([]EstimateError, len(ns))
	for i, j := range order {
		out[j] = errs[i]
	}
	return out, nil
}

// DeltaError returns the delta-method approximation of Error for a filter
// holding n items, whatever the budget: the formulas at Error, with Exact
// false. It is there to be set beside Error where both can be had, to see
// where the approximation holds. It reports an error if the estimator is
// invalid.
func (f FillEstimator) DeltaError(n uint64) (EstimateError, error) {
	if err := f.Validate(); err != nil {
		return EstimateError{}, err
	}
	return f.model().delta(float64(n)), nil
}

// Limit returns the largest number of items for which at least minEmpty
// cells are expected to be empty: the n with E[Z] = m q^n = minEmpty,
// n = ln(minEmpty/m) / ln q, rounded down; the fill there is
// 1 - minEmpty/m. The estimate is meaningful up to a limit of this kind,
// and meaningless beyond. As the empty cells run out the estimate rests
// on those few: its spread approaches (m/k)/sqrt(E[Z]) items, the chance
// that none is left and the estimate is +Inf is about e^(-E[Z]), and the
// delta method's error bars go wrong. bloomlab takes [MinEmptyCells] = 10 as
// the edge. It returns 0 if minEmpty >= m (no load qualifies) and reports
// an error if the estimator is invalid or minEmpty is not positive.
func (f FillEstimator) Limit(minEmpty float64) (uint64, error) {
	if err := f.Validate(); err != nil {
		return 0, err
	}
	if math.IsNaN(minEmpty) || minEmpty <= 0 {
		return 0, invalid("empty cells %v, want > 0", minEmpty)
	}
	m := float64(f.Bits)
	if minEmpty >= m {
		return 0, nil
	}
	lq := f.model().lq1
	if math.IsInf(lq, -1) {
		return 0, nil // one item fills every cell
	}
	n := math.Floor(math.Log(minEmpty/m) / lq)
	if n >= math.MaxUint64 {
		return math.MaxUint64, nil
	}
	return uint64(n), nil
}

// MinEmptyCells is the expected number of empty cells below which bloomlab
// calls a filter's count estimate meaningless (see [FillEstimator.Limit]).
// With 10 empty cells expected, one filter in 25,000 to 60,000 is
// saturated (the estimate +Inf; e^-10 = 1/22,000 in the Poisson limit) and
// the delta method's standard deviation is 8 to 9% low
// (TestCardinalityDeltaAgreement); with 3, one filter in 20 to 40 is
// saturated and the finite estimates' bias is 40% below what the delta
// method says; with 1, one in 3 is saturated.
const MinEmptyCells = 10

// SetError returns the predicted errors of [FillEstimator.EstimateSets] for
// two filters of this geometry holding sets A and B of a and b items,
// shared of them in common (shared <= min(a, b)).
//
// The union is a single filter holding a + b - shared items, whose error is
// [FillEstimator.Error]'s, exact where affordable. The intersection and the
// Jaccard similarity combine three correlated estimates, and their errors
// come from the delta method with the exact covariances of the empty-cell
// counts of the three filters (derivation: paper-notes.md §9a). The
// validity of the delta method is as for Error; it needs many empty cells
// in the union's filter.
//
// The Jaccard error has StdDev and Bias in units of similarity, and is NaN
// when both sets are empty. Saturated is, for all three, the probability
// that the union's filter is saturated (if A's or B's is, so is the
// union's). It reports an error if the estimator is invalid, shared >
// min(a, b), or a + b overflows.
func (f FillEstimator) SetError(a, b, shared uint64) (SetError, error) {
	out, err := f.SetErrors(a, b, []uint64{shared})
	if err != nil {
		return SetError{}, err
	}
	return out[0], nil
}

// SetErrors returns [SetError] for sets of a and b items at each of the
// overlaps shared, computing the union's errors in one pass as Errors
// does (and so with its budget).
func (f FillEstimator) SetErrors(a, b uint64, shared []uint64) ([]SetError, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if a > math.MaxUint64-b {
		return nil, invalid("set sizes %d + %d overflow", a, b)
	}
	us := make([]uint64, len(shared))
	for i, s := range shared {
		if s > min(a, b) {
			return nil, invalid("shared items %d exceed the smaller set (%d and %d items)", s, a, b)
		}
		us[i] = a + b - s
	}
	unions, err := f.Errors(us)
	if err != nil {
		return nil, err
	}
	out := make([]SetError, len(shared))
	for i, s := range shared {
		out[i] = f.setError(a, b, s, unions[i])
	}
	return out, nil
}

// setError returns the errors of the set estimates given the union's.
func (f FillEstimator) setError(a, b, shared uint64, union EstimateError) SetError {
	u := a + b - shared
	fm := f.model()
	af, bf, sf, uf := float64(a), float64(b), float64(shared), float64(u)
	muA, muB, muU := fm.mean(af), fm.mean(bf), fm.mean(uf)
	s2 := fm.scale * fm.scale
	c := func(x, y, common, mx, my float64) float64 { return s2 * fm.cov(x, y, common) / (mx * my) }
	vA, vB, vU := c(af, af, af, muA, muA), c(bf, bf, bf, muB, muB), c(uf, uf, uf, muU, muU)
	cAB, cAU, cBU := c(af, bf, sf, muA, muB), c(af, uf, af, muA, muU), c(bf, uf, bf, muB, muU)
	bA, bB, bU := fm.delta(af).Bias, fm.delta(bf).Bias, fm.delta(uf).Bias

	vI := vA + vB + vU + 2*cAB - 2*cAU - 2*cBU
	bI := bA + bB - bU
	out := SetError{
		Union:        union,
		Intersection: EstimateError{Bias: bI, StdDev: math.Sqrt(math.Max(vI, 0)), Saturated: union.Saturated},
	}
	if u == 0 {
		nan := math.NaN()
		out.Jaccard = EstimateError{Bias: nan, StdDev: nan, Saturated: union.Saturated}
		return out
	}
	j := sf / uf
	cIU := cAU + cBU - vU // Cov(I, U) with I = A + B - U
	ex, ey := sf+bI, uf+bU
	meanJ := ex/ey - cIU/(ey*ey) + ex*vU/(ey*ey*ey)
	vJ := (vI - 2*j*cIU + j*j*vU) / (uf * uf)
	out.Jaccard = EstimateError{Bias: meanJ - j, StdDev: math.Sqrt(math.Max(vJ, 0)), Saturated: union.Saturated}
	return out
}

// EstimateError returns the predicted error of the estimate of a scalable
// filter holding items distinct items: the sum over its stages of each
// stage's estimate (partitioned, or with BlockBits a blocked stage's
// estimate over its whole table, [Multiblock.EstimateError] of the block
// layout of one B-bit window), with the stages filled in order as FPR
// assumes (every stage but the last full). Stages fill independently, so
// the biases and the variances add, and the filter's estimate is infinite
// if any stage's is. The estimate counts the keys actually inserted, which
// for a real scalable filter are fewer than the distinct keys offered by
// the false positives among them (Add skips a key that tests present); the
// difference is below the target P times the items. It reports the errors
// of Stages.
func (s Scalable) EstimateError(items uint64) (EstimateError, error) {
	out, err := s.EstimateErrors([]uint64{items})
	if err != nil {
		return EstimateError{}, err
	}
	return out[0], nil
}

// EstimateErrors returns [EstimateError] for each of the item counts items,
// computing each stage's errors in one pass as [FillEstimator.Errors] does
// (and so with its budget per stage).
func (s Scalable) EstimateErrors(items []uint64) ([]EstimateError, error) {
	var most uint64
	for _, n := range items {
		most = max(most, n)
	}
	stages, err := s.Stages(most)
	if err != nil {
		return nil, err
	}
	// The items of stage i at each count: the stages fill in order.
	per := make([][]uint64, len(stages))
	left := slices.Clone(items)
	for i, st := range stages {
		per[i] = make([]uint64, len(items))
		for j := range items {
			per[i][j] = min(left[j], st.Capacity)
			left[j] -= per[i][j]
		}
	}
	out := make([]EstimateError, len(items))
	variance := make([]float64, len(items))
	logClear := make([]float64, len(items))
	for j := range out {
		out[j].Exact = true
	}
	for i, st := range stages {
		errs, err := s.stageErrors(st, per[i])
		if err != nil {
			return nil, err
		}
		for j, e := range errs {
			if per[i][j] == 0 {
				continue // a stage not yet opened at this count
			}
			out[j].Bias += e.Bias
			variance[j] += e.StdDev * e.StdDev
			logClear[j] += math.Log1p(-e.Saturated)
			out[j].Exact = out[j].Exact && e.Exact
		}
	}
	for j := range out {
		out[j].StdDev = math.Sqrt(variance[j])
		out[j].Saturated = 0 - math.Expm1(logClear[j])
	}
	return out, nil
}

// stageErrors returns the errors of a stage's estimate at each of the
// item counts per: those of a partitioned filter, or with blocked stages
// those of the pooled estimate of a block layout at each count.
func (s Scalable) stageErrors(st Stage, per []uint64) ([]EstimateError, error) {
	if s.BlockBits == 0 {
		return FillEstimator{Bits: st.Bits, Hashes: st.Hashes, Partitioned: true}.Errors(per)
	}
	out := make([]EstimateError, len(per))
	b := Multiblock{Bits: st.Bits, Hashes: st.Hashes, WordBits: s.BlockBits}
	for j, n := range per {
		e, err := b.EstimateError(n)
		if err != nil {
			return nil, err
		}
		out[j] = e
	}
	return out, nil
}

// BlockedEstimateError returns the predicted error of the estimate of a
// blocked filter of m bits in blocks of blockBits bits with k hashes,
// holding n items: the sum over the blocks of each block's standard
// estimate -(B/k) ln(1 - X_b/B). A block's load J is Binomial(n, B/m);
// given J = j, its estimate has the exact error of a standard filter of B
// bits holding j items ([FillEstimator.Error], exact at block sizes), so the
// filter's bias is b E_J[bias(J)] over its b blocks. Its variance is
// b E_J[Var(n̂ | J)], the blocks being independent given their loads, plus
// the spread of the blocks' conditional means, which would vanish if those
// were exactly J (the loads sum to n): for the residual r(J) = E[n̂ | J] - J
// it is b (Var r - Cov(r, J)^2 / Var J), the variance of a sum of functions
// of multinomial counts for many blocks. That term is tiny (bias(J) is of
// order one item per block), and it is the only approximation, so Exact
// is false. Saturated is the probability that some block is full,
// 1 - (1 - E_J[P(X_b = B | J)])^b. The mixture describes the finite
// estimates while a full block is the exception: once Saturated exceeds
// 1/2 (in particular when every block is full for certain, fewer than
// 1e-30 bits of a block expected clear at half the mean load), Bias and
// StdDev are NaN. It reports the errors of [CheckBlocked].
func BlockedEstimateError(m, n uint64, k int, blockBits uint64) (EstimateError, error) {
	if err := CheckBlocked(m, blockBits, k); err != nil {
		return EstimateError{}, err
	}
	return blockMixture(m/blockBits, n, FillEstimator{Bits: blockBits, Hashes: k})
}

// SplitBlockEstimateError returns the predicted error of the estimate of a
// split-block filter of m bits (a multiple of 256) holding n items: the sum
// over the blocks of each block's estimate -32 ln(1 - X_b/256), a block
// being a partitioned filter of eight 32-bit slices. It is computed as
// [BlockedEstimateError] is, with that block. It reports the errors of
// [CheckBlocked].
func SplitBlockEstimateError(m, n uint64) (EstimateError, error) {
	if err := CheckBlocked(m, SplitBlockBits, SplitBlockHashes); err != nil {
		return EstimateError{}, err
	}
	return blockMixture(m/SplitBlockBits, n, FillEstimator{Bits: SplitBlockBits, Hashes: SplitBlockHashes, Partitioned: true})
}

// blockMixture returns the error of the sum over blocks of each block's
// estimate, mixed over the binomial load of a block (see
// BlockedEstimateError).
func blockMixture(blocks, n uint64, block FillEstimator) (EstimateError, error) {
	if n == 0 {
		return EstimateError{}, nil
	}
	// With half the mean load, a block would keep fewer than 1e-30 clear
	// bits: every block is full for certain (and the table of loads would
	// be needlessly long).
	if half := float64(n) / float64(blocks) / 2; block.model().mean(half) < 1e-30 {
		return certainlySaturated(), nil
	}
	ld := loadTable(n, blocks)
	js := make([]uint64, len(ld.w))
	for i := range js {
		js[i] = ld.start + uint64(i)
	}
	per := block.errorsAt(js)
	// Loads at which a block is full for certain count towards
	// saturation only; the moments are over the others.
	finite := func(e EstimateError) bool { return !math.IsNaN(e.StdDev) && !math.IsInf(e.Bias, 0) }
	var all, w, eR, eJ, eV, eP float64
	for i, p := range ld.w {
		all += p
		eP += p * per[i].Saturated
		if !finite(per[i]) {
			continue
		}
		w += p
		eR += p * per[i].Bias
		eJ += p * float64(js[i])
		eV += p * per[i].StdDev * per[i].StdDev
	}
	b := float64(blocks)
	saturated := 0 - math.Expm1(b*math.Log1p(-eP/all))
	if saturated > 0.5 || w == 0 {
		e := certainlySaturated()
		e.Saturated = saturated
		return e, nil
	}
	eR, eJ, eV = eR/w, eJ/w, eV/w
	var vR, vJ, cRJ float64
	for i, p := range ld.w {
		if !finite(per[i]) {
			continue
		}
		dr, dj := per[i].Bias-eR, float64(js[i])-eJ
		vR += p * dr * dr
		vJ += p * dj * dj
		cRJ += p * dr * dj
	}
	vR, vJ, cRJ = vR/w, vJ/w, cRJ/w
	between := vR
	if vJ > 0 {
		between -= cRJ * cRJ / vJ
	}
	return EstimateError{
		Bias:      b * eR,
		StdDev:    math.Sqrt(b * (eV + math.Max(between, 0))),
		Saturated: saturated,
	}, nil
}

// certainlySaturated is the error of an estimate that is +Inf for
// certainty: no finite estimate to describe.
func certainlySaturated() EstimateError {
	return EstimateError{Bias: math.NaN(), StdDev: math.NaN(), Saturated: 1}
}

// cardinalityBudget bounds the cell updates that one call spends on exact
// distributions of the set cells; beyond it the delta method
// is used.
const cardinalityBudget = 3e7

// pruneBelow is the probability, relative to the most likely value, below
// which the tails of a distribution of cell counts are dropped.
const pruneBelow = 1e-30

// errorsAt returns Error for each of the item counts ns, in ascending
// order: one pass of the recurrence serves them all, exact while the
// budget lasts and by the delta method from there on.
func (f FillEstimator) errorsAt(ns []uint64) []EstimateError {
	fm := f.model()
	out := make([]EstimateError, len(ns))
	cells, perItem := f.Bits, uint64(f.Hashes)
	if f.Partitioned {
		cells, perItem = f.Bits/uint64(f.Hashes), 1
	}
	o := newOccupancy(cells)
	budget := float64(cardinalityBudget)
	exact := true
	for i, n := range ns {
		if exact {
			out[i], exact = f.exactError(o, n, perItem, &budget)
			if exact {
				continue
			}
		}
		out[i] = fm.delta(float64(n))
	}
	return out
}

// exactError advances o to n items of perItem choices each and returns the
// exact error there, or false if the budget does not allow it.
func (f FillEstimator) exactError(o *occupancy, n, perItem uint64, budget *float64) (EstimateError, bool) {
	hi, t := bits.Mul64(n, perItem)
	if hi != 0 || t < o.t || o.work(t) > *budget {
		return EstimateError{}, false
	}
	if !o.advance(t, budget) {
		return EstimateError{}, false
	}
	z := o.empty()
	if f.Partitioned {
		var ok bool
		if z, ok = z.power(f.Hashes, budget); !ok {
			return EstimateError{}, false
		}
	}
	scale, logM := f.model().scale, math.Log(float64(f.Bits))
	mean, sd, p0 := z.moments(func(e float64) float64 { return scale * (logM - math.Log(e)) })
	return EstimateError{Bias: mean - float64(n), StdDev: sd, Saturated: p0, Exact: true}, true
}

// cellDist is the distribution of a count of cells: p[i] = P(count = lo+i).
type cellDist struct {
	lo uint64
	p  []float64
}

// trimmed returns d without the tails below pruneBelow times peak.
func (d cellDist) trimmed(peak float64) cellDist {
	cut := peak * pruneBelow
	i, j := 0, len(d.p)
	for i < j-1 && d.p[i] < cut {
		i++
	}
	for j > i+1 && d.p[j-1] < cut {
		j--
	}
	return cellDist{lo: d.lo + uint64(i), p: d.p[i:j]}
}

// convolve returns the distribution of the sum of independent counts with
// distributions d and e, or false if that would exceed the budget.
func (d cellDist) convolve(e cellDist, budget *float64) (cellDist, bool) {
	work := float64(len(d.p)) * float64(len(e.p))
	if work > *budget {
		return cellDist{}, false
	}
	*budget -= work
	out := make([]float64, len(d.p)+len(e.p)-1)
	for i, x := range d.p {
		for j, y := range e.p {
			out[i+j] += x * y
		}
	}
	peak := 0.0
	for _, x := range out {
		peak = math.Max(peak, x)
	}
	return cellDist{lo: d.lo + e.lo, p: out}.trimmed(peak), true
}

// power returns the distribution of the sum of k independent counts
// distributed as d, by binary powering, or false if that would exceed the
// budget.
func (d cellDist) power(k int, budget *float64) (cellDist, bool) {
	acc := cellDist{p: []float64{1}}
	for sq := d; ; {
		var ok bool
		if k&1 == 1 {
			if acc, ok = acc.convolve(sq, budget); !ok {
				return cellDist{}, false
			}
		}
		if k >>= 1; k == 0 {
			return acc, true
		}
		if sq, ok = sq.convolve(sq, budget); !ok {
			return cellDist{}, false
		}
	}
}

// moments returns the mean and standard deviation of h(Z) over the values
// Z > 0 of d, normalised to those, and P(Z = 0).
func (d cellDist) moments(h func(z float64) float64) (mean, sd, p0 float64) {
	var total, w, s float64
	for i, p := range d.p {
		total += p
		z := d.lo + uint64(i)
		if z == 0 {
			p0 = p
			continue
		}
		w += p
		s += p * h(float64(z))
	}
	if w == 0 {
		return math.NaN(), math.NaN(), 1 // saturated for certain
	}
	mean = s / w
	var v float64
	for i, p := range d.p {
		if z := d.lo + uint64(i); z > 0 {
			e := h(float64(z)) - mean
			v += p * e * e
		}
	}
	return mean, math.Sqrt(v / w), p0 / total
}

// occupancy is the distribution of the number of occupied cells among
// cells after t independent uniform choices of a cell.
type occupancy struct {
	cells uint64
	t     uint64
	d     cellDist
	peak  float64
}

func newOccupancy(cells uint64) *occupancy {
	return &occupancy{cells: cells, d: cellDist{p: []float64{1}}, peak: 1}
}

// advance makes t choices in all, each moving the count x up by one with
// probability (cells - x)/cells; it reports false, and leaves o unusable,
// if that would exceed the budget.
func (o *occupancy) advance(t uint64, budget *float64) bool {
	c := float64(o.cells)
	inv := 1 / c
	for ; o.t < t; o.t++ {
		d := &o.d
		if d.lo+uint64(len(d.p))-1 < o.cells {
			d.p = append(d.p, 0)
		}
		p := d.p
		*budget -= float64(len(p))
		if *budget < 0 {
			return false
		}
		x := float64(d.lo) + float64(len(p)-1)
		for i := len(p) - 1; i >= 1; i-- {
			p[i] = (p[i]*x + p[i-1]*(c-x+1)) * inv
			x--
		}
		p[0] *= x * inv
		if o.t%32 == 0 {
			o.peak = 0
			for _, v := range p {
				o.peak = math.Max(o.peak, v)
			}
		}
		*d = d.trimmed(o.peak)
	}
	return true
}

// work estimates the cell updates that advancing to t choices costs: the
// number of choices times the width of the distribution, about 24 standard
// deviations between the cuts at pruneBelow (a normal distribution falls
// to 1e-30 of its peak 11.7 standard deviations out), sampled at eight
// points on the way.
func (o *occupancy) work(t uint64) float64 {
	if t <= o.t {
		return 0
	}
	// The occupancy of c cells after t choices is that of a standard
	// filter of c cells and one hash holding t items.
	fm := FillEstimator{Bits: o.cells, Hashes: 1}.model()
	const samples = 8
	step := float64(t-o.t) / samples
	var w float64
	for i := 1; i <= samples; i++ {
		s := float64(o.t) + step*float64(i)
		width := math.Min(math.Min(s+1, float64(o.cells)+1), 24*math.Sqrt(fm.cov(s, s, s))+2)
		w += step * width
	}
	return w
}

// empty returns the distribution of the number of empty cells.
func (o *occupancy) empty() cellDist {
	n := len(o.d.p)
	out := make([]float64, n)
	for i, v := range o.d.p {
		out[n-1-i] = v
	}
	return cellDist{lo: o.cells - (o.d.lo + uint64(n) - 1), p: out}
}

// fillModel holds what the estimator and the delta method need of a
// filter's geometry: m cells in g independent groups of c cells, the
// logarithm of the probability q1 that an item misses a given cell, the
// logarithm of q2/q1^2 with q2 the probability that it misses two given
// cells of one group, and the estimator's scale -1/ln q1 (0 when one item
// fills every cell).
type fillModel struct {
	m, c, g, lq1, lr, scale float64
}

func (f FillEstimator) model() fillModel {
	m, k := float64(f.Bits), float64(f.Hashes)
	if f.Partitioned {
		c := m / k
		fm := fillModel{m: m, c: c, g: k, lq1: math.Log1p(-1 / c)}
		if c > 1 {
			fm.lr = math.Log1p(-1 / ((c - 1) * (c - 1)))
		}
		fm.scale = -1 / fm.lq1
		return fm
	}
	fm := fillModel{m: m, c: m, g: 1, lq1: k * math.Log1p(-1/m)}
	if m > 1 {
		fm.lr = k * math.Log1p(-1/((m-1)*(m-1)))
	}
	fm.scale = -1 / fm.lq1
	return fm
}

// miss returns q1^n, the probability that n items all miss a given cell.
func (fm fillModel) miss(n float64) float64 {
	if n == 0 {
		return 1
	}
	return math.Exp(n * fm.lq1)
}

// mean returns E[Z], the expected empty cells after n items.
func (fm fillModel) mean(n float64) float64 { return fm.m * fm.miss(n) }

// cov returns Cov(Z_S, Z_T) for sets of s and t items with common of them
// in common (see SetError).
func (fm fillModel) cov(s, t, common float64) float64 {
	if common == 0 {
		return 0
	}
	one := fm.g * fm.c * fm.miss(s+t-common) * -math.Expm1(common*fm.lq1)
	two := fm.g * fm.c * (fm.c - 1) * fm.miss(s+t) * math.Expm1(common*fm.lr)
	return one + two
}

// delta returns the delta-method error of the estimate after n items (see
// FillEstimator.Error).
func (fm fillModel) delta(n float64) EstimateError {
	if n == 0 {
		return EstimateError{}
	}
	mu := fm.mean(n)
	if mu < 1e-300 {
		return certainlySaturated()
	}
	v := fm.cov(n, n, n)
	return EstimateError{
		Bias:      fm.scale * v / (2 * mu * mu),
		StdDev:    fm.scale * math.Sqrt(v) / mu,
		Saturated: math.Exp(-mu),
	}
}
