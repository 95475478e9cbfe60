package analysis

import "math"

// A partitioned Bloom filter splits its m bits into k slices of m/k bits and
// sets exactly one bit per slice for each item (Kirsch and Mitzenmacher,
// "Less hashing, same performance", 2006/2008; the stages of a scalable
// filter are partitioned filters). Slices are independent and a query tests
// one uniform position per slice, so the rate below is exact, not an
// approximation. With k >= 2 it is higher than ExactFPR of a standard filter
// with the same m and k (checked over a grid from m = 16 to 2^36 by
// TestPartitionedAboveExact): an item's k bits can never coincide, so more
// bits are set, 1 - (1 - k/m)^n of each slice against 1 - (1 - 1/m)^(kn) of
// the whole standard filter.
//
// m is the total number of bits. bloomlab's partitioned filters use a
// multiple of k; for other m the formulas use the real slice width m/k.

// PartitionedFill returns the expected fill ratio 1 - (1 - k/m)^n of one
// slice of m/k bits after n items. It returns NaN if k < 1 or m < k (a slice
// narrower than one bit), and 0 if n = 0.
func PartitionedFill(m, n uint64, k int) float64 {
	if k < 1 || m < uint64(k) {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	if m == uint64(k) {
		return 1
	}
	return -math.Expm1(float64(n) * math.Log1p(-float64(k)/float64(m)))
}

// PartitionedFPR returns the exact false-positive rate (1 - (1 - k/m)^n)^k
// of a partitioned filter of m bits in k slices holding n items. It returns
// NaN if k < 1 or m < k, and 0 if n = 0.
func PartitionedFPR(m, n uint64, k int) float64 {
	f := PartitionedFill(m, n, k)
	if math.IsNaN(f) {
		return f
	}
	return FPRFromFill(f, k)
}
