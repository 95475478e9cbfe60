package analysis_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
)

// The rate of Boost.Bloom's filter<int, 1, multiblock<uint64_t, 5>, 1>
// (one bit in each of 5 consecutive 64-bit words, blocks starting at any
// byte) with 8 bits per key, beside the same layout without overlap, and a
// count estimated from the fill of the non-overlapping one.
func ExampleMultiblock() {
	const n = 10_000_000
	overlap := analysis.BoostMultiblock(8*n, 5, 64, true, 1)
	natural := analysis.BoostMultiblock(8*n, 5, 64, true, 0)
	fo, _ := overlap.FPR(n)
	fn, _ := natural.FPR(n)
	fmt.Printf("stride 1 byte: %.4f%%, natural stride: %.4f%%\n", 100*fo, 100*fn)

	set := natural.Bits - uint64(natural.ExpectedClearBits(n))
	e, _ := natural.EstimateError(n)
	fmt.Printf("estimate from %d set bits: %.0f ± %.0f\n", set, natural.EstimateItems(set), e.StdDev)
	// Output:
	// stride 1 byte: 2.3188%, natural stride: 2.4512%
	// estimate from 37179087 set bits: 10000000 ± 904
}
