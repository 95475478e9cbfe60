package variants_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/variants"
)

// A blocked filter sized for a capacity and a target rate: every key's bits
// lie in one 512-bit block (one cache line), and the sizing includes the
// block penalty, a few percent more bits than a standard filter.
func ExampleNewBlockedFor() {
	f, err := variants.NewBlockedFor(1_000_000, 0.01, variants.Hashing{})
	if err != nil {
		fmt.Println(err)
		return
	}
	f.Add([]byte("https://example.com/"))
	fmt.Println(f.Contains([]byte("https://example.com/")))
	g := f.Geometry()
	std, _ := variants.StandardGeometry(1_000_000, 0.01)
	fmt.Printf("m = %d bits (%.1f%% more than standard), k = %d\n", g.Bits, 100*(float64(g.Bits)/float64(std.Bits)-1), g.Hashes)
	// Output:
	// true
	// m = 9918464 bits (3.5% more than standard), k = 6
}

// Batched queries: the filter hashes a group of keys and touches all their
// blocks before testing any, so the cache misses overlap.
func ExampleBlocked_ContainsBatch() {
	f, _ := variants.NewBlockedFor(10_000, 0.01, variants.Hashing{})
	f.AddBatch([][]byte{[]byte("ant"), []byte("bee")})
	keys := [][]byte{[]byte("ant"), []byte("bee"), []byte("cat")}
	out := make([]bool, len(keys))
	f.ContainsBatch(keys, out)
	fmt.Println(out)
	// Output:
	// [true true false]
}

// Query a Parquet column chunk's Bloom filter: the bitset bytes that follow
// its BloomFilterHeader load as a split-block filter, and a value is looked
// up by the XXH64 of its plain encoding, as the Parquet format specifies.
// Here the bitset is made by a split-block filter itself.
func ExampleNewSplitBlockFromBitset() {
	w, _ := variants.NewSplitBlockFor(1000, 0.01, variants.Hashing{Kind: variants.XXH64})
	w.AddHash64(variants.ParquetHash([]byte("berlin")))
	bitset := w.AppendBitset(nil) // what a Parquet writer stores

	r, err := variants.NewSplitBlockFromBitset(bitset)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(bitset), "bytes")
	fmt.Println(r.ContainsHash64(variants.ParquetHash([]byte("berlin"))))
	fmt.Println(r.Contains([]byte("berlin")), r.Contains([]byte("paris")))
	// Output:
	// 1344 bytes
	// true
	// true false
}

// A scalable filter with blocked stages: each stage reads one 512-bit
// block per query, and a query reads the blocks of all its stages in one
// pass. The compound rate stays below P as it grows. Keys that test
// present as they arrive (false positives) are not inserted, so Items is
// a little below the keys offered.
func ExampleNewScalable_blockedStages() {
	f, err := variants.NewScalable(variants.ScalableParams{P: 0.01, N0: 1000, BlockBits: 512})
	if err != nil {
		panic(err)
	}
	for i := range 10_000 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	st := f.Stats()
	fmt.Println("stages:", f.Stages(), "items:", st.Items)
	fmt.Println("holds key-42:", f.Contains([]byte("key-42")))
	fmt.Println("estimated rate below P:", st.EstimatedFPR < 0.01)
	// Output:
	// stages: 4 items: 9987
	// holds key-42: true
	// estimated rate below P: true
}

// A blocked filter with blocks of 1024 bits: BlockedGeometry sizes it for
// the block size, and the geometry it returns records the capacity, which
// the filter reports.
func ExampleNewBlocked() {
	g, err := variants.BlockedGeometry(1_000_000, 0.01, 1024)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := variants.NewBlocked(variants.BlockedParams{Geometry: g, BlockBits: 1024})
	if err != nil {
		fmt.Println(err)
		return
	}
	st := f.Stats()
	fmt.Printf("m = %d bits, k = %d, B = %d, capacity %d\n", st.Bits, st.Hashes, f.BlockBits(), st.Capacity)
	// Output:
	// m = 9761792 bits, k = 7, B = 1024, capacity 1000000
}
