package analysis

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"
)

// ratBlocked computes the blocked rate exactly in rationals by the other
// side of the model: the distribution of the number X of set bits of a
// block after t = kj probes (X -> X+1 with probability (B-X)/B per probe),
// E[(X/B)^k] for each load j, and the binomial weights of the load.
func ratBlocked(m, n uint64, k int, blockBits uint64) *big.Rat {
	b := int64(m / blockBits)
	B := int64(blockBits)
	sum := new(big.Rat)
	for j := int64(0); j <= int64(n); j++ {
		w := ratBinomial(int64(n), j, big.NewRat(1, b))
		inner := ratCover(B, j*int64(k), k)
		sum.Add(sum, w.Mul(w, inner))
	}
	return sum
}

// ratBinomial returns C(n, j) q^j (1-q)^(n-j).
func ratBinomial(n, j int64, q *big.Rat) *big.Rat {
	r := new(big.Rat).SetInt(new(big.Int).Binomial(n, j))
	one := big.NewRat(1, 1)
	nq := new(big.Rat).Sub(one, q)
	for i := int64(0); i < j; i++ {
		r.Mul(r, q)
	}
	for i := j; i < n; i++ {
		r.Mul(r, nq)
	}
	return r
}

// ratCover returns E[(X/B)^k] after t uniform probes into B bits.
func ratCover(B, t int64, k int) *big.Rat {
	dist := make([]*big.Rat, B+1)
	for i := range dist {
		dist[i] = new(big.Rat)
	}
	dist[0].SetInt64(1)
	for s := int64(0); s < t; s++ {
		next := make([]*big.Rat, B+1)
		for i := range next {
			next[i] = new(big.Rat)
		}
		for x := int64(0); x <= B; x++ {
			if dist[x].Sign() == 0 {
				continue
			}
			stay := new(big.Rat).Mul(dist[x], big.NewRat(x, B))
			next[x].Add(next[x], stay)
			if x < B {
				move := new(big.Rat).Mul(dist[x], big.NewRat(B-x, B))
				next[x+1].Add(next[x+1], move)
			}
		}
		dist = next
	}
	e := new(big.Rat)
	for x := int64(0); x <= B; x++ {
		pw := new(big.Rat).SetInt64(1)
		for i := 0; i < k; i++ {
			pw.Mul(pw, big.NewRat(x, B))
		}
		e.Add(e, pw.Mul(pw, dist[x]))
	}
	return e
}

func relDiff(got, want float64) float64 {
	return math.Abs(got-want) / want
}

func TestBlockedFPRRational(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m, n uint64
		k    int
		B    uint64
	}{
		{64, 10, 3, 16},
		{256, 20, 4, 64},
		{128, 40, 2, 32},
		{96, 12, 5, 32}, // three blocks
		{64, 7, 3, 64},  // one block: the standard filter
		{512, 30, 1, 8},
	} {
		want, _ := ratBlocked(c.m, c.n, c.k, c.B).Float64()
		got := BlockedFPR(c.m, c.n, c.k, c.B)
		if d := relDiff(got, want); d > 1e-12 {
			t.Errorf("BlockedFPR(%d, %d, %d, %d) = %.17g, rational %.17g (rel %.2g)", c.m, c.n, c.k, c.B, got, want, d)
		}
		if c.B == c.m {
			if d := relDiff(got, ExactFPR(c.m, c.n, c.k)); d > 1e-13 {
				t.Errorf("one block: BlockedFPR %.17g, ExactFPR %.17g", got, ExactFPR(c.m, c.n, c.k))
			}
		}
	}
}

