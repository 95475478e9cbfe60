package analysis

import (
	"math"
	"slices"
)

// Horizon describes a growing filter that is told an estimate N̂ of its
// final size: a chain of stages, like [Scalable]'s, whose design errors are
// allocated to minimise the bits per key at N̂ while the compound rate
// 1 - prod_i (1 - f_i) stays at or below P at every count, and which keeps
// growing past N̂ with a geometric tail that still holds P.
//
// # Stages
//
// The stage boundaries (cumulative capacities) lie on a geometric grid
// anchored at the estimate, floor(N̂ S^j) for integer j, up to the top of
// the expected range, T = floor(N̂ Spread) (T = N̂ when Spread is 1), which
// is a boundary too. The first stage ends at floor(N̂ S^-J), with J the
// largest integer for which N̂ S^-J >= N0 (J = 0 if N0 >= N̂), and each
// stage after it ends at the next boundary (boundaries that round to the
// same integer are merged, so every stage holds at least one item). These
// are the horizon stages. The tail stages continue past T on the grid
// anchored there: tail stage t ends at floor(T S^(t+1)) (and holds at
// least one item). Memory therefore
// follows the count within a factor about S, as in Almeida's filter; a
// filter holding exactly N̂, or T, items has every stage full and none
// partly filled.
//
// # Errors
//
// The budget is spent in log space: the compound rate is at most P
// exactly when sum_i -ln(1 - e_i) <= q = -ln(1 - P), where e_i is the
// design error of stage i (the rate of the full stage is at most e_i and
// a stage's rate grows with its items, so the compound rate at every count
// is at most 1 - prod (1 - e_i)). A share Tail of q is reserved for the
// tail, the rest, (1 - Tail) q, goes to the horizon stages:
//
//   - Horizon stages (Spread 1): minimise the bits at N̂,
//     sum_i c_i log2(1/e_i)/ln 2 (the classic size of a filter of c_i
//     items at rate e_i), subject to sum_i -ln(1 - e_i) = (1 - Tail) q. In
//     x_i = -ln(1 - e_i) the constraint is linear and each term
//     c_i (-ln(1 - e^-x_i)) is strictly convex, so the stationary point of
//     the Lagrangian is the unique minimum: c_i/e_i = mu/(1 - e_i), that is
//     e_i = c_i/(mu + c_i), the odds e_i/(1 - e_i) in proportion to the
//     capacity, with mu found by bisection from sum_i ln(1 + c_i/mu) =
//     (1 - Tail) q. For small rates this is e_i about (1 - Tail) P c_i/N̂,
//     and the bits per key at N̂ are about
//     (log2(1/((1 - Tail) P)) + H)/ln 2, with H = -sum (c_i/N̂)
//     log2(c_i/N̂) the entropy of the capacities: log2(S/(S-1)) +
//     log2(S)/(S-1) for a long grid, 2 bits at S = 2 (a static filter is
//     the case H = 0, Tail = 0).
//   - Horizon stages with Spread F > 1: the final count is uncertain, so
//     the allocation minimises the mean of the bits per key over the M
//     grid boundaries B_m from N̂/F to T (a log-uniform prior on the final
//     count): (1/M) sum_m (1/B_m) sum_(i <= m) c_i log2(1/e_i)/ln 2 =
//     (1/M) sum_i c_i w_i log2(1/e_i)/ln 2 with w_i = sum of 1/B_m over the
//     boundaries that stage i is part of. It is the problem above with c_i
//     replaced by c_i w_i, so the odds are in proportion to c_i w_i. With
//     F = 1 every w_i is 1/N̂ and the two agree.
//   - Tail stages: tail stage t gets x = Tail q (1 - R) R^t, e =
//     1 - exp(-x), Almeida's geometric tightening in log space; the x sum
//     to Tail q, so the chain holds P however far it grows.
//
// Each stage is then sized exactly for its capacity and design error, with
// an integer number of hashes: a partitioned stage by
// [ExactPartitionedSize], a blocked stage (BlockBits > 0) by [BlockedSize].
// Its full rate is at most e_i by construction, so the compound rate is at
// most P at every count, including counts where the newest stage is partly
// filled. What is approximate is the cost model: the allocation minimises
// the classic bits (real-valued k, no rounding), not the exact sizes the
// stages then get, which are a little larger (integer k, exact rate, slices
// a multiple of k); the bits between grid boundaries, where the newest
// stage is partly filled, are not in the objective; and the grid of
// capacities is chosen, not optimised.
//
// # Choosing
//
// At 1% and 1e6 keys (N0 = 1000, S = 2) a trusted estimate that is exact
// costs 12.57 bits per key, against 17.53 for Almeida's r = 0.9, 9.59 for
// a static filter and 10.96 for the growing filters' lower bound. The
// price is paid when the estimate proves low: the filter has spent 95% of
// its budget at N̂, so its tail runs at tight rates, 31.58 bits per key
// with the estimate 10x low at 1e6 (a count just past a tail boundary;
// 18.91 at 8x low, on one), and 28.34 averaged over counts 5x to 20x the
// estimate, where Almeida's averages 24.78. Declaring the uncertainty with
// Spread 10 gives 14.21 with the estimate exact, 14.81 10x low and 21.07
// averaged 5x to 20x (TestHorizonTable, TestHorizonOvershoot).
//
// # Defaults
//
// Tail, R and Spread may be zero, meaning [DefaultHorizonTail],
// [DefaultHorizonRatio] and 1; the other fields have no default.
type Horizon struct {
	P        float64 // overall target false-positive rate, 0 < P < 1
	Estimate uint64  // estimated final count N̂, 1 <= N̂ <= MaxBits
	N0       uint64  // smallest capacity of the first stage, N0 >= 1
	S        float64 // growth factor of the grid, S > 1
	// Tail is the share of the budget -ln(1 - P) reserved for the stages
	// past the estimate, 0 < Tail < 1; 0 means DefaultHorizonTail.
	Tail float64
	// R is the tightening ratio of the tail stages' shares, 0 < R < 1; 0
	// means DefaultHorizonRatio.
	R float64
	// Spread is how far the estimate may be off, a factor F >= 1: the
	// final count is expected between N̂/F and N̂ F. The horizon stages
	// then end at N̂ F, and the allocation minimises the mean bits per key
	// over the stage boundaries from N̂/F to N̂ F (see the type's doc). 0
	// means 1: the estimate is trusted.
	Spread float64
	// BlockBits is the block size of blocked stages, a power of two from
	// 64 to [MaxBlockBits], or 0 for partitioned stages.
	BlockBits uint64
}

