package variants

import (
	"math"

	"github.com/bloomlab/bloomlab/analysis"
)

// Geometry is an explicit filter geometry: m bits (or counters) and k
// hashes, and the capacity n they were sized for.
//
// The sizing functions, one per family and all named …Geometry
// ([StandardGeometry], [ExactStandardGeometry], [ExactPartitionedGeometry],
// [BlockedGeometry], [SplitBlockGeometry]), return a Geometry with Capacity
// set; a filter built from it reports that capacity in [Stats] and stores
// it in its binary form, exactly as the filter of the matching For
// constructor does. A Geometry written by hand may leave Capacity 0:
// the capacity is then unknown and reported as 0. Capacity never changes
// the bits a filter builds or the keys it accepts.
type Geometry struct {
	Bits     uint64 // m, at least 1
	Hashes   int    // k, from 1 to MaxHashes
	Capacity uint64 // n, the items it was sized for; 0 means unknown
}

// MaxHashes is the largest number of hashes a filter accepts.
const MaxHashes = analysis.MaxHashes

// MaxBits is the largest number of cells a filter accepts: 2^48, beyond
// any memory this library will meet. Allocation of a size below it may
// still fail; the constructors then report an error.
const MaxBits = analysis.MaxBits

func (g Geometry) validate() error {
	if g.Bits == 0 {
		return invalid("bits m = 0, want m >= 1")
	}
	if g.Bits > MaxBits {
		return invalid("bits m = %d, want at most %d", g.Bits, uint64(MaxBits))
	}
	if g.Hashes < 1 || g.Hashes > MaxHashes {
		return invalid("hashes k = %d, want 1 <= k <= %d", g.Hashes, MaxHashes)
	}
	return nil
}

// StandardGeometry returns the geometry of a standard filter for capacity n and target
// false-positive rate p: m = ceil(-n ln p / (ln 2)^2) bits and the integer k
// that minimises the classic rate (1 - e^(-kn/m))^k for that m and n
// ([analysis.StandardSize]), with Capacity n.
//
// This is the sizing the literature and the tutorials quote, and that of
// [NewStandardFor], [NewPartitionedFor], [NewCountingFor] and
// [NewConcurrentStandardFor] (a partitioned filter's classic sizing is the
// standard one). The integer k and a finite filter's exact rate both push
// the rate up, so a full filter's exact rate can exceed p a little:
// 1.0039% for n = 1e6 at p = 1%, at most 3.03% relative over n from 1e2 to
// 1e10 and p from 1e-1 to 1e-9. [ExactStandardGeometry] and
// [ExactPartitionedGeometry] reach p exactly.
func StandardGeometry(capacity uint64, fpr float64) (Geometry, error) {
	if err := checkSizing(capacity, fpr); err != nil {
		return Geometry{}, err
	}
	sd, err := analysis.StandardSize(capacity, fpr)
	if err != nil {
		return Geometry{}, invalid("capacity %d at rate %v needs more than the maximum of %d bits", capacity, fpr, uint64(MaxBits))
	}
	return Geometry{Bits: sd.Bits, Hashes: sd.Hashes, Capacity: capacity}, nil
}

// ExactStandardGeometry returns the geometry of a standard filter for
// capacity n and target false-positive rate p: the fewest bits, with the
// integer k that reaches them, whose exact rate [analysis.ExactFPR] with n
// items is at most p ([analysis.ExactStandardSize]), with Capacity n. It costs at
// most 0.42% more bits than [StandardGeometry] over n from 1e2 to 1e10 and p
// from 1e-1 to 1e-9. Its search has a work limit (about 0.6 s at
// p >= 1e-20, where it serves every n, and 0.06 s below; see
// [analysis.ExactStandardSize]), past which it
// reports an error and [StandardGeometry] is the one to use. Build the
// filter with [NewStandard] (or [NewConcurrentStandard], or [NewCounting]
// for counters).
func ExactStandardGeometry(capacity uint64, fpr float64) (Geometry, error) {
	return exactGeometry(capacity, fpr, func(n uint64, p float64) (uint64, int, error) {
		s, err := analysis.ExactStandardSize(n, p)
		return s.Bits, s.Hashes, err
	})
}