func TestSplitBlockFPRRational(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ m, n uint64 }{{256, 5}, {512, 30}, {2560, 100}, {1024, 0}} {
		b := int64(c.m / 256)
		want := new(big.Rat)
		for j := int64(0); j <= int64(c.n); j++ {
			// (1 - (31/32)^j)^8
			miss := new(big.Rat).SetInt64(1)
			for i := int64(0); i < j; i++ {
				miss.Mul(miss, big.NewRat(31, 32))
			}
			hit := new(big.Rat).Sub(big.NewRat(1, 1), miss)
			inner := new(big.Rat).SetInt64(1)
			for i := 0; i < 8; i++ {
				inner.Mul(inner, hit)
			}
			w := ratBinomial(int64(c.n), j, big.NewRat(1, b))
			want.Add(want, w.Mul(w, inner))
		}
		wf, _ := want.Float64()
		got := SplitBlockFPR(c.m, c.n)
		if c.n == 0 {
			if got != 0 {
				t.Errorf("SplitBlockFPR(%d, 0) = %g, want 0", c.m, got)
			}
			continue
		}
		if d := relDiff(got, wf); d > 1e-12 {
			t.Errorf("SplitBlockFPR(%d, %d) = %.17g, rational %.17g (rel %.2g)", c.m, c.n, got, wf, d)
		}
	}
}

// floatBlocked is a float64 form of ratBlocked for practical sizes: the
// X-distribution after kj probes for every load j in turn (advancing k
// probes per item), weighted by the binomial load summed in full.
func floatBlocked(m, n uint64, k int, B uint64) float64 {
	b := float64(m / B)
	dist := make([]float64, B+1)
	dist[0] = 1
	lq, l1q := -math.Log(b), math.Log1p(-1/b)
	var sum float64
	for j := uint64(0); j <= n; j++ {
		lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
		lw := lg(float64(n)+1) - lg(float64(j)+1) - lg(float64(n-j)+1) + float64(j)*lq + float64(n-j)*l1q
		var e float64
		for x, p := range dist {
			e += p * math.Pow(float64(x)/float64(B), float64(k))
		}
		sum += math.Exp(lw) * e
		if float64(j) > float64(n)/b*3+200 {
			break
		}
		for s := 0; s < k; s++ {
			for x := int(B); x >= 0; x-- {
				v := dist[x] * float64(x) / float64(B)
				if x > 0 {
					v += dist[x-1] * float64(int(B)-x+1) / float64(B)
				}
				dist[x] = v
			}
		}
	}
	return sum
}

func TestBlockedFPRPracticalSizes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m, n uint64
		k    int
		B    uint64
	}{
		{1 << 20, 100_000, 7, 512},
		{1 << 20, 200_000, 3, 256},
		{1 << 18, 10_000, 12, 1024},
		{1 << 16, 4_000, 6, 64},
	} {
		want := floatBlocked(c.m, c.n, c.k, c.B)
		got := BlockedFPR(c.m, c.n, c.k, c.B)
		if d := relDiff(got, want); d > 1e-9 {
			t.Errorf("BlockedFPR(%d, %d, %d, %d) = %.15g, X-distribution %.15g (rel %.2g)", c.m, c.n, c.k, c.B, got, want, d)
		}
		// The block penalty: never below the standard filter's exact rate.
		if std := ExactFPR(c.m, c.n, c.k); got < std {
			t.Errorf("BlockedFPR %.6g below ExactFPR %.6g of the same geometry", got, std)
		}
		// Putze et al.'s approximation takes Bloom's rate inside the block,
		// which is below the exact one (visibly so for small blocks): it
		// underestimates, by less than 5% for blocks of 256 bits or more.
		cl := BlockedClassicFPR(c.m, c.n, c.k, c.B)
		if cl > got || (c.B >= 256 && relDiff(cl, got) > 0.05) {
			t.Errorf("B=%d: BlockedClassicFPR %.6g vs BlockedFPR %.6g", c.B, cl, got)
		}
		t.Logf("m=%d n=%d k=%d B=%d: exact %.6g, Putze et al. %.6g (%.2f%% below), standard %.6g", c.m, c.n, c.k, c.B, got, cl, 100*relDiff(cl, got), ExactFPR(c.m, c.n, c.k))
	}
}