// Defaults of [Horizon] for zero Tail and R, and its limit on stages.
// (A zero Spread means 1.)
const (
	// DefaultHorizonTail is the share of the budget reserved for the
	// stages past the estimate: 0.05, a share with which the horizon
	// filter meets issue 35's target at the estimate (at most
	// 12.6 bits per key at 1% and 1e6 keys, with N0 = 1000 and S = 2). At
	// the estimate the share costs about log2(1/(1 - Tail))/ln 2 bits per
	// key, 0.11 at 0.05; a larger share makes growth past the estimate
	// cheaper and the estimate dearer. At 1% and 1e6 keys, with the
	// estimate exact, 2x, 10x and 100x low: 0.02 gives 12.51, 16.79,
	// 34.43, 29.86 bits per key; 0.05 gives 12.57, 15.87, 31.58, 27.44;
	// 0.2 gives 12.93, 14.60, 27.28, 23.78; 0.4 gives 13.53, 14.18, 25.18,
	// 21.95 (TestHorizonTail). Where the final count is uncertain, Spread
	// is the better lever.
	DefaultHorizonTail = 0.05
	// DefaultHorizonRatio is the tightening ratio of the tail: 0.8, each
	// tail stage gets 0.8 times the share of the one before. Past the
	// estimate the final count is unknown again, so the default leans to
	// long growth, as Almeida's 0.9 does: against 0.5 it costs 1 bit per
	// key more at twice the estimate (15.9 against 14.9 at 1%, S = 2) and
	// saves 4 at a hundred times (27.4 against 31.3).
	DefaultHorizonRatio = 0.8
	// MaxHorizonStages is the largest number of horizon stages (those up
	// to the top of the range) a Horizon may have: 128, enough for S = 1.3
	// from one item to 2^48, or S = 1.1 over a factor of 10^5. Parameters
	// that need more are refused before any stage is computed. Tail stages
	// count toward [MaxStages], the limit on all the stages.
	MaxHorizonStages = 128
)

