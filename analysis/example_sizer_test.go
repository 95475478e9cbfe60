package analysis_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
)

// The stages of a scalable filter with blocked stages, sized one after
// another with one BlockedSizer, as a growing filter sizes them: the
// same geometry as Stage, at a fraction of the cost after the first.
func ExampleBlockedSizer() {
	s := analysis.Scalable{P: 0.01, R: 0.9, S: 2, N0: 1000, BlockBits: 512}
	z := analysis.NewBlockedSizer(s.BlockBits)
	for i := range 4 {
		st, _ := s.StageWith(i, z)
		alone, _ := s.Stage(i)
		fmt.Printf("stage %d: %d items, %d bits, k = %d, same as Stage: %v\n", i, st.Capacity, st.Bits, st.Hashes, st == alone)
	}
	// Output:
	// stage 0: 1000 items, 15872 bits, k = 9, same as Stage: true
	// stage 1: 2000 items, 31744 bits, k = 9, same as Stage: true
	// stage 2: 4000 items, 64512 bits, k = 10, same as Stage: true
	// stage 3: 8000 items, 131072 bits, k = 10, same as Stage: true
}