func TestBlockedFPRLarge(t *testing.T) {
	t.Parallel()
	// Same load per block at 2^30 and 2^40 bits: the binomial load tends to
	// Poisson, so the rates agree to O(1/blocks).
	a := BlockedFPR(1<<30, 1<<26, 7, 512)
	b := BlockedFPR(1<<40, 1<<36, 7, 512)
	if math.IsNaN(b) || relDiff(a, b) > 1e-5 {
		t.Errorf("BlockedFPR at 2^30 %.12g, at 2^40 %.12g", a, b)
	}
	s1, s2 := SplitBlockFPR(1<<30, 1<<26), SplitBlockFPR(1<<40, 1<<36)
	if math.IsNaN(s2) || relDiff(s1, s2) > 1e-5 {
		t.Errorf("SplitBlockFPR at 2^30 %.12g, at 2^40 %.12g", s1, s2)
	}
	// A single block holding many items is full.
	if f := BlockedFPR(512, 1<<40, 4, 512); f != 1 {
		t.Errorf("one overfull block: %g, want 1", f)
	}
}

func TestBlockedFPRDomain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m  uint64
		k  int
		B  uint64
		ok bool
	}{
		{1024, 4, 512, true},
		{1000, 4, 512, false}, // not whole blocks
		{256, 4, 512, false},  // less than one block
		{1024, 0, 512, false},
		{1024, 4, 0, false},
		{1 << 20, 4, MaxBlockBits + 1, false},
	} {
		f := BlockedFPR(c.m, 10, c.k, c.B)
		err := CheckBlocked(c.m, c.B, c.k)
		if math.IsNaN(f) == c.ok || (err == nil) != c.ok {
			t.Errorf("m=%d k=%d B=%d: rate %g, check %v; want valid=%v", c.m, c.k, c.B, f, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalidParams) {
			t.Errorf("error %v does not wrap ErrInvalidParams", err)
		}
	}
	if !math.IsNaN(SplitBlockFPR(300, 10)) || SplitBlockFPR(512, 0) != 0 {
		t.Error("SplitBlockFPR domain")
	}
}

func TestBlockedSize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n uint64
		p float64
		B uint64
	}{
		{1_000_000, 0.01, 512},
		{1_000_000, 1e-4, 512},
		{10_000, 0.01, 256},
		{10_000, 0.001, 1024},
		{1_000, 0.05, 64},
		{10, 0.01, 4096},
	} {
		bl, err := BlockedSize(c.n, c.p, c.B)
		if err != nil {
			t.Fatalf("BlockedSize(%d, %g, %d): %v", c.n, c.p, c.B, err)
		}
		m, k := bl.Bits, bl.Hashes
		if m%c.B != 0 {
			t.Errorf("m = %d not whole blocks of %d", m, c.B)
		}
		if f := BlockedFPR(m, c.n, k, c.B); f > c.p {
			t.Errorf("BlockedSize(%d, %g, %d) = %d, %d with rate %g above p", c.n, c.p, c.B, m, k, f)
		}
		// One block fewer misses p at every k.
		if m > c.B {
			for kk := 1; kk <= 2*k+4; kk++ {
				if f := BlockedFPR(m-c.B, c.n, kk, c.B); f <= c.p {
					t.Errorf("BlockedSize(%d, %g, %d) = %d, but %d bits with k = %d give %g", c.n, c.p, c.B, m, m-c.B, kk, f)
				}
			}
		}
		if std, _ := StandardSize(c.n, c.p); m < std.Bits*99/100 {
			t.Errorf("blocked size %d below the standard %d", m, std.Bits)
		}
	}
	for _, c := range []struct {
		n uint64
		p float64
		B uint64
	}{{0, 0.01, 512}, {10, 0, 512}, {10, 1, 512}, {10, math.NaN(), 512}, {10, 0.01, 0}, {1 << 62, 1e-12, 512}} {
		if _, err := BlockedSize(c.n, c.p, c.B); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("BlockedSize(%d, %g, %d) error %v, want ErrInvalidParams", c.n, c.p, c.B, err)
		}
	}
}

func TestSplitBlockSize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n uint64
		p float64
	}{{1_000_000, 0.01}, {1_000_000, 0.001}, {1000, 0.1}, {1, 0.5}} {
		sb, err := SplitBlockSize(c.n, c.p)
		if err != nil {
			t.Fatal(err)
		}
		m := sb.Bits
		if m%256 != 0 || SplitBlockFPR(m, c.n) > c.p || (m > 256 && SplitBlockFPR(m-256, c.n) <= c.p) {
			t.Errorf("SplitBlockSize(%d, %g) = %d: rate %g, one block less %g", c.n, c.p, m, SplitBlockFPR(m, c.n), SplitBlockFPR(m-256, c.n))
		}
	}
	if _, err := SplitBlockSize(1<<62, 1e-15); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("huge split-block: %v", err)
	}
}

