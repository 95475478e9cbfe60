package variants

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// probeFilter is a filter with batches whose words the tests compare.
type probeFilter interface {
	Filter
	Batcher
}

// probeOps runs every operation that reaches the block probes on a fresh
// filter from mk, with or without the vector probes: Add, AddDigest (and
// AddHash64 on a split-block filter), TestAndAdd, AddBatch and
// AddDigestBatch for a quarter of the keys each, then Contains,
// ContainsDigest, ContainsBatch and ContainsDigestBatch for every query. It
// returns the filter's words and the answers, one slice per query form.
func probeOps(mk func() probeFilter, vector bool, keys, queries [][]byte) (words []uint64, answers [][]bool) {
	withVector(vector, func() {
		f := mk()
		h := f.Hashing()
		q := len(keys) / 4
		for _, k := range keys[:q/2] {
			f.Add(k)
		}
		for _, k := range keys[q/2 : q] {
			if s, ok := f.(*SplitBlock); ok {
				s.AddHash64(h.Digest(k).H1)
			} else {
				f.AddDigest(h.Digest(k))
			}
		}
		tested := make([]bool, 0, q)
		for _, k := range keys[q : 2*q] {
			tested = append(tested, f.TestAndAdd(k))
		}
		f.AddBatch(keys[2*q : 3*q])
		ds := make([]Digest, len(keys)-3*q)
		for i, k := range keys[3*q:] {
			ds[i] = h.Digest(k)
		}
		f.AddDigestBatch(ds)

		one, byHash := make([]bool, len(queries)), make([]bool, len(queries))
		batch, hashBatch := make([]bool, len(queries)), make([]bool, len(queries))
		qd := make([]Digest, len(queries))
		for i, k := range queries {
			qd[i] = h.Digest(k)
			one[i] = f.Contains(k)
			byHash[i] = f.ContainsDigest(qd[i])
		}
		f.ContainsBatch(queries, batch)
		f.ContainsDigestBatch(qd, hashBatch)
		answers = [][]bool{tested, one, byHash, batch, hashBatch}
		switch f := f.(type) {
		case *SplitBlock:
			words = slices.Clone(f.words)
		case *Blocked:
			words = slices.Clone(f.words)
		}
	})
	return words, answers
}

// TestProbePathsAgree: the assembly probes and the pure-Go ones build
// identical bitsets and give identical answers on random keys, for filters
// of one block to many, every block size the vector paths treat
// specially and others, and the hashes a split-block filter takes. The
// filters hold enough keys that absent queries get both answers, which
// the test checks so that it cannot pass on an all-false table.
func TestProbePathsAgree(t *testing.T) {
	if ok, why := vectorPath(); !ok {
		t.Skipf("nothing to compare: %s; the pure-Go probes are tested by every other test", why)
	}
	rng := rand.New(rand.NewPCG(20, 1))
	randomKeys := func(n int) [][]byte {
		out := make([][]byte, n)
		for i := range out {
			k := make([]byte, 1+rng.IntN(24))
			for j := range k {
				k[j] = byte(rng.Uint32())
			}
			out[i] = k
		}
		return out
	}
	type maker struct {
		name string
		mk   func() probeFilter
	}
	var makers []maker
	sizes, ks, nq := []uint64{1, 2, 3, 7, 64, 1001}, []int{1, 3, 5, 6, 7, 8, 12, 16, 23}, 2000
	if testing.Short() { // -short, and the race run
		sizes, ks, nq = []uint64{1, 3, 64}, []int{1, 7, 8, 23}, 1000
	}
	for _, blocks := range sizes {
		for _, h := range []Hashing{{}, {Kind: XXH64}, {Kind: XXH64, Seed: 5}, {Kind: Metro, Seed: 9}, {Kind: SipHash, Key: HashKey{1, 2, 3}}} {
			makers = append(makers, maker{"split-block", func() probeFilter {
				f, err := NewSplitBlock(Geometry{Bits: blocks * splitBlockBits, Hashes: 8}, h)
				if err != nil {
					t.Fatal(err)
				}
				return f
			}})
		}
		for _, b := range []int{64, 256, 512, 1024} {
			for _, k := range ks {
				makers = append(makers, maker{"blocked", func() probeFilter {
					f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: blocks * uint64(b), Hashes: k}, BlockBits: b, Hashing: Hashing{Seed: uint64(k)}})
					if err != nil {
						t.Fatal(err)
					}
					return f
				}})
			}
		}
	}
	for _, m := range makers {
		f := m.mk()
		bits := f.Stats().Bits
		// About 1.5 bits per key for the split-block filter and k/1.5
		// for the blocked one: a table a little under half full.
		n := int(bits / uint64(2*f.Stats().Hashes/3+1))
		keys, queries := randomKeys(max(n, 8)), randomKeys(nq)
		queries = append(queries, keys[:min(len(keys), 200)]...)
		wGo, aGo := probeOps(m.mk, false, keys, queries)
		wVec, aVec := probeOps(m.mk, true, keys, queries)
		name := m.name
		if !slices.Equal(wGo, wVec) {
			t.Fatalf("%s of %d bits, k = %d: the vector probes set other bits than the pure-Go ones", name, bits, f.Stats().Hashes)
		}
		trues, falses := 0, 0
		for form := range aGo {
			for i := range aGo[form] {
				if aGo[form][i] != aVec[form][i] {
					t.Fatalf("%s of %d bits, k = %d: answer form %d, query %d: pure Go %v, vector %v", name, bits, f.Stats().Hashes, form, i, aGo[form][i], aVec[form][i])
				}
				if aGo[form][i] {
					trues++
				} else {
					falses++
				}
			}
		}
		if bits >= 512 && (trues == 0 || falses == 0) {
			t.Errorf("%s of %d bits: %d true and %d false answers, want both", name, bits, trues, falses)
		}
	}
}

