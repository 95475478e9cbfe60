package variants_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/variants"
)

// A dynamic filter grows by equal stages, and its rate with them.
func ExampleNewDynamic() {
	f, err := variants.NewDynamic(variants.DynamicParams{N: 1000, P: 0.01})
	if err != nil {
		panic(err)
	}
	for i := range 4500 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	st := f.Stats()
	fmt.Println("stages:", f.Stages(), "items:", st.Items)
	fmt.Println("hashes per stage:", st.Hashes, "bits per stage:", st.Stages[0].Bits)
	fmt.Println("contains key-17:", f.Contains([]byte("key-17")))
	// Output:
	// stages: 5 items: 4500
	// hashes per stage: 7 bits per stage: 9590
	// contains key-17: true
}

// BF.RESERVE key 0.01 1000 EXPANSION 2, and the links it grows as keys
// arrive.
func ExampleNewRedisBloom() {
	f, err := variants.NewRedisBloom(variants.RedisBloomParams{ErrorRate: 0.01, Capacity: 1000, Expansion: 2})
	if err != nil {
		panic(err)
	}
	for i := range 5000 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	for i, l := range f.Stats().Stages {
		fmt.Printf("link %d: capacity %d, %d bits, %d hashes, error %g\n", i, l.Capacity, l.Bits, l.Hashes, l.Error)
	}
	fmt.Println("hashing:", f.Hashing().Kind)
	// Output:
	// link 0: capacity 1000, 11072 bits, 8 hashes, error 0.005
	// link 1: capacity 2000, 24960 bits, 9 hashes, error 0.0025
	// link 2: capacity 4000, 55680 bits, 10 hashes, error 0.00125
	// hashing: murmur64a
}
