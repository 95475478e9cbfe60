package variants_test

import (
	"fmt"
	"log"

	"github.com/bloomlab/bloomlab/variants"
)

func ExampleNewCounting() {
	// A counting filter for 1000 keys at a 1% false-positive rate, with
	// the default 4-bit counters.
	f, err := variants.NewCountingFor(1000, 0.01, variants.Hashing{})
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
