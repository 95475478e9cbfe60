package variants

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"sync/atomic"

	"github.com/bloomlab/bloomlab/analysis"
)

// The number of items a filter holds is estimated from its fill, as
// package analysis describes at FillEstimator: with X of a group's c cells
// set, where one item leaves a given cell empty with probability q, the
// group holds about ln(1 - X/c) / ln q items (Swamidass and Baldi 2007,
// with the exact q in place of their large-table limit). A standard filter
// is one group of m cells with q = (1 - 1/m)^k; a partitioned filter pools
// its k slices into one group of m cells with q = 1 - k/m; a blocked,
// split-block or multiblock filter pools its whole table with the exact q
// of its layout (see BlockCounter below); a scalable filter sums the
// estimates of its stages. The formula is written here rather than called from
// analysis, which this package uses for sizing only; the tests check that
// the two agree.

// ErrSaturated reports a filter whose every cell is set (or, for a blocked
// stage is full), from which no count can be estimated: the estimate is
// +Inf.
var ErrSaturated = errors.New("filter saturated")

// fillEstimate returns the estimate of the items in a group of cells with
// set of them set, scale being -1/ln q: 0 when empty, +Inf when full.
func fillEstimate(set, cells uint64, scale float64) float64 {
	switch set {
	case 0:
		return 0
	case cells:
		return math.Inf(1)
	}
	return scale * -math.Log1p(-float64(set)/float64(cells))
}

// standardScale returns -1/ln q with q = (1 - 1/m)^k, for a table of m
// cells in which an item sets k uniform cells.
func standardScale(m uint64, k int) float64 {
	return -1 / (float64(k) * math.Log1p(-1/float64(m)))
}

// sliceScale returns -1/ln q with q = 1 - 1/b, for slices of b cells in
// which an item sets one cell each.
func sliceScale(b uint64) float64 { return -1 / math.Log1p(-1/float64(b)) }

// estimatedItems returns the estimate of a standard filter with set bits
// set.
func (f *Standard) estimatedItems(set uint64) float64 {
	return fillEstimate(set, f.m, standardScale(f.m, f.k))
}

// estimatedItems returns the estimate of the partitioned filter from the
// fraction fill of the bits of all its slices together that are set, as
// fill returns it: fill times the bits, below 2^53, rounds back to the
// exact count, so the words need not be counted again.
func (f *Partitioned) estimatedItems(fill float64) float64 {
	m := f.sliceBits * uint64(f.k)
	return fillEstimate(uint64(math.Round(fill*float64(m))), m, sliceScale(f.sliceBits))
}

// estimatedItems returns the estimate of a counting filter with nonzero
// non-zero and saturated saturated counters: the exact count (the sum of
// the counters over k) while no counter is saturated, and otherwise the
// estimate of the standard filter whose set bits are the non-zero
// counters, which saturation does not disturb.
func (f *Counting) estimatedItems(nonzero, saturated uint64) float64 {
	if saturated == 0 {
		return float64(f.counterSum()) / float64(f.k)
	}
	return fillEstimate(nonzero, f.m, standardScale(f.m, f.k))
}

// counterSum returns the sum of all counters.
func (f *Counting) counterSum() uint64 {
	var sum uint64
	for _, x := range f.words {
		// Add neighbouring fields pairwise until one field spans the
		// word; the sum of 64/w counters of w bits fits at every step.
		for w := uint(f.width); w < 64; w *= 2 {
			m := fieldMasks[bits.TrailingZeros(w)]
			x = x&m + x>>w&m
		}
		sum += x
	}
	return sum
}

// fieldMasks[i] selects the low 2^i bits of every 2^(i+1)-bit field.
var fieldMasks = [6]uint64{
	0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f,
	0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 0x00000000ffffffff,
}

// nonzero returns, in the lowest bit of each counter of x, whether the
// counter is non-zero.
func (f *Counting) nonzero(x uint64) uint64 {
	for s := 1; s < f.width; s <<= 1 {
		x |= x >> s
	}
	return x & (^uint64(0) / f.max)
}

