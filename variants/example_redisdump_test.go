package variants_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/variants"
)

// A RedisBloom filter dumped as BF.SCANDUMP would dump it, and loaded
// back as BF.LOADCHUNK would load it. With a running Redis the pairs come
// from calling BF.SCANDUMP key iter in a loop from iter 0 until it
// returns 0, and go to RedisLoader.LoadChunk one by one; ScanDumpAll's
// pairs go to BF.LOADCHUNK key iter data. The header (179 bytes for 3
// links) comes with iterator 1; each data chunk's iterator is 1 + the
// offset of the byte after it in the links' tables (144, 312 and 696
// bytes), and no chunk spans two links.
func ExampleRedisBloom_ScanDumpAll() {
	f, err := variants.NewRedisBloom(variants.RedisBloomParams{ErrorRate: 0.01, Capacity: 100, Expansion: 2})
	if err != nil {
		panic(err)
	}
	for i := range 500 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	chunks, err := f.ScanDumpAll(512)
	if err != nil {
		panic(err)
	}
	var ld variants.RedisLoader
	for iter, data := range chunks {
		fmt.Printf("iter %d: %d bytes\n", iter, len(data))
		if err := ld.LoadChunk(iter, data); err != nil {
			panic(err)
		}
	}
	g, err := ld.Filter()
	if err != nil {
		panic(err)
	}
	fmt.Println("contains key-17:", g.Contains([]byte("key-17")))
	fmt.Printf("BF.INFO: %+v\n", g.Info())
	// Output:
	// iter 1: 179 bytes
	// iter 145: 144 bytes
	// iter 457: 312 bytes
	// iter 969: 512 bytes
	// iter 1153: 184 bytes
	// contains key-17: true
	// BF.INFO: {Capacity:700 Size:1376 Filters:3 Items:500 ExpansionRate:2}
}
