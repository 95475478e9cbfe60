//go:build goexperiment.simd && amd64 && !purego

package variants

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// The tests of the GOEXPERIMENT=simd build: the archsimd single-key
// probes against the assembly and the pure-Go forms. Run them with
//
//	GOEXPERIMENT=simd go test ./variants -run 'ArchSIMD|ProbePaths'

// probePath is one of the three forms of a single-key probe in this build.
type probePath int

const (
	pathGo       probePath = iota // pure Go: the vector probes off
	pathAsm                       // the assembly of probe_amd64.s
	pathArchSIMD                  // the inlined archsimd forms
)

func (p probePath) String() string { return [...]string{"pure Go", "assembly", "archsimd"}[p] }

// withPath runs fn with the single-key probes of path p (the batch
// entry points take the assembly for pathAsm and pathArchSIMD), then
// restores the processor's choice. Like withVector, it changes package
// variables: its callers must not run in parallel with other tests.
func withPath(p probePath, fn func()) {
	saved := useArchSIMD
	defer func() { useArchSIMD = saved }()
	useArchSIMD = saved && p == pathArchSIMD
	withVector(p != pathGo, fn)
}

// skipWithoutArchSIMD skips a test on a processor without AVX2.
func skipWithoutArchSIMD(t testing.TB) {
	if !useArchSIMD || !useAVX2 {
		t.Skip("the processor has no AVX2: the archsimd probes are not used")
	}
}

// TestArchSIMDSplitProbesAgree: the archsimd add and test of one hash
// set the same bits and give the same answers as the assembly and the
// pure-Go forms, called directly, on tables of 1 block to many, powers
// of two and odd counts, with random hashes; both answers occur.
func TestArchSIMDSplitProbesAgree(t *testing.T) {
	skipWithoutArchSIMD(t)
	rng := rand.New(rand.NewPCG(34, 4))
	for _, z := range []uint64{1, 2, 3, 5, 7, 13, 64, 255, 1001, 4099} {
		tables := [3][]uint64{}
		for p := range tables {
			w, err := alignedWords(4*z, 0)
			if err != nil {
				t.Fatal(err)
			}
			tables[p] = w
		}
		base := func(p probePath) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(tables[p])) }
		// About 1.5 bits per hash: each table a little under half full.
		n := int(z*256/12) + 1
		for range n {
			h := rng.Uint64()
			splitAddHashGo(base(pathGo), z, h)
			withVector(true, func() { splitAddHash(base(pathAsm), z, h) })
			splitAddWith(base(pathArchSIMD), z, h, nil)
		}
		if !slices.Equal(tables[pathGo], tables[pathArchSIMD]) || !slices.Equal(tables[pathAsm], tables[pathArchSIMD]) {
			t.Fatalf("z = %d blocks: the archsimd add sets other bits than the assembly or pure Go", z)
		}
		trues, falses := 0, 0
		for range 4000 {
			h := rng.Uint64()
			want := splitContainsHashGo(base(pathGo), z, h)
			var asm bool
			withVector(true, func() { asm = splitContainsHash(base(pathGo), z, h) })
			got := splitContainsWith(base(pathGo), z, h, nil)
			if got != want || asm != want {
				t.Fatalf("z = %d blocks, hash %#x: archsimd %v, assembly %v, pure Go %v", z, h, got, asm, want)
			}
			if got {
				trues++
			} else {
				falses++
			}
		}
		if trues == 0 || falses == 0 {
			t.Errorf("z = %d blocks: %d true and %d false answers, want both", z, trues, falses)
		}
	}
}