// EstimateSets estimates the sizes of the sets A and B added to f and g,
// of their union and of their intersection, and their Jaccard similarity,
// from the cells of the two filters, without building a new filter: A and
// B from each filter's fill, the union from the OR of their cells
// (exactly the filter that adding both sets would have built), the
// intersection by inclusion-exclusion, A + B - Union, not clamped (see
// [analysis.SetEstimate]). It reads both filters
// and may run concurrently with their Contains.
//
// The filters must be of the same variant ([Standard], [Partitioned],
// [Counting], [Blocked], [SplitBlock], [Multiblock] or [ConcurrentStandard]) and, as for Union,
// have the same geometry and hashing; otherwise EstimateSets returns an
// error wrapping [ErrIncompatible] that names every difference. [Scalable]
// filters always give that error: a key's stage depends on the order in
// which keys arrived, so the stages of two filters do not line up. For a
// counting filter the cells are its non-zero counters, and A and B are
// estimated from those too (not from the exact counter sums), so that the
// three estimates are alike. A nil filter gives an error wrapping
// [ErrInvalidParams].
//
// If the union's cells are all set, the union cannot be estimated:
// Union is +Inf, Intersection and Jaccard are NaN, A and B are as
// estimated (+Inf if saturated themselves), and the error wraps
// [ErrSaturated].
//
// package analysis predicts the errors of these estimates
// (FillEstimator.SetError) for standard and partitioned filters, and for
// counting filters as standard ones. [Blocked], [SplitBlock] and
// [Multiblock] filters pool the whole table, as their Stats does: their
// estimates are those of [EstimateBlockSets], which also returns the
// predicted errors.
func EstimateSets(f, g Filter) (analysis.SetEstimate, error) {
	if isNil(f) || isNil(g) {
		return analysis.SetEstimate{}, invalid("set estimates of a nil filter")
	}
	switch a := f.(type) {
	case *Standard:
		b, err := sameKind(a, g)
		if err != nil {
			return analysis.SetEstimate{}, err
		}
		return groupSets(a.words, b.words, len(a.words), a.m, standardScale(a.m, a.k))
	case *Partitioned:
		b, err := sameKind(a, g)
		if err != nil {
			return analysis.SetEstimate{}, err
		}
		return groupSets(a.words, b.words, len(a.words), a.sliceBits*uint64(a.k), sliceScale(a.sliceBits))
	case *Blocked, *SplitBlock, *Multiblock:
		s, _, err := EstimateBlockSets(a, g)
		return s, err
	case *Counting:
		b, err := sameKind(a, g)
		if err != nil {
			return analysis.SetEstimate{}, err
		}
		return countingSets(a, b)
	case *ConcurrentStandard:
		b, err := sameKind(a, g)
		if err != nil {
			return analysis.SetEstimate{}, err
		}
		return concurrentSets(a, b)
	case *Scalable:
		return analysis.SetEstimate{}, incompatible("scalable filters have no set estimates: a key's stage depends on the order in which keys arrived, so the stages of two filters do not line up")
	}
	return analysis.SetEstimate{}, incompatible("no set estimates for %T", f)
}

// sameKind returns g as a filter of f's type compatible with f, or an
// error wrapping ErrIncompatible.
func sameKind[F interface {
	Filter
	compatible(F) error
}](f F, g Filter) (F, error) {
	b, ok := g.(F)
	if !ok {
		return b, incompatible("set estimates need two filters of the same variant, not %s and %s", variantName(f), variantName(g))
	}
	return b, f.compatible(b)
}

// countingSets estimates the set sizes of two compatible counting filters
// from their non-zero counters.
func countingSets(a, b *Counting) (analysis.SetEstimate, error) {
	var xa, xb, xu uint64
	for i, wa := range a.words {
		na, nb := a.nonzero(wa), a.nonzero(b.words[i])
		xa += uint64(bits.OnesCount64(na))
		xb += uint64(bits.OnesCount64(nb))
		xu += uint64(bits.OnesCount64(na | nb))
	}
	scale := standardScale(a.m, a.k)
	return setSizes(fillEstimate(xa, a.m, scale), fillEstimate(xb, a.m, scale), fillEstimate(xu, a.m, scale))
}