// ExactPartitionedGeometry returns the geometry of a partitioned filter
// for capacity n and target false-positive rate p: the fewest bits, a
// multiple of k, with the integer k that reaches them, whose exact
// partitioned rate [analysis.PartitionedFPR] with n items is at most p
// ([analysis.ExactPartitionedSize]), with Capacity n. Build the filter with
// [NewPartitioned].
func ExactPartitionedGeometry(capacity uint64, fpr float64) (Geometry, error) {
	return exactGeometry(capacity, fpr, func(n uint64, p float64) (uint64, int, error) {
		s, err := analysis.ExactPartitionedSize(n, p)
		return s.Bits, s.Hashes, err
	})
}

// exactGeometry returns the geometry that size gives for capacity items at
// rate fpr.
func exactGeometry(capacity uint64, fpr float64, size func(uint64, float64) (uint64, int, error)) (Geometry, error) {
	if err := checkSizing(capacity, fpr); err != nil {
		return Geometry{}, err
	}
	m, k, err := size(capacity, fpr)
	if err != nil {
		return Geometry{}, invalid("capacity %d at rate %v needs more than the maximum of %d bits", capacity, fpr, uint64(MaxBits))
	}
	return Geometry{Bits: m, Hashes: k, Capacity: capacity}, nil
}

// checkSizing reports an error unless capacity >= 1 and 0 < fpr < 1.
func checkSizing(capacity uint64, fpr float64) error {
	if capacity == 0 {
		return invalid("capacity n = 0, want n >= 1")
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return invalid("false-positive rate p = %v, want 0 < p < 1", fpr)
	}
	return nil
}

// BlockedGeometry returns the geometry of a blocked filter with blocks of
// blockBits bits (0 means [DefaultBlockBits]) for capacity n at false-positive
// rate p: the fewest whole blocks, and the k that minimises the exact
// blocked rate for them, whose rate [analysis.BlockedFPR] is at most p
// ([analysis.BlockedSize]), with Capacity n. It needs more bits than
// [StandardGeometry]: the block penalty. Build the filter with [NewBlocked] and
// the same block size.
func BlockedGeometry(capacity uint64, fpr float64, blockBits int) (Geometry, error) {
	if blockBits == 0 {
		blockBits = DefaultBlockBits
	}
	if err := checkBlockBits(blockBits); err != nil {
		return Geometry{}, err
	}
	if err := checkSizing(capacity, fpr); err != nil {
		return Geometry{}, err
	}
	bl, err := analysis.BlockedSize(capacity, fpr, uint64(blockBits))
	m, k := bl.Bits, bl.Hashes
	if err != nil {
		return Geometry{}, invalid("a blocked filter of %d items at rate %v: %s", capacity, fpr, trimPrefix(err))
	}
	return Geometry{Bits: m, Hashes: k, Capacity: capacity}, nil
}

// SplitBlockGeometry returns the geometry of a split-block filter for
// capacity n at false-positive rate p: the bits of the fewest whole
// 256-bit blocks whose rate [analysis.SplitBlockFPR] is at most p
// ([analysis.SplitBlockSize]), Hashes 8 (a split-block filter always sets
// one bit in each of a block's eight words) and Capacity n. Build the
// filter with [NewSplitBlock].
func SplitBlockGeometry(capacity uint64, fpr float64) (Geometry, error) {
	if err := checkSizing(capacity, fpr); err != nil {
		return Geometry{}, err
	}
	sb, err := analysis.SplitBlockSize(capacity, fpr)
	m := sb.Bits
	if err != nil {
		return Geometry{}, invalid("a split-block filter of %d items at rate %v: %s", capacity, fpr, trimPrefix(err))
	}
	return Geometry{Bits: m, Hashes: splitBlockHashes, Capacity: capacity}, nil
}
