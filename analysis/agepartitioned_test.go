package analysis

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// runBrute returns the probability of k consecutive successes among
// independent trials with probabilities p, by enumerating all 2^len(p)
// outcomes in exact rationals.
func runBrute(p []*big.Rat, k int) *big.Rat {
	n := len(p)
	total := new(big.Rat)
	one := big.NewRat(1, 1)
	for mask := 0; mask < 1<<n; mask++ {
		prob := big.NewRat(1, 1)
		run, hit := 0, false
		for j := range n {
			if mask>>j&1 == 1 {
				prob.Mul(prob, p[j])
				if run++; run >= k {
					hit = true
				}
			} else {
				prob.Mul(prob, new(big.Rat).Sub(one, p[j]))
				run = 0
			}
		}
		if hit {
			total.Add(total, prob)
		}
	}
	return total
}

func TestRunProbabilityBrute(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 11; n++ {
		for k := 1; k <= n+1; k++ {
			rats := make([]*big.Rat, n)
			fs := make([]float64, n)
			for j := range rats {
				rats[j] = big.NewRat(r.Int64N(1001), 1000)
				fs[j], _ = rats[j].Float64()
			}
			want, _ := runBrute(rats, k).Float64()
			if got := RunProbability(fs, k); !scalar.EqualWithinAbsOrRel(got, want, 1e-15, 1e-12) {
				t.Errorf("n = %d, k = %d: RunProbability = %v, exact enumeration %v", n, k, got, want)
			}
		}
	}
	if !math.IsNaN(RunProbability([]float64{0.5}, 0)) {
		t.Error("k = 0 should give NaN")
	}
}

// TestFPRExactRationals checks FPR at a tiny geometry against exact
// rationals: K = 2, L = 2, G = 2, slices of 3 bits, at c = 1. The loads
// are 1, 3, 4, 4, a slice of load n has a given bit set with probability
// 1 - (2/3)^n, and the rate is the enumeration of runBrute.
func TestFPRExactRationals(t *testing.T) {
	t.Parallel()
	a := AgePartitioned{K: 2, L: 2, G: 2, SliceBits: 3}
	var p []*big.Rat
	for _, n := range []int64{1, 3, 4, 4} {
		clear := new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(2), big.NewInt(n), nil), new(big.Int).Exp(big.NewInt(3), big.NewInt(n), nil))
		p = append(p, new(big.Rat).Sub(big.NewRat(1, 1), clear))
	}
	want, _ := runBrute(p, 2).Float64()
	if got := a.FPR(1); !scalar.EqualWithinAbsOrRel(got, want, 0, 1e-13) {
		t.Errorf("FPR(1) = %v, exact %v", got, want)
	}
}

// TestFPRSimulated checks FPR and RecallAt against a direct simulation of
// the filter's process with independent uniform positions per slice (a
// brute-force reference: slices as bit sets, shifts, queries), at two
// small geometries, pooled over many simulated filters, within 4.5
// standard errors.
func TestFPRSimulated(t *testing.T) {
	t.Parallel()
	for _, a := range []AgePartitioned{{K: 2, L: 3, G: 4, SliceBits: 12}, {K: 3, L: 2, G: 5, SliceBits: 16}} {
		r := rand.New(rand.NewPCG(uint64(a.K), 9))
		n := a.K + a.L
		for _, c := range []uint64{1, a.G/2 + 1, a.G} {
			const filters = 4000
			const queries = 50
			hits := 0
			for range filters {
				// slices[j] is the slice of age j, a set of bits.
				slices := make([][]bool, n)
				for j := range slices {
					slices[j] = make([]bool, a.SliceBits)
				}
				// Steady state: 2n full generations, then c items.
				for gen := 0; gen <= 2*n; gen++ {
					items := a.G
					if gen == 2*n {
						items = c
					}
					if gen > 0 {
						slices = append([][]bool{make([]bool, a.SliceBits)}, slices[:n-1]...)
					}
					for range items {
						for j := range a.K {
							slices[j][r.Uint64N(a.SliceBits)] = true
						}
					}
				}
				for range queries {
					run := 0
					for j := range n {
						if slices[j][r.Uint64N(a.SliceBits)] {
							run++
						} else {
							run = 0
						}
						if run == a.K {
							hits++
							break
						}
					}
				}
			}
			total := float64(filters * queries)
			got := float64(hits) / total
			want := a.FPR(c)
			// Queries of one filter share its bits; the binomial error is
			// widened by 1.5 for that.
			se := 1.5 * math.Sqrt(want*(1-want)/total)
			if math.Abs(got-want) > 4.5*se {
				t.Errorf("%+v c = %d: simulated rate %v, theory %v (se %v)", a, c, got, want, se)
			}
		}
	}
}

