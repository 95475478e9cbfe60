package variants_test

import (
	"errors"
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// A filter reports how many distinct keys its bits imply; package
// analysis gives the standard error of that estimate.
func ExampleStats_estimatedItems() {
	f, _ := variants.NewStandardFor(10_000, 0.01, variants.Hashing{})
	for i := range 7000 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
		f.Add(fmt.Appendf(nil, "key-%d", i)) // a repeat changes no bit
	}
	st := f.Stats()
	e, _ := analysis.FillEstimator{Bits: st.Bits, Hashes: st.Hashes}.Error(uint64(st.EstimatedItems))
	fmt.Printf("added %d times, about %.0f distinct keys (standard error %.0f)\n", st.Items, st.EstimatedItems, e.StdDev)
	// Output: added 14000 times, about 7028 distinct keys (standard error 18)
}

// Two filters of the same geometry and hashing estimate the union and the
// intersection of their sets without building a third filter; filters
// that cannot be compared give an error.
func ExampleEstimateSets() {
	h := variants.Hashing{Seed: 1}
	monday, _ := variants.NewStandardFor(10_000, 0.01, h)
	tuesday, _ := variants.NewStandardFor(10_000, 0.01, h)
	for i := range 6000 {
		monday.Add(fmt.Appendf(nil, "user-%d", i))
		tuesday.Add(fmt.Appendf(nil, "user-%d", i+4000)) // 2000 users on both days
	}
	s, err := variants.EstimateSets(monday, tuesday)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("union %.0f, both days %.0f, Jaccard %.2f\n", s.Union, s.Intersection, s.Jaccard)

	other, _ := variants.NewStandardFor(10_000, 0.01, variants.Hashing{Seed: 2})
	_, err = variants.EstimateSets(monday, other)
	fmt.Println(errors.Is(err, variants.ErrIncompatible), err)
	// Output:
	// union 9996, both days 1998, Jaccard 0.20
	// true variants: incompatible filters: seed 1 != 2
}

// A blocked, split-block or multiblock filter estimates its distinct keys
// from its whole table, with the estimate's predicted standard error.
func ExampleBlockCounter() {
	f, _ := variants.NewSplitBlockFor(10_000, 0.01, variants.Hashing{})
	for i := range 7000 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	c, _ := f.EstimateCount()
	fmt.Printf("about %.0f distinct keys (standard error %.0f)\n", c.Items, c.Error.StdDev)
	// Output: about 6989 distinct keys (standard error 18)
}
