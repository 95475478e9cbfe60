package analysis_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
)

// A standard filter of 95,851 bits and 7 hashes (sized for 10,000 items
// at 1%) with 49,674 bits set holds about 10,000 items; the estimate's
// standard error there is about 26 items, a quarter of a percent, and its
// bias a few hundredths of an item.
func ExampleFillEstimator_Estimate() {
	f := analysis.FillEstimator{Bits: 95851, Hashes: 7}
	n := f.Estimate(49674)
	e, err := f.Error(uint64(n))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("about %.0f items, standard error %.1f, bias %.3f\n", n, e.StdDev, e.Bias)
	fmt.Println(f.Estimate(0), f.Estimate(95851)) // empty, saturated
	// Output:
	// about 10000 items, standard error 26.0, bias 0.025
	// 0 +Inf
}

// The error of the estimate of a small filter, exact, as it fills: the
// bias grows and the chance that every bit is set (the estimate +Inf)
// appears as the empty bits run out. Limit gives the load at which ten
// bits are still expected to be empty.
func ExampleFillEstimator_Error() {
	f := analysis.FillEstimator{Bits: 256, Hashes: 3}
	for _, n := range []uint64{20, 100, 200, 300} {
		e, _ := f.Error(n)
		fmt.Printf("n=%d: bias %.2f, standard deviation %.2f, saturated %.2g, exact %v\n", n, e.Bias, e.StdDev, e.Saturated, e.Exact)
	}
	limit, _ := f.Limit(analysis.MinEmptyCells)
	fmt.Println("meaningful up to about", limit, "items")
	// Output:
	// n=20: bias 0.00, standard deviation 0.91, saturated 0, exact true
	// n=100: bias 0.18, standard deviation 5.51, saturated 0, exact true
	// n=200: bias 1.22, standard deviation 14.61, saturated 9.8e-14, exact true
	// n=300: bias 5.50, standard deviation 32.39, saturated 0.00029, exact true
	// meaningful up to about 276 items
}

// Where the delta method breaks down: a filter of 256 bits and 3 hashes
// with 30, 10 and 1 bits expected to stay clear.
func ExampleFillEstimator_DeltaError() {
	f := analysis.FillEstimator{Bits: 256, Hashes: 3}
	for _, n := range []uint64{183, 276, 472} {
		exact, _ := f.Error(n)
		delta, _ := f.DeltaError(n)
		fmt.Printf("n=%d: standard deviation exact %.1f, delta %.1f; bias exact %.1f, delta %.1f\n", n, exact.StdDev, delta.StdDev, exact.Bias, delta.Bias)
	}
	// Output:
	// n=183: standard deviation exact 12.7, delta 12.4; bias exact 0.9, delta 0.9
	// n=276: standard deviation exact 26.7, delta 24.6; bias exact 3.9, delta 3.5
	// n=472: standard deviation exact 37.3, delta 83.9; bias exact -29.3, delta 41.4
}

// Two sets of 5,000 items sharing 2,000, in filters of 95,851 bits: the
// union, intersection and Jaccard similarity from the set bits of the two
// filters and of their OR (here the expected counts), and the predicted
// standard errors.
func ExampleFillEstimator_SetError() {
	f := analysis.FillEstimator{Bits: 95851, Hashes: 7}
	est := f.EstimateSets(29322, 29322, 42411)
	fmt.Printf("union %.0f, intersection %.0f, Jaccard %.3f\n", est.Union, est.Intersection, est.Jaccard)
	e, err := f.SetError(5000, 5000, 2000)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("standard errors: union %.1f, intersection %.1f, Jaccard %.4f\n",
		e.Union.StdDev, e.Intersection.StdDev, e.Jaccard.StdDev)
	// Output:
	// union 8000, intersection 2000, Jaccard 0.250
	// standard errors: union 20.2, intersection 12.6, Jaccard 0.0019
}

// The estimate of a scalable filter is the sum of its stages'; so are its
// bias and variance.
func ExampleScalable_EstimateError() {
	s := analysis.Scalable{P: 0.001, R: 0.9, S: 2, N0: 1000}
	for _, n := range []uint64{1000, 100_000} {
		e, _ := s.EstimateError(n)
		fmt.Printf("n=%d: standard deviation %.1f (%.2f%%)\n", n, e.StdDev, 100*e.StdDev/float64(n))
	}
	// Output:
	// n=1000: standard deviation 5.6 (0.56%)
	// n=100000: standard deviation 49.9 (0.05%)
}

// Summed block by block, a blocked filter's estimate has, at three times
// its capacity, a bias of the order of its standard deviation from the
// blocks' unequal loads, and a split-block filter's 32-bit words more
// (package variants estimates over the whole table instead: see
// Multiblock.EstimateError).
func ExampleBlockedEstimateError() {
	b, _ := analysis.BlockedEstimateError(95744, 30000, 7, 512)
	s, _ := analysis.SplitBlockEstimateError(95744, 30000)
	fmt.Printf("blocked: bias %.0f, standard deviation %.0f\n", b.Bias, b.StdDev)
	fmt.Printf("split-block: bias %.0f, standard deviation %.0f, saturated %.1g\n", s.Bias, s.StdDev, s.Saturated)
	// Output:
	// blocked: bias 80, standard deviation 109
	// split-block: bias 237, standard deviation 125, saturated 0.0004
}

// A counting filter knows its count exactly while no counter has
// saturated: the counters sum to k times the items.
func ExampleCounterSumItems() {
	fmt.Println(analysis.CounterSumItems(70_000, 7))
	// Output: 10000
}

// One pass gives the errors of a filter filled through several loads, and
// of the set estimates at several overlaps.
func ExampleFillEstimator_Errors() {
	f := analysis.FillEstimator{Bits: 9586, Hashes: 7} // 1000 items at 1%
	errs, _ := f.Errors([]uint64{100, 1000, 3000})
	for _, e := range errs {
		fmt.Printf("standard deviation %.2f, bias %.3f\n", e.StdDev, e.Bias)
	}
	sets, _ := f.SetErrors(1000, 1000, []uint64{0, 500, 1000})
	for _, s := range sets {
		fmt.Printf("union %.2f, intersection %.2f\n", s.Union.StdDev, s.Intersection.StdDev)
	}
	// Output:
	// standard deviation 0.73, bias 0.000
	// standard deviation 8.22, bias 0.025
	// standard deviation 33.56, bias 0.411
	// union 19.02, intersection 15.04
	// union 13.23, intersection 8.34
	// union 8.22, intersection 8.22
}

// The errors of a scalable filter's estimate as it grows through its
// stages.
func ExampleScalable_EstimateErrors() {
	s := analysis.Scalable{P: 0.01, R: 0.9, S: 2, N0: 100}
	errs, _ := s.EstimateErrors([]uint64{100, 300, 700, 1500})
	for _, e := range errs {
		fmt.Printf("standard deviation %.2f\n", e.StdDev)
	}
	// Output:
	// standard deviation 2.10
	// standard deviation 3.52
	// standard deviation 5.33
	// standard deviation 7.79
}
