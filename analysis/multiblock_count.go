package analysis

import "math"

// Counts from blocked filters. Boost.Bloom's future-work page asks how to
// extend the estimate n ≈ -(m/k) ln(1 - X/m) of a classic filter (X bits
// set) to block and multiblock filters. The answer is that nothing about
// blocks changes the first moment: every key, whatever block it lands in,
// sets a given bit with the same probability
//
//	h1 = (1/P) (1 - (1 - 1/w)^t),
//
// (the key's block must be the bit's, probability 1/P at the natural
// stride, and one of its t draws in the bit's window must hit it), and
// keys are independent, so the expected number of clear bits after n keys
// is exactly m q^n with q = 1 - h1: the mixture over the blocks' loads
// collapses, E[(1 - 1/w)^(tJ)] = q^n for J ~ Binomial(n, 1/P). Its inverse
//
//	n̂ = ln(1 - X/m) / ln q
//
// is the estimate. For multiblock (t = 1, m = P K w) -1/ln q = m/K - 1/2 +
// O(1/m): the classic formula with k = K. For block<Word, K> (t = K in one
// w-bit window) the classic formula is biased low by the collisions of the
// K bits inside one word, by the factor w (1 - (1 - 1/w)^K)/K ≈ 1 - (K -
// 1)/(2w): -4.7% for K = 7 in 64-bit words, -2.3% in 128-bit ones; the
// exact q removes it.
//
// What blocks change is the second moment. The clear-bit count Z has
//
//	Var Z = sum over ordered pairs (x, y) of P(x, y clear) - q^(2n),
//
// and P(x, y clear) = r^n with r = 1 - 2 h1 + h12, h12 the probability
// that one key sets both: for x = y, r = q; in one window,
// h12 = (1/P)(1 - 2(1 - 1/w)^t + (1 - 2/w)^t); in one block but different
// windows, h12 = (1/P)(1 - (1 - 1/w)^t)^2; in different blocks, 0. So
//
//	Var Z = sum over the four classes of count * q^(2n) expm1(n ln(r/q^2)),
//
// with ln(r/q^2) = log1p((h12 - h1^2)/q^2) computed without cancellation,
// exact; the same with n split into the shared and separate keys of two
// sets gives the covariances of the clear bits of two filters and of
// their OR (the filter of the union). The estimate's bias and standard
// deviation then follow from the delta method, as for the standard
// filter's [FillEstimator.DeltaError]: StdDev = s sqrt(Var Z)/E[Z] and
// Bias = s Var Z/(2 E[Z]^2), s = -1/ln q, good while many bits are clear
// (see [MinEmptyCells]). The union is estimated from the OR, the
// intersection by inclusion-exclusion, exactly as [FillEstimator] does.
//
// Only the natural stride is covered here: with overlapping blocks the
// mean is still exact (a bit's h1 is its number of covering starts over P),
// but the pair classes multiply; [Multiblock.ExpectedClearBits] handles the
// mean only.

// mbFill is the fill model of a non-overlapping Multiblock.
type mbFill struct {
	m, lq, scale float64
	classes      [4]struct{ count, l float64 } // same bit, same window, same block, other blocks
}

func (b Multiblock) fill() mbFill {
	w, t, p := float64(b.WordBits), float64(b.perWindow()), float64(b.Starts())
	m, l := float64(b.Bits), float64(b.BlockBits())
	miss1 := math.Exp(t * math.Log1p(-1/w))
	hw := -math.Expm1(t * math.Log1p(-1/w)) // a key in the block hits the bit
	h1 := hw / p
	q := 1 - h1
	lq := math.Log1p(-h1)
	var two float64 // 1 - 2(1-1/w)^t + (1-2/w)^t, the key hits both of two bits of a window
	if w >= 2 {
		two = 1 - 2*miss1 + math.Exp(t*math.Log1p(-2/w))
	}
	f := mbFill{m: m, lq: lq, scale: -1 / lq}
	q2 := q * q
	f.classes[0].count, f.classes[0].l = m, -lq
	f.classes[1].count, f.classes[1].l = m*(w-1), math.Log1p((two/p-h1*h1)/q2)
	f.classes[2].count, f.classes[2].l = m*(l-w), math.Log1p((hw*hw/p-h1*h1)/q2)
	f.classes[3].count, f.classes[3].l = m*(m-l), math.Log1p(-h1*h1/q2)
	return f
}

