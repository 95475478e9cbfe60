package compare_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/compare"
)

// The geometry decred's NewFilter builds for a window of 10,000 items at
// 1%, read from its code, and the exact theory applied to it: the window
// it keeps at every phase, and its rate at the worst point of the cycle
// and on average, beside its own one-number formula.
func ExampleDecredFor() {
	d, err := compare.DecredFor(10000, 0.01)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, err := d.Theory()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("k = %d, l = %d, g = %d, %d-bit slices\n", d.K, d.L, d.Generation, d.SliceBits)
	fmt.Printf("Capacity() %d, held at every phase %d\n", d.Capacity(), d.Guaranteed())
	fmt.Printf("worst %.5f, mean %.5f, decred's formula %.5f\n", a.WorstFPR(), a.MeanFPR(), a.OneNumberFPR())
	// Output:
	// k = 7, l = 4, g = 2000, 20198-bit slices
	// Capacity() 10000, held at every phase 8001
	// worst 0.00857, mean 0.00660, decred's formula 0.00693
}