// TestBadBitsetsBothPaths: with the vector probes on and off, a bitset
// that is not whole blocks, and every truncation of an encoded split-block
// and blocked filter, give an error wrapping the package's sentinel and
// no filter, never a panic; a good bitset reads back and answers alike.
func TestBadBitsetsBothPaths(t *testing.T) {
	sb, err := NewSplitBlockFor(500, 0.01, Hashing{Kind: XXH64})
	if err != nil {
		t.Fatal(err)
	}
	bl, err := NewBlockedFor(500, 0.01, Hashing{})
	if err != nil {
		t.Fatal(err)
	}
	keys := testKeys(23, 1, 500)
	for _, k := range keys {
		sb.Add(k)
		bl.Add(k)
	}
	encSB, err := sb.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	encBL, err := bl.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	bitset := sb.AppendBitset(nil)
	for _, vector := range []bool{false, true} {
		withVector(vector, func() {
			for _, n := range []int{0, 1, 31, 33, len(bitset) - 1} {
				if f, err := NewSplitBlockFromBitset(bitset[:n]); f != nil || !errors.Is(err, ErrInvalidParams) {
					t.Errorf("vector %v: bitset of %d bytes: filter %v, error %v", vector, n, f != nil, err)
				}
			}
			for n := range len(encSB) {
				var f SplitBlock
				if err := f.UnmarshalBinary(encSB[:n]); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("vector %v: split-block encoding cut to %d bytes: %v", vector, n, err)
				}
			}
			for n := range len(encBL) {
				var f Blocked
				if err := f.UnmarshalBinary(encBL[:n]); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("vector %v: blocked encoding cut to %d bytes: %v", vector, n, err)
				}
			}
			r, err := NewSplitBlockFromBitset(bitset)
			if err != nil {
				t.Fatal(err)
			}
			var b Blocked
			if err := b.UnmarshalBinary(encBL); err != nil {
				t.Fatal(err)
			}
			for _, k := range keys {
				if !r.Contains(k) || !b.Contains(k) {
					t.Fatalf("vector %v: a key of the loaded filters tests absent", vector)
				}
			}
		})
	}
}

// TestScalableBlockedPathsAgree: a scalable filter with blocked stages of
// the stream derivation answers alike with its one-call assembly query
// (streamBlockedTest) and with the pure-Go stage loop, on filters of one
// stage to many, for the block sizes the assembly serves and one it does
// not; half the queries are keys added to some stage and half random
// digests, and both answers must occur, so that the test cannot pass on
// an all-false table.
func TestScalableBlockedPathsAgree(t *testing.T) {
	if ok, why := vectorPath(); !ok {
		t.Skipf("nothing to compare: %s; the pure-Go query is tested by every other test", why)
	}
	rng := rand.New(rand.NewPCG(21, 2))
	for _, b := range []int{256, 512, 1024} {
		for _, n := range []int{50, 3000} {
			for _, p := range []float64{0.1, 0.001} {
				f, err := NewScalable(ScalableParams{P: p, N0: 100, BlockBits: b})
				if err != nil {
					t.Fatal(err)
				}
				added := make([]Digest, n)
				for i := range added {
					added[i] = Digest{H1: rng.Uint64(), H2: rng.Uint64()}
					f.AddDigest(added[i])
				}
				trues, falses := 0, 0
				for i := range 20000 {
					d := Digest{H1: rng.Uint64(), H2: rng.Uint64()}
					if i%2 == 0 { // present, in any stage
						d = added[rng.IntN(n)]
					}
					var vec, pure bool
					withVector(true, func() { vec = f.ContainsDigest(d) })
					withVector(false, func() { pure = f.ContainsDigest(d) })
					if vec != pure {
						t.Fatalf("B = %d, P = %g, %d stages: digest %v: vector %v, pure Go %v", b, p, f.Stages(), d, vec, pure)
					}
					if b <= 512 { // the prefetch pass, which only large filters take
						hot := f.hot[:f.live]
						if got := streamBlockedTest(unsafe.Pointer(unsafe.SliceData(hot)), len(hot), streamSeed(d), true); got != pure {
							t.Fatalf("B = %d, P = %g, %d stages: digest %v: vector with prefetch %v, pure Go %v", b, p, f.Stages(), d, got, pure)
						}
					}
					if vec {
						trues++
					} else {
						falses++
					}
				}
				if trues == 0 || falses == 0 {
					t.Errorf("B = %d, P = %g, %d stages: %d true and %d false answers, want both", b, p, f.Stages(), trues, falses)
				}
			}
		}
	}
}