// withDefaults returns h with zero Tail, R and Spread replaced by the
// defaults.
func (h Horizon) withDefaults() Horizon {
	if h.Tail == 0 {
		h.Tail = DefaultHorizonTail
	}
	if h.R == 0 {
		h.R = DefaultHorizonRatio
	}
	if h.Spread == 0 {
		h.Spread = 1
	}
	return h
}

// Validate reports whether the parameters are in their domains and the
// number of horizon stages is at most [MaxHorizonStages].
func (h Horizon) Validate() error {
	h = h.withDefaults()
	if err := CheckProbability("P", h.P); err != nil {
		return err
	}
	if h.Estimate == 0 {
		return invalid("estimate = 0, want an estimate of the final count >= 1")
	}
	if h.Estimate > MaxBits {
		return invalid("estimate = %d, want at most %d", h.Estimate, uint64(MaxBits))
	}
	if h.N0 == 0 {
		return invalid("initial capacity n0 = 0, want n0 >= 1")
	}
	if math.IsNaN(h.S) || math.IsInf(h.S, 0) || h.S <= 1 {
		return invalid("growth factor s = %v, want a finite s > 1 (s = 1 cannot grow past the estimate)", h.S)
	}
	if math.IsNaN(h.Tail) || h.Tail <= 0 || h.Tail >= 1 {
		return invalid("tail share = %v, want 0 < tail < 1", h.Tail)
	}
	if math.IsNaN(h.R) || h.R <= 0 || h.R >= 1 {
		return invalid("tail tightening ratio r = %v, want 0 < r < 1", h.R)
	}
	if b := h.BlockBits; b != 0 && (b < 64 || b > MaxBlockBits || b&(b-1) != 0) {
		return invalid("block bits B = %d, want 0 (partitioned stages) or a power of two from 64 to %d", b, MaxBlockBits)
	}
	if math.IsNaN(h.Spread) || math.IsInf(h.Spread, 0) || h.Spread < 1 {
		return invalid("spread = %v, want a finite spread >= 1", h.Spread)
	}
	if top := h.anchor(); top > MaxBits {
		return invalid("estimate %d with spread %v reaches %.4g items, more than %d", h.Estimate, h.Spread, top, uint64(MaxBits))
	}
	if j := h.depth() + h.above(); j+1 > MaxHorizonStages {
		return invalid("estimate %d from n0 = %d with s = %v and spread %v needs %d stages, more than %d", h.Estimate, h.N0, h.S, h.Spread, j+1, MaxHorizonStages)
	}
	return nil
}

// depth returns J, the largest integer with N̂ S^-J >= N0 (0 if
// N0 >= N̂), capped a little above MaxHorizonStages.
func (h Horizon) depth() int {
	if h.N0 >= h.Estimate {
		return 0
	}
	j := int(math.Floor(math.Log(float64(h.Estimate)/float64(h.N0)) / math.Log(h.S)))
	j = min(max(j, 0), MaxHorizonStages+1)
	// Correct the logarithm's rounding at the edges.
	for j > 0 && float64(h.Estimate)*math.Pow(h.S, -float64(j)) < float64(h.N0) {
		j--
	}
	for j <= MaxHorizonStages && float64(h.Estimate)*math.Pow(h.S, -float64(j+1)) >= float64(h.N0) {
		j++
	}
	return j
}

// above returns U, the least integer u >= 0 with S^u >= Spread (0 when
// Spread is 1), capped a little above MaxHorizonStages.
func (h Horizon) above() int {
	if h.Spread <= 1 {
		return 0
	}
	u := int(math.Ceil(math.Log(h.Spread)/math.Log(h.S) - 1e-9))
	return min(max(u, 0), MaxHorizonStages+1)
}

// anchor returns the top of the range, N̂ Spread: N̂ exactly when Spread
// is 1.
func (h Horizon) anchor() float64 {
	if h.Spread <= 1 {
		return float64(h.Estimate)
	}
	return float64(h.Estimate) * h.Spread
}

