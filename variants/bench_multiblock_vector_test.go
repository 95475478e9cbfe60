package variants

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// BenchmarkMultiblockVector times the vector probes of the multiblock
// layouts (multiblock_amd64.s) against their pure-Go form and against the
// split-block filter (the layout multiblock<uint32_t, 8> with Parquet's
// bits and its own AVX2 probe), all three in alternating rounds in one
// sub-benchmark, so that they see the same load on a shared machine. Two
// table sizes: 256 KiB, so that the layout's filter and the split-block
// filter, queried in turn, stay in a 1 MiB L2 together, with pools of
// 4096 digests and keys; and 256 MiB, far beyond the last-level cache,
// with pools of 1<<20 (the lines of a pool's keys, 64 MiB, do not fit in
// the cache either). Each filter is filled with random digests to 10 bits
// per key. It times ContainsDigest of absent and of present digests,
// AddDigest (of the present digests again, which changes no bit) and
// Contains of absent 16-byte keys (the xxh3 hash included).
//
// It reports asm-ns and go-ns, the layout's time per call with the
// assembly on and off, split-ns, the split-block filter's (assembly on),
// each the median over rounds of probeRound calls, and the ratios asm/go
// and asm/split; ns/op is one call of each of the three. Layouts: multi32
// and multi64 are multiblock layouts of k windows of 32 and 64 bits
// (stride8 a byte stride, else the natural one); block512 is a block
// layout of one 512-bit window (the blocked filter's probe). It skips
// where there is no assembly. Run one size with
// -bench 'MultiblockVector/table=256KiB'; a 256 MiB filter takes seconds
// to fill.
func BenchmarkMultiblockVector(b *testing.B) {
	if ok, why := vectorPath(); !ok {
		b.Skipf("no assembly to compare: %s", why)
	}
	for _, size := range []struct {
		name  string
		bytes uint64
		pool  int
	}{{"256KiB", 256 << 10, 1 << 12}, {"256MiB", 256 << 20, 1 << 20}} {
		b.Run("table="+size.name, func(b *testing.B) { benchMultiblockVectorAt(b, size.bytes*8, size.pool) })
	}
}

// vectorBench is a filled filter with its digests for the benchmarks.
type vectorBench struct {
	f               Filter
	present, absent []Digest
}

// fillVectorBench fills f with random digests to 10 bits per key and
// keeps pool of them (at most the keys it holds), and pool absent ones.
func fillVectorBench(f Filter, pool int) vectorBench {
	n := f.Stats().Bits / 10
	rng := rand.New(rand.NewPCG(38, 3))
	v := vectorBench{f: f, present: make([]Digest, min(n, uint64(pool))), absent: make([]Digest, pool)}
	for i := range n {
		d := Digest{rng.Uint64(), rng.Uint64()}
		if i < uint64(len(v.present)) {
			v.present[i] = d
		}
		f.AddDigest(d)
	}
	for i := range v.absent {
		v.absent[i] = Digest{rng.Uint64(), rng.Uint64()}
	}
	return v
}

func benchMultiblockVectorAt(b *testing.B, bits uint64, pool int) {
	mb := func(w uint64, multi bool, k int, stride uint64) func() (Filter, error) {
		return func() (Filter, error) {
			return NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: bits, Hashes: k}, WordBits: w, Multi: multi, StrideBits: stride})
		}
	}
	layouts := []struct {
		name string
		make func() (Filter, error)
	}{
		{"multi32-k8", mb(32, true, 8, 0)},
		{"multi32-k8-stride8", mb(32, true, 8, 8)},
		{"multi32-k5", mb(32, true, 5, 0)},
		{"multi32-k16", mb(32, true, 16, 0)},
		{"multi64-k4", mb(64, true, 4, 0)},
		{"multi64-k8", mb(64, true, 8, 0)},
		{"block512-k8", mb(512, false, 8, 0)},
	}
	sf, err := NewSplitBlock(Geometry{Bits: bits, Hashes: 8}, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	split := fillVectorBench(sf, pool)
	if len(split.present) < pool {
		b.Fatalf("a filter of %d bits holds fewer keys than a pool of %d", bits, pool)
	}
	keys := benchKeys(2, pool, 16)
	mask := pool - 1 // pool is a power of two, and each filter holds more keys
	ops := []struct {
		name string
		call func(v vectorBench) func(i int)
	}{
		{"contains-absent", func(v vectorBench) func(i int) {
			return func(i int) { probeSink = v.f.ContainsDigest(v.absent[i&mask]) }
		}},
		{"contains-present", func(v vectorBench) func(i int) {
			return func(i int) { probeSink = v.f.ContainsDigest(v.present[i&mask]) }
		}},
		{"add", func(v vectorBench) func(i int) {
			return func(i int) { v.f.AddDigest(v.present[i&mask]) }
		}},
		{"contains-key-absent", func(v vectorBench) func(i int) {
			return func(i int) { probeSink = v.f.Contains(keys[i&mask]) }
		}},
	}
	for _, l := range layouts {
		b.Run("layout="+l.name, func(b *testing.B) {
			f, err := l.make()
			if err != nil {
				b.Fatal(err)
			}
			v := fillVectorBench(f, pool)
			for _, op := range ops {
				b.Run("op="+op.name, func(b *testing.B) {
					ns := benchRounds(b, pool/4, []benchForm{{true, op.call(v)}, {false, op.call(v)}, {true, op.call(split)}})
					b.ReportMetric(ns[0], "asm-ns")
					b.ReportMetric(ns[1], "go-ns")
					b.ReportMetric(ns[2], "split-ns")
					b.ReportMetric(ns[0]/ns[1], "asm/go")
					b.ReportMetric(ns[0]/ns[2], "asm/split")
				})
			}
			v.f = nil
			runtime.GC()
		})
	}
}

// benchForm is one form of a call for benchRounds: the run-time switch
// of the assembly (SetAssembly) and the call, given its index.
type benchForm struct {
	asm  bool
	call func(i int)
}

// benchRounds runs each form b.N times, in rounds of probeRound calls
// that visit the forms in turn, the form that goes first rotating from
// round to round, and returns each form's median over the rounds of the
// time per call in ns: on a shared machine a round that another process
// preempts is an outlier, which the median ignores. Form j's calls get
// the indexes from j spacing on, so that the forms query different
// keys, and none finds in the cache the lines that another brought in.
func benchRounds(b *testing.B, spacing int, forms []benchForm) []float64 {
	saved := Assembly()
	defer SetAssembly(saved)
	per := make([][]float64, len(forms))
	b.ResetTimer()
	for done, round := 0, 0; done < b.N; round++ {
		n := min(probeRound, b.N-done)
		for j := range forms {
			idx := (j + round) % len(forms)
			fm := forms[idx]
			SetAssembly(fm.asm)
			t0 := time.Now()
			for i := done + idx*spacing; i < done+idx*spacing+n; i++ {
				fm.call(i)
			}
			per[idx] = append(per[idx], float64(time.Since(t0).Nanoseconds())/float64(n))
		}
		done += n
	}
	ns := make([]float64, len(forms))
	for j, r := range per {
		slices.Sort(r)
		ns[j] = r[len(r)/2]
	}
	return ns
}
