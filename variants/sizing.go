package variants

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
)

// Geometry is an explicit filter geometry: m bits (or counters) and k
// hashes.
type Geometry struct {
	Bits   uint64 // m, at least 1
	Hashes int    // k, from 1 to MaxHashes
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
// (analysis.StandardSize).
func StandardGeometry(capacity uint64, fpr float64) (Geometry, error) {
	if capacity == 0 {
		return Geometry{}, invalid("capacity n = 0, want n >= 1")
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return Geometry{}, invalid("false-positive rate p = %v, want 0 < p < 1", fpr)
	}
	sd, err := analysis.StandardSize(capacity, fpr)
	if err != nil {
		return Geometry{}, invalid("capacity %d at rate %v needs more than the maximum of %d bits", capacity, fpr, uint64(MaxBits))
	}
	return Geometry{Bits: sd.Bits, Hashes: sd.Hashes}, nil
}

// BlockedGeometry returns the geometry of a blocked filter with blocks of
// blockBits bits (0 means DefaultBlockBits) for capacity n at false-positive
// rate p: the fewest whole blocks, and the k that minimises the exact
// blocked rate for them, whose rate analysis.BlockedFPR is at most p
// (analysis.BlockedSize). It needs more bits than StandardGeometry: the block penalty.
func BlockedGeometry(capacity uint64, fpr float64, blockBits int) (Geometry, error) {
	if blockBits == 0 {
		blockBits = DefaultBlockBits
	}
	if err := checkBlockBits(blockBits); err != nil {
		return Geometry{}, err
	}
	if capacity == 0 {
		return Geometry{}, invalid("capacity n = 0, want n >= 1")
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return Geometry{}, invalid("false-positive rate p = %v, want 0 < p < 1", fpr)
	}
	bl, err := analysis.BlockedSize(capacity, fpr, uint64(blockBits))
	if err != nil {
		return Geometry{}, invalid("a blocked filter of %d items at rate %v: %s", capacity, fpr, trimPrefix(err))
	}
	return Geometry{Bits: bl.Bits, Hashes: bl.Hashes}, nil
}

// SplitBlockSized returns the bits of a split-block filter for capacity n
// at false-positive rate p: the fewest whole blocks whose rate
// analysis.SplitBlockFPR is at most p (analysis.SplitBlockSize).
func SplitBlockSized(capacity uint64, fpr float64) (uint64, error) {
	if capacity == 0 {
		return 0, invalid("capacity n = 0, want n >= 1")
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return 0, invalid("false-positive rate p = %v, want 0 < p < 1", fpr)
	}
	sb, err := analysis.SplitBlockSize(capacity, fpr)
	if err != nil {
		return 0, invalid("a split-block filter of %d items at rate %v: %s", capacity, fpr, trimPrefix(err))
	}
	return sb.Bits, nil
}

// SizingRule selects how NewStandardFor and NewPartitionedFor turn a
// capacity n and a target rate p into a geometry.
type SizingRule int

const (
	// ClassicSizing, the default, is the sizing the literature and the
	// tutorials quote: m = ceil(-n ln p / (ln 2)^2) bits and the integer k
	// that minimises the classic rate for that m (StandardGeometry). The integer k
	// and a finite filter's exact rate both push the rate up, so a full
	// filter's exact rate can exceed p a little: 1.0039% for n = 1e6 at
	// p = 1%, at most 3.03% relative over n from 1e2 to 1e10 and p from
	// 1e-1 to 1e-9.
	ClassicSizing SizingRule = iota
	// ExactSizing gives the fewest bits, with the integer k that reaches
	// them, whose exact rate with n items is at most p: ExactFPR for a
	// standard filter (analysis.ExactStandardSize), PartitionedFPR for a
	// partitioned one, whose bits are then a multiple of k
	// (analysis.ExactPartitionedSize). It costs at most 0.42% more bits
	// than the classic sizing over the same range.
	ExactSizing
)

// String returns "classic" or "exact".
func (r SizingRule) String() string {
	switch r {
	case ClassicSizing:
		return "classic"
	case ExactSizing:
		return "exact"
	}
	return fmt.Sprintf("SizingRule(%d)", int(r))
}

// sizingRule returns the one rule of a constructor's optional argument,
// ClassicSizing if there is none.
func sizingRule(rules []SizingRule) (SizingRule, error) {
	switch {
	case len(rules) == 0:
		return ClassicSizing, nil
	case len(rules) > 1:
		return 0, invalid("%d sizing rules given, want at most one", len(rules))
	case rules[0] != ClassicSizing && rules[0] != ExactSizing:
		return 0, invalid("sizing rule %d, want ClassicSizing or ExactSizing", int(rules[0]))
	}
	return rules[0], nil
}

// sizedBy returns the geometry of a standard (or, with partitioned set, a
// partitioned) filter for capacity items at rate fpr by rule.
func sizedBy(rule SizingRule, capacity uint64, fpr float64, partitioned bool) (Geometry, error) {
	if rule == ClassicSizing {
		return StandardGeometry(capacity, fpr)
	}
	if capacity == 0 {
		return Geometry{}, invalid("capacity n = 0, want n >= 1")
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return Geometry{}, invalid("false-positive rate p = %v, want 0 < p < 1", fpr)
	}
	var g Geometry
	var err error
	if partitioned {
		var s analysis.Partitioned
		s, err = analysis.ExactPartitionedSize(capacity, fpr)
		g = Geometry{Bits: s.Bits, Hashes: s.Hashes}
	} else {
		var s analysis.Standard
		s, err = analysis.ExactStandardSize(capacity, fpr)
		g = Geometry{Bits: s.Bits, Hashes: s.Hashes}
	}
	if err != nil {
		return Geometry{}, invalid("capacity %d at rate %v needs more than the maximum of %d bits", capacity, fpr, uint64(MaxBits))
	}
	return g, nil
}