// horizonPlan is the capacities and design errors of the horizon stages.
type horizonPlan struct {
	caps []uint64
	errs []float64
	// weights are the w_i of the allocation: the sum of 1/B over the
	// boundaries B in the range that stage i is part of.
	weights []float64
	mu      float64 // the Lagrange constant: e_i/(1 - e_i) = c_i w_i/mu
	top     uint64  // the last horizon boundary, where the tail starts
}

// plan returns the horizon stages' capacities and errors; h has its
// defaults and is valid.
func (h Horizon) plan() horizonPlan {
	j, u, t := h.depth(), h.above(), h.anchor()
	var caps []uint64
	var ends []uint64
	var prev uint64
	for i := -j; i <= u; i++ {
		// floor(N̂ S^i) below the anchor, then the anchor itself.
		x := float64(h.Estimate) * math.Pow(h.S, float64(i))
		if i == 0 {
			x = float64(h.Estimate)
		}
		last := i == u || x >= t*(1-1e-12)
		if last {
			x = t
		}
		if b := uint64(x); b > prev {
			caps = append(caps, b-prev)
			ends = append(ends, b)
			prev = b
		}
		if last {
			break
		}
	}
	// The boundaries in the range [N̂/Spread, top] are the counts the
	// allocation is for (the top one always is).
	lowest := float64(h.Estimate) / max(h.Spread, 1)
	w := make([]float64, len(caps))
	var acc float64
	for i := len(caps) - 1; i >= 0; i-- {
		if b := float64(ends[i]); b >= lowest*(1-1e-12) || i == len(caps)-1 {
			acc += 1 / b
		}
		w[i] = acc
	}
	q := -math.Log1p(-h.P) * (1 - h.Tail)
	// g(mu) = sum ln(1 + c_i w_i/mu) decreases from +inf to 0; find
	// g(mu) = q by bisection on ln mu.
	g := func(mu float64) float64 {
		var s float64
		for i, c := range caps {
			s += math.Log1p(float64(c) * w[i] / mu)
		}
		return s
	}
	lo, hi := 1.0, 1.0
	for g(hi) > q {
		hi *= 2
	}
	for g(lo) < q {
		lo /= 2
	}
	for range 200 {
		mid := math.Sqrt(lo * hi)
		if mid <= lo || mid >= hi {
			break
		}
		if g(mid) > q {
			lo = mid
		} else {
			hi = mid
		}
	}
	// hi has g(hi) <= q: the horizon never spends more than its share.
	mu := hi
	errs := make([]float64, len(caps))
	for i, c := range caps {
		a := float64(c) * w[i]
		errs[i] = a / (mu + a)
	}
	return horizonPlan{caps: caps, errs: errs, weights: w, mu: mu, top: prev}
}

// HorizonStages returns the number of horizon stages, the stages up to the
// top of the range (the estimate when Spread is 1); stage HorizonStages()
// is the first tail stage. It reports the
// errors of Validate.
func (h Horizon) HorizonStages() (int, error) {
	h = h.withDefaults()
	if err := h.Validate(); err != nil {
		return 0, err
	}
	return len(h.plan().caps), nil
}

// Stage returns the geometry of stage i. It reports an error if the
// parameters are invalid, i is negative or at least [MaxStages], or the
// stage would exceed [MaxBits] or [MaxHashes].
func (h Horizon) Stage(i int) (Stage, error) { return h.StageWith(i, nil) }

// StageWith is [Horizon.Stage] sizing a blocked stage with z, a
// [BlockedSizer] for BlockBits that the caller keeps between stages, or a
// new one if z is nil or for another block size, as [Scalable.StageWith].
func (h Horizon) StageWith(i int, z *BlockedSizer) (Stage, error) {
	h = h.withDefaults()
	if err := h.Validate(); err != nil {
		return Stage{}, err
	}
	return h.stage(i, h.plan(), z)
}