func (f mbFill) mean(n float64) float64 { return f.m * math.Exp(n*f.lq) }

// cov is Cov(Z_S, Z_T) for sets of s and t keys with common in common.
func (f mbFill) cov(s, t, common float64) float64 {
	if common == 0 {
		return 0
	}
	base := math.Exp((s + t) * f.lq)
	var v float64
	for _, c := range f.classes {
		if c.count > 0 {
			v += c.count * math.Expm1(common*c.l)
		}
	}
	return base * v
}

func (f mbFill) delta(n float64) EstimateError {
	if n == 0 {
		return EstimateError{}
	}
	mu := f.mean(n)
	if mu < 1e-300 {
		return certainlySaturated()
	}
	v := f.cov(n, n, n)
	return EstimateError{Bias: f.scale * v / (2 * mu * mu), StdDev: f.scale * math.Sqrt(v) / mu, Saturated: math.Exp(-mu)}
}

func (b Multiblock) checkCount() error {
	if err := b.Validate(); err != nil {
		return err
	}
	if b.Overlapping() {
		return invalid("count estimates cover the natural stride only, not a stride of %d bits in blocks of %d", b.Stride(), b.BlockBits())
	}
	return nil
}

// ExpectedClearBits returns the expected number of clear bits after n
// keys, exactly: the sum over the bits of (1 - c_x h/P)^n, c_x the starts
// whose block covers bit x and h = 1 - (1 - 1/w)^t (every c_x = 1 at the
// natural stride). It returns NaN for an invalid geometry.
func (b Multiblock) ExpectedClearBits(n uint64) float64 {
	if b.Validate() != nil {
		return math.NaN()
	}
	if !b.Overlapping() {
		return b.fill().mean(float64(n))
	}
	d, l, p := b.Stride(), b.BlockBits(), b.Starts()
	hw := -math.Expm1(float64(b.perWindow()) * math.Log1p(-1/float64(b.WordBits)))
	clearProb := func(cover uint64) float64 {
		return math.Exp(float64(n) * math.Log1p(-float64(cover)*hw/float64(p)))
	}
	cover := func(x uint64) uint64 {
		hi := min(x/d, p-1) // the last start at or before x
		var lo uint64
		if x+1 > l {
			lo = (x + 1 - l + d - 1) / d // the first start whose block reaches x
		}
		return hi - lo + 1
	}
	// Bits within one block of an end are covered by fewer starts; in
	// between, the cover repeats with the stride: sum one period and
	// count the periods.
	var s float64
	m := b.Bits
	lo, hi := min(l, m), max(min(l, m), m-min(l, m)) // the interior [lo, hi)
	for x := uint64(0); x < lo; x++ {
		s += clearProb(cover(x))
	}
	for x := hi; x < m; x++ {
		s += clearProb(cover(x))
	}
	if hi > lo {
		full := (hi - lo) / d
		var per float64
		for x := lo; x < lo+d && x < hi; x++ {
			per += clearProb(cover(x))
		}
		s += float64(full) * per
		for x := lo + full*d; x < hi; x++ {
			s += clearProb(cover(x))
		}
	}
	return s
}

// EstimateItems returns the estimate ln(1 - set/m)/ln q of the keys in a
// non-overlapping filter of this geometry with set of its bits set: 0 for
// an empty filter, +Inf for a full one, NaN for an invalid or overlapping
// geometry or set > m.
func (b Multiblock) EstimateItems(set uint64) float64 {
	if b.checkCount() != nil || set > b.Bits {
		return math.NaN()
	}
	switch set {
	case 0:
		return 0
	case b.Bits:
		return math.Inf(1)
	}
	return b.fill().scale * -math.Log1p(-float64(set)/float64(b.Bits))
}

