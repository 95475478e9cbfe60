package variants

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestBlockedBatchLoops: the blocked filter's batch loops (blockedAdd and
// blockedContains), assembly and pure Go, with and without their prefetch,
// set the same bits as Blocked.AddDigest one key at a time with the pure-Go
// probes and give the same answers as ContainsDigest, for every k from 1
// to MaxHashes (every 7th above 64 with -short and for the block sizes
// without assembly), odd numbers of blocks,
// batches shorter and longer than the prefetch distance, digests packed
// and with a stride of 24 bytes, and the block sizes the assembly serves
// (256, 512) and two it leaves to Go (64, 1024). Half the queries are
// digests added, half random, and both answers must occur for every
// block size.
func TestBlockedBatchLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 3))
	short := testing.Short()
	type padded struct {
		d   Digest
		pad uint64
	}
	for _, bb := range []int{64, 256, 512, 1024} {
		trues, falses := 0, 0
		step := 1
		if short || (bb != 256 && bb != 512) {
			step = 7
		}
		for k := 1; k <= MaxHashes; k += map[bool]int{true: 1, false: step}[k <= 64] {
			blocks := uint64(1 + 2*rng.IntN(20)) // odd
			f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: blocks * uint64(bb), Hashes: k}, BlockBits: bb})
			if err != nil {
				t.Fatal(err)
			}
			n := 1 + rng.IntN(60)
			if k > 64 {
				// The loop form of k = 9 to 64 with longer batches has
				// tested the prefetch; a key costs k/7 steps here.
				n = 1 + rng.IntN(6)
			}
			add := make([]Digest, n)
			for i := range add {
				add[i] = Digest{H1: rng.Uint64(), H2: rng.Uint64()}
			}
			queries := make([]Digest, 2*n)
			for i := range queries {
				if i%2 == 0 {
					queries[i] = add[rng.IntN(n)]
				} else {
					queries[i] = Digest{H1: rng.Uint64(), H2: rng.Uint64()}
				}
			}
			// The reference: one key at a time, pure Go.
			var want []bool
			var wantWords []uint64
			withVector(false, func() {
				ref := f.clone()
				for _, d := range add {
					ref.AddDigest(d)
				}
				wantWords = slices.Clone(ref.words)
				for _, d := range queries {
					want = append(want, ref.ContainsDigest(d))
				}
			})
			paddedAdd := make([]padded, n)
			for i, d := range add {
				paddedAdd[i].d = d
			}
			paddedQ := make([]padded, len(queries))
			for i, d := range queries {
				paddedQ[i].d = d
			}
			for _, vector := range []bool{false, true} {
				for _, prefetch := range []bool{false, true} {
					for _, stride := range []uintptr{16, 24} {
						name := fmt.Sprintf("B = %d, k = %d, %d blocks, %d keys, vector %v, prefetch %v, stride %d", bb, k, blocks, n, vector, prefetch, stride)
						g := f.clone()
						words, z, _ := g.batchArgs()
						da, dq := unsafe.Pointer(&add[0]), unsafe.Pointer(&queries[0])
						if stride == 24 {
							da, dq = unsafe.Pointer(&paddedAdd[0]), unsafe.Pointer(&paddedQ[0])
						}
						got := make([]bool, len(queries)+1)
						got[len(queries)] = true // must stay
						withVector(vector, func() {
							blockedAdd(words, z, g.k, g.perWord, g.blockShift, da, stride, n, prefetch)
							blockedContains(words, z, g.k, g.perWord, g.blockShift, dq, stride, len(queries), &got[0], prefetch)
						})
						if !slices.Equal(g.words, wantWords) {
							t.Fatalf("%s: the batch add set other bits than AddDigest", name)
						}
						if !slices.Equal(got[:len(queries)], want) || !got[len(queries)] {
							t.Fatalf("%s: batch answers %v, one at a time %v", name, got, want)
						}
					}
				}
			}
			for _, w := range want {
				if w {
					trues++
				} else {
					falses++
				}
			}
		}
		if trues == 0 || falses == 0 {
			t.Errorf("B = %d: %d true and %d false answers, want both", bb, trues, falses)
		}
	}
}

// clone returns an independent copy of f, its table aligned as the
// constructors align it.
func (f *Blocked) clone() *Blocked {
	g := *f
	w, err := alignedWords(uint64(len(f.words)), noLimit)
	if err != nil {
		panic(err)
	}
	copy(w, f.words)
	g.words = w
	return &g
}

