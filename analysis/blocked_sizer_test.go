package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// blockedSizeReference is BlockedSize as it was before BlockedSizer and
// loads.decide: every k searched with the whole mixture at every size
// tried, fresh inner rates per call. TestBlockedSizerReference checks
// that the faster sizing gives its answers.
func blockedSizeReference(n uint64, p float64, blockBits uint64) (uint64, int, error) {
	if err := checkBlockedSizing(n, p, blockBits); err != nil {
		return 0, 0, err
	}
	sd, err := StandardSize(n, p)
	if err != nil {
		return 0, 0, err
	}
	std := sd.Bits
	k0 := OptimalHashes(std, n)
	best := uint64(0)
	var bestK, worse int
	var bestRate float64
	for k := min(k0+3, MaxHashes); k >= 1; k-- {
		cache := newInnerRates(blockBits, k)
		rate := func(blocks uint64) float64 { return blockedFPR(loadTable(n, blocks), blockBits, k, cache) }
		blocks, ok := fewestBlocks(p, std/blockBits, MaxBits/blockBits, rate)
		if !ok {
			worse++
		} else if mb := blocks * blockBits; best == 0 || mb < best ||
			mb == best && rate(blocks) < bestRate {
			best, bestK, worse = mb, k, 0
			bestRate = rate(blocks)
		} else {
			worse++
		}
		if worse >= 3 && k < k0 {
			break
		}
	}
	if best == 0 {
		return 0, 0, invalid("too large")
	}
	return best, bestK, nil
}

// TestBlockedSizerReference compares BlockedSize, and one BlockedSizer
// per block size used for a run of sizes as a growing filter uses it,
// with blockedSizeReference on fixed cases (the stages of scalable
// filters among them) and seeded random ones. Any difference is a bug:
// the bounds only decide what the whole mixture would.
func TestBlockedSizerReference(t *testing.T) {
	t.Parallel()
	type tc struct {
		n uint64
		p float64
		B uint64
	}
	cases := []tc{{1_000_000, 0.01, 512}, {1000, 0.001, 512}, {10, 0.01, 4096}, {1, 0.5, 64}, {1000, 0.05, 64}, {100_000, 1e-5, 1024}}
	for _, g := range []Scalable{{P: 0.01, R: 0.9, S: 2, N0: 1000, BlockBits: 512}, {P: 0.001, R: 0.5, S: 4, N0: 1, BlockBits: 256}} {
		for i := 0; i < 10; i++ {
			cases = append(cases, tc{uint64(float64(g.N0) * math.Pow(g.S, float64(i))), g.P0() * math.Pow(g.R, float64(i)), g.BlockBits})
		}
	}
	rng := rand.New(rand.NewPCG(29, 3))
	blocks := []uint64{64, 128, 256, 512, 1024}
	for range 60 {
		n := uint64(1 + rng.IntN(200_000))
		p := math.Pow(10, -1-4*rng.Float64())
		cases = append(cases, tc{n, p, blocks[rng.IntN(len(blocks))]})
	}
	if testing.Short() {
		cases = cases[:len(cases)-50]
	}
	sizers := map[uint64]*BlockedSizer{}
	for _, c := range cases {
		wm, wk, werr := blockedSizeReference(c.n, c.p, c.B)
		bl, err := BlockedSize(c.n, c.p, c.B)
		m, k := bl.Bits, bl.Hashes
		if m != wm || k != wk || (err == nil) != (werr == nil) {
			t.Errorf("BlockedSize(%d, %g, %d) = %d, %d, %v; reference %d, %d, %v", c.n, c.p, c.B, m, k, err, wm, wk, werr)
		}
		z := sizers[c.B]
		if z == nil {
			z = NewBlockedSizer(c.B)
			sizers[c.B] = z
		}
		if m, k, err := z.Size(c.n, c.p); m != wm || k != wk || (err == nil) != (werr == nil) {
			t.Errorf("shared BlockedSizer(%d).Size(%d, %g) = %d, %d, %v; reference %d, %d, %v", c.B, c.n, c.p, m, k, err, wm, wk, werr)
		}
	}
}

// BenchmarkScalableStagesSizing sizes the first 4 and 10 stages of a
// scalable filter with blocked stages (P = 0.01, r = 0.9, s = 2,
// n0 = 1000, B = 512: 1.5e4 and 1e6 items) as a growing filter does, with
// one BlockedSizer (sizer=shared), and each stage from nothing as Stage
// does (sizer=none).
func BenchmarkScalableStagesSizing(b *testing.B) {
	g := Scalable{P: 0.01, R: 0.9, S: 2, N0: 1000, BlockBits: 512}
	for _, stages := range []int{4, 10} {
		b.Run(fmt.Sprintf("stages=%d/sizer=shared", stages), func(b *testing.B) {
			for b.Loop() {
				z := NewBlockedSizer(g.BlockBits)
				for i := range stages {
					if _, err := g.StageWith(i, z); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(fmt.Sprintf("stages=%d/sizer=none", stages), func(b *testing.B) {
			for b.Loop() {
				for i := range stages {
					if _, err := g.Stage(i); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// TestBlockedSizerFPR checks that a sizer's FPR and OptimalHashes, which
// keep their inner rates from call to call, equal BlockedFPR and
// BlockedOptimalHashes bit for bit, along curves of n in both directions,
// at several k and block sizes.
func TestBlockedSizerFPR(t *testing.T) {
	t.Parallel()
	for _, b := range []uint64{64, 512} {
		z := NewBlockedSizer(b)
		m := 1000 * b
		for _, k := range []int{1, 7, 20} {
			for _, n := range []uint64{0, 1, 3000, 12000, 50000, 9000, 100} {
				if got, want := z.FPR(m, n, k), BlockedFPR(m, n, k, b); got != want {
					t.Errorf("B = %d, k = %d, n = %d: sizer %v, BlockedFPR %v", b, k, n, got, want)
				}
			}
		}
		for _, n := range []uint64{0, 5000, 20000, 80000, 2000} {
			if got, want := z.OptimalHashes(m, n), BlockedOptimalHashes(m, n, b); got != want {
				t.Errorf("B = %d, n = %d: sizer's best k %d, BlockedOptimalHashes %d", b, n, got, want)
			}
		}
	}
	z := NewBlockedSizer(64) // 1000 bits are not whole 64-bit blocks
	if f := z.FPR(1000, 10, 3); !math.IsNaN(f) {
		t.Errorf("m = 1000, B = 64: FPR %v, want NaN", f)
	}
	if k := z.OptimalHashes(1000, 10); k != 0 {
		t.Errorf("m = 1000, B = 64: OptimalHashes %d, want 0", k)
	}
}
