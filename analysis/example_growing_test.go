package analysis_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
)

// The rate of a dynamic filter grows with its stages; Almeida's scalable
// filter at the same target stays below it.
func ExampleDynamic_FPR() {
	d := analysis.Dynamic{N: 1000, P: 0.01}
	for _, n := range []uint64{1000, 10000, 100000} {
		r, _ := d.FPR(n)
		fmt.Printf("%6d items: %.4f\n", n, r)
	}
	// Output:
	//   1000 items: 0.0100
	//  10000 items: 0.0959
	// 100000 items: 0.6352
}

// The links of BF.RESERVE key 0.01 1000 EXPANSION 2 holding 10^6 keys,
// and the rate and bits per key of the chain.
func ExampleRedisBloom_Links() {
	r := analysis.RedisBloom{ErrorRate: 0.01, Capacity: 1000, Expansion: 2}
	links, _ := r.Links(1000000)
	last := links[len(links)-1]
	fmt.Printf("%d links; the last: capacity %d, error %.3g, %d hashes\n", len(links), last.Capacity, last.Error, last.Hashes)
	fpr, _ := r.FPR(1000000)
	bpe, _ := r.BitsPerKey(1000000)
	fmt.Printf("rate %.5f, %.2f bits per key\n", fpr, bpe)
	// Output:
	// 10 links; the last: capacity 512000, error 9.77e-06, 17 hashes
	// rate 0.00989, 23.10 bits per key
}

// Plain double hashing modulo a power of two, as RedisBloom's power-of-two
// tables probe, against independent probes: far above them in a lightly
// loaded table, close at capacity.
func ExampleDoubleHashing() {
	dh, err := analysis.NewDoubleHashing(16384, 8)
	if err != nil {
		panic(err)
	}
	for _, n := range []uint64{371, 1485} {
		fmt.Printf("%4d keys: double hashing %.3g, independent probes %.3g\n", n, dh.FPR(n), analysis.ExactFPR(16384, n, 8))
	}
	// Output:
	//  371 keys: double hashing 1.64e-05, independent probes 5.69e-07
	// 1485 keys: double hashing 0.0051, independent probes 0.00501
}