// compatible reports the differences that keep f and g from being
// combined, as Standard's does. It is called through sameKind's type
// constraint, which staticcheck does not follow.
//
//lint:ignore U1000 used by sameKind[*ConcurrentStandard]
func (f *ConcurrentStandard) compatible(g *ConcurrentStandard) error {
	a, b := bitCore{k: f.k, hashing: f.hashing}, bitCore{k: g.k, hashing: g.hashing}
	return a.compatible(&b, "bits", f.m, g.m)
}

// concurrentSets estimates the set sizes of two compatible concurrent
// standard filters, reading their words atomically.
func concurrentSets(a, b *ConcurrentStandard) (analysis.SetEstimate, error) {
	var xa, xb, xu uint64
	for i := range a.words {
		wa, wb := atomic.LoadUint64(&a.words[i]), atomic.LoadUint64(&b.words[i])
		xa += uint64(bits.OnesCount64(wa))
		xb += uint64(bits.OnesCount64(wb))
		xu += uint64(bits.OnesCount64(wa | wb))
	}
	scale := standardScale(a.m, a.k)
	return setSizes(fillEstimate(xa, a.m, scale), fillEstimate(xb, a.m, scale), fillEstimate(xu, a.m, scale))
}

// groupSets estimates the set sizes from two word tables made of groups
// of wordsPer words, each group of cells cells estimating its items with
// the given scale; the estimates of the groups add up.
func groupSets(a, b []uint64, wordsPer int, cells uint64, scale float64) (analysis.SetEstimate, error) {
	var ea, eb, eu float64
	for i := 0; i+wordsPer <= len(a); i += wordsPer {
		var xa, xb, xu uint64
		for j := i; j < i+wordsPer; j++ {
			xa += uint64(bits.OnesCount64(a[j]))
			xb += uint64(bits.OnesCount64(b[j]))
			xu += uint64(bits.OnesCount64(a[j] | b[j]))
		}
		ea += fillEstimate(xa, cells, scale)
		eb += fillEstimate(xb, cells, scale)
		eu += fillEstimate(xu, cells, scale)
	}
	return setSizes(ea, eb, eu)
}

// setSizes completes the estimates from those of A, B and the union.
func setSizes(a, b, union float64) (analysis.SetEstimate, error) {
	s := analysis.SetEstimate{A: a, B: b, Union: union}
	if math.IsInf(union, 1) {
		s.Intersection, s.Jaccard = math.NaN(), math.NaN()
		return s, errSaturated("the union of the two filters")
	}
	s.Intersection = a + b - union
	s.Jaccard = s.Intersection / union // NaN for 0/0
	return s, nil
}

func errSaturated(what string) error {
	return fmt.Errorf("variants: %w: %s has every cell set (or a full block), so its count estimate is +Inf", ErrSaturated, what)
}