// TestBlockedSizePenalty logs the memory a blocked filter needs beyond a
// standard one, the table quoted in the documentation and paper-notes.md,
// and checks that the penalty falls as blocks grow.
func TestBlockedSizePenalty(t *testing.T) {
	t.Parallel()
	const n = 1_000_000
	for _, p := range []float64{0.01, 1e-3, 1e-4} {
		sd, _ := StandardSize(n, p)
		std := sd.Bits
		prev := math.Inf(1)
		line := ""
		for _, B := range []uint64{64, 256, 512, 1024, 4096} {
			bl, err := BlockedSize(n, p, B)
			if err != nil {
				t.Fatal(err)
			}
			m, k := bl.Bits, bl.Hashes
			r := float64(m) / float64(std)
			if r > prev*1.001 {
				t.Errorf("p=%g: penalty at B=%d (%.4f) above the smaller block's (%.4f)", p, B, r, prev)
			}
			prev = r
			line += " " + formatPenalty(B, k, r)
		}
		sb, _ := SplitBlockSize(n, p)
		sm := sb.Bits
		t.Logf("p=%g standard %d bits:%s split-block x%.4f", p, std, line, float64(sm)/float64(std))
	}
}

func formatPenalty(B uint64, k int, r float64) string {
	return fmt.Sprintf("B=%d k=%d x%.4f", B, k, r)
}

func BenchmarkBlockedFPR(b *testing.B) {
	for b.Loop() {
		BlockedFPR(10_240_000, 1_000_000, 7, 512)
	}
}

func BenchmarkBlockedSize(b *testing.B) {
	for b.Loop() {
		if _, err := BlockedSize(1_000_000, 0.01, 512); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBlockedSizeLarge is the page's heaviest blocked input: large
// blocks and a small p, so many loads per size and large k.
func BenchmarkBlockedSizeLarge(b *testing.B) {
	for b.Loop() {
		if _, err := BlockedSize(1_000_000, 1e-4, 4096); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBlockedOptimalHashes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ m, n, B uint64 }{
		{1 << 20, 100_000, 512}, {1 << 16, 4_000, 64}, {1 << 18, 10_000, 1024}, {10_240, 10_000, 512}, {1 << 20, 20_000, 256},
	} {
		k := BlockedOptimalHashes(c.m, c.n, c.B)
		best, bestK := math.Inf(1), 0
		for kk := 1; kk <= 40; kk++ {
			if f := BlockedFPR(c.m, c.n, kk, c.B); f < best {
				best, bestK = f, kk
			}
		}
		if k != bestK {
			t.Errorf("BlockedOptimalHashes(%d, %d, %d) = %d, scan gives %d", c.m, c.n, c.B, k, bestK)
		}
	}
	if BlockedOptimalHashes(1000, 10, 512) != 0 || BlockedOptimalHashes(1024, 0, 512) != 1 {
		t.Error("BlockedOptimalHashes domain")
	}
}

func TestBlockedOptimalHashesFar(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m, n, blockBits uint64
		lo, hi          int // try k = lo..hi
	}{
		{1 << 23, 1e6, 512, 1, 20},
		{1 << 20, 1e5, 64, 1, 20},
		{1 << 24, 1e6, 4096, 1, 20},
		{100 * 512 * 200, 512 * 200, 512, 10, 40}, // 100 bits per key: standard k = 69
		{512, 1, 512, 250, 300},                   // one item, one block: standard k = 355
	} {
		got := BlockedOptimalHashes(c.m, c.n, c.blockBits)
		want := c.lo
		for k := c.lo + 1; k <= c.hi; k++ {
			if BlockedFPR(c.m, c.n, k, c.blockBits) < BlockedFPR(c.m, c.n, want, c.blockBits) {
				want = k
			}
		}
		if got != want || want == c.hi || want == c.lo && c.lo > 1 {
			t.Errorf("BlockedOptimalHashes(%d, %d, %d) = %d (rate %v), want %d (rate %v) inside %d..%d", c.m, c.n, c.blockBits,
				got, BlockedFPR(c.m, c.n, got, c.blockBits), want, BlockedFPR(c.m, c.n, want, c.blockBits), c.lo, c.hi)
		}
		t.Logf("m/n = %.0f, B = %d: standard k %d, blocked k %d", float64(c.m)/float64(c.n), c.blockBits, OptimalHashes(c.m, c.n), got)
	}
}

// TestInnerRatesExact checks that innerRates gives ExactFPR's values bit
// for bit, for loads visited up, down and out of order (which restarts the
// iteration) and for both of ExactFPR's methods.
func TestInnerRatesExact(t *testing.T) {
	t.Parallel()
	for _, B := range []uint64{1, 3, 64, 256, 512, 2048, MaxBlockBits} {
		for _, k := range []int{1, 2, 3, 7, 14, 23, 40} {
			ir := newInnerRates(B, k)
			var js []uint64
			for j := uint64(0); j <= 300; j++ {
				js = append(js, j)
			}
			for j := uint64(2000); j > 1000; j -= 37 {
				js = append(js, j)
			}
			js = append(js, 5, 1, 100_000, 17, 1<<40, 3)
			for _, j := range js {
				if got, want := ir.rate(j), ExactFPR(B, j, k); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("B=%d k=%d j=%d: innerRates %.17g, ExactFPR %.17g", B, k, j, got, want)
				}
			}
		}
	}
}

