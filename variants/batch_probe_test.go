package variants

import (
	"fmt"
	"math/rand/v2"
	"slices"
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
	w, err := alignedWords(uint64(len(f.words)))
	if err != nil {
		panic(err)
	}
	copy(w, f.words)
	g.words = w
	return &g
}