// EstimateError returns the delta-method error of [Multiblock.EstimateItems]
// after n keys, from the exact variance of the clear bits (see above); Exact
// is false. It reports an error for an invalid or overlapping geometry.
func (b Multiblock) EstimateError(n uint64) (EstimateError, error) {
	if err := b.checkCount(); err != nil {
		return EstimateError{}, err
	}
	return b.fill().delta(float64(n)), nil
}

// EstimateSets returns the estimates of two sets, their union (from the
// OR of the filters' bits, setUnion set) and intersection (A + B - union)
// and Jaccard similarity, as [FillEstimator.EstimateSets] does, for two
// filters of this geometry and the same hashing.
func (b Multiblock) EstimateSets(setA, setB, setUnion uint64) SetEstimate {
	nan := math.NaN()
	if b.checkCount() != nil || setUnion > b.Bits || setUnion < max(setA, setB) || setUnion-setA > setB {
		return SetEstimate{A: nan, B: nan, Union: nan, Intersection: nan, Jaccard: nan}
	}
	a, bb, u := b.EstimateItems(setA), b.EstimateItems(setB), b.EstimateItems(setUnion)
	if math.IsInf(u, 1) {
		return SetEstimate{A: a, B: bb, Union: u, Intersection: nan, Jaccard: nan}
	}
	in := a + bb - u
	return SetEstimate{A: a, B: bb, Union: u, Intersection: in, Jaccard: in / u}
}

// SetError returns the delta-method errors of [Multiblock.EstimateSets] for
// sets of a and c keys with shared in common, from the exact covariances
// of the clear bits of the three filters. It reports an error for an
// invalid or overlapping geometry or shared > min(a, c).
func (b Multiblock) SetError(a, c, shared uint64) (SetError, error) {
	if err := b.checkCount(); err != nil {
		return SetError{}, err
	}
	if shared > min(a, c) {
		return SetError{}, invalid("shared items %d exceed the smaller set (%d and %d items)", shared, a, c)
	}
	fm := b.fill()
	u := a + c - shared
	af, bf, sf, uf := float64(a), float64(c), float64(shared), float64(u)
	muA, muB, muU := fm.mean(af), fm.mean(bf), fm.mean(uf)
	s2 := fm.scale * fm.scale
	cv := func(x, y, common, mx, my float64) float64 { return s2 * fm.cov(x, y, common) / (mx * my) }
	vA, vB, vU := cv(af, af, af, muA, muA), cv(bf, bf, bf, muB, muB), cv(uf, uf, uf, muU, muU)
	cAB, cAU, cBU := cv(af, bf, sf, muA, muB), cv(af, uf, af, muA, muU), cv(bf, uf, bf, muB, muU)
	union := fm.delta(uf)
	bI := fm.delta(af).Bias + fm.delta(bf).Bias - union.Bias
	vI := vA + vB + vU + 2*cAB - 2*cAU - 2*cBU
	out := SetError{
		Union:        union,
		Intersection: EstimateError{Bias: bI, StdDev: math.Sqrt(math.Max(vI, 0)), Saturated: union.Saturated},
	}
	if u == 0 {
		out.Jaccard = EstimateError{Bias: math.NaN(), StdDev: math.NaN(), Saturated: union.Saturated}
		return out, nil
	}
	j := sf / uf
	cIU := cAU + cBU - vU
	ex, ey := sf+bI, uf+union.Bias
	meanJ := ex/ey - cIU/(ey*ey) + ex*vU/(ey*ey*ey)
	vJ := (vI - 2*j*cIU + j*j*vU) / (uf * uf)
	out.Jaccard = EstimateError{Bias: meanJ - j, StdDev: math.Sqrt(math.Max(vJ, 0)), Saturated: union.Saturated}
	return out, nil
}
