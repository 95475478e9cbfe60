//go:build goexperiment.simd && amd64 && !purego

package variants

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// BenchmarkSplitBlockArchSIMD times the split-block filter's single-key
// methods with the three forms of the probe of this build in one binary:
// the inlined archsimd form, the assembly (an ABI0 call, arguments and
// result on the stack) and pure Go (the vector switch off, so that the
// assembly entry point jumps to the Go form, as in BenchmarkProbeAsmVsGo),
// at n = 1e4 and 1e6 keys and 10 bits per key. The
// operations are an absent query and an add, each with the hash given
// (ContainsDigest, AddDigest) and with the key hashed (Contains, Add, the
// default xxh3 hashing, 16-byte keys). The filter holds n keys; the
// queries are other keys.
//
// The three forms run in rotating rounds of probeRound calls, so that
// all see the same load on a shared machine; the benchmark reports the
// median time per call of each (simd-ns, asm-ns, go-ns) and the medians
// of the per-round ratios simd/asm and simd/go (see benchPaths). ns/op
// is one call of each form.
//
//	GOEXPERIMENT=simd go test -run '^$' -bench BenchmarkSplitBlockArchSIMD ./variants
func BenchmarkSplitBlockArchSIMD(b *testing.B) {
	skipWithoutArchSIMD(b)
	const nq = 1 << 16 // query and add keys, cycled through
	for _, n := range []int{1e4, 1e6} {
		f, err := NewSplitBlock(Geometry{Bits: uint64(10 * n), Hashes: 8, Capacity: uint64(n)}, Hashing{})
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 34))
		key := func() []byte {
			k := make([]byte, 16)
			for j := range k {
				k[j] = byte(rng.Uint32())
			}
			return k
		}
		for range n {
			f.Add(key())
		}
		h := f.Hashing()
		keys, ds := make([][]byte, nq), make([]Digest, nq)
		for i := range keys {
			keys[i] = key()
			ds[i] = h.Digest(keys[i])
		}
		// The adds go to a second filter of the same size, g, so that the
		// queries see a filter of n keys throughout; the add keys are the
		// query keys, and an add of bits already set costs as much.
		g, err := NewSplitBlock(f.Geometry(), Hashing{})
		if err != nil {
			b.Fatal(err)
		}
		ops := []struct {
			name string
			call func(i int)
		}{
			{"op=contains/hash=given", func(i int) { probeSink = f.ContainsDigest(ds[i%nq]) }},
			{"op=contains/hash=key", func(i int) { probeSink = f.Contains(keys[i%nq]) }},
			{"op=add/hash=given", func(i int) { g.AddDigest(ds[i%nq]) }},
			{"op=add/hash=key", func(i int) { g.Add(keys[i%nq]) }},
		}
		for _, op := range ops {
			b.Run(fmt.Sprintf("n=%.0e/%s", float64(n), op.name), func(b *testing.B) {
				benchPaths(b, op.call)
			})
		}
	}
}

// benchPaths times call with each single-key probe path in rotating
// rounds of probeRound calls. On a shared machine a round that the
// scheduler interrupts is far slower than the others, so it reports
// medians over the rounds rather than totals: the median time per call
// of each path (simd-ns, asm-ns, go-ns), and the medians of the per-round
// ratios of the archsimd path to the others, each round's three forms
// having run back to back (simd/asm, simd/go).
func benchPaths(b *testing.B, call func(i int)) {
	paths := []probePath{pathArchSIMD, pathAsm, pathGo}
	var per [3][]float64 // ns per call, per round
	b.ResetTimer()
	for done, round := 0, 0; done < b.N; round++ {
		n := min(probeRound, b.N-done)
		for j := range paths {
			p := paths[(round+j)%len(paths)]
			withPath(p, func() {
				t0 := time.Now()
				for i := done; i < done+n; i++ {
					call(i)
				}
				per[p] = append(per[p], float64(time.Since(t0).Nanoseconds())/float64(n))
			})
		}
		done += n
	}
	b.StopTimer()
	ratio := func(p probePath) []float64 {
		r := make([]float64, len(per[p]))
		for i := range r {
			r[i] = per[pathArchSIMD][i] / per[p][i]
		}
		return r
	}
	b.ReportMetric(median(per[pathArchSIMD]), "simd-ns")
	b.ReportMetric(median(per[pathAsm]), "asm-ns")
	b.ReportMetric(median(per[pathGo]), "go-ns")
	b.ReportMetric(median(ratio(pathAsm)), "simd/asm")
	b.ReportMetric(median(ratio(pathGo)), "simd/go")
}

// median returns the median of x, which it sorts.
func median(x []float64) float64 {
	slices.Sort(x)
	if n := len(x); n%2 == 1 {
		return x[n/2]
	}
	return (x[len(x)/2-1] + x[len(x)/2]) / 2
}

// BenchmarkBlockedArchSIMD times the blocked filter's absent query with
// the three forms of its block test (archsimd, assembly, pure Go), as
// BenchmarkSplitBlockArchSIMD does, for B = 256 and 512 at k = 7 (the
// one-pass form of both) and 10 bits per key. Its add has no vector form.
//
//	GOEXPERIMENT=simd go test -run '^$' -bench BenchmarkBlockedArchSIMD ./variants
func BenchmarkBlockedArchSIMD(b *testing.B) {
	skipWithoutArchSIMD(b)
	const nq = 1 << 16
	for _, n := range []int{1e4, 1e6} {
		for _, bb := range []int{256, 512} {
			f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: uint64(10 * n), Hashes: 7, Capacity: uint64(n)}, BlockBits: bb})
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(n), uint64(bb)))
			key := func() []byte {
				k := make([]byte, 16)
				for j := range k {
					k[j] = byte(rng.Uint32())
				}
				return k
			}
			for range n {
				f.Add(key())
			}
			h := f.Hashing()
			keys, ds := make([][]byte, nq), make([]Digest, nq)
			for i := range keys {
				keys[i] = key()
				ds[i] = h.Digest(keys[i])
			}
			b.Run(fmt.Sprintf("n=%.0e/B=%d/op=contains/hash=given", float64(n), bb), func(b *testing.B) {
				benchPaths(b, func(i int) { probeSink = f.ContainsDigest(ds[i%nq]) })
			})
			b.Run(fmt.Sprintf("n=%.0e/B=%d/op=contains/hash=key", float64(n), bb), func(b *testing.B) {
				benchPaths(b, func(i int) { probeSink = f.Contains(keys[i%nq]) })
			})
		}
	}
}
