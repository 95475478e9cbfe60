package compare

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/bits-and-blooms/bloom/v3"
	"github.com/bloomlab/bloomlab/variants"
	boom "github.com/tylertreat/BoomFilters"
	"github.com/zeebo/xxh3"
)

// keys returns n distinct 16-byte keys tagged with set.
func keys(set byte, n int) [][]byte {
	out := make([][]byte, n)
	buf := make([]byte, 16*n)
	for i := range out {
		k := buf[16*i : 16*i+16 : 16*i+16]
		binary.LittleEndian.PutUint64(k, uint64(i)*0x9e3779b97f4a7c15)
		binary.LittleEndian.PutUint64(k[8:], uint64(i))
		k[15] = set
		out[i] = k
	}
	return out
}

// filter is the common shape of the libraries' filters.
type filter struct {
	add      func([]byte)
	contains func([]byte) bool
	bits     uint64
}

var libraries = []struct {
	name string
	make func(n uint64, p float64) filter
}{
	{"bloomlab-standard", func(n uint64, p float64) filter {
		f, err := variants.NewStandardFor(n, p, variants.Hashing{})
		if err != nil {
			panic(err)
		}
		return filter{f.Add, f.Contains, f.Stats().Bits}
	}},
	{"bloomlab-partitioned", func(n uint64, p float64) filter {
		f, err := variants.NewPartitionedFor(n, p, variants.Hashing{})
		if err != nil {
			panic(err)
		}
		return filter{f.Add, f.Contains, f.Stats().Bits}
	}},
	{"bloomlab-blocked", func(n uint64, p float64) filter {
		f, err := variants.NewBlockedFor(n, p, 0, variants.Hashing{})
		if err != nil {
			panic(err)
		}
		return filter{f.Add, f.Contains, f.Stats().Bits}
	}},
	{"bloomlab-split-block", func(n uint64, p float64) filter {
		f, err := variants.NewSplitBlockFor(n, p, variants.Hashing{})
		if err != nil {
			panic(err)
		}
		return filter{f.Add, f.Contains, f.Stats().Bits}
	}},
	{"bits-and-blooms", func(n uint64, p float64) filter {
		f := bloom.NewWithEstimates(uint(n), p)
		return filter{func(k []byte) { f.Add(k) }, f.Test, uint64(f.Cap())}
	}},
	{"boomfilters", func(n uint64, p float64) filter {
		f := boom.NewBloomFilter(uint(n), p)
		return filter{func(k []byte) { f.Add(k) }, f.Test, uint64(f.Capacity())}
	}},
}

// BenchmarkLibraries times Add and Contains (present and absent keys) for
// every library at n = 1e6, p = 0.01 with 16-byte keys, beside one XXH3
// 128-bit hash of the same keys, and reports the measured false-positive
// rate and bits per key.
func BenchmarkLibraries(b *testing.B) {
	const n = 1_000_000
	present, absent := keys(1, n), keys(2, n)
	b.Run("lib=xxh3-128/op=hash", func(b *testing.B) {
		var s uint64
		i := 0
		for b.Loop() {
			s += xxh3.Hash128Seed(present[i], 0).Lo
			if i++; i == n {
				i = 0
			}
		}
		_ = s
	})
	for _, lib := range libraries {
		f := lib.make(n, 0.01)
		b.Run(fmt.Sprintf("lib=%s/op=add", lib.name), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				f.add(present[i])
				if i++; i == n {
					i = 0
				}
			}
		})
		f = lib.make(n, 0.01)
		for _, k := range present {
			f.add(k)
		}
		for _, op := range []struct {
			name string
			keys [][]byte
		}{{"contains-present", present}, {"contains-absent", absent}} {
			b.Run(fmt.Sprintf("lib=%s/op=%s", lib.name, op.name), func(b *testing.B) {
				b.ReportAllocs()
				i, hits, q := 0, 0, 0
				for b.Loop() {
					if f.contains(op.keys[i]) {
						hits++
					}
					q++
					if i++; i == n {
						i = 0
					}
				}
				if op.name == "contains-absent" {
					b.ReportMetric(float64(hits)/float64(q), "fpr")
				}
				b.ReportMetric(float64(f.bits)/n, "bits/key")
			})
		}
	}
}

// TestLibrariesAnswer checks every adapter above: no member tests absent,
// and the rate on absent keys at capacity is below twice the 1% asked for,
// so that a broken adapter cannot go unnoticed in the benchmarks.
func TestLibrariesAnswer(t *testing.T) {
	const n, q = 20_000, 100_000
	present, absent := keys(1, n), keys(2, q)
	for _, lib := range libraries {
		f := lib.make(n, 0.01)
		for _, k := range present {
			f.add(k)
		}
		for _, k := range present {
			if !f.contains(k) {
				t.Fatalf("%s: a member tests absent", lib.name)
			}
		}
		hits := 0
		for _, k := range absent {
			if f.contains(k) {
				hits++
			}
		}
		if r := float64(hits) / q; r > 0.02 {
			t.Errorf("%s: rate %.4f at capacity, asked for 0.01", lib.name, r)
		}
	}
}
