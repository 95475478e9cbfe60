package analysis

import (
	"math"
)

// Scalable describes the construction of a scalable Bloom filter (Almeida,
// Baquero, Preguiça and Hutchison, "Scalable Bloom Filters", Information
// Processing Letters 101(6), 2007): a series of partitioned stages whose
// error probabilities tighten geometrically so that the compound
// false-positive rate never exceeds the target P.
//
// Stage i (from 0) has design error P_i = P0 r^i with P0 = P (1 - r), so that
// sum_i P_i = P0/(1 - r) = P; k_i = ceil(log2(1/P_i)) slices; capacity
// n_i = floor(n0 s^i) items; and slices of b_i = ceil(1/(1 - 2^(-1/n_i)))
// bits, the fewest for which a slice holding n_i items has expected fill
// ratio 1 - (1 - 1/b_i)^(n_i) of at most 1/2. A full stage therefore has
// rate at most 2^(-k_i) <= P_i.
//
// With BlockBits = B > 0 the stages are blocked filters instead (see
// [BlockedFPR]): stage i has the capacity and design error above, and the
// fewest bits m_i, a multiple of B, and the hashes k_i that [BlockedSize]
// gives for n_i items at rate P_i, so a full stage again has rate at most
// P_i and the compound rate stays below P. A blocked stage answers a query
// from one block, one memory access, where a partitioned stage reads up
// to k_i slices; it costs the block penalty in bits (see BlockedSize).
//
// Unlike variants.ScalableParams, a Scalable has no implicit defaults: it
// describes exactly the filter it names, so that a decoded filter's
// parameters are checked as they are (a zero R is an error, not 0.9).
// [Scalable.WithDefaults] fills zero R, S and N0 with the defaults of
// variants.NewScalable, so that Scalable{P: 0.001}.WithDefaults() is the
// model of the filter variants.NewScalable(ScalableParams{P: 0.001})
// builds (that filter's Model method returns it too), and the errors for a
// zero R, S or N0 say so.
type Scalable struct {
	P  float64 // overall target false-positive rate, 0 < P < 1
	R  float64 // tightening ratio, 0 < R < 1
	S  float64 // growth factor of stage capacity, S >= 1
	N0 uint64  // capacity of the first stage, N0 >= 1
	// BlockBits is the block size B of blocked stages, a power of two
	// from 64 to [MaxBlockBits], or 0 for Almeida's partitioned stages.
	BlockBits uint64
}

// Stage is the geometry of one stage of a scalable filter.
type Stage struct {
	Index     int     // stage number, from 0
	Capacity  uint64  // items the stage holds before the next one starts (n_i)
	Hashes    int     // slices, one hash each (k_i); bits set per item in a blocked stage
	SliceBits uint64  // bits per slice (b_i); 0 for a blocked stage
	Bits      uint64  // Hashes * SliceBits; m_i for a blocked stage
	Error     float64 // design error P_i = P0 r^i
}

// MaxStages is the number of stages a scalable filter may grow to. Even with
// growth factor 1 and a first stage of one item it allows far more items
// than fit in memory at any useful rate; the limit exists so that a filter
// fails with an error rather than loop forever on absurd parameters.
const MaxStages = 256

// The defaults that [Scalable.WithDefaults] fills in for zero fields, the
// same values as variants.DefaultTighteningRatio, variants.DefaultGrowth
// and variants.DefaultInitialCapacity (a test keeps them equal).
const (
	// DefaultTighteningRatio is the tightening ratio r for a zero R
	// (Almeida et al. recommend 0.8 to 0.9).
	DefaultTighteningRatio = 0.9
	// DefaultGrowth is the growth factor s for a zero S.
	DefaultGrowth = 2
	// DefaultInitialCapacity is the first stage's capacity n0 for a zero N0.
	DefaultInitialCapacity = 1000
)

// WithDefaults returns s with zero R, S and N0 replaced by
// [DefaultTighteningRatio], [DefaultGrowth] and [DefaultInitialCapacity],
// the defaults of variants.NewScalable. P has no default.
func (s Scalable) WithDefaults() Scalable {
	if s.R == 0 {
		s.R = DefaultTighteningRatio
	}
	if s.S == 0 {
		s.S = DefaultGrowth
	}
	if s.N0 == 0 {
		s.N0 = DefaultInitialCapacity
	}
	return s
}

