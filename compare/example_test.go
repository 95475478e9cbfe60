package compare_test

import (
	"context"
	"fmt"

	"github.com/bits-and-blooms/bloom/v3"
	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
)

// bitsAndBlooms wraps a filter of github.com/bits-and-blooms/bloom/v3 for
// bloomlab's harness: Add and Contains, and Bits for its memory.
type bitsAndBlooms struct{ f *bloom.BloomFilter }

func (b bitsAndBlooms) Add(key []byte)           { b.f.Add(key) }
func (b bitsAndBlooms) Contains(key []byte) bool { return b.f.Test(key) }
func (b bitsAndBlooms) Bits() uint64             { return uint64(b.f.Cap()) }

// Measure another library's filter by bloomlab's method: 20 filters of
// bits-and-blooms sized for 10000 keys at 1%, each with keys of its own
// (the library takes no seed), measured at 5000, 10000 and 20000 keys
// beside the exact rate of a standard filter of its m bits and k hashes.
func Example_measure() {
	const n, p = 10_000, 0.01
	m, k := bloom.EstimateParameters(n, p)
	spec := experiments.Spec{
		Name: "bits-and-blooms",
		New: func(uint64) (experiments.Filter, error) {
			return bitsAndBlooms{bloom.NewWithEstimates(n, p)}, nil
		},
		Items:   []uint64{n / 2, n, 2 * n},
		Filters: 20,
		Queries: 20_000,
		Theory:  func(items uint64) float64 { return analysis.ExactFPR(uint64(m), items, int(k)) },
		Model:   "exact",
	}
	r, err := experiments.Measure(context.Background(), []experiments.Spec{spec}, experiments.Params{}, experiments.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("m = %d bits, k = %d\n", m, k)
	for _, row := range r.Rows {
		fmt.Printf("%5d keys: measured %.3g [%.3g, %.3g], exact theory %.3g, inside: %s\n", row.Items, row.Rate, row.Lo, row.Hi, row.Theory, row.Inside)
	}
	// Output:
	// m = 95851 bits, k = 7
	//  5000 keys: measured 0.00029 [0.000247, 0.000333], exact theory 0.000251, inside: yes
	// 10000 keys: measured 0.0102 [0.00994, 0.0105], exact theory 0.01, inside: yes
	// 20000 keys: measured 0.158 [0.156, 0.159], exact theory 0.157, inside: yes
}