// TestBatchesMatchSingleLarge: the batches of the standard filter and of
// the scalable filter give the same filter (bits, item counts, stages) and
// the same answers as one key at a time, on filters large enough for the
// batches to read ahead (beyond prefetchBytes), with the vector probes on
// and off. The scalable filter's add batches cross a stage boundary
// inside a group, and hold repeated keys and keys already present, so
// that Add's semantics (skip keys that test present, grow in order) are
// checked where a batch could break them; small scalable filters (no read
// ahead, several stages) and partitioned stages are checked too.
func TestBatchesMatchSingleLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 4))
	const n = 450_000
	digests := func(n int) []Digest {
		ds := make([]Digest, n)
		for i := range ds {
			ds[i] = Digest{H1: rng.Uint64(), H2: rng.Uint64()}
		}
		return ds
	}
	keys := testKeys(34, 5, n)
	hashes := make([]Digest, n)
	for i, k := range keys {
		hashes[i] = Hashing{}.Digest(k)
	}
	// Repeats: every 97th key again a few keys later, within its group.
	for i := 97; i < n; i += 97 {
		keys[i], hashes[i] = keys[i-3], hashes[i-3]
	}
	queries := append(digests(20_000), hashes[:20_000]...)
	qkeys := append(testKeys(34, 6, 20_000), keys[:20_000]...)

	type batchFilter interface {
		Filter
		Batcher
	}
	makers := []struct {
		name string
		asm  bool // whether the batches take assembly paths
		mk   func() batchFilter
	}{
		{"standard", false, func() batchFilter {
			f, err := NewStandard(Geometry{Bits: 8 * uint64(n), Hashes: 6}, Hashing{})
			mustNil(t, err)
			return f
		}},
		{"standard-independent", false, func() batchFilter {
			f, err := NewStandard(Geometry{Bits: 8 * uint64(n), Hashes: 6}, Hashing{Derivation: Independent})
			mustNil(t, err)
			return f
		}},
		{"scalable-blocked-512", true, func() batchFilter {
			f, err := NewScalable(ScalableParams{P: 1e-5, N0: n * 4 / 9, BlockBits: 512})
			mustNil(t, err)
			return f
		}},
		{"scalable-blocked-256", true, func() batchFilter {
			f, err := NewScalable(ScalableParams{P: 1e-5, N0: n * 4 / 9, BlockBits: 256})
			mustNil(t, err)
			return f
		}},
		{"scalable-blocked-1024", false, func() batchFilter {
			f, err := NewScalable(ScalableParams{P: 1e-5, N0: n * 4 / 9, BlockBits: 1024})
			mustNil(t, err)
			return f
		}},
		{"scalable-blocked-small", true, func() batchFilter {
			f, err := NewScalable(ScalableParams{P: 0.01, N0: 1000, BlockBits: 512})
			mustNil(t, err)
			return f
		}},
		{"scalable-partitioned", false, func() batchFilter {
			f, err := NewScalable(ScalableParams{P: 0.01, N0: 1000})
			mustNil(t, err)
			return f
		}},
	}
	equal := func(a, b Filter) bool {
		switch a := a.(type) {
		case *Standard:
			return a.Equal(b.(*Standard)) && a.Stats().Items == b.Stats().Items
		case *Scalable:
			return a.Equal(b.(*Scalable)) && a.Stages() == b.(*Scalable).Stages() && a.Stats().Items == b.Stats().Items
		}
		panic("type")
	}
	for _, m := range makers {
		for _, vector := range []bool{true, false} {
			if !vector && !m.asm {
				continue
			}
			withVector(vector, func() {
				name := fmt.Sprintf("%s, vector %v", m.name, vector)
				one, batch, byDigest := m.mk(), m.mk(), m.mk()
				large := strings.HasPrefix(m.name, "scalable-blocked-") && m.name != "scalable-blocked-small"
				if s, ok := one.(*Scalable); ok && large {
					// The first stage reads ahead, so that the growth
					// to the second happens inside a group that does.
					if s.batchGroupOf() == 0 {
						t.Fatalf("%s: the first stage does not read ahead", name)
					}
				}
				for _, k := range keys {
					one.Add(k)
				}
				for lo := 0; lo < n; {
					hi := min(n, lo+1+rng.IntN(100))
					batch.AddBatch(keys[lo:hi])
					byDigest.AddDigestBatch(hashes[lo:hi])
					lo = hi
				}
				if !equal(one, batch) || !equal(one, byDigest) {
					t.Fatalf("%s: the add batches built another filter than one key at a time (items %d, %d, %d)", name, one.Stats().Items, batch.Stats().Items, byDigest.Stats().Items)
				}
				if s, ok := one.(*Scalable); ok && large {
					if s.Stages() < 2 {
						t.Fatalf("%s: %d stage: the test misses the growth it is for", name, s.Stages())
					}
				}
				out, outKeys := make([]bool, len(queries)), make([]bool, len(qkeys))
				batch.ContainsDigestBatch(queries, out)
				batch.ContainsBatch(qkeys, outKeys)
				trues := 0
				for i := range queries {
					if want := one.ContainsDigest(queries[i]); out[i] != want {
						t.Fatalf("%s: digest query %d: batch %v, one at a time %v", name, i, out[i], want)
					}
					if want := one.Contains(qkeys[i]); outKeys[i] != want {
						t.Fatalf("%s: key query %d: batch %v, one at a time %v", name, i, outKeys[i], want)
					}
					if out[i] {
						trues++
					}
				}
				if trues == 0 || trues == len(queries) {
					t.Errorf("%s: %d of %d queries true, want both answers", name, trues, len(queries))
				}
				allocs := testing.AllocsPerRun(5, func() {
					batch.ContainsBatch(qkeys[:100], outKeys)
					batch.ContainsDigestBatch(queries[:100], out)
				})
				if allocs != 0 {
					t.Errorf("%s: %v allocations per batch", name, allocs)
				}
			})
		}
	}
}

func mustNil(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
