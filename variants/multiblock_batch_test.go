package variants

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// multiblockBatchLayouts are layouts of every probe path: the vector
// probes (32- and 64-bit windows, at the natural and a byte stride), the
// blocked test (512-bit block), the mask path and the per-bit path.
var multiblockBatchLayouts = []MultiblockParams{
	{WordBits: 32, Multi: true},
	{WordBits: 64, Multi: true, StrideBits: 8},
	{WordBits: 512},
	{WordBits: 64},
	{WordBits: 128, Multi: true, StrideBits: 64},
}

// TestMultiblockBatch: the batches give the answers and the table of the
// one-key calls, for batches of every length around the group size.
func TestMultiblockBatch(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 38))
	for _, lp := range multiblockBatchLayouts {
		k := 6
		if lp.Multi && lp.WordBits == 128 {
			k = 3
		}
		p := lp
		p.Geometry = Geometry{Bits: 1 << 15, Hashes: k}
		one, err1 := NewMultiblock(p)
		batch, err2 := NewMultiblock(p)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for _, n := range []int{0, 1, 15, 16, 17, 33, 500} {
			keys := make([][]byte, n)
			ds := make([]Digest, n)
			for i := range keys {
				keys[i] = fmt.Appendf(nil, "key %d %d", n, rng.Uint64())
				ds[i] = Digest{rng.Uint64(), rng.Uint64()}
			}
			for i := range keys {
				one.Add(keys[i])
				one.AddDigest(ds[i])
			}
			batch.AddBatch(keys)
			batch.AddDigestBatch(ds)
			if !slices.Equal(one.words, batch.words) || one.items != batch.items {
				t.Fatalf("%+v, %d keys: the batches' table differs from the one-key calls'", lp, n)
			}
			probe := make([][]byte, n)
			pds := make([]Digest, n)
			for i := range probe {
				probe[i] = keys[i]
				pds[i] = ds[i]
				if i%2 == 1 {
					probe[i] = fmt.Appendf(nil, "absent %d", rng.Uint64())
					pds[i] = Digest{rng.Uint64(), rng.Uint64()}
				}
			}
			out := make([]bool, n)
			batch.ContainsBatch(probe, out)
			for i := range probe {
				if out[i] != one.Contains(probe[i]) {
					t.Fatalf("%+v: ContainsBatch[%d] = %v, Contains says otherwise", lp, i, out[i])
				}
			}
			batch.ContainsDigestBatch(pds, out)
			for i := range pds {
				if out[i] != one.ContainsDigest(pds[i]) {
					t.Fatalf("%+v: ContainsDigestBatch[%d] = %v, ContainsDigest says otherwise", lp, i, out[i])
				}
			}
		}
	}
}

// BenchmarkMultiblockBatch times absent queries and adds of digests in
// batches of 32 against one ContainsDigest or AddDigest call per key, in
// a table in cache and one far beyond it, for the layout of Boost's
// fast_multiblock32<8> and for multiblock<uint64_t, 5> at a byte stride:
//
//	go test ./variants -run '^$' -bench MultiblockBatch -count 5
func BenchmarkMultiblockBatch(b *testing.B) {
	for _, size := range []struct {
		name  string
		bytes uint64
		pool  int
	}{{"256KiB", 256 << 10, 1 << 12}, {"256MiB", 256 << 20, 1 << 20}} {
		for _, lp := range []struct {
			name string
			p    MultiblockParams
		}{
			{"multi32-k8", MultiblockParams{WordBits: 32, Multi: true, Geometry: Geometry{Bits: size.bytes * 8, Hashes: 8}}},
			{"multi64-k5-stride8", MultiblockParams{WordBits: 64, Multi: true, StrideBits: 8, Geometry: Geometry{Bits: size.bytes * 8, Hashes: 5}}},
		} {
			f, err := NewMultiblock(lp.p)
			if err != nil {
				b.Fatal(err)
			}
			v := fillVectorBench(f, size.pool)
			out := make([]bool, 32)
			name := "table=" + size.name + "/layout=" + lp.name
			b.Run(name+"/op=absent-loop", func(b *testing.B) {
				j, hits := 0, 0
				for b.Loop() {
					if f.ContainsDigest(v.absent[j]) {
						hits++
					}
					j = (j + 1) % len(v.absent)
				}
				_ = hits
			})
			b.Run(name+"/op=absent-batch32", func(b *testing.B) {
				j := 0
				for b.Loop() {
					f.ContainsDigestBatch(v.absent[j:j+32], out)
					j = (j + 32) % len(v.absent)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*32), "ns/key")
			})
			b.Run(name+"/op=add-loop", func(b *testing.B) {
				j := 0
				for b.Loop() {
					f.AddDigest(v.absent[j])
					j = (j + 1) % len(v.absent)
				}
			})
			b.Run(name+"/op=add-batch32", func(b *testing.B) {
				j := 0
				for b.Loop() {
					f.AddDigestBatch(v.absent[j : j+32])
					j = (j + 32) % len(v.absent)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*32), "ns/key")
			})
		}
	}
}
