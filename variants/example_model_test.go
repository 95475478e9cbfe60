package variants_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// A filter beside its theory, in one line: the rate its model predicts
// for the items it holds, against the rate measured on keys never added.
func ExampleStandard_Model() {
	f, err := variants.NewStandardFor(10000, 0.01, variants.Hashing{})
	if err != nil {
		panic(err)
	}
	for i := range 10000 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	theory, err := f.Model().FPR(f.Stats().Items)
	if err != nil {
		panic(err)
	}
	fp := 0
	for i := range 100000 {
		if f.Contains(fmt.Appendf(nil, "absent-%d", i)) {
			fp++
		}
	}
	fmt.Printf("model: %+v\n", f.Model())
	fmt.Printf("theory %.4f, measured %.4f\n", theory, float64(fp)/100000)
	// Output:
	// model: {Bits:95851 Hashes:7}
	// theory 0.0100, measured 0.0099
}

// A scalable filter's model carries its parameters with the defaults
// filled in; its rate at the items the filter holds is the compound rate
// of the stages, below the target P at every size.
func ExampleScalable_Model() {
	f, err := variants.NewScalable(variants.ScalableParams{P: 0.01})
	if err != nil {
		panic(err)
	}
	for i := range 50000 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	m := f.Model()
	st := f.Stats()
	theory, err := m.FPR(st.Items)
	if err != nil {
		panic(err)
	}
	fp := 0
	for i := range 100000 {
		if f.Contains(fmt.Appendf(nil, "absent-%d", i)) {
			fp++
		}
	}
	// Without an Estimate the model is Almeida's, an analysis.Scalable.
	g := m.(analysis.Scalable)
	fmt.Printf("P %g, r %g, s %g, n0 %d, block bits %d\n", g.P, g.R, g.S, g.N0, g.BlockBits)
	fmt.Printf("%d stages hold %d items (of 50000 offered)\n", f.Stages(), st.Items)
	fmt.Printf("theory %.4f, measured %.4f\n", theory, float64(fp)/100000)
	// Output:
	// P 0.01, r 0.9, s 2, n0 1000, block bits 0
	// 6 stages hold 49861 items (of 50000 offered)
	// theory 0.0029, measured 0.0029
}
