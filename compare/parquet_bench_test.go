package compare

import (
	"fmt"
	"testing"

	"github.com/bloomlab/bloomlab/variants"
	"github.com/parquet-go/parquet-go/bloom"
)

// BenchmarkParquet times bloomlab's split-block filter beside parquet-go's
// (which has x86 assembly) on the same table size, sized by bloomlab for
// p = 0.01, at n = 1e4 (in cache), 1e6 and 3e7, with 16-byte keys and
// Parquet's hash (XXH64, seed 0) on both sides: bloomlab's Add and
// Contains hash with its own XXH64, parquet-go's Insert and Check are
// given its XXH64 of the key. hash=precomputed times the filters alone on
// hashes computed beforehand, and op=insertbulk parquet-go's InsertBulk
// beside bloomlab's AddDigestBatch.
func BenchmarkParquet(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000, 30_000_000} {
		b.Run(fmt.Sprintf("n=%.0e", float64(n)), func(b *testing.B) { benchParquetAt(b, n) })
	}
}

func benchParquetAt(b *testing.B, n int) {
	g, err := variants.SplitBlockGeometry(uint64(n), 0.01)
	if err != nil {
		b.Fatal(err)
	}
	m := g.Bits
	ours, err := variants.NewSplitBlock(g, variants.Hashing{Kind: variants.XXH64})
	if err != nil {
		b.Fatal(err)
	}
	theirs := bloom.MakeSplitBlockFilter(make([]byte, m/8))
	var xx bloom.XXH64
	present, absent := keys(1, n), keys(2, n)
	hp, ha := make([]uint64, n), make([]uint64, n)
	for i := range n {
		hp[i], ha[i] = xx.Sum64(present[i]), xx.Sum64(absent[i])
	}
	cycle := func(i int) int {
		if i++; i == n {
			return 0
		}
		return i
	}
	b.Run("lib=bloomlab-split-block/op=add", func(b *testing.B) {
		i := 0
		for b.Loop() {
			ours.Add(present[i])
			i = cycle(i)
		}
	})
	b.Run("lib=parquet-go/op=add", func(b *testing.B) {
		i := 0
		for b.Loop() {
			theirs.Insert(xx.Sum64(present[i]))
			i = cycle(i)
		}
	})
	for _, h := range hp {
		ours.AddHash64(h)
		theirs.Insert(h)
	}
	for _, q := range []struct {
		name   string
		keys   [][]byte
		hashes []uint64
	}{{"present", present, hp}, {"absent", absent, ha}} {
		b.Run("lib=bloomlab-split-block/op=contains-"+q.name, func(b *testing.B) {
			i, hits := 0, 0
			for b.Loop() {
				if ours.Contains(q.keys[i]) {
					hits++
				}
				i = cycle(i)
			}
		})
		b.Run("lib=parquet-go/op=contains-"+q.name, func(b *testing.B) {
			i, hits := 0, 0
			for b.Loop() {
				if theirs.Check(xx.Sum64(q.keys[i])) {
					hits++
				}
				i = cycle(i)
			}
		})
		b.Run("lib=bloomlab-split-block/hash=precomputed/op=contains-"+q.name, func(b *testing.B) {
			i, hits := 0, 0
			for b.Loop() {
				if ours.ContainsHash64(q.hashes[i]) {
					hits++
				}
				i = cycle(i)
			}
		})
		b.Run("lib=parquet-go/hash=precomputed/op=contains-"+q.name, func(b *testing.B) {
			i, hits := 0, 0
			for b.Loop() {
				if theirs.Check(q.hashes[i]) {
					hits++
				}
				i = cycle(i)
			}
		})
	}
	const batch = 256
	ds := make([]variants.Digest, n)
	for i, h := range hp {
		ds[i] = variants.Digest{H1: h}
	}
	b.Run("lib=bloomlab-split-block/hash=precomputed/op=addhashbatch", func(b *testing.B) {
		i := 0
		for b.Loop() {
			ours.AddDigestBatch(ds[i : i+batch])
			if i += batch; i+batch > n {
				i = 0
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/batch, "ns/key")
	})
	b.Run("lib=parquet-go/hash=precomputed/op=insertbulk", func(b *testing.B) {
		i := 0
		for b.Loop() {
			theirs.InsertBulk(hp[i : i+batch])
			if i += batch; i+batch > n {
				i = 0
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/batch, "ns/key")
	})
}