// zeroHint is the end of the message for a zero R, S or N0.
const zeroHint = "; zero is no default here, Scalable.WithDefaults fills variants.NewScalable's"

// Validate reports whether the parameters are in their domains. A zero R,
// S or N0 is an error (see [Scalable.WithDefaults]).
func (s Scalable) Validate() error {
	if err := CheckProbability("P", s.P); err != nil {
		return err
	}
	if s.R == 0 {
		return invalid("tightening ratio r = 0, want 0 < r < 1%s (r = %v)", zeroHint, DefaultTighteningRatio)
	}
	if math.IsNaN(s.R) || s.R <= 0 || s.R >= 1 {
		return invalid("tightening ratio r = %v, want 0 < r < 1", s.R)
	}
	if s.S == 0 {
		return invalid("growth factor s = 0, want a finite s >= 1%s (s = %v)", zeroHint, DefaultGrowth)
	}
	if math.IsNaN(s.S) || math.IsInf(s.S, 0) || s.S < 1 {
		return invalid("growth factor s = %v, want a finite s >= 1", s.S)
	}
	if s.N0 == 0 {
		return invalid("initial capacity n0 = 0, want n0 >= 1%s (n0 = %d)", zeroHint, DefaultInitialCapacity)
	}
	if s.N0 > MaxBits {
		return invalid("initial capacity n0 = %d, want at most %d", s.N0, uint64(MaxBits))
	}
	if b := s.BlockBits; b != 0 && (b < 64 || b > MaxBlockBits || b&(b-1) != 0) {
		return invalid("block bits B = %d, want 0 (partitioned stages) or a power of two from 64 to %d", b, MaxBlockBits)
	}
	return nil
}

// P0 returns the design error of the first stage, P (1 - r).
func (s Scalable) P0() float64 { return s.P * (1 - s.R) }

// Stage returns the geometry of stage i. It reports an error if the
// parameters are invalid, i is negative or at least [MaxStages], or the stage
// would exceed [MaxBits] or [MaxHashes].
func (s Scalable) Stage(i int) (Stage, error) { return s.StageWith(i, nil) }

// StageWith is [Scalable.Stage] sizing a blocked stage with z, a [BlockedSizer] for
// BlockBits that the caller keeps between stages (see BlockedSizer), or
// with a new one if z is nil or for another block size. The result is
// Stage's bit for bit; with one z for all the stages of a filter, the
// stages after the first cost little to size. [Partitioned] stages ignore z.
func (s Scalable) StageWith(i int, z *BlockedSizer) (Stage, error) {
	if err := s.Validate(); err != nil {
		return Stage{}, err
	}
	if i < 0 || i >= MaxStages {
		return Stage{}, invalid("stage %d, want 0 <= stage < %d", i, MaxStages)
	}
	capf := math.Floor(float64(s.N0) * math.Pow(s.S, float64(i)))
	if capf > MaxBits {
		return Stage{}, invalid("stage %d capacity %.4g exceeds %d", i, capf, uint64(MaxBits))
	}
	n := uint64(capf)
	// log2(1/P_i) = -log2(P0) - i log2(r). The small tolerance keeps a value
	// that is an integer up to rounding from being pushed to the next one.
	l := -math.Log2(s.P0()) - float64(i)*math.Log2(s.R)
	k := int(math.Ceil(l - 1e-9))
	if k < 1 {
		k = 1
	}
	if k > MaxHashes {
		return Stage{}, invalid("stage %d needs %d hashes, more than %d", i, k, MaxHashes)
	}
	e := s.P0() * math.Pow(s.R, float64(i))
	if s.BlockBits != 0 {
		if z == nil || z.blockBits != s.BlockBits {
			z = NewBlockedSizer(s.BlockBits)
		}
		// Sized for e at the keys the stage will be offered, skipped
		// ones included (see StageFPR and Horizon's stages).
		target := e
		for range 8 {
			m, k, err := z.Size(n, target)
			if err != nil {
				return Stage{}, err
			}
			st := Stage{Index: i, Capacity: n, Hashes: k, Bits: m, Error: e}
			f := s.StageFPR(st, n)
			if f <= e {
				return st, nil
			}
			target = e * BlockedFPR(st.Bits, n, st.Hashes, s.BlockBits) / f * (1 - 1e-9)
		}
		return Stage{}, invalid("stage %d of %d items at error %g: no size keeps the keys it skips within the error", i, n, e)
	}
	b := uint64(math.Ceil(-1 / math.Expm1(-math.Ln2/float64(n))))
	// Rounding may leave b one too large; keep the fewest bits that still
	// give fill at most 1/2, i.e. n ln(1 - 1/b) >= -ln 2.
	if b > 2 && float64(n)*math.Log1p(-1/float64(b-1)) >= -math.Ln2 {
		b--
	}
	bits := float64(b) * float64(k)
	if bits > MaxBits {
		return Stage{}, invalid("stage %d needs %.4g bits, more than %d", i, bits, uint64(MaxBits))
	}
	return Stage{
		Index:     i,
		Capacity:  n,
		Hashes:    k,
		SliceBits: b,
		Bits:      b * uint64(k),
		Error:     e,
	}, nil
}

