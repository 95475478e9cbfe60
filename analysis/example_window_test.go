package analysis_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
)

// Two standard filters used alternately keep the newest 1000 items at
// every point of their cycle when they swap every 1000 adds; each is sized
// for the 1999 items the queried one holds just before a swap.
func ExampleAlternatingWindowSize() {
	a, err := analysis.AlternatingWindowSize(1000, 0.01)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("window %d, %d bits in all, k = %d\n", a.Window(), a.TotalBits(), a.Hashes)
	fmt.Printf("rate just after a swap %.4f, just before %.4f, mean %.4f\n", a.FPR(3000), a.WorstFPR(), a.MeanFPR())
	fmt.Printf("an item of age 1500 tests present with probability %.3f on average\n", a.MeanRecall(1500))
	// Output:
	// window 1000, 38358 bits in all, k = 7
	// rate just after a swap 0.0003, just before 0.0100, mean 0.0033
	// an item of age 1500 tests present with probability 0.500 on average
}

// The rate of an age-partitioned filter from its first add: zero until
// k slices hold items, then rising to the sawtooth of the steady state.
func ExampleAgePartitionedStreamFPR() {
	a, err := analysis.AgePartitionedSize(1000, 0.01)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("k = %d, l = %d, g = %d\n", a.K, a.L, a.G)
	for _, t := range []uint64{a.G, 10 * a.G, 100 * a.G, 100*a.G + 1} {
		fmt.Printf("after %d adds: %.5f\n", t, analysis.AgePartitionedStreamFPR(a, t))
	}
	fmt.Printf("steady worst %.5f\n", a.WorstFPR())
	// Output:
	// k = 10, l = 50, g = 20
	// after 20 adds: 0.00000
	// after 200 adds: 0.00012
	// after 2000 adds: 0.00989
	// after 2001 adds: 0.00968
	// steady worst 0.00989
}
