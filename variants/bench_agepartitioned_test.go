package variants

import (
	"fmt"
	"math"
	"testing"
)

// BenchmarkWindow times the age-partitioned filter in its plain and
// blocked layouts at k = 10, l = 7 (the example geometry of the paper's
// implementations) with g = 1e3 and 1e5 items per generation and slices of
// ceil(k g/ln 2) bits (rounded up to whole words for the blocked layout),
// with 16-byte keys hashed by Add and Contains: op=add inserts keys into a
// filter in the steady state (it keeps aging, so its size does not depend
// on b.N), op=contains-present queries keys among the last l g added (the
// window), op=contains-absent keys never added; each loop cycles through
// at most 2^16 keys. It reports lines/query,
// the mean distinct 64-byte lines an absent query reads (QueryLines over
// 10,000 keys, outside the timer), and fpr, the measured rate of the
// absent queries. compare/window_bench_test.go times decred's filter at
// the same k, l and g.
func BenchmarkWindow(b *testing.B) {
	const k, l = 10, 7
	for _, g := range []uint64{1_000, 100_000} {
		for _, blocked := range []bool{false, true} {
			name := "age-partitioned"
			if blocked {
				name += "-blocked"
			}
			b.Run(fmt.Sprintf("variant=%s/g=%.0e", name, float64(g)), func(b *testing.B) {
				benchWindow(b, k, l, g, blocked)
			})
		}
	}
}

func benchWindow(b *testing.B, k, l int, g uint64, blocked bool) {
	sb := uint64(math.Ceil(float64(k) * float64(g) / math.Ln2))
	if blocked {
		sb = (sb + 63) / 64 * 64
	}
	f, err := NewAgePartitioned(AgePartitionedParams{K: k, L: l, G: g, SliceBits: sb, AgePartitionedOptions: AgePartitionedOptions{Blocked: blocked}})
	if err != nil {
		b.Fatal(err)
	}
	fill := (k + l + 1) * int(g)
	keys := benchKeys(1, fill, 16)
	for _, key := range keys {
		f.Add(key)
	}
	// Up to 2^16 keys spread evenly over the last l g added, which are
	// within the window at every phase; 2^16 keys each for the other
	// loops, so that reading the keys stays in cache.
	var present [][]byte
	for i := fill - l*int(g); i < fill; i += max(1, l*int(g)>>16) {
		present = append(present, keys[i])
	}
	absent := benchKeys(2, 1<<16, 16)
	adds := benchKeys(3, 1<<16, 16)
	var lines int
	for _, key := range absent[:10_000] {
		lines += f.QueryLines(f.hashing.Digest(key))
	}
	b.Run("op=add", func(b *testing.B) {
		g := f.clone()
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			g.Add(adds[i&(len(adds)-1)])
			i++
		}
	})
	b.Run("op=contains-present", func(b *testing.B) {
		b.ReportAllocs()
		i, miss := 0, 0
		for b.Loop() {
			if !f.Contains(present[i%len(present)]) {
				miss++
			}
			i++
		}
		if miss != 0 {
			b.Fatalf("%d keys of the window tested absent", miss)
		}
	})
	b.Run("op=contains-absent", func(b *testing.B) {
		b.ReportAllocs()
		i, fp := 0, 0
		for b.Loop() {
			if f.Contains(absent[i&(len(absent)-1)]) {
				fp++
			}
			i++
		}
		b.ReportMetric(float64(fp)/float64(i), "fpr")
		b.ReportMetric(float64(lines)/10_000, "lines/query")
	})
}

// clone returns a copy of f with its own table.
func (f *AgePartitioned) clone() *AgePartitioned {
	g := *f
	g.words, _ = alignedWords(uint64(len(f.words)), 0)
	copy(g.words, f.words)
	g.gen = append([]uint64(nil), f.gen...)
	g.buildTab()
	return &g
}
