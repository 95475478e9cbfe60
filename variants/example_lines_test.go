package variants_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// Counting the 64-byte lines a query reads: with blocked stages a scalable
// filter reads one line per stage, and analysis.Scalable.Lines predicts
// the count.
func ExampleLineCounter() {
	f, err := variants.NewScalable(variants.ScalableParams{P: 0.01, BlockBits: 512})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range 5000 {
		f.Add(fmt.Appendf(nil, "key %d", i))
	}
	var h variants.Hashing
	lines := f.QueryLines(h.Digest([]byte("a key never added")))
	g := f.Params()
	geom := analysis.Scalable{P: g.P, R: g.R, S: g.S, N0: g.N0, BlockBits: uint64(g.BlockBits)}
	absent, _, err := geom.Lines(f.Stats().Items, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Stages(), "stages,", lines, "lines read, predicted", absent)
	// Output: 3 stages, 3 lines read, predicted 3
}
