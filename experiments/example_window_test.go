package experiments_test

import (
	"context"
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// Measuring a sliding-window filter over a stream: its rate at stream
// positions beside its exact theory, its window checked at every
// position, and its recall by age.
func ExampleMeasureWindow() {
	a, err := analysis.AgePartitionedSize(500, 0.05)
	if err != nil {
		fmt.Println(err)
		return
	}
	steady := uint64(a.K+a.L-1)*a.G + 1
	spec := experiments.WindowSpec{
		Name: "age-partitioned",
		New: func(seed uint64) (experiments.Filter, error) {
			return variants.NewAgePartitioned(variants.AgePartitionedParams{K: a.K, L: a.L, G: a.G, SliceBits: a.SliceBits,
				AgePartitionedOptions: variants.AgePartitionedOptions{Hashing: variants.Hashing{Seed: seed}}})
		},
		Positions: []uint64{250, 500, 1000, 2000},
		Window:    a.Window(),
		Theory:    func(t uint64) float64 { return analysis.AgePartitionedStreamFPR(a, t) },
		Model:     "exact",
		Ages:      []uint64{0, 500, 600, 1000},
		RecallAt:  []uint64{2000, 2000 + a.G/2},
		RecallTheory: func(age, t uint64) float64 {
			if t < steady {
				return -1
			}
			return a.RecallAt(age, (t-1-age)%a.G+1)
		},
	}
	res, err := experiments.MeasureWindow(context.Background(), []experiments.WindowSpec{spec},
		experiments.Params{Filters: 10, Queries: 5000}, experiments.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Rows {
		if r.AgeEnd == 0 {
			fmt.Printf("after %4d adds: rate %.4f, theory %.4f, inside %s; %d of the newest %d missing\n",
				r.Items, r.Rate, r.Theory, r.Inside, r.FalseNegatives, r.Members)
		} else {
			fmt.Printf("ages %3d to %3d: %.3f present, theory %.3f\n", r.Age, r.AgeEnd-1, r.Rate, r.Theory)
		}
	}
	// Output:
	// after  250 adds: rate 0.0119, theory 0.0129, inside yes; 0 of the newest 250 missing
	// after  500 adds: rate 0.0379, theory 0.0398, inside yes; 0 of the newest 500 missing
	// after 1000 adds: rate 0.0483, theory 0.0496, inside yes; 0 of the newest 501 missing
	// after 2000 adds: rate 0.0503, theory 0.0496, inside yes; 0 of the newest 501 missing
	// ages   0 to 499: 1.000 present, theory 1.000
	// ages 500 to 599: 0.335 present, theory 0.336
	// ages 600 to 999: 0.049 present, theory 0.050
}
