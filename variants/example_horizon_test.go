package variants_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/variants"
)

// A scalable filter told that about a million keys will come: its stages
// are sized so that at the estimate it needs about 12.6 bits per key at
// 1%, where Almeida's schedule (no estimate) needs 17.5 and a static
// filter sized for exactly a million keys 9.6, and it keeps growing past
// the estimate, its rate at or below P at every count. (Add skips the
// keys that test present, so the filter holds a little fewer items than
// the keys offered.)
func ExampleNewScalable_estimate() {
	f, err := variants.NewScalable(variants.ScalableParams{P: 0.01, Estimate: 1_000_000})
	if err != nil {
		panic(err)
	}
	for i := range 1_000_000 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	st := f.Stats()
	theory, err := f.Model().FPR(st.Items)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d stages, %d items, %.2f bits per key, rate %.4f (theory)\n",
		f.Stages(), st.Items, float64(st.Bits)/float64(st.Items), theory)

	// Almeida's schedule at the same count, from its model.
	a, err := variants.NewScalable(variants.ScalableParams{P: 0.01})
	if err != nil {
		panic(err)
	}
	bpk, err := a.Model().BitsPerKey(st.Items)
	if err != nil {
		panic(err)
	}
	fmt.Printf("without the estimate: %.2f bits per key\n", bpk)
	// Output:
	// 10 stages, 996429 items, 12.62 bits per key, rate 0.0093 (theory)
	// without the estimate: 17.59 bits per key
}