// isNil reports whether f is nil or holds a nil pointer.
func isNil(f Filter) bool {
	if f == nil {
		return true
	}
	v := reflect.ValueOf(f)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// variantName names a filter's variant for messages.
func variantName(f Filter) string {
	switch f.(type) {
	case *Standard:
		return "standard"
	case *Partitioned:
		return "partitioned"
	case *Counting:
		return "counting"
	case *Scalable:
		return "scalable"
	case *Blocked:
		return "blocked"
	case *SplitBlock:
		return "split-block"
	case *Multiblock:
		return "multiblock"
	case *ConcurrentStandard:
		return "concurrent standard"
	}
	return fmt.Sprintf("%T", f)
}

// Pooled count estimates of cache-local filters. Stats.EstimatedItems of
// a blocked, split-block or multiblock filter and the methods below pool
// the whole table, as Boost.Bloom's future-work page asks for block and
// multiblock filters, rather than add up the estimates of the blocks
// (a sum biased upward: [analysis.BlockedEstimateError] and
// [analysis.SplitBlockEstimateError] predict +0.038% and +0.106% for
// filters sized for 10^6 keys at 1%): with X of the m bits set,
// n̂ = ln(1 - X/m) / ln q, q the exact probability that one key leaves a
// given bit clear, which does not depend on the blocks' unequal loads (see
// [analysis.Multiblock.EstimateItems]). Its bias and standard error come
// from the exact variance of the clear bits ([analysis.Multiblock.EstimateError]),
// and two filters give the union (from the OR of their bits) and the
// intersection (inclusion-exclusion) with their errors
// ([analysis.Multiblock.SetError]). A blocked filter of blocks of B bits
// is the block layout of one B-bit window, a split-block filter the
// multiblock layout of eight 32-bit windows; see CountModel.

// CountEstimate is a count estimated from a filter's fill with its
// predicted error.
type CountEstimate struct {
	// Items is the estimate n̂ of the distinct keys added: 0 for an empty
	// filter, +Inf for a full one.
	Items float64
	// Error is the predicted bias and standard deviation of the estimate
	// at n = Items rounded (the plug-in prediction: the true count is
	// unknown), from [analysis.Multiblock.EstimateError].
	Error analysis.EstimateError
}

// BlockCounter is a cache-local filter ([Blocked], [SplitBlock],
// [Multiblock] at the natural stride) with the pooled count estimate.
type BlockCounter interface {
	Filter
	// CountModel returns the filter's layout as an [analysis.Multiblock],
	// whose count formulas are exact for it.
	CountModel() analysis.Multiblock
	// EstimateCount returns the pooled estimate of the distinct keys
	// added, with its predicted error. A full table gives Items +Inf and
	// an error wrapping [ErrSaturated]; a multiblock filter at an
	// overlapping stride, whose clear bits' variance analysis does not
	// cover, an error wrapping [ErrInvalidParams].
	EstimateCount() (CountEstimate, error)
}

var (
	_ BlockCounter = (*Blocked)(nil)
	_ BlockCounter = (*SplitBlock)(nil)
	_ BlockCounter = (*Multiblock)(nil)
)

// CountModel returns the blocked filter's layout for the count formulas:
// the block layout of one window of B bits (WordBits B, K = k).
func (f *Blocked) CountModel() analysis.Multiblock {
	return analysis.Multiblock{Bits: f.m, Hashes: f.k, WordBits: f.blockBits}
}

// CountModel returns the split-block filter's layout for the count
// formulas: the multiblock layout of eight 32-bit windows.
func (f *SplitBlock) CountModel() analysis.Multiblock {
	return analysis.Multiblock{Bits: f.blocks * splitBlockBits, Hashes: splitBlockHashes, WordBits: 32, Multi: true}
}

// CountModel returns the filter's layout, [Multiblock.Model].
func (f *Multiblock) CountModel() analysis.Multiblock { return f.Model() }

// EstimateCount implements [BlockCounter].
func (f *Blocked) EstimateCount() (CountEstimate, error) {
	return pooledCount(f.CountModel(), popcount(f.words))
}

// EstimateCount implements [BlockCounter].
func (f *SplitBlock) EstimateCount() (CountEstimate, error) {
	return pooledCount(f.CountModel(), popcount(f.words))
}

// EstimateCount implements [BlockCounter].
func (f *Multiblock) EstimateCount() (CountEstimate, error) {
	return pooledCount(f.CountModel(), popcount(f.words))
}

// pooledCount returns the pooled estimate of a table of layout b with set
// bits set, and its predicted error.
func pooledCount(b analysis.Multiblock, set uint64) (CountEstimate, error) {
	if _, err := b.EstimateError(0); err != nil {
		return CountEstimate{}, err
	}
	n := b.EstimateItems(set)
	if math.IsInf(n, 1) {
		return CountEstimate{Items: n, Error: analysis.EstimateError{Bias: math.NaN(), StdDev: math.NaN(), Saturated: 1}}, errSaturated("the filter")
	}
	e, err := b.EstimateError(uint64(math.Round(n)))
	return CountEstimate{Items: n, Error: e}, err
}

// compatible reports the differences that keep f and g from being
// combined: bits, window, layout, stride, hashes and hashing. It is called
// through sameKind's type constraint, which staticcheck does not follow.
//
//lint:ignore U1000 used by sameKind[*Multiblock]
func (f *Multiblock) compatible(g *Multiblock) error {
	return f.bitCore.compatible(&g.bitCore, "bits", f.m, g.m, "word bits", f.w, g.w, "multi", f.multi, g.multi, "stride", f.stride, g.stride)
}

// EstimateBlockSets returns the pooled estimates of the sets A and B added
// to two cache-local filters, of their union (from the OR of their bits,
// exactly the filter of the union) and intersection (A + B - Union, not
// clamped), and their Jaccard similarity, as [analysis.Multiblock.EstimateSets]
// computes them, with their predicted errors from
// [analysis.Multiblock.SetError] at the estimated sizes (A, B and the
// intersection rounded, the intersection clamped to [0, min(A, B)]).
//
// The filters must be of the same variant ([Blocked], [SplitBlock] or
// [Multiblock]) with the same geometry and hashing; otherwise the error
// wraps [ErrIncompatible] and names every difference. A nil filter gives
// an error wrapping [ErrInvalidParams], as does a multiblock filter at an
// overlapping stride. If the union is full, Union is +Inf, Intersection
// and Jaccard NaN, and the error wraps [ErrSaturated].
func EstimateBlockSets(f, g Filter) (analysis.SetEstimate, analysis.SetError, error) {
	if isNil(f) || isNil(g) {
		return analysis.SetEstimate{}, analysis.SetError{}, invalid("set estimates of a nil filter")
	}
	var (
		model  analysis.Multiblock
		wa, wb []uint64
	)
	switch a := f.(type) {
	case *Blocked:
		b, err := sameKind(a, g)
		if err != nil {
			return analysis.SetEstimate{}, analysis.SetError{}, err
		}
		model, wa, wb = a.CountModel(), a.words, b.words
	case *SplitBlock:
		b, err := sameKind(a, g)
		if err != nil {
			return analysis.SetEstimate{}, analysis.SetError{}, err
		}
		model, wa, wb = a.CountModel(), a.words, b.words
	case *Multiblock:
		b, err := sameKind(a, g)
		if err != nil {
			return analysis.SetEstimate{}, analysis.SetError{}, err
		}
		model, wa, wb = a.CountModel(), a.words, b.words
	default:
		return analysis.SetEstimate{}, analysis.SetError{}, incompatible("no pooled set estimates for %s filters: EstimateBlockSets takes blocked, split-block and multiblock filters (see EstimateSets)", variantName(f))
	}
	if _, err := model.EstimateError(0); err != nil {
		return analysis.SetEstimate{}, analysis.SetError{}, err
	}
	var xa, xb, xu uint64
	for i, x := range wa {
		xa += uint64(bits.OnesCount64(x))
		xb += uint64(bits.OnesCount64(wb[i]))
		xu += uint64(bits.OnesCount64(x | wb[i]))
	}
	s := model.EstimateSets(xa, xb, xu)
	if math.IsInf(s.Union, 1) {
		nan := analysis.EstimateError{Bias: math.NaN(), StdDev: math.NaN(), Saturated: 1}
		return s, analysis.SetError{Union: nan, Intersection: nan, Jaccard: nan}, errSaturated("the union of the two filters")
	}
	a, c := roundCount(s.A), roundCount(s.B)
	shared := min(roundCount(max(s.Intersection, 0)), a, c)
	e, err := model.SetError(a, c, shared)
	return s, e, err
}

// roundCount rounds a finite, non-negative estimate to a count.
func roundCount(x float64) uint64 { return uint64(math.Round(x)) }
