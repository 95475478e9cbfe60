package catalog_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/experiments/catalog"
)

// The bits per key of each design of the growth experiment at its
// defaults (n0 = 1000, p = 0.01), after a thousandfold growth.
func ExampleGrowthBits() {
	for _, d := range catalog.GrowthDesigns {
		b, err := catalog.GrowthBits(d, experiments.Params{}, []uint64{1_000_000})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-26s %5.2f\n", d, b[0])
	}
	// Output:
	// almeida partitioned        17.53
	// almeida blocked            18.22
	// redisbloom                 23.10
	// redisbloom power-of-two    22.36
	// dynamic                     9.59
	// standard sized in advance   9.59
}
