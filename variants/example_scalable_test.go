package variants_test

import (
	"fmt"
	"log"

	"github.com/bloomlab/bloomlab/variants"
)

func ExampleNewScalable() {
	// A scalable filter that holds its rate below 0.1% however many keys
	// arrive, starting with room for 1000 and doubling (the defaults).
	f, err := variants.NewScalable(variants.ScalableParams{P: 0.001, N0: 1000})
	if err != nil {
		log.Fatal(err)
	}
	for i := range 100_000 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	fmt.Println(f.Contains([]byte("key-42")))

	st := f.Stats()
	fmt.Printf("%d stages, capacity %d\n", len(st.Stages), st.Capacity)
	for i, s := range st.Stages[:3] {
		fmt.Printf("stage %d: capacity %d, %d hashes, design error %.2e\n", i, s.Capacity, s.Hashes, s.Error)
	}
	fmt.Println("estimated rate below 0.001:", st.EstimatedFPR < 0.001)
	// Output:
	// true
	// 7 stages, capacity 127000
	// stage 0: capacity 1000, 14 hashes, design error 1.00e-04
	// stage 1: capacity 2000, 14 hashes, design error 9.00e-05
	// stage 2: capacity 4000, 14 hashes, design error 8.10e-05
	// estimated rate below 0.001: true
}
