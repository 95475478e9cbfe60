package variants

import (
	"fmt"
	"testing"

	"github.com/zeebo/xxh3"
)

// BenchmarkSplitBlockHash times the split-block filter's key paths with
// the default hash, the 128-bit [XXH3] (the filter uses its low half), and
// with the 64-bit [XXH3_64], on the same 16-byte keys at n = 1e4 (in
// cache) and 1e6, 10 bits per key: the hash alone, Add, Contains of
// absent and present keys, and ContainsBatch of absent keys in groups of
// 32 (ns/key). The hash kind is the innermost level, so that the two
// kinds of an operation run back to back; run the binary several times
// (-count 1 each) and take medians to interleave the rounds:
//
//	go test -c -o /tmp/v.test ./variants
//	for r in 1 2 3 4 5 6 7; do /tmp/v.test -test.run '^$' -test.bench SplitBlockHash; done
func BenchmarkSplitBlockHash(b *testing.B) {
	kinds := []HashKind{XXH3, XXH3_64}
	for _, n := range []int{10_000, 1_000_000} {
		present := benchKeys(1, n, 16)
		absent := benchKeys(2, n, 16)
		filters := map[HashKind]*SplitBlock{}
		for _, kind := range kinds {
			f, err := NewSplitBlock(Geometry{Bits: uint64(10 * n), Hashes: 8, Capacity: uint64(n)}, Hashing{Kind: kind})
			if err != nil {
				b.Fatal(err)
			}
			filters[kind] = f
		}
		size := fmt.Sprintf("n=1e%d", map[int]int{10_000: 4, 1_000_000: 6}[n])
		for _, kind := range kinds {
			b.Run(size+"/op=hash/hash="+kind.String(), func(b *testing.B) {
				var sink uint64
				i := 0
				for b.Loop() {
					if kind == XXH3 {
						sink += xxh3.Hash128Seed(present[i], 0).Lo
					} else {
						sink += xxh3.HashSeed(present[i], 0)
					}
					if i++; i == n {
						i = 0
					}
				}
				if sink == 1 {
					b.Log(sink)
				}
			})
		}
		for _, kind := range kinds {
			b.Run(size+"/op=add/hash="+kind.String(), func(b *testing.B) {
				b.ReportAllocs()
				f := filters[kind]
				f.Reset()
				i := 0
				for b.Loop() {
					f.Add(present[i])
					if i++; i == n {
						i = 0
						f.Reset()
					}
				}
			})
		}
		for _, kind := range kinds {
			f := filters[kind]
			f.Reset()
			for _, k := range present {
				f.Add(k)
			}
		}
		for _, q := range []struct {
			name    string
			keys    [][]byte
			present bool
		}{{"contains-absent", absent, false}, {"contains-present", present, true}} {
			for _, kind := range kinds {
				b.Run(size+"/op="+q.name+"/hash="+kind.String(), func(b *testing.B) {
					b.ReportAllocs()
					f := filters[kind]
					hits, queries, i := 0, 0, 0
					for b.Loop() {
						if f.Contains(q.keys[i]) {
							hits++
						}
						queries++
						if i++; i == n {
							i = 0
						}
					}
					if !q.present {
						b.ReportMetric(float64(hits)/float64(queries), "fpr")
					} else if hits != queries {
						b.Fatalf("false negatives: %d of %d present keys missed", queries-hits, queries)
					}
				})
			}
		}
		const group = 32
		for _, kind := range kinds {
			b.Run(size+"/op=containsbatch-absent/hash="+kind.String(), func(b *testing.B) {
				b.ReportAllocs()
				f := filters[kind]
				out := make([]bool, group)
				queries, i := 0, 0
				for b.Loop() {
					f.ContainsBatch(absent[i:i+group], out)
					queries += group
					if i += group; i+group > n {
						i = 0
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(queries), "ns/key")
			})
		}
	}
}
