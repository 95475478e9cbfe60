package analysis

import "math"

// Dynamic describes the construction of a dynamic Bloom filter (Guo, Wu,
// Chen, Yuan and Luo, "The Dynamic Bloom Filters", IEEE Transactions on
// Knowledge and Data Engineering 22(1), 2010): a list of equal filters, one
// geometry for all, each sized for N items at design rate P. Keys go into
// the newest filter; when it holds N items the next key opens a new one.
// Nothing tightens, so the compound rate 1 - prod_i (1 - f_i) grows with
// the number of stages, to about L P for L full stages: the price of
// growing without a known size that Almeida's tightening ([Scalable]) pays
// in bits instead.
//
// bloomlab builds each stage as a partitioned filter of the classic size:
// m and k of [StandardSize](N, P), and k slices of
// ceil(m/k) bits (Guo et al. use standard filters of the same m and k; a
// partitioned stage's rate at the same m is a little higher, see
// [PartitionedFPR]). A full stage's rate is PartitionedFPR(Bits, N, k), which
// exceeds P by a few per cent at most, as for NewPartitionedFor.
type Dynamic struct {
	N uint64  // items per stage, N >= 1
	P float64 // design rate of one stage, 0 < P < 1
}

// MaxDynamicStages is the number of stages a dynamic filter may grow to:
// 65536, room for growth far beyond the thousandfold of the growth
// experiment, with a limit so that a filter with a tiny N fails with an
// error rather than grow without end.
const MaxDynamicStages = 1 << 16

// Validate reports whether the parameters are in their domains and the
// stage geometry exists.
func (d Dynamic) Validate() error {
	_, err := d.Stage()
	return err
}

// Stage returns the geometry shared by every stage (its Index is 0 and its
// Error is P). It reports an error if N is 0, P is outside (0, 1) or the
// stage would exceed [MaxBits].
func (d Dynamic) Stage() (Stage, error) {
	if d.N == 0 {
		return Stage{}, invalid("stage capacity n = 0, want n >= 1")
	}
	std, err := StandardSize(d.N, d.P)
	if err != nil {
		return Stage{}, err
	}
	m, k := std.Bits, std.Hashes
	b := (m + uint64(k) - 1) / uint64(k)
	if b*uint64(k) > MaxBits {
		return Stage{}, invalid("a stage of %d slices of %d bits exceeds %d bits", k, b, uint64(MaxBits))
	}
	return Stage{Capacity: d.N, Hashes: k, SliceBits: b, Bits: b * uint64(k), Error: d.P}, nil
}

// Stages returns the number of stages of a filter holding items items:
// ceil(items/N), and at least one. A filter holding exactly L N items has
// not yet opened stage L+1. It reports an error if the parameters are
// invalid or more than [MaxDynamicStages] stages would be needed.
func (d Dynamic) Stages(items uint64) (int, error) {
	if err := d.Validate(); err != nil {
		return 0, err
	}
	l := max(1, items/d.N+min(1, items%d.N))
	if l > MaxDynamicStages {
		return 0, invalid("%d items need %d stages of %d, more than %d", items, l, d.N, MaxDynamicStages)
	}
	return int(l), nil
}

// FPR returns the compound false-positive rate 1 - prod_i (1 - f_i) of a
// filter holding items items: every stage but the newest holds N items
// and has rate f = [PartitionedFPR](Bits, N, k), the newest holds the rest.
// The stages hash independently (see variants.Dynamic), so their answers
// to a key not in the filter are independent and the product is exact.
// It reports the errors of Stages.
func (d Dynamic) FPR(items uint64) (float64, error) {
	l, err := d.Stages(items)
	if err != nil {
		return 0, err
	}
	st, _ := d.Stage()
	last := items - uint64(l-1)*d.N
	logPass := float64(l-1)*math.Log1p(-PartitionedFPR(st.Bits, d.N, st.Hashes)) +
		math.Log1p(-PartitionedFPR(st.Bits, last, st.Hashes))
	return -math.Expm1(logPass), nil
}

// BitsPerKey returns the bits of all the stages of a filter holding
// items items, divided by items. It reports the errors of Stages, and an
// error if items is 0.
func (d Dynamic) BitsPerKey(items uint64) (float64, error) {
	if items == 0 {
		return 0, invalid("items = 0, want items >= 1 for bits per key")
	}
	l, err := d.Stages(items)
	if err != nil {
		return 0, err
	}
	st, _ := d.Stage()
	return float64(l) * float64(st.Bits) / float64(items), nil
}
