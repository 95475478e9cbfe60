package variants

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"
)

// BenchmarkProbeAsmVsGo times every assembly entry point of the block
// probes against its pure-Go form in the same binary, on tables in cache,
// for every code path the assembly has: the split-block filter's single
// hash and batch loops, the blocked filter's one-pass test (k <= 64/s) and
// loop (k > 64/s) at B = 256 and 512, the blocked filter's batch loops
// (blockedContains, blockedAdd; batchOf digests per call, with and without
// their prefetch) at the same B and k, and the scalable filter's one-call
// stage query with and without its prefetch pass and the batches' prefetch
// of every stage for a group of keys (streamBlockedPrefetch), and the
// multiblock filter's probes (multiTest, multiSet) through its
// ContainsDigest and AddDigest.
//
// Each sub-benchmark runs the two forms in alternating rounds of
// probeRound calls, flipping the run-time switch (SetAssembly) between rounds,
// so that both see the same load on a shared machine. It reports asm-ns
// and go-ns, the time per call of each form, and asm/go, their ratio: an
// assembly path is worth keeping only below 1. ns/op is one call of each
// form. It skips where there is no assembly (no AVX2, another
// architecture, the purego tag).
//
//	go test -run '^$' -bench BenchmarkProbeAsmVsGo -benchtime 100ms ./variants
func BenchmarkProbeAsmVsGo(b *testing.B) {
	if ok, why := vectorPath(); !ok {
		b.Skipf("no assembly to compare: %s", why)
	}
	rng := rand.New(rand.NewPCG(34, 1))
	const nHash = 4096 // hashes and digests per path, cycled through

	// The split-block filter: 10 bits per key, half the keys added.
	sb, err := NewSplitBlock(Geometry{Bits: 10 * nHash, Hashes: 8}, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	hs := make([]uint64, nHash)
	for i := range hs {
		hs[i] = rng.Uint64()
		if i%2 == 0 {
			sb.AddHash64(hs[i])
		}
	}
	words, z := sb.base(), sb.z()
	b.Run("path=splitAddHash", func(b *testing.B) {
		benchAsmVsGo(b, func(i int) { splitAddHash(words, z, hs[i%nHash]) })
	})
	b.Run("path=splitContainsHash", func(b *testing.B) {
		benchAsmVsGo(b, func(i int) { probeSink = splitContainsHash(words, z, hs[i%nHash]) })
	})
	// The batch loops take batchGroup hashes per call, as the batches do.
	out := make([]bool, batchGroup)
	groups := nHash / batchGroup
	at := func(i int) unsafe.Pointer { return unsafe.Pointer(&hs[(i%groups)*batchGroup]) }
	b.Run(fmt.Sprintf("path=splitAdd/n=%d", batchGroup), func(b *testing.B) {
		benchAsmVsGo(b, func(i int) { splitAdd(words, z, at(i), 8, batchGroup) })
	})
	b.Run(fmt.Sprintf("path=splitContains/n=%d", batchGroup), func(b *testing.B) {
		benchAsmVsGo(b, func(i int) { splitContains(words, z, at(i), 8, batchGroup, &out[0]) })
	})

	// The blocked filter: for each block size, the largest k of the
	// one-pass form (64/s), and k of two and three values in the loop.
	for _, bb := range []int{256, 512} {
		per := 64 / map[int]int{256: 8, 512: 9}[bb]
		for _, k := range []int{per, per + 1, 16} {
			f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: uint64(10 * nHash), Hashes: k}, BlockBits: bb})
			if err != nil {
				b.Fatal(err)
			}
			ds := make([]Digest, nHash)
			for i := range ds {
				ds[i] = Digest{H1: rng.Uint64(), H2: rng.Uint64()}
				if i%2 == 0 {
					f.AddDigest(ds[i])
				}
			}
			blocks := make([]unsafe.Pointer, nHash)
			for i, d := range ds {
				blocks[i] = f.block(d.H1)
			}
			form := "one"
			if k > per {
				form = "loop"
			}
			b.Run(fmt.Sprintf("path=blockedTest/B=%d/k=%d/form=%s", bb, k, form), func(b *testing.B) {
				benchAsmVsGo(b, func(i int) {
					i %= nHash
					probeSink = blockedTest(blocks[i], ds[i].H2, f.k, f.perWord, f.blockShift)
				})
			})
			// The batch loops, batchOf digests per call, without and
			// with their prefetch (which a table in cache skips).
			words, z, _ := f.batchArgs()
			outs := make([]bool, batchOf)
			batches := nHash / batchOf
			for _, prefetch := range []bool{false, true} {
				b.Run(fmt.Sprintf("path=blockedContains/B=%d/k=%d/form=%s/n=%d/prefetch=%v", bb, k, form, batchOf, prefetch), func(b *testing.B) {
					benchAsmVsGo(b, func(i int) {
						d := unsafe.Pointer(&ds[(i%batches)*batchOf])
						blockedContains(words, z, f.k, f.perWord, f.blockShift, d, 16, batchOf, &outs[0], prefetch)
					})
				})
				b.Run(fmt.Sprintf("path=blockedAdd/B=%d/k=%d/form=%s/n=%d/prefetch=%v", bb, k, form, batchOf, prefetch), func(b *testing.B) {
					benchAsmVsGo(b, func(i int) {
						d := unsafe.Pointer(&ds[(i%batches)*batchOf])
						blockedAdd(words, z, f.k, f.perWord, f.blockShift, d, 16, batchOf, prefetch)
					})
				})
			}
		}
	}

	// The multiblock filter's probes, through ContainsDigest and AddDigest
	// (the entry points multiTest and multiSet, and the blocked test for a
	// block layout of 512 bits): 32-bit windows with a masked block (k =
	// 5), one vector (8) and two (16), 64-bit windows with one vector (4)
	// and two (8), at the natural stride, and 32-bit windows at a byte
	// stride.
	for _, p := range []MultiblockParams{
		{Geometry: Geometry{Hashes: 5}, WordBits: 32, Multi: true},
		{Geometry: Geometry{Hashes: 8}, WordBits: 32, Multi: true},
		{Geometry: Geometry{Hashes: 8}, WordBits: 32, Multi: true, StrideBits: 8},
		{Geometry: Geometry{Hashes: 16}, WordBits: 32, Multi: true},
		{Geometry: Geometry{Hashes: 4}, WordBits: 64, Multi: true},
		{Geometry: Geometry{Hashes: 8}, WordBits: 64, Multi: true},
		{Geometry: Geometry{Hashes: 8}, WordBits: 512},
	} {
		p.Bits = 10 * nHash
		f, err := NewMultiblock(p)
		if err != nil {
			b.Fatal(err)
		}
		ds := make([]Digest, nHash)
		for i := range ds {
			ds[i] = Digest{H1: rng.Uint64(), H2: rng.Uint64()}
			if i%2 == 0 {
				f.AddDigest(ds[i])
			}
		}
		layout := fmt.Sprintf("w=%d/multi=%v/k=%d/stride=%d", p.WordBits, p.Multi, p.Hashes, f.strideOrZero())
		b.Run("path=multiTest/"+layout, func(b *testing.B) {
			benchAsmVsGo(b, func(i int) { probeSink = f.ContainsDigest(ds[i%nHash]) })
		})
		if p.Multi {
			b.Run("path=multiSet/"+layout, func(b *testing.B) {
				benchAsmVsGo(b, func(i int) { f.AddDigest(ds[i%nHash]) })
			})
		}
	}

	// The scalable filter of blocked stages, at P = 0.01 and 0.001 (k of
	// the stages from about 7 to 14), with several stages; the assembly
	// query, with and without its prefetch pass, against the pure-Go stage
	// loop, which always reads every stage's block first.
	for _, bb := range []int{256, 512} {
		for _, p := range []float64{0.01, 0.001} {
			f, err := NewScalable(ScalableParams{P: p, N0: 100, BlockBits: bb})
			if err != nil {
				b.Fatal(err)
			}
			seeds := make([]uint64, nHash)
			for i := range seeds {
				d := Digest{H1: rng.Uint64(), H2: rng.Uint64()}
				if i%2 == 0 {
					f.AddDigest(d)
				}
				seeds[i] = streamSeed(d)
			}
			hot := f.hot[:f.live]
			ptr := unsafe.Pointer(unsafe.SliceData(hot))
			// The batches' prefetch of every stage for a group of keys.
			g := max(1, 64/len(hot))
			b.Run(fmt.Sprintf("path=streamBlockedPrefetch/B=%d/P=%g/stages=%d/keys=%d", bb, p, len(hot), g), func(b *testing.B) {
				benchAsmVsGo(b, func(i int) { streamBlockedPrefetch(ptr, len(hot), &seeds[(i*g)%(nHash-g)], g) })
			})
			for _, prefetch := range []bool{false, true} {
				name := fmt.Sprintf("path=streamBlockedTest/B=%d/P=%g/stages=%d/prefetch=%v", bb, p, len(hot), prefetch)
				b.Run(name, func(b *testing.B) {
					benchAsmVsGoFuncs(b,
						func(i int) { probeSink = streamBlockedTest(ptr, len(hot), seeds[i%nHash], prefetch) },
						func(i int) { probeSink = streamBlockedTestGo(hot, seeds[i%nHash]) })
				})
			}
		}
	}
}

