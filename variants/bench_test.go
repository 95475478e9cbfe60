package variants

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/zeebo/xxh3"
)

// benchKeys returns n distinct keys of the given length: an 8-byte counter
// tagged with set (so sets are disjoint) padded with a fixed pattern.
func benchKeys(set byte, n, length int) [][]byte {
	keys := make([][]byte, n)
	buf := make([]byte, n*length)
	for i := range keys {
		k := buf[i*length : (i+1)*length : (i+1)*length]
		for j := range k {
			k[j] = byte(j*7 + 1)
		}
		binary.LittleEndian.PutUint64(k, uint64(i)*0x9e3779b97f4a7c15)
		k[length-1] = set
		keys[i] = k
	}
	return keys
}

type benchVariant struct {
	name string
	make func(n uint64, p float64) (Filter, error)
}

var benchVariants = []benchVariant{
	{"standard", func(n uint64, p float64) (Filter, error) { return NewStandardFor(n, p, Hashing{}) }},
	{"partitioned", func(n uint64, p float64) (Filter, error) { return NewPartitionedFor(n, p, Hashing{}) }},
	// The standard filter with the keyed hash (SipHash-2-4), beside the
	// default: what keying costs a whole operation.
	{"standard-siphash", func(n uint64, p float64) (Filter, error) {
		return NewStandardFor(n, p, Hashing{Kind: SipHash, Key: refKey})
	}},
}

// BenchmarkFilter measures Add, Contains of present keys and Contains of
// absent keys for filters sized for n = 1e6 at two rates and two key
// lengths, beside the cost of one XXH3 128-bit hash of the same keys and
// of one keyed hash (op=siphash-128, Hashing.Digest of the SipHash kind, as a
// keyed filter calls it; the target is at most twice op=xxh3-128). The
// op containshash-absent is ContainsDigest of the absent keys' precomputed
// digests: the filter's own share of a query, without the hash. The
// filter size does not depend on b.N: each op cycles through a fixed,
// precomputed key set.
func BenchmarkFilter(b *testing.B) {
	const n = 1_000_000
	for _, keyLen := range []int{16, 64} {
		present := benchKeys(1, n, keyLen)
		absent := benchKeys(2, n, keyLen)
		var h Hashing
		absentDigests := make([]Digest, n)
		for i, k := range absent {
			absentDigests[i] = h.Digest(k)
		}
		b.Run(fmt.Sprintf("op=xxh3-128/key=%d", keyLen), func(b *testing.B) {
			b.ReportAllocs()
			var sink uint64
			i := 0
			for b.Loop() {
				sink += xxh3.Hash128Seed(present[i], 0).Lo
				i++
				if i == n {
					i = 0
				}
			}
			_ = sink
		})
		keyed := Hashing{Kind: SipHash, Key: refKey}
		b.Run(fmt.Sprintf("op=siphash-128/key=%d", keyLen), func(b *testing.B) {
			b.ReportAllocs()
			var sink uint64
			i := 0
			for b.Loop() {
				sink += keyed.Digest(present[i]).H1
				i++
				if i == n {
					i = 0
				}
			}
			_ = sink
		})
		for _, p := range []float64{0.01, 0.001} {
			for _, v := range benchVariants {
				name := fmt.Sprintf("variant=%s/n=1e6/p=%g/key=%d", v.name, p, keyLen)
				f, err := v.make(n, p)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(name+"/op=add", func(b *testing.B) {
					b.ReportAllocs()
					f.Reset()
					i := 0
					for b.Loop() {
						f.Add(present[i])
						i++
						if i == n {
							i = 0
						}
					}
				})
				// Fill exactly to capacity for the queries.
				f.Reset()
				for _, k := range present {
					f.Add(k)
				}
				st := f.Stats()
				for _, op := range []struct {
					name string
					keys [][]byte
					want bool
				}{{"contains-present", present, true}, {"contains-absent", absent, false}} {
					b.Run(name+"/op="+op.name, func(b *testing.B) {
						b.ReportAllocs()
						hits := 0
						i, queries := 0, 0
						for b.Loop() {
							if f.Contains(op.keys[i]) {
								hits++
							}
							queries++
							i++
							if i == n {
								i = 0
							}
						}
						if !op.want {
							b.ReportMetric(float64(hits)/float64(queries), "fpr")
						} else if hits != queries {
							b.Fatalf("false negatives: %d of %d present keys missed", queries-hits, queries)
						}
						b.ReportMetric(float64(st.Bits)/float64(n), "bits/key")
					})
				}
				b.Run(name+"/op=containshash-absent", func(b *testing.B) {
					b.ReportAllocs()
					hits := 0
					i := 0
					for b.Loop() {
						if f.ContainsDigest(absentDigests[i]) {
							hits++
						}
						i++
						if i == n {
							i = 0
						}
					}
					_ = hits
				})
			}
		}
	}
}

// BenchmarkFilterInCache measures the standard filter of BenchmarkFilter's
// speed target (p = 0.01, 16-byte keys) sized for n = 1e4 instead of 1e6:
// 12 KB, which stays in the first two cache levels, against 1.2 MB, which
// does not. Beside BenchmarkFilter it separates the cost of the filter's
// instructions from that of its cache misses.
func BenchmarkFilterInCache(b *testing.B) {
	const n, p = 10_000, 0.01
	present := benchKeys(1, n, 16)
	absent := benchKeys(2, n, 16)
	b.Run("op=xxh3-128/key=16", func(b *testing.B) { benchXXH3(b, present) })
	f, err := NewStandardFor(n, p, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range present {
		f.Add(k)
	}
	bpk := float64(f.Stats().Bits) / n
	name := fmt.Sprintf("variant=standard/n=1e4/p=%g/key=16", p)
	b.Run(name+"/op=contains-present", func(b *testing.B) { benchQueries(b, f, present, true, bpk) })
	b.Run(name+"/op=contains-absent", func(b *testing.B) { benchQueries(b, f, absent, false, bpk) })
	b.Run(name+"/op=add", func(b *testing.B) { benchAdds(b, f, present) })
}

// benchQueries runs Contains over keys in a cycle, reporting the hit rate
// as fpr for absent keys and failing on a false negative for present ones.
func benchQueries(b *testing.B, f Filter, keys [][]byte, present bool, bitsPerKey float64) {
	b.ReportAllocs()
	hits, queries, i := 0, 0, 0
	for b.Loop() {
		if f.Contains(keys[i]) {
			hits++
		}
		queries++
		i++
		if i == len(keys) {
			i = 0
		}
	}
	if !present {
		b.ReportMetric(float64(hits)/float64(queries), "fpr")
	} else if hits != queries {
		b.Fatalf("false negatives: %d of %d present keys missed", queries-hits, queries)
	}
	b.ReportMetric(bitsPerKey, "bits/key")
}

// benchAdds runs Add over keys in a cycle, emptying the filter at the end
// of each cycle so that every Add inserts a fresh key into a filter that
// holds at most len(keys).
func benchAdds(b *testing.B, f Filter, keys [][]byte) {
	b.ReportAllocs()
	f.Reset()
	i := 0
	for b.Loop() {
		f.Add(keys[i])
		i++
		if i == len(keys) {
			i = 0
			f.Reset()
		}
	}
}

func benchXXH3(b *testing.B, keys [][]byte) {
	b.ReportAllocs()
	var sink uint64
	i := 0
	for b.Loop() {
		sink += xxh3.Hash128Seed(keys[i], 0).Lo
		i++
		if i == len(keys) {
			i = 0
		}
	}
	_ = sink
}
