package analysis

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalidParams is wrapped by every error that reports a parameter
// outside its domain. variants.ErrInvalidParams and
// experiments.ErrInvalidParams are this same value, so that errors.Is(err,
// ErrInvalidParams) holds for a parameter error of any of the three
// packages. (Packages stats and internal/units, which cannot import
// analysis, keep sentinels of their own with the same text.)
var ErrInvalidParams = errors.New("invalid parameters")

// MaxHashes is the largest number of hash functions (k) that the sizing
// functions return and that bloomlab's filters accept.
const MaxHashes = 4096

// MaxBits is the largest filter size, in bits, that the sizing functions
// return: 2^48 bits (32 TiB), far beyond any memory this library will meet
// but small enough that every size computation stays exact in float64.
const MaxBits = 1 << 48

func invalid(format string, args ...any) error {
	return fmt.Errorf("analysis: %w: "+format, append([]any{ErrInvalidParams}, args...)...)
}

// CheckProbability reports an error unless 0 < p < 1.
func CheckProbability(name string, p float64) error {
	if math.IsNaN(p) || p <= 0 || p >= 1 {
		return invalid("%s = %v, want 0 < %s < 1", name, p, name)
	}
	return nil
}

// StandardSize returns the classic geometry of a standard Bloom filter
// for n items at false-positive rate p: Bits m = ceil(-n ln p / (ln 2)^2),
// the size at which the optimal (real-valued) number of hash functions
// reaches p (Broder and Mitzenmacher 2004, section 2.2), and Hashes
// k = [OptimalHashes](m, n), the integer k with the lowest classic rate for
// that m. It reports an error if n is zero, p is outside (0, 1), or m
// would exceed [MaxBits].
func StandardSize(n uint64, p float64) (Standard, error) {
	if n == 0 {
		return Standard{}, invalid("capacity n = 0, want n >= 1")
	}
	if err := CheckProbability("p", p); err != nil {
		return Standard{}, err
	}
	m := math.Ceil(-float64(n) * math.Log(p) / (math.Ln2 * math.Ln2))
	if m > MaxBits {
		return Standard{}, invalid("n = %d at p = %g needs %.4g bits, more than the maximum %d", n, p, m, uint64(MaxBits))
	}
	return Standard{Bits: uint64(m), Hashes: OptimalHashes(uint64(m), n)}, nil
}

// logClassicFPR returns ln of the classic rate (1-e^(-kn/m))^k.
func logClassicFPR(m, n float64, k int) float64 {
	return float64(k) * math.Log(-math.Expm1(-float64(k)*n/m))
}

// OptimalHashes returns the integer number of hash functions k >= 1 that
// minimises the classic false-positive rate (1-e^(-kn/m))^k of a filter of
// m bits holding n items. That rate is unimodal in k with its real minimum
// at (m/n) ln 2, so the answer is the floor or the ceiling of that value,
// whichever gives the lower rate (the floor on a tie). The result is capped
// at [MaxHashes]; callers that need to know check m/n themselves. For n = 0
// every k gives rate 0 and OptimalHashes returns 1.
//
// For m = 0, a filter without bits, no k is valid and OptimalHashes returns
// 0, as [BlockedOptimalHashes] does for an invalid geometry: the rate
// functions return NaN for k = 0 and the models ([Standard.Validate])
// report an error, so the 0 cannot pass unnoticed as a geometry.
func OptimalHashes(m, n uint64) int {
	if m == 0 {
		return 0
	}
	if n == 0 {
		return 1
	}
	x := float64(m) / float64(n) * math.Ln2
	if x >= MaxHashes {
		return MaxHashes
	}
	lo := int(math.Floor(x))
	if lo < 1 {
		return 1
	}
	hi := lo + 1
	if logClassicFPR(float64(m), float64(n), hi) < logClassicFPR(float64(m), float64(n), lo) {
		return hi
	}
	return lo
}

// BitsPerKey returns m/n.
func BitsPerKey(m, n uint64) float64 {
	return float64(m) / float64(n)
}

// InformationMinimum returns log2(1/p), the fewest bits per key that any
// structure answering membership with false-positive rate p can use (Carter
// et al. 1978; Broder and Mitzenmacher 2004, section 2.3).
func InformationMinimum(p float64) float64 {
	return -math.Log2(p)
}
