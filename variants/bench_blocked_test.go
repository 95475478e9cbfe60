package variants

import (
	"fmt"
	"math/bits"
	"testing"
)

// BenchmarkBlocked measures the cache-blocked filters beside the standard
// one at p = 0.01 with 16-byte keys, at n = 1e4 (in cache), 1e6 and 3e7
// (far beyond the last-level cache): one key at a time, batched
// (ContainsBatch and AddBatch over groups of batchKeys keys), the XXH3
// hash alone, and the memory baseline random-lines: independent loads of
// random 64-byte lines over a table as large as the blocked filter, the
// fastest that memory serves one line per key at that size. Run a single
// size with -bench 'Blocked/n=3e7'.
func BenchmarkBlocked(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000, 30_000_000} {
		size := fmt.Sprintf("n=%.0e", float64(n))
		size = map[string]string{"n=1e+04": "n=1e4", "n=1e+06": "n=1e6", "n=3e+07": "n=3e7"}[size]
		b.Run(size, func(b *testing.B) { benchBlockedAt(b, n) })
	}
}

// batchKeys is the number of keys per call of the batched benchmarks.
const batchKeys = 256

func benchBlockedAt(b *testing.B, n int) {
	const p = 0.01
	present := benchKeys(1, n, 16)
	absent := benchKeys(2, n, 16)
	b.Run("op=xxh3-128", func(b *testing.B) { benchXXH3(b, present) })
	filters := []struct {
		name string
		make func() (Filter, error)
	}{
		{"standard", func() (Filter, error) { return NewStandardFor(uint64(n), p, Hashing{}) }},
		{"blocked", func() (Filter, error) { return NewBlockedFor(uint64(n), p, Hashing{}) }},
		{"split-block", func() (Filter, error) { return NewSplitBlockFor(uint64(n), p, Hashing{}) }},
	}
	var lineBytes uint64
	for _, v := range filters {
		f, err := v.make()
		if err != nil {
			b.Fatal(err)
		}
		if v.name == "blocked" {
			lineBytes = f.Stats().Bits / 8
		}
		b.Run("variant="+v.name+"/op=add", func(b *testing.B) { benchAdds(b, f, present) })
		f.Reset()
		for _, k := range present {
			f.Add(k)
		}
		bpk := float64(f.Stats().Bits) / float64(n)
		b.Run("variant="+v.name+"/op=contains-present", func(b *testing.B) { benchQueries(b, f, present, true, bpk) })
		b.Run("variant="+v.name+"/op=contains-absent", func(b *testing.B) { benchQueries(b, f, absent, false, bpk) })
		bf, ok := f.(Batcher)
		if !ok {
			continue
		}
		b.Run("variant="+v.name+"/op=addbatch", func(b *testing.B) { benchAddBatch(b, f, bf, present) })
		f.Reset()
		for _, k := range present {
			f.Add(k)
		}
		b.Run("variant="+v.name+"/op=containsbatch-present", func(b *testing.B) { benchContainsBatch(b, bf, present, true, bpk) })
		b.Run("variant="+v.name+"/op=containsbatch-absent", func(b *testing.B) { benchContainsBatch(b, bf, absent, false, bpk) })
	}
	b.Run("op=random-lines", func(b *testing.B) { benchRandomLines(b, lineBytes) })
}

// benchAddBatch times AddBatch; ns/op is per key.
func benchAddBatch(b *testing.B, f Filter, bf Batcher, keys [][]byte) {
	b.ReportAllocs()
	f.Reset()
	i := 0
	for b.Loop() {
		bf.AddBatch(keys[i : i+batchKeys])
		i += batchKeys
		if i+batchKeys > len(keys) {
			i = 0
			f.Reset()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/batchKeys, "ns/key")
}

// benchContainsBatch times ContainsBatch; it reports ns per key.
func benchContainsBatch(b *testing.B, bf Batcher, keys [][]byte, present bool, bitsPerKey float64) {
	b.ReportAllocs()
	out := make([]bool, batchKeys)
	hits, queries, i := 0, 0, 0
	for b.Loop() {
		bf.ContainsBatch(keys[i:i+batchKeys], out)
		for _, x := range out {
			if x {
				hits++
			}
		}
		queries += batchKeys
		i += batchKeys
		if i+batchKeys > len(keys) {
			i = 0
		}
	}
	if !present {
		b.ReportMetric(float64(hits)/float64(queries), "fpr")
	} else if hits != queries {
		b.Fatalf("false negatives: %d of %d present keys missed", queries-hits, queries)
	}
	b.ReportMetric(bitsPerKey, "bits/key")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(queries), "ns/key")
}

// benchRandomLines loads one word of a random 64-byte line per op from a
// table of size bytes, the lines chosen by a linear congruential generator
// and multiply-shift, so that no load depends on another: the processor
// keeps as many in flight as it can, which is the bound a filter with one
// memory access per key approaches.
func benchRandomLines(b *testing.B, size uint64) {
	lines := max(size/64, 1)
	table := make([]uint64, lines*8)
	for i := range table {
		table[i] = uint64(i)
	}
	b.ReportAllocs()
	var sum uint64
	x := uint64(1)
	for b.Loop() {
		x = x*6364136223846793005 + 1442695040888963407
		hi, _ := bits.Mul64(x, lines)
		sum += table[hi*8]
	}
	if sum == 1 {
		b.Log(sum)
	}
}

// BenchmarkBlockedProbes times ContainsDigest of a blocked filter on
// precomputed digests of absent keys, in cache (10,000 keys at 10 bits per
// key), for k from 1 to 16 at B = 256 and 512: the in-block test alone.
// With the AVX2 probe a value of h2 gives eight positions at B = 256 and
// seven at B = 512 in one vector pass, so the cost steps at k = 9 and 8
// rather than growing with every probe (Dillinger's claim for RocksDB's
// FastLocalBloom: any number of probes up to 8 at the same speed).
func BenchmarkBlockedProbes(b *testing.B) {
	const n = 10_000
	keys := benchKeys(1, n, 16)
	absent := benchKeys(2, n, 16)
	for _, bb := range []int{256, 512} {
		for _, k := range []int{1, 2, 4, 6, 7, 8, 9, 12, 14, 16} {
			f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: 10 * n, Hashes: k}, BlockBits: bb})
			if err != nil {
				b.Fatal(err)
			}
			for _, key := range keys {
				f.Add(key)
			}
			ds := make([]Digest, n)
			for i, key := range absent {
				ds[i] = f.Hashing().Digest(key)
			}
			b.Run(fmt.Sprintf("B=%d/k=%d", bb, k), func(b *testing.B) {
				hits, i := 0, 0
				for b.Loop() {
					if f.ContainsDigest(ds[i]) {
						hits++
					}
					if i++; i == n {
						i = 0
					}
				}
				b.ReportMetric(float64(hits)/float64(b.N), "fpr")
			})
		}
	}
}
