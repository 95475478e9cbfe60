package compare_test

import (
	"context"
	"fmt"

	"github.com/bloomlab/bloomlab/compare"
	"github.com/bloomlab/bloomlab/experiments"
)

// Measure an xor filter and bloomlab's standard filter sized for 1%, both
// holding 10,000 keys, on the harness: 10 filters each, 100,000 absent
// keys per filter.
func ExampleFrontierConfigs() {
	configs, err := compare.FrontierConfigs(10_000, []float64{0.01})
	if err != nil {
		fmt.Println(err)
		return
	}
	var specs []experiments.Spec
	for _, c := range configs {
		if c.Structure == compare.Xor8 || c.Structure == "bloomlab standard" {
			specs = append(specs, c.Spec)
		}
	}
	r, err := experiments.Measure(context.Background(), specs, experiments.Params{Filters: 10}, experiments.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range r.Rows {
		fmt.Printf("%s: %.2f bits per key, rate %.4f [%.4f, %.4f], theory %.4f\n", row.Series, row.BitsPerKey, row.Rate, row.Lo, row.Hi, row.Theory)
	}
	// Output:
	// bloomlab standard, p = 0.01: 9.59 bits per key, rate 0.0100 [0.0097, 0.0102], theory 0.0100
	// xor8: 9.86 bits per key, rate 0.0040 [0.0039, 0.0041], theory 0.0039
}

// The bits bloomlab's variants allocate for a million keys at 1%, beside
// the fewest bits their own theory needs for that rate: the standard and
// partitioned filters, sized by the classic formula, fall short by 0.08%
// (so their exact rate is 0.01004); the blocked filters size by their
// exact theory.
func ExampleCheckSizing() {
	checks, err := compare.CheckSizing(1_000_000, 0.01)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range checks {
		fmt.Printf("%-11s k = %2d, %.3f bits per key, theory needs %.3f (%+.3f%%)\n", c.Variant, c.Hashes, float64(c.Allocated)/1e6, float64(c.Needed)/1e6, 100*c.Excess())
	}
	// Output:
	// standard    k =  7, 9.585 bits per key, theory needs 9.593 (-0.082%)
	// partitioned k =  7, 9.585 bits per key, theory needs 9.593 (-0.082%)
	// blocked     k =  6, 9.918 bits per key, theory needs 9.918 (+0.000%)
	// split-block k =  8, 10.529 bits per key, theory needs 10.529 (+0.000%)
}

// The frontier's lines at 10 bits per key for a million keys.
func ExampleFrontierCurves() {
	curves, err := compare.FrontierCurves(1_000_000, 10, 20, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range curves {
		fmt.Printf("%-30s %.3g\n", c.Name, c.Rate[0])
	}
	// Output:
	// bound log2(1/p)                0.000977
	// optimal Bloom, 1.44 log2(1/p)  0.00819
	// bloomlab standard              0.00819
	// bloomlab partitioned           0.00819
	// bloomlab blocked               0.00966
	// bloomlab split-block           0.0126
}