// Stages returns the stages of a filter holding items distinct items:
// stage i fills to its Capacity before stage i+1 is opened, so the result
// is the shortest prefix of stages whose capacities sum to at least items,
// and always at least stage 0. A filter holding exactly the sum of the
// capacities of its stages has not yet opened the next one. It reports an
// error if the parameters are invalid or more than [MaxStages] stages would
// be needed.
func (s Scalable) Stages(items uint64) ([]Stage, error) {
	var out []Stage
	var total uint64
	var z *BlockedSizer
	if s.BlockBits != 0 {
		z = NewBlockedSizer(s.BlockBits)
	}
	for i := 0; ; i++ {
		st, err := s.StageWith(i, z)
		if err != nil {
			if i >= MaxStages {
				return nil, invalid("%d items need more than %d stages", items, MaxStages)
			}
			return nil, err
		}
		out = append(out, st)
		total += st.Capacity
		if total >= items {
			return out, nil
		}
	}
}

// FPR returns the compound false-positive rate 1 - prod_i (1 - f_i) of a
// filter holding items distinct items, where f_i = StageFPR(stage i, n_i)
// and n_i is the number of items in stage i when the stages are filled in
// order (every stage but the last full). A query is a false
// positive if any stage answers yes; stages use independent hash indexes, so
// their answers are independent. The result never exceeds Bound. It
// reports the errors of Stages.
func (s Scalable) FPR(items uint64) (float64, error) {
	stages, err := s.Stages(items)
	if err != nil {
		return 0, err
	}
	left := items
	var logPass float64 // ln prod (1 - f_i)
	for _, st := range stages {
		ni := min(left, st.Capacity)
		left -= ni
		logPass += math.Log1p(-s.StageFPR(st, ni))
	}
	return -math.Expm1(logPass), nil
}

// StageFPR returns the false-positive rate of stage st holding n items
// added by the filter, which adds a key only when it tests absent: the
// rate of [PartitionedFPR](st.Bits, T, st.Hashes) for a partitioned stage,
// [BlockedFPR](st.Bits, T, st.Hashes, BlockBits) for a blocked one, at the
// T >= n keys the stage was offered. A key that tests present in the stage
// sets no new bit, so skipping it leaves the stage as if it had been
// added; T solves T - (f(0) + ... + f(T - 1)) = n, f those rates (see
// paper-notes.md, "Keys that test present are not added"): about
// +0.8% in the rate of a full stage of design error 1%, under 0.1% below
// 0.1%. T = n when fewer than 10^-6 keys are expected to be skipped.
func (s Scalable) StageFPR(st Stage, n uint64) float64 {
	if s.BlockBits != 0 {
		return skippingRate(n, blockedRate(st.Bits, st.Hashes, s.BlockBits))
	}
	return skippingRate(n, func(t uint64) float64 { return PartitionedFPR(st.Bits, t, st.Hashes) })
}

// Bound returns P0/(1 - r), the sum of the stages' design errors, which
// bounds the compound false-positive rate at every size and equals the
// target P.
func (s Scalable) Bound() float64 { return s.P0() / (1 - s.R) }

// BitsPerKey returns the total bits of all the stages of a filter
// holding items distinct items, divided by items. It reports the errors of
// Stages, and an error if items is 0.
func (s Scalable) BitsPerKey(items uint64) (float64, error) {
	if items == 0 {
		return 0, invalid("items = 0, want items >= 1 for bits per key")
	}
	stages, err := s.Stages(items)
	if err != nil {
		return 0, err
	}
	var total float64
	for _, st := range stages {
		total += float64(st.Bits)
	}
	return total / float64(items), nil
}
