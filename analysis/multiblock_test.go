package analysis

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// simulateMultiblock fills filters of geometry b with n keys and queries
// q fresh keys each, positions uniform as the model says, the table
// circular (bit i of a block at start p is bit (p*stride + i) mod m with
// m = P*stride), which is the interior model the rates describe. It returns
// the mean rate over the filters and its standard error from their spread.
func simulateMultiblock(b Multiblock, n uint64, filters, q int, seed uint64) (mean, se float64) {
	p := b.Starts()
	d := b.Stride()
	m := p * d
	w := b.WordBits
	g, t := b.Windows(), b.perWindow()
	rng := rand.New(rand.NewPCG(seed, 1))
	bits := make([]uint64, (m+63)/64)
	var s, s2 float64
	for f := 0; f < filters; f++ {
		clear(bits)
		for range n {
			base := rng.Uint64N(p) * d
			for i := 0; i < g; i++ {
				for range t {
					x := (base + uint64(i)*w + rng.Uint64N(w)) % m
					bits[x/64] |= 1 << (x % 64)
				}
			}
		}
		hits := 0
		for range q {
			base := rng.Uint64N(p) * d
			ok := true
			for i := 0; i < g && ok; i++ {
				for range t {
					x := (base + uint64(i)*w + rng.Uint64N(w)) % m
					if bits[x/64]&(1<<(x%64)) == 0 {
						ok = false
						break
					}
				}
			}
			if ok {
				hits++
			}
		}
		r := float64(hits) / float64(q)
		s += r
		s2 += r * r
	}
	fl := float64(filters)
	mean = s / fl
	return mean, math.Sqrt((s2/fl - mean*mean) / (fl - 1))
}

func TestMultiblockFPRMonteCarlo(t *testing.T) {
	cases := []struct {
		name string
		b    Multiblock
		n    uint64
	}{
		{"block w=64 K=4 natural", Multiblock{Hashes: 4, WordBits: 64}, 0},
		{"block w=64 K=5 stride 8", Multiblock{Hashes: 5, WordBits: 64, StrideBits: 8}, 0},
		{"block w=64 K=5 stride 24", Multiblock{Hashes: 5, WordBits: 64, StrideBits: 24}, 0},
		{"block w=512 K=6 stride 8 (Poisson DP)", Multiblock{Hashes: 6, WordBits: 512, StrideBits: 8}, 0},
		{"multiblock w=64 K=5 natural", Multiblock{Hashes: 5, WordBits: 64, Multi: true}, 0},
		{"multiblock w=32 K=4 stride 8", Multiblock{Hashes: 4, WordBits: 32, Multi: true, StrideBits: 8}, 0},
		{"multiblock w=64 K=4 stride 64 (word)", Multiblock{Hashes: 4, WordBits: 64, Multi: true, StrideBits: 64}, 0},
		{"multiblock w=64 K=3 stride 40", Multiblock{Hashes: 3, WordBits: 64, Multi: true, StrideBits: 40}, 0},
	}
	for i, c := range cases {
		b := c.b
		// About 2^15 bits at 8 bits per key, many starts.
		const bitsWanted = 1 << 15
		b.Bits = b.BlockBits() + (bitsWanted-b.BlockBits())/b.Stride()*b.Stride()
		n := b.Bits / 8
		want, err := b.FPR(n)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, se := simulateMultiblock(b, n, 60, 20000, uint64(i+1))
		z := (got - want) / se
		t.Logf("%-40s P=%5d n=%d theory %.5f simulated %.5f ± %.5f (z %+.2f)", c.name, b.Starts(), n, want, got, se, z)
		if math.Abs(z) > 4 {
			t.Errorf("%s: theory %.5f, simulation %.5f ± %.5f", c.name, want, got, se)
		}
	}
}

