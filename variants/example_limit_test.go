package variants_test

import (
	"errors"
	"fmt"

	"github.com/bloomlab/bloomlab/variants"
)

// The process limit bounds every filter that does not set its own: a
// filter larger than it is refused before any memory is allocated.
func ExampleSetMemoryLimit() {
	prev := variants.SetMemoryLimit(1 << 20) // 1 MiB of cells per filter
	defer variants.SetMemoryLimit(prev)

	_, err := variants.NewStandard(variants.Geometry{Bits: 1 << 24, Hashes: 7}, variants.Hashing{}) // 2 MiB
	fmt.Println(errors.Is(err, variants.ErrMemoryLimit), errors.Is(err, variants.ErrInvalidParams))
	fmt.Println(variants.SetMemoryLimit(0)) // 0 only reports
	// Output:
	// true true
	// 1048576
}

// TryAdd refuses the key that needs a stage beyond the filter's MaxBytes
// and leaves the filter as it was; Add would keep the key in the newest
// stage, beyond its capacity, and record the error in Err.
func ExampleScalable_TryAdd() {
	f, err := variants.NewScalable(variants.ScalableParams{P: 0.01, N0: 1000, MaxBytes: 64 << 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; err == nil; i++ {
		err = f.TryAdd(fmt.Appendf(nil, "key-%d", i))
	}
	st := f.Stats()
	fmt.Println(errors.Is(err, variants.ErrMemoryLimit), f.Err())
	fmt.Printf("%d items in %d stages, %d bytes of cells\n", st.Items, len(st.Stages), st.Bits/8)
	f.Add([]byte("one more"))
	fmt.Println(errors.Is(f.Err(), variants.ErrMemoryLimit), f.Contains([]byte("one more")))
	// Output:
	// true <nil>
	// 31000 items in 5 stages, 61321 bytes of cells
	// true true
}