// stage returns stage i of the valid h (with defaults) and its plan.
func (h Horizon) stage(i int, pl horizonPlan, z *BlockedSizer) (Stage, error) {
	if i < 0 || i >= MaxStages {
		return Stage{}, invalid("stage %d, want 0 <= stage < %d", i, MaxStages)
	}
	var c uint64
	var e float64
	if l := len(pl.caps); i < l {
		c, e = pl.caps[i], pl.errs[i]
	} else {
		t := i - l
		end := math.Floor(float64(pl.top) * math.Pow(h.S, float64(t+1)))
		start := float64(pl.top)
		if t > 0 {
			start = math.Floor(float64(pl.top) * math.Pow(h.S, float64(t)))
		}
		if end > MaxBits {
			return Stage{}, invalid("stage %d ends at %.4g items, more than %d", i, end, uint64(MaxBits))
		}
		c = max(uint64(math.Floor(end))-uint64(start), 1)
		x := -math.Log1p(-h.P) * h.Tail * (1 - h.R) * math.Pow(h.R, float64(t))
		e = -math.Expm1(-x)
	}
	if !(e > 0) {
		return Stage{}, invalid("stage %d has design error %g, too small to size", i, e)
	}
	if h.BlockBits != 0 && (z == nil || z.blockBits != h.BlockBits) {
		z = NewBlockedSizer(h.BlockBits)
	}
	// The stage is sized for its error at the keys it will be offered,
	// skipped ones included (StageFPR): sized at e, a full stage of rate
	// close to e would exceed it by the keys it skips (+0.8% at 1%), so
	// the target is lowered by the excess until the full stage's rate is
	// at most e; one or two rounds.
	target := e
	var st Stage
	for range 8 {
		var err error
		if st, err = h.sizeStage(i, c, target, z); err != nil {
			return Stage{}, err
		}
		st.Error = e
		f := h.StageFPR(st, c)
		if f <= e {
			return st, nil
		}
		// The all-add rate that would leave room for the skipped keys.
		target = e * h.addAllFPR(st, c) / f * (1 - 1e-9)
	}
	return Stage{}, invalid("stage %d of %d items at error %g: no size keeps the keys it skips within the error", i, c, e)
}

// addAllFPR is the rate of stage st after n keys all added.
func (h Horizon) addAllFPR(st Stage, n uint64) float64 {
	if h.BlockBits != 0 {
		return BlockedFPR(st.Bits, n, st.Hashes, h.BlockBits)
	}
	return PartitionedFPR(st.Bits, n, st.Hashes)
}

// sizeStage returns the fewest bits for c items at rate e when every key
// is added: [ExactPartitionedSize], or the blocked sizer z's Size.
func (h Horizon) sizeStage(i int, c uint64, e float64, z *BlockedSizer) (Stage, error) {
	if h.BlockBits != 0 {
		m, k, err := z.Size(c, e)
		if err != nil {
			return Stage{}, err
		}
		return Stage{Index: i, Capacity: c, Hashes: k, Bits: m}, nil
	}
	p, err := ExactPartitionedSize(c, e)
	if err != nil {
		return Stage{}, err
	}
	return Stage{Index: i, Capacity: c, Hashes: p.Hashes, SliceBits: p.Bits / uint64(p.Hashes), Bits: p.Bits}, nil
}

// Stages returns the stages of a filter holding items items, filled in
// order: the shortest prefix whose capacities sum to at least items, and
// always at least stage 0. It reports the errors of Validate and Stage,
// and an error if more than [MaxStages] stages would be needed.
func (h Horizon) Stages(items uint64) ([]Stage, error) {
	return h.stagesFrom(nil, items)
}

// stagesFrom extends stages, the first stages of h, to hold items items.
func (h Horizon) stagesFrom(stages []Stage, items uint64) ([]Stage, error) {
	h = h.withDefaults()
	if err := h.Validate(); err != nil {
		return nil, err
	}
	var held uint64
	for i, st := range stages {
		held += st.Capacity
		if held >= items {
			return stages[:i+1], nil
		}
	}
	stages = slices.Clip(stages)
	pl := h.plan()
	var z *BlockedSizer
	if h.BlockBits != 0 {
		z = NewBlockedSizer(h.BlockBits)
	}
	for i := len(stages); held < items || len(stages) == 0; i++ {
		if i >= MaxStages {
			return nil, invalid("%d items need more than %d stages", items, MaxStages)
		}
		st, err := h.stage(i, pl, z)
		if err != nil {
			return nil, err
		}
		stages = append(stages, st)
		held += st.Capacity
	}
	return stages, nil
}