// calcFPRateDecred is the recursion of decred's apbf.CalcFPRate (dcrd
// container/apbf v1.0.1), written out independently as a reference: the
// probability of a run of k over fills (i+1)/(2k) for i < k and 1/2 beyond,
// computed by recursion over (current run a, slice i).
func calcFPRateDecred(k, l, a, i int) float64 {
	if a == k {
		return 1
	}
	if i > l+a {
		return 0
	}
	f := 0.5
	if i < k {
		f = float64(i+1) / float64(2*k)
	}
	return f*calcFPRateDecred(k, l, a+1, i+1) + (1-f)*calcFPRateDecred(k, l, 0, i+1)
}

func TestOneNumberFPR(t *testing.T) {
	t.Parallel()
	for _, kl := range [][2]int{{1, 1}, {4, 3}, {7, 5}, {10, 7}, {12, 2}} {
		a := AgePartitioned{K: kl[0], L: kl[1], G: 10, SliceBits: 100}
		want := calcFPRateDecred(kl[0], kl[1], 0, 0)
		if got := a.OneNumberFPR(); !scalar.EqualWithinAbsOrRel(got, want, 1e-16, 1e-12) {
			t.Errorf("k = %d, l = %d: OneNumberFPR = %v, decred's recursion %v", kl[0], kl[1], got, want)
		}
	}
}

func TestAgePartitionedCycle(t *testing.T) {
	t.Parallel()
	a := AgePartitioned{K: 7, L: 5, G: 5000, SliceBits: 50500}
	prev := a.FPR(0)
	for c := uint64(1); c <= a.G; c++ {
		f := a.FPR(c)
		if f < prev {
			t.Fatalf("FPR(%d) = %v below FPR(%d) = %v: the rate must rise through a generation", c, f, c-1, prev)
		}
		prev = f
	}
	if a.WorstFPR() != a.FPR(a.G) {
		t.Error("WorstFPR is not FPR(G)")
	}
	var sum float64
	for c := uint64(1); c <= a.G; c++ {
		sum += a.FPR(c)
	}
	// G > 1024: the grid average against the full one.
	if got, want := a.MeanFPR(), sum/float64(a.G); !scalar.EqualWithinRel(got, want, 1e-5) {
		t.Errorf("MeanFPR = %v, average over every position %v", got, want)
	}
	if !math.IsNaN(a.FPR(a.G + 1)) {
		t.Error("FPR(G+1) should be NaN")
	}
}

func TestRecall(t *testing.T) {
	t.Parallel()
	a := AgePartitioned{K: 4, L: 3, G: 10, SliceBits: 60}
	for i := uint64(1); i <= a.G; i++ {
		last := a.G - i + uint64(a.L)*a.G // the last age with all K slices
		for age := uint64(0); age <= last; age++ {
			if got := a.RecallAt(age, i); !scalar.EqualWithinAbs(got, 1, 1e-12) {
				t.Fatalf("RecallAt(%d, %d) = %v, want 1 while the item's slices exist", age, i, got)
			}
		}
		if got := a.RecallAt(last+1, i); got > 0.9 {
			t.Errorf("RecallAt(%d, %d) = %v, want well below 1 once a slice is gone", last+1, i, got)
		}
		// Once all its slices are gone, the rate at that position.
		age := last + uint64(a.K+1)*a.G
		c := (age-(a.G-i)-1)%a.G + 1
		if got, want := a.RecallAt(age, i), a.FPR(c); !scalar.EqualWithinAbsOrRel(got, want, 1e-15, 1e-12) {
			t.Errorf("RecallAt(%d, %d) = %v, want FPR(%d) = %v", age, i, got, c, want)
		}
	}
	prev := 1.0
	for age := uint64(0); age < 200; age++ {
		got := a.Recall(age)
		if got > prev+1e-12 {
			t.Fatalf("Recall(%d) = %v rises above Recall(%d) = %v", age, got, age-1, prev)
		}
		if age < a.Window() && !scalar.EqualWithinAbs(got, 1, 1e-12) {
			t.Fatalf("Recall(%d) = %v within the window %d", age, got, a.Window())
		}
		prev = got
	}
}

func TestAgePartitionedSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		w uint64
		p float64
	}{{1000, 0.1}, {10000, 0.01}, {5000, 1e-3}, {2, 0.05}} {
		a, err := AgePartitionedSize(tc.w, tc.p)
		if err != nil {
			t.Fatal(err)
		}
		if a.Window() < tc.w || a.WorstFPR() > tc.p {
			t.Errorf("%+v: window %d (want >= %d), worst rate %v (want <= %v)", a, a.Window(), tc.w, a.WorstFPR(), tc.p)
		}
		b := a
		b.SliceBits--
		if b.SliceBits > 0 && b.WorstFPR() <= tc.p {
			t.Errorf("%+v: one bit less per slice still meets %v", a, tc.p)
		}
		// Fewer bits than decred's NewFilter choice for the same window:
		// k = ceil(log2(1/p)), its l, g = ceil(window/(l+1)) and slices of
		// ceil(k g/ln 2) bits, which keep only l g + 1 items at every
		// phase, so give it the window (l g + 1 >= w) and compare.
		k := int(math.Ceil(-math.Log2(tc.p)))
		l := 1
		for calcFPRateDecred(k, l+1, 0, 0) <= tc.p {
			l++
		}
		g := max((tc.w-1+uint64(l)-1)/uint64(l), 1)
		dec := uint64(k+l) * uint64(math.Ceil(float64(k)*float64(g)/math.Ln2))
		if a.Bits() > dec {
			t.Errorf("%+v: %d bits, more than decred's geometry k = %d, l = %d, g = %d: %d", a, a.Bits(), k, l, g, dec)
		}
	}
	for _, tc := range []struct {
		w uint64
		p float64
	}{{0, 0.1}, {10, 0}, {10, 1}, {10, math.NaN()}} {
		if _, err := AgePartitionedSize(tc.w, tc.p); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("AgePartitionedSize(%d, %v): error %v, want ErrInvalidParams", tc.w, tc.p, err)
		}
	}
	for _, a := range []AgePartitioned{{0, 1, 1, 1}, {1, 0, 1, 1}, {1, 1, 0, 1}, {1, 1, 1, 0}, {200, 57, 1, 1}} {
		if err := a.Validate(); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v.Validate() = %v, want ErrInvalidParams", a, err)
		}
	}
}

// TestBlockedFPROneWord: with one word per slice every item lands in the
// key's word, so the blocked rate is exactly FPR with 64-bit slices.
func TestBlockedFPROneWord(t *testing.T) {
	t.Parallel()
	a := AgePartitioned{K: 3, L: 4, G: 6, SliceBits: 64}
	for _, c := range []uint64{0, 3, 6} {
		got, se := a.BlockedFPR(c, 100)
		if !scalar.EqualWithinAbsOrRel(got, a.FPR(c), 1e-15, 1e-12) || se > 1e-12 {
			t.Errorf("c = %d: BlockedFPR = %v ± %v, want FPR = %v", c, got, se, a.FPR(c))
		}
	}
	// Many words: correlated slices raise the rate above the independent
	// one.
	b := AgePartitioned{K: 8, L: 8, G: 1000, SliceBits: 64 * 180}
	got, se := b.BlockedFPR(b.G, 4096)
	if got-4*se <= b.FPR(b.G) {
		t.Errorf("BlockedFPR = %v ± %v, not above the independent-slice rate %v", got, se, b.FPR(b.G))
	}
}