// TestArchSIMDBlockedProbesAgree: the archsimd test of a blocked filter's
// block gives the answers of the assembly and the pure-Go forms, called
// directly, for B = 256 and 512 and every k of the one-pass form (and k
// above it, which the assembly serves), on blocks filled to several
// levels; both answers occur for every k.
func TestArchSIMDBlockedProbesAgree(t *testing.T) {
	skipWithoutArchSIMD(t)
	rng := rand.New(rand.NewPCG(34, 6))
	for _, bb := range []int{256, 512} {
		s := uint(8)
		if bb == 512 {
			s = 9
		}
		per := 64 / int(s)
		block, err := alignedWords(uint64(bb/64), 0)
		if err != nil {
			t.Fatal(err)
		}
		b := unsafe.Pointer(unsafe.SliceData(block))
		for k := 1; k <= per+2; k++ {
			trues, falses := 0, 0
			for _, fill := range []float64{0.3, 0.6, 0.85, 0.95} {
				for i := range block {
					block[i] = 0
					for j := range 64 {
						if rng.Float64() < fill {
							block[i] |= 1 << j
						}
					}
				}
				for range 2000 {
					h2 := rng.Uint64()
					want := blockedTestGo(b, h2, k, per, s)
					var asm bool
					withVector(true, func() { asm = blockedTest(b, h2, k, per, s) })
					got := blockedTestOne(b, h2, k, per, s)
					if got != want || asm != want {
						t.Fatalf("B = %d, k = %d, h2 %#x: archsimd %v, assembly %v, pure Go %v", bb, k, h2, got, asm, want)
					}
					if got {
						trues++
					} else {
						falses++
					}
				}
			}
			if trues == 0 || falses == 0 {
				t.Errorf("B = %d, k = %d: %d true and %d false answers, want both", bb, k, trues, falses)
			}
		}
	}
}

// TestArchSIMDFilterPathsAgree: split-block and blocked filters of odd
// and even sizes (blocked: B = 256 and 512, k from 1 to above the
// one-pass form), and several hash kinds, driven through every operation
// that reaches the probes (probeOps: Add, AddDigest, AddHash64,
// TestAndAdd, the batches, Contains, ContainsDigest), build the same
// words and give the same answers with the archsimd, assembly and pure-Go
// single-key paths.
func TestArchSIMDFilterPathsAgree(t *testing.T) {
	skipWithoutArchSIMD(t)
	rng := rand.New(rand.NewPCG(34, 5))
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
		bits uint64
		mk   func() probeFilter
	}
	var makers []maker
	for _, blocks := range []uint64{1, 3, 7, 64, 129, 1001} {
		for _, h := range []Hashing{{}, {Kind: XXH64}, {Kind: Metro, Seed: 9}} {
			makers = append(makers, maker{fmt.Sprintf("split-block, %d blocks, hashing %v", blocks, h.Kind), blocks * splitBlockBits, func() probeFilter {
				f, err := NewSplitBlock(Geometry{Bits: blocks * splitBlockBits, Hashes: 8}, h)
				if err != nil {
					t.Fatal(err)
				}
				return f
			}})
		}
		for _, bb := range []uint64{256, 512} {
			for _, k := range []int{1, 3, 6, 7, 8, 9, 12} {
				makers = append(makers, maker{fmt.Sprintf("blocked B = %d, k = %d, %d blocks", bb, k, blocks), blocks * bb, func() probeFilter {
					f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: blocks * bb, Hashes: k}, BlockBits: int(bb), Hashing: Hashing{Seed: uint64(k)}})
					if err != nil {
						t.Fatal(err)
					}
					return f
				}})
			}
		}
	}
	for _, m := range makers {
		mk, name := m.mk, m.name
		n := int(m.bits/6) + 8
		keys, queries := randomKeys(n), randomKeys(1000)
		queries = append(queries, keys[:min(len(keys), 200)]...)
		var words [3][]uint64
		var answers [3][][]bool
		for _, p := range []probePath{pathGo, pathAsm, pathArchSIMD} {
			withPath(p, func() {
				// probeOps flips only the vector switch; with it on, the
				// archsimd switch set here decides the single-key form.
				words[p], answers[p] = probeOps(mk, p != pathGo, keys, queries)
			})
		}
		for _, p := range []probePath{pathGo, pathAsm} {
			if !slices.Equal(words[p], words[pathArchSIMD]) {
				t.Fatalf("%s: archsimd and %v build other bits", name, p)
			}
			for form := range answers[p] {
				if !slices.Equal(answers[p][form], answers[pathArchSIMD][form]) {
					t.Fatalf("%s: answer form %d differs between archsimd and %v", name, form, p)
				}
			}
		}
	}
}