// bisectBlocks is fewestBlocks's search by plain bisection, for
// comparison.
func bisectBlocks(p float64, lo, maxBlocks uint64, rate func(uint64) float64) (uint64, bool) {
	ok := func(b uint64) bool { return rate(b) <= p }
	lo = max(lo, 1)
	if ok(lo) {
		hi := lo
		lo = 0
		for hi-lo > 1 {
			if mid := lo + (hi-lo)/2; mid >= 1 && ok(mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		return hi, true
	}
	hi := lo + lo/8 + 1
	for !ok(hi) {
		if hi >= maxBlocks {
			return 0, false
		}
		lo, hi = hi, min(2*hi, maxBlocks)
	}
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// TestFewestBlocksBisection checks that fewestBlocks's guided search finds
// the same number of blocks as plain bisection on blocked rates, from
// starting points below, near and above the answer, and logs how many
// rates each needed.
func TestFewestBlocksBisection(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n    uint64
		p    float64
		B    uint64
		k    int
		los  []uint64
		maxB uint64
	}{
		{1_000_000, 0.01, 512, 6, []uint64{1, 10, 18_000, 18_700, 20_000, 40_000}, MaxBits / 512},
		{1_000_000, 1e-4, 4096, 12, []uint64{1, 4000, 4700, 6000}, MaxBits / 4096},
		{100_000, 1e-3, 64, 7, []uint64{1, 22_000, 30_000}, MaxBits / 64},
		{1000, 0.1, 32, 2, []uint64{1, 150, 10_000}, MaxBits / 32},
		{1_000_000, 1e-6, 512, 20, []uint64{50_000}, 60_000}, // beyond maxBlocks
	} {
		ir := newInnerRates(c.B, c.k)
		var calls int
		rate := func(b uint64) float64 { calls++; return blockedFPR(loadTable(c.n, b), c.B, c.k, ir) }
		for _, lo := range c.los {
			calls = 0
			want, wok := bisectBlocks(c.p, lo, c.maxB, rate)
			nb := calls
			calls = 0
			got, gok := fewestBlocks(c.p, lo, c.maxB, rate)
			if got != want || gok != wok {
				t.Errorf("n=%d p=%g B=%d k=%d from %d: fewestBlocks %d %v, bisection %d %v", c.n, c.p, c.B, c.k, lo, got, gok, want, wok)
			}
			t.Logf("n=%d p=%g B=%d k=%d from %d: %d blocks, %d rates (bisection %d)", c.n, c.p, c.B, c.k, lo, got, calls, nb)
		}
	}
}