func TestBlockedAgePartitionedSize(t *testing.T) {
	t.Parallel()
	a, err := BlockedAgePartitionedSize(20000, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if (a.K+a.L)%8 != 0 || a.K+a.L > maxBlockedSlices || a.SliceBits%64 != 0 || a.Window() < 20000 {
		t.Fatalf("%+v: want K + L a multiple of 8 up to %d, whole words, window >= 20000", a, maxBlockedSlices)
	}
	if r, _ := a.BlockedFPR(a.G, BlockedSamples); r > 1e-3 {
		t.Errorf("%+v: blocked worst rate %v above 1e-3", a, r)
	}
}

// TestAgePartitionedSizingTable compares, for a window of 100,000 items,
// the sizing of AgePartitionedSize with the rule of the paper and its
// implementations (k = ceil(log2(1/p)), the largest l whose OneNumberFPR
// is at most p, slices of ceil(k g/ln 2) bits, here with g the smallest
// generation that keeps the window at every phase): bits per window item,
// and each geometry's exact worst and mean rate beside the one-number
// formula. Checks: our geometry meets p at its worst point with no more
// bits than the rule's, and the one-number formula lies below the exact
// worst rate of the rule's geometry (it describes the end of a generation
// with linear fills in the young slices, which are really concave).
func TestAgePartitionedSizingTable(t *testing.T) {
	t.Parallel()
	const w = 100_000
	for _, p := range []float64{0.1, 0.01, 1e-3, 1e-4} {
		ours, err := AgePartitionedSize(w, p)
		if err != nil {
			t.Fatal(err)
		}
		k := int(math.Ceil(-math.Log2(p)))
		l := 0
		for calcFPRateDecred(k, l+1, 0, 0) <= p {
			l++
		}
		if l == 0 {
			t.Fatalf("p = %g: no l meets the one-number formula at k = %d", p, k)
		}
		g := uint64(math.Ceil(float64(w-1) / float64(l)))
		rule := AgePartitioned{K: k, L: l, G: g, SliceBits: uint64(math.Ceil(float64(k) * float64(g) / math.Ln2))}
		bpi := func(a AgePartitioned) float64 { return float64(a.Bits()) / float64(a.Window()) }
		t.Logf("p = %g: ours k=%d l=%d g=%d b=%d: %.2f bits per key, worst %.4g, mean %.4g, after a shift %.4g | rule k=%d l=%d g=%d b=%d: %.2f bits per key, worst %.4g, mean %.4g, after a shift %.4g, one-number %.4g (%.1f%% below the worst, %+.1f%% from the mean)",
			p, ours.K, ours.L, ours.G, ours.SliceBits, bpi(ours), ours.WorstFPR(), ours.MeanFPR(), ours.FPR(1),
			rule.K, rule.L, rule.G, rule.SliceBits, bpi(rule), rule.WorstFPR(), rule.MeanFPR(), rule.FPR(1), rule.OneNumberFPR(),
			100*(1-rule.OneNumberFPR()/rule.WorstFPR()), 100*(rule.OneNumberFPR()/rule.MeanFPR()-1))
		if ours.WorstFPR() > p || ours.Bits() > rule.Bits() {
			t.Errorf("p = %g: ours %+v (worst %v, %d bits) against the rule's %d bits", p, ours, ours.WorstFPR(), ours.Bits(), rule.Bits())
		}
		bl, err := BlockedAgePartitionedSize(w, p)
		if err != nil {
			t.Fatal(err)
		}
		blr, blse := bl.BlockedFPR(bl.G, BlockedSamples)
		t.Logf("p = %g: blocked layout k=%d l=%d g=%d b=%d: %.2f bits per key, worst %.4g ± %.2g (independent slices %.4g)", p, bl.K, bl.L, bl.G, bl.SliceBits, bpi(bl), blr, blse, bl.WorstFPR())
		if rule.OneNumberFPR() >= rule.WorstFPR() {
			t.Errorf("p = %g: one-number %v not below the exact worst %v", p, rule.OneNumberFPR(), rule.WorstFPR())
		}
	}
}
