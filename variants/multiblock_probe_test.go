package variants

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomMultiblockParams returns a random layout with a table of a few
// blocks to a few hundred: w from 8 to 512 bits, block or multiblock, K
// from 1 to the layout's maximum (at most 20), natural or a random whole
// byte stride, and the layouts with vector probes (multiblock w = 32 and
// 64, block w = 256 and 512) drawn more often.
func randomMultiblockParams(rng *rand.Rand) MultiblockParams {
	ws := []uint64{8, 16, 32, 32, 32, 64, 64, 64, 128, 256, 256, 512, 512}
	w := ws[rng.IntN(len(ws))]
	multi := rng.IntN(3) != 0
	if w >= 256 {
		multi = rng.IntN(4) == 0
	}
	maxK := min(int(w), 20)
	if multi {
		maxK = min(int(MaxMultiblockBlockBits/w), 20)
	}
	k := 1 + rng.IntN(maxK)
	l := w
	if multi {
		l = uint64(k) * w
	}
	var stride uint64
	if rng.IntN(2) == 0 {
		stride = 8 * (1 + rng.Uint64N(l/8))
	}
	bits := l + rng.Uint64N(300*l)
	return MultiblockParams{Geometry: Geometry{Bits: bits, Hashes: k}, WordBits: w, Multi: multi, StrideBits: stride, Hashing: Hashing{Seed: rng.Uint64()}}
}

// TestMultiblockVectorProbes: with the vector probes on and off, random
// layouts (every one with a vector probe among them: multiblock w = 32,
// K = 1 to 16 and w = 64, K = 1 to 8, block w = 256 and 512, natural and
// byte strides) filled with random digests build the same table and give
// the same answers to Contains, ContainsDigest and TestAndAddDigest, for
// present and absent digests. The filters hold enough keys that absent
// queries get both answers, which the test checks, and every vector
// layout is drawn.
func TestMultiblockVectorProbes(t *testing.T) {
	if ok, why := vectorPath(); !ok {
		t.Skipf("nothing to compare: %s; the pure-Go probes are tested by every other test", why)
	}
	rng := rand.New(rand.NewPCG(38, 1))
	rounds := 400
	if testing.Short() {
		rounds = 150
	}
	var params []MultiblockParams
	// Every vector layout at the natural stride and at a byte stride.
	for k := 1; k <= 16; k++ {
		for _, s := range []uint64{0, 8, 24} {
			params = append(params, MultiblockParams{Geometry: Geometry{Bits: 5000, Hashes: k}, WordBits: 32, Multi: true, StrideBits: s})
			if k <= 8 {
				params = append(params, MultiblockParams{Geometry: Geometry{Bits: 7000, Hashes: k}, WordBits: 64, Multi: true, StrideBits: s})
			}
		}
	}
	for _, w := range []uint64{256, 512} {
		for _, k := range []int{1, 7, 8, 9, 16} {
			params = append(params, MultiblockParams{Geometry: Geometry{Bits: 20 * w, Hashes: k}, WordBits: w}, MultiblockParams{Geometry: Geometry{Bits: 20 * w, Hashes: k}, WordBits: w, StrideBits: 40})
		}
	}
	for range rounds {
		params = append(params, randomMultiblockParams(rng))
	}
	drawn := map[uint8]int{}
	for i, p := range params {
		name := fmt.Sprintf("%d: w=%d multi=%v k=%d stride=%d bits=%d", i, p.WordBits, p.Multi, p.Hashes, p.StrideBits, p.Bits)
		f0, err := NewMultiblock(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		drawn[f0.vec]++
		// Enough keys to set about half the bits, and as many absent queries.
		n := int(f0.m/uint64(2*p.Hashes)) + 1
		ds := make([]Digest, 2*n)
		for j := range ds {
			ds[j] = Digest{rng.Uint64(), rng.Uint64()}
		}
		run := func(on bool) (words []uint64, answers []bool) {
			withVector(on, func() {
				f, err := NewMultiblock(p)
				if err != nil {
					t.Fatal(err)
				}
				for j, d := range ds[:n] {
					if j%2 == 0 {
						f.AddDigest(d)
					} else {
						answers = append(answers, f.TestAndAddDigest(d))
					}
				}
				for _, d := range ds {
					answers = append(answers, f.ContainsDigest(d))
				}
				words = slices.Clone(f.words)
			})
			return words, answers
		}
		goWords, goAnswers := run(false)
		vecWords, vecAnswers := run(true)
		if !slices.Equal(goWords, vecWords) {
			for j := range goWords {
				if goWords[j] != vecWords[j] {
					t.Fatalf("%s: word %d is %#x with the vector probes, %#x without", name, j, vecWords[j], goWords[j])
				}
			}
		}
		trues := 0
		for j := range goAnswers {
			if goAnswers[j] != vecAnswers[j] {
				t.Fatalf("%s: answer %d is %v with the vector probes, %v without", name, j, vecAnswers[j], goAnswers[j])
			}
			if goAnswers[j] {
				trues++
			}
		}
		if present := n; trues < present || (trues == len(goAnswers) && f0.m > 64) {
			t.Errorf("%s: %d of %d answers true, want at least the %d present and not all", name, trues, len(goAnswers), present)
		}
	}
	for _, v := range []uint8{multiVec32, multiVec64, multiVecBlocked256, multiVecBlocked512} {
		if drawn[v] == 0 {
			t.Errorf("no layout with vector probe %d drawn", v)
		}
	}
}

// TestMultiblockVectorKeys: the key forms (Add, Contains, TestAndAdd)
// with the vector probes on and off give the same table and answers, for
// the default hash (whose path calls xxh3 directly) and another.
func TestMultiblockVectorKeys(t *testing.T) {
	if ok, why := vectorPath(); !ok {
		t.Skipf("nothing to compare: %s", why)
	}
	rng := rand.New(rand.NewPCG(38, 2))
	keys := make([][]byte, 3000)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "key-%d-%d", i, rng.Uint32())
	}
	for _, h := range []Hashing{{}, {Kind: Metro, Seed: 3}} {
		for _, p := range []MultiblockParams{
			{Geometry: Geometry{Bits: 12000, Hashes: 8}, WordBits: 32, Multi: true},
			{Geometry: Geometry{Bits: 12000, Hashes: 5}, WordBits: 32, Multi: true, StrideBits: 8},
			{Geometry: Geometry{Bits: 12000, Hashes: 4}, WordBits: 64, Multi: true},
			{Geometry: Geometry{Bits: 12000, Hashes: 7}, WordBits: 64, Multi: true, StrideBits: 8},
			{Geometry: Geometry{Bits: 12000, Hashes: 6}, WordBits: 512},
		} {
			p.Hashing = h
			run := func(on bool) (words []uint64, answers []bool) {
				withVector(on, func() {
					f, err := NewMultiblock(p)
					if err != nil {
						t.Fatal(err)
					}
					for i, k := range keys[:1000] {
						if i%2 == 0 {
							f.Add(k)
						} else {
							answers = append(answers, f.TestAndAdd(k))
						}
					}
					for _, k := range keys {
						answers = append(answers, f.Contains(k))
					}
					words = slices.Clone(f.words)
				})
				return words, answers
			}
			goWords, goAnswers := run(false)
			vecWords, vecAnswers := run(true)
			if !slices.Equal(goWords, vecWords) || !slices.Equal(goAnswers, vecAnswers) {
				t.Errorf("w=%d multi=%v k=%d stride=%d hashing %v: the vector probes give another table or other answers", p.WordBits, p.Multi, p.Hashes, p.StrideBits, h.Kind)
			}
		}
	}
}