// probeSink keeps the probes' answers live.
var probeSink bool

// probeRound is the number of calls of one form between two flips of the
// run-time switch.
const probeRound = 512

// benchAsmVsGo times call, an entry point that chooses its form by the
// run-time switch, with the assembly on and off (see benchAsmVsGoFuncs).
func benchAsmVsGo(b *testing.B, call func(i int)) {
	benchAsmVsGoFuncs(b, call, call)
}

// benchAsmVsGoFuncs times asm with the vector probes on and pure with
// them off, in alternating rounds of probeRound calls, the round that
// goes first alternating too; each call gets the index of the call in its
// form. It reports the time per call of each form and their ratio.
func benchAsmVsGoFuncs(b *testing.B, asm, pure func(i int)) {
	var tAsm, tGo time.Duration
	timed := func(on bool, fn func(int), from, n int) time.Duration {
		var d time.Duration
		withVector(on, func() {
			t0 := time.Now()
			for i := from; i < from+n; i++ {
				fn(i)
			}
			d = time.Since(t0)
		})
		return d
	}
	b.ResetTimer()
	for done, round := 0, 0; done < b.N; round++ {
		n := min(probeRound, b.N-done)
		if round%2 == 0 {
			tAsm += timed(true, asm, done, n)
			tGo += timed(false, pure, done, n)
		} else {
			tGo += timed(false, pure, done, n)
			tAsm += timed(true, asm, done, n)
		}
		done += n
	}
	b.ReportMetric(float64(tAsm.Nanoseconds())/float64(b.N), "asm-ns")
	b.ReportMetric(float64(tGo.Nanoseconds())/float64(b.N), "go-ns")
	if tGo > 0 {
		b.ReportMetric(float64(tAsm)/float64(tGo), "asm/go")
	}
}
