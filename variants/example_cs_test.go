package variants_test

import (
	"fmt"
	"log"

	"github.com/bloomlab/bloomlab/variants"
)

func ExampleNewCounting() {
	// A counting filter for 1000 keys at a 1% false-positive rate, with
	// the default 4-bit counters.
	f, err := variants.NewCountingFor(1000, 0.01, 0, variants.Hashing{})
	if err != nil {
		log.Fatal(err)
	}
	f.Add([]byte("apple"))
	f.Add([]byte("banana"))
	fmt.Println(f.Contains([]byte("apple")), f.Contains([]byte("banana")))

	// Remove only keys that were added: see Counting.Remove.
	fmt.Println(f.Remove([]byte("apple")))
	fmt.Println(f.Contains([]byte("apple")), f.Contains([]byte("banana")))
	// A key that tests absent is left alone.
	fmt.Println(f.Remove([]byte("cherry")))

	st := f.Stats()
	fmt.Printf("%d counters of %d bits, %d hashes, %d item\n", st.Cells, st.CellBits, st.Hashes, st.Items)
	// Output:
	// true true
	// true
	// false true
	// false
	// 9586 counters of 4 bits, 7 hashes, 1 item
}

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
