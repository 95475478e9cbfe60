package variants

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
)

// SizingRule selects how NewStandardFor and NewPartitionedFor turn a
// capacity n and a target rate p into a geometry.
type SizingRule int

const (
	// ClassicSizing, the default, is the sizing the literature and the
	// tutorials quote: m = ceil(-n ln p / (ln 2)^2) bits and the integer k
	// that minimises the classic rate for that m (Sized). The integer k
	// and a finite filter's exact rate both push the rate up, so a full
	// filter's exact rate can exceed p a little: 1.0039% for n = 1e6 at
	// p = 1%, at most 3.03% relative over n from 1e2 to 1e10 and p from
	// 1e-1 to 1e-9.
	ClassicSizing SizingRule = iota
	// ExactSizing gives the fewest bits, with the integer k that reaches
	// them, whose exact rate with n items is at most p: ExactFPR for a
	// standard filter (analysis.ExactBits), PartitionedFPR for a
	// partitioned one, whose bits are then a multiple of k
	// (analysis.ExactPartitionedBits). It costs at most 0.42% more bits
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
		return Sized(capacity, fpr)
	}
	if capacity == 0 {
		return Geometry{}, invalid("capacity n = 0, want n >= 1")
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return Geometry{}, invalid("false-positive rate p = %v, want 0 < p < 1", fpr)
	}
	size := analysis.ExactBits
	if partitioned {
		size = analysis.ExactPartitionedBits
	}
	m, k, err := size(capacity, fpr)
	if err != nil {
		return Geometry{}, invalid("capacity %d at rate %v needs more than the maximum of %d bits", capacity, fpr, uint64(MaxBits))
	}
	return Geometry{Bits: m, Hashes: k}, nil
}
