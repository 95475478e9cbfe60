package analysis_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
)

// A growing filter told that about 10^6 keys will come, at 1%: its bits
// per key and compound rate at the estimate, and past it.
func ExampleHorizon() {
	h := analysis.Horizon{P: 0.01, Estimate: 1000000, N0: 1000, S: 2}
	l, _ := h.HorizonStages()
	first, _ := h.Stage(0)
	last, _ := h.Stage(l - 1)
	fmt.Printf("%d stages to the estimate: the first %d keys at %.2g, the last %d at %.2g\n",
		l, first.Capacity, first.Error, last.Capacity, last.Error)
	for _, n := range []uint64{1000000, 4000000} {
		fpr, _ := h.FPR(n)
		bpk, _ := h.BitsPerKey(n)
		fmt.Printf("%7d keys: rate %.4f, %.2f bits per key\n", n, fpr, bpk)
	}
	// Output:
	// 10 stages to the estimate: the first 1953 keys at 1.9e-05, the last 500000 at 0.0048
	// 1000000 keys: rate 0.0095, 12.57 bits per key
	// 4000000 keys: rate 0.0097, 17.75 bits per key
}