// TestMultiblockMatchesBlocked checks the non-overlapping block layout
// against BlockedFPR, and the exact overlapping sum at the natural stride
// against the load mixture.
func TestMultiblockMatchesBlocked(t *testing.T) {
	for _, w := range []uint64{64, 256, 512} {
		for _, k := range []int{1, 4, 8} {
			b := Multiblock{Bits: w * 1000, Hashes: k, WordBits: w}
			n := b.Bits / 10
			got, err := b.FPR(n)
			if err != nil {
				t.Fatal(err)
			}
			if want := BlockedFPR(b.Bits, n, k, w); got != want {
				t.Errorf("w=%d k=%d: %g, BlockedFPR %g", w, k, got, want)
			}
			if e := b.overlapExact(n); math.Abs(e/got-1) > 1e-8 {
				t.Errorf("w=%d k=%d: inclusion-exclusion %g, mixture %g", w, k, e, got)
			}
		}
	}
	// Multiblock at the natural stride: the words share the load.
	mb := Multiblock{Bits: 32 * 8 * 500, Hashes: 8, WordBits: 32, Multi: true}
	got, _ := mb.FPR(4000)
	if want := SplitBlockFPR(mb.Bits, 4000); math.Abs(got/want-1) > 1e-12 {
		t.Errorf("multiblock<uint32_t, 8> %g, SplitBlockFPR %g", got, want)
	}
	if e := mb.overlapExact(4000); math.Abs(e/got-1) > 1e-8 {
		t.Errorf("multiblock: inclusion-exclusion %g, mixture %g", e, got)
	}
}

// TestMultiblockPoissonDP checks the Poisson-count programme for an
// overlapping block against the exact sum where both run: they differ by
// the binomial counts' O(1/P) dependence only.
func TestMultiblockPoissonDP(t *testing.T) {
	b := Multiblock{Hashes: 6, WordBits: 64, StrideBits: 8}
	b.Bits = 64 + 8*(1<<20)
	n := b.Bits / 10
	exact := b.overlapExact(n)
	pois := b.overlapPoissonBlock(float64(n) / float64(b.Starts()))
	t.Logf("exact %.9g Poisson DP %.9g rel %.2g", exact, pois, pois/exact-1)
	if math.Abs(pois/exact-1) > 1e-4 {
		t.Errorf("exact %g, Poisson DP %g", exact, pois)
	}
}

// TestMultiblockExactOrders checks the two organisations of the exact
// overlapping sum against each other (cells one by one with the key
// products at the leaves, and windows one by one with the products built
// on the way): the same terms in another order.
func TestMultiblockExactOrders(t *testing.T) {
	for _, c := range []struct {
		w      uint64
		k      int
		stride uint64
	}{{64, 4, 8}, {32, 5, 8}, {64, 4, 64}, {64, 3, 24}, {64, 3, 40}, {32, 6, 16}} {
		b := Multiblock{Hashes: c.k, WordBits: c.w, Multi: true, StrideBits: c.stride}
		b.Bits = b.BlockBits() + c.stride*3000
		cells, tree := b.overlapExact(2500), b.overlapExactMulti(2500)
		if math.Abs(tree/cells-1) > 1e-9 {
			t.Errorf("%+v: by cells %.12g, by windows %.12g", c, cells, tree)
		}
	}
}

// TestMultiblockCancellation: where the alternating sums of overlapping
// layouts lose their digits (tiny rates beside terms of order one), FPR
// reports an error rather than a number: a block layout of 64 bits in a
// 4096-bit window at 1e5 keys in 2^24 bits (its sum gave 0.588 for a rate
// near 1e-33) and a lightly loaded multiblock (2e-12 for a rate of order
// 1e-20); the same layouts at practical loads still give their rates.
func TestMultiblockCancellation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		b     Multiblock
		light uint64
		full  uint64
	}{
		{Multiblock{Bits: 1 << 24, Hashes: 64, WordBits: 4096, StrideBits: 8}, 100000, 1 << 24 / 10},
		{Multiblock{Bits: (1 << 24) / 320 * 320, Hashes: 5, WordBits: 64, Multi: true, StrideBits: 8}, 1000, 1000000},
	} {
		if f, err := c.b.FPR(c.light); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v at %d keys: %v, %v; want the cancellation error", c.b, c.light, f, err)
		}
		if f, err := c.b.FPR(c.full); err != nil || !(f > 1e-4 && f < 1) {
			t.Errorf("%+v at %d keys: %v, %v; want a rate", c.b, c.full, f, err)
		}
	}
}