// StageFPR returns the false-positive rate of stage st holding n items:
// [PartitionedFPR] for a partitioned stage, [BlockedFPR] for a blocked one,
// at the keys the stage was offered, skipped ones included, as
// [Scalable.StageFPR].
func (h Horizon) StageFPR(st Stage, n uint64) float64 {
	if h.BlockBits != 0 {
		return skippingRate(n, blockedRate(st.Bits, st.Hashes, h.BlockBits))
	}
	return skippingRate(n, func(t uint64) float64 { return PartitionedFPR(st.Bits, t, st.Hashes) })
}

// FPR returns the compound false-positive rate 1 - prod_i (1 - f_i) of a
// filter holding items items, the stages filled in order, as
// [Scalable.FPR]. It is at most P at every count. It reports the errors
// of Stages.
func (h Horizon) FPR(items uint64) (float64, error) {
	stages, err := h.Stages(items)
	if err != nil {
		return 0, err
	}
	left := items
	var logPass float64
	for _, st := range stages {
		ni := min(left, st.Capacity)
		left -= ni
		logPass += math.Log1p(-h.StageFPR(st, ni))
	}
	return -math.Expm1(logPass), nil
}

// BitsPerKey returns the bits of all the stages of a filter holding items
// items, divided by items. It reports the errors of Stages, and an error
// if items is 0.
func (h Horizon) BitsPerKey(items uint64) (float64, error) {
	if items == 0 {
		return 0, invalid("items = 0, want items >= 1 for bits per key")
	}
	stages, err := h.Stages(items)
	if err != nil {
		return 0, err
	}
	var total float64
	for _, st := range stages {
		total += float64(st.Bits)
	}
	return total / float64(items), nil
}

// Curve returns FPR and BitsPerKey at each count of items, equal to them
// bit for bit, with the stages built once, for the largest count, and the
// rate of each full stage computed once, as [Scalable.Curve]. It reports
// the errors of Stages for the largest count, and an error if a count is
// 0.
func (h Horizon) Curve(items []uint64) (ScalableCurve, error) {
	var most uint64
	for _, x := range items {
		if x == 0 {
			return ScalableCurve{}, invalid("items = 0, want items >= 1 for bits per key")
		}
		most = max(most, x)
	}
	stages, err := h.Stages(most)
	if err != nil {
		return ScalableCurve{}, err
	}
	c := ScalableCurve{Items: items, Stages: stages, FPR: make([]float64, len(items)), BitsPerKey: make([]float64, len(items))}
	full := make([]float64, len(stages))
	known := make([]bool, len(stages))
	for j, x := range items {
		left := x
		var logPass, bits float64
		for i, st := range stages {
			bits += float64(st.Bits)
			ni := min(left, st.Capacity)
			left -= ni
			if ni == st.Capacity {
				if !known[i] {
					full[i], known[i] = math.Log1p(-h.StageFPR(st, ni)), true
				}
				logPass += full[i]
			} else {
				logPass += math.Log1p(-h.StageFPR(st, ni))
			}
			if left == 0 {
				break
			}
		}
		c.FPR[j] = -math.Expm1(logPass)
		c.BitsPerKey[j] = bits / float64(x)
	}
	return c, nil
}

// ClassicBitsPerKey returns the classic bits per key at the estimate:
// sum_i c_i log2(1/e_i)/ln 2 over the stages up to N̂, divided by N̂ (the
// classic sizes, before the exact sizing with integer k that the stages
// get), the figure the allocation minimises when Spread is 1. It reports
// the errors of Validate.
func (h Horizon) ClassicBitsPerKey() (float64, error) {
	h = h.withDefaults()
	if err := h.Validate(); err != nil {
		return 0, err
	}
	pl := h.plan()
	var bits float64
	var held uint64
	for i, c := range pl.caps {
		if held >= h.Estimate {
			break
		}
		bits += float64(c) * -math.Log2(pl.errs[i]) / math.Ln2
		held += c
	}
	return bits / float64(h.Estimate), nil
}
