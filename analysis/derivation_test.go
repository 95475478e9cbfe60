package analysis

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats/scalar"
)

// The independent derivation's model is the exact rate of a standard
// filter: its mixture over the occupancy law of k independent cells is
// ExactFPR, at any load (the chain has no cancellation).
func TestDerivationIndependentIsExact(t *testing.T) {
	for _, g := range []struct {
		m, n uint64
		k    int
	}{{64, 8, 6}, {1024, 128, 6}, {1024, 3, 24}, {15872, 1000, 11}, {1 << 20, 1 << 17, 7}, {1 << 20, 10, 12}, {5, 2, 8}} {
		got, err := DerivationFPR(g.m, g.n, g.k, DerivationIndependent)
		if err != nil {
			t.Fatal(err)
		}
		if want := ExactFPR(g.m, g.n, g.k); !scalar.EqualWithinAbsOrRel(got, want, 1e-300, 1e-9) {
			t.Errorf("m=%d n=%d k=%d: %.12g, ExactFPR %.12g", g.m, g.n, g.k, got, want)
		}
	}
}

// The line measures: A[2] = sum over s < L of (L - s)/s (two points of the
// line fix the key, in the measure independent pairs have), L = 3's
// A[3] = 3/8, and the table against a recomputation.
func TestLineTable(t *testing.T) {
	top := 12
	if long() {
		top = MaxDerivationHashes
	}
	if got, want := len(lineTable), MaxDerivationHashes-2; got != want {
		t.Fatalf("line table of %d rows, want %d", got, want)
	}
	for L := 3; L <= top; L++ {
		a := lineMeasure(L)
		var want float64
		for s := 1; s < L; s++ {
			want += float64(L-s) / float64(s)
		}
		if !scalar.EqualWithinAbsOrRel(a[2], want, 0, 1e-12) {
			t.Errorf("L=%d: A[2] = %v, want %v", L, a[2], want)
		}
		for j := 3; j <= L; j++ {
			if !scalar.EqualWithinAbsOrRel(a[j], lineTable[L-3][j-3], 0, 1e-12) {
				t.Errorf("L=%d: A[%d] = %v, table %v", L, j, a[j], lineTable[L-3][j-3])
			}
		}
	}
	if got := lineTable[0][0]; !scalar.EqualWithinAbsOrRel(got, 3.0/8, 0, 1e-15) {
		t.Errorf("A_3[3] = %v, want 3/8", got)
	}
}

// The line measure against its definition sampled directly: the area of
// the (D, E) plane where a key's probes D + t E match the query's cell
// phases frac(φ + t θ) at c of t < L, as E[C(c, j)].
func TestLineMeasureSampled(t *testing.T) {
	const L, samples = 5, 400_000
	r := rand.New(rand.NewPCG(5, 6))
	// Two matches at t and t' need |(t' - t) E| < 2, so |E| < 2, and then
	// |D| < 1 + 2 (L - 1); sample that box.
	const bd, be = 2.0 * L, 2.0
	got := make([]float64, L+1)
	got2 := make([]float64, L+1)
	for range samples {
		phi, theta := r.Float64(), r.Float64()
		d, e := (2*r.Float64()-1)*bd, (2*r.Float64()-1)*be
		c := 0
		for t := range L {
			_, psi := math.Modf(phi + float64(t)*theta)
			if v := psi + d + float64(t)*e; v >= 0 && v < 1 {
				c++
			}
		}
		for j := 2; j <= c; j++ {
			v := binom(c, j) * 4 * bd * be
			got[j] += v
			got2[j] += v * v
		}
	}
	want := lineMeasure(L)
	for j := 2; j <= L; j++ {
		mean := got[j] / samples
		se := math.Sqrt((got2[j]/samples - mean*mean) / samples)
		if math.Abs(mean-want[j]) > 4*se {
			t.Errorf("A[%d] sampled %.5g ± %.2g, computed %.5g", j, mean, se, want[j])
		}
	}
}

// The law of distinct cells against the derivations run on uniform 64-bit
// digests.
func TestDerivationDistinctSampled(t *testing.T) {
	const samples = 400_000
	for _, g := range []struct {
		m          uint64
		k          int
		derivation string
	}{{256, 6, DerivationDouble}, {1000, 11, DerivationDouble}, {64, 8, DerivationEnhancedDouble}, {4096, 16, DerivationEnhancedDouble}, {300, 5, DerivationDouble},
		{1024, 8, DerivationTriple}, {4096, 11, DerivationTriple}} {
		dr, err := NewDerivationRate(g.m, g.k, g.derivation)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(g.m, uint64(g.k)))
		count := make([]float64, g.k+1)
		cells := make([]uint64, 0, g.k)
		for range samples {
			cells = deriveCells(cells[:0], r, g.m, g.k, g.derivation)
			d := 0
			for i, c := range cells {
				dup := false
				for _, b := range cells[:i] {
					dup = dup || b == c
				}
				if !dup {
					d++
				}
			}
			count[d]++
		}
		var sum float64
		for d, p := range dr.Distinct() {
			sum += p
			se := math.Sqrt(p*(1-p)/samples) + 1/samples
			if got := count[d] / samples; math.Abs(got-p) > 4*se {
				t.Errorf("%+v: P(D = %d) = %.6g, sampled %.6g", g, d, p, got)
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%+v: law sums to %v", g, sum)
		}
	}
}

// deriveCells appends the k cells of one key of uniform digest, derived
// as variants derives them (the recurrences x += y; y += z; z += c of
// variants/hash.go, reduced by multiply-shift), the third value of triple
// hashing uniform.
func deriveCells(dst []uint64, r *rand.Rand, m uint64, k int, derivation string) []uint64 {
	const weyl = 0x9e3779b97f4a7c15
	x, y := r.Uint64(), r.Uint64()
	var z, c uint64
	switch derivation {
	case DerivationEnhancedDouble:
		z, c = weyl, weyl
	case DerivationTriple:
		z = r.Uint64()
	}
	for range k {
		if derivation == DerivationIndependent {
			x = r.Uint64()
		}
		hi, _ := bits.Mul64(x, m)
		dst = append(dst, hi)
		x += y
		y += z
		z += c
	}
	return dst
}

// simulateDerivation measures the rate of filters filters of m bits, k
// hashes and n keys derived as deriveCells derives them, each tested with
// queries absent queries: the mean of the filters' rates and its standard
// error from the between-filter spread.
func simulateDerivation(m, n uint64, k int, derivation string, filters, queries int, seed uint64) (mean, se float64) {
	words := make([]uint64, (m+63)/64)
	cells := make([]uint64, 0, k)
	var sum, sum2 float64
	for f := range filters {
		r := rand.New(rand.NewPCG(seed, uint64(f)))
		clear(words)
		for range n {
			for _, c := range deriveCells(cells[:0], r, m, k, derivation) {
				words[c>>6] |= 1 << (c & 63)
			}
		}
		hits := 0
		for range queries {
			all := true
			for _, c := range deriveCells(cells[:0], r, m, k, derivation) {
				all = all && words[c>>6]>>(c&63)&1 != 0
			}
			if all {
				hits++
			}
		}
		rate := float64(hits) / float64(queries)
		sum += rate
		sum2 += rate * rate
	}
	F := float64(filters)
	mean = sum / F
	return mean, math.Sqrt(math.Max(sum2/F-mean*mean, 0) / (F - 1))
}

// The rate against seeded Monte Carlo of the derivations, within 4
// standard errors, at small geometries where double hashing's excess over
// ExactFPR is several standard errors (+5 to +115%). With -short one of
// them; with BLOOMLAB_LONG=1, more geometries and all three derivations
// (about 30 s of CPU):
//
//	BLOOMLAB_LONG=1 go test ./analysis -run DerivationRateSimulated -v
func TestDerivationRateSimulated(t *testing.T) {
	type geo struct {
		m, n       uint64
		k          int
		derivation string
		filters    int
	}
	cases := []geo{
		{256, 32, 6, DerivationDouble, 300},
		{1024, 50, 8, DerivationDouble, 200},
		{2048, 170, 12, DerivationDouble, 300},
	}
	if testing.Short() {
		cases = cases[:1]
	}
	queries := 10_000
	if long() {
		cases = append(cases,
			geo{256, 40, 3, DerivationDouble, 1000},
			geo{1024, 100, 8, DerivationDouble, 1000},
			geo{4096, 200, 8, DerivationDouble, 1000},
			geo{4096, 300, 12, DerivationDouble, 1000},
			geo{16384, 1200, 12, DerivationDouble, 500},
			geo{256, 32, 6, DerivationEnhancedDouble, 1000},
			geo{1024, 50, 8, DerivationEnhancedDouble, 1000},
			geo{16384, 1365, 8, DerivationEnhancedDouble, 500},
			geo{256, 32, 6, DerivationTriple, 1000},
			geo{2048, 170, 12, DerivationTriple, 1000},
		)
	}
	for i, g := range cases {
		t.Run(fmt.Sprintf("%s/m=%d/n=%d/k=%d", g.derivation, g.m, g.n, g.k), func(t *testing.T) {
			t.Parallel()
			want, err := DerivationFPR(g.m, g.n, g.k, g.derivation)
			if err != nil {
				t.Fatal(err)
			}
			mean, se := simulateDerivation(g.m, g.n, g.k, g.derivation, g.filters, queries, uint64(i)+1)
			if z := (mean - want) / se; math.Abs(z) > 4 {
				t.Errorf("measured %.5g ± %.2g, theory %.5g (z %+.2f); ExactFPR %.5g", mean, se, want, z, ExactFPR(g.m, g.n, g.k))
			}
		})
	}
}

// TestDerivationRateTable measures the geometries listed in
// BLOOMLAB_DERIVATION_RUN ("m/n/k/derivation,..."), two at a time, with
// BLOOMLAB_DERIVATION_FILTERS filters of BLOOMLAB_DERIVATION_QUERIES
// queries, the i-th geometry with seed BLOOMLAB_DERIVATION_SEED + i, and
// logs one row per geometry: measured rate ± its standard error, its
// excess over ExactFPR, the model, its mixture's and its total excess, and
// z of the model and of ExactFPR. paper-notes.md §13e1 lists the runs.
func TestDerivationRateTable(t *testing.T) {
	list := os.Getenv("BLOOMLAB_DERIVATION_RUN")
	if list == "" || testing.Short() {
		t.Skip("set BLOOMLAB_DERIVATION_RUN (and no -short)")
	}
	filters, err1 := strconv.Atoi(os.Getenv("BLOOMLAB_DERIVATION_FILTERS"))
	queries, err2 := strconv.Atoi(os.Getenv("BLOOMLAB_DERIVATION_QUERIES"))
	seed, err3 := strconv.ParseUint(os.Getenv("BLOOMLAB_DERIVATION_SEED"), 10, 64)
	if err := errors.Join(err1, err2, err3); err != nil || filters < 2 || queries < 1 {
		t.Fatalf("BLOOMLAB_DERIVATION_FILTERS, _QUERIES and _SEED: %v", err)
	}
	specs := strings.Split(list, ",")
	out := make([]string, len(specs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, spec := range specs {
		var m, n uint64
		var k int
		var name string
		if _, err := fmt.Sscanf(strings.ReplaceAll(spec, "/", " "), "%d %d %d %s", &m, &n, &k, &name); err != nil {
			t.Fatalf("%q: %v", spec, err)
		}
		dr, err := NewDerivationRate(m, k, name)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			mean, se := simulateDerivation(m, n, k, name, filters, queries, seed+uint64(i))
			tm := dr.Terms(n)
			th, ex := tm.Mixture+tm.Lines, ExactFPR(m, n, k)
			out[i] = fmt.Sprintf("| %d | %d | %d | %s | %.5g ± %.2g | %+.2f%% ± %.2f%% | %.5g | %+.2f%% | %+.2f%% | %+.2f | %+.2f |",
				m, n, k, name, mean, se, 100*(mean/ex-1), 100*se/ex, th, 100*(tm.Mixture/ex-1), 100*(th/ex-1), (mean-th)/se, (mean-ex)/se)
		})
	}
	wg.Wait()
	t.Log("| m | n | k | derivation | measured | excess | model | mixture excess | model excess | z model | z exact |")
	for _, row := range out {
		t.Log(row)
	}
}

// The measured excess over independent probes quoted in paper-notes.md
// §13h for plain double hashing (simulations with uniform 64-bit
// digests), and §3's runs R11 and R12 (xxh3 digests of keys, 4000 filters,
// 95% intervals), against the model's.
func TestDerivationMeasuredExcess(t *testing.T) {
	for _, c := range []struct {
		m, n   uint64
		k      int
		lo, hi float64 // percent
	}{
		{15872, 1000, 11, 3.1 - 4*0.7, 3.1 + 4*0.7}, // §13h: +3.1% ± 0.7%
		{1024, 128, 6, 1.4 - 4*0.1, 1.4 + 4*0.1},    // §13h: +1.4% ± 0.1%
		{1024, 128, 6, 1.03, 1.79},                  // R11
		{1024, 128, 6, 1.30, 2.06},                  // R12
		{4096, 512, 6, -0.06, 0.45},                 // R11
		{4096, 512, 6, 0.05, 0.57},                  // R12
		{16384, 2048, 6, -0.16, 0.29},               // R11
		{16384, 2048, 6, -0.09, 0.36},               // R12
		{65536, 8192, 6, -0.17, 0.26},               // R11
		{65536, 8192, 6, -0.14, 0.28},               // R12
	} {
		rate, err := DerivationFPR(c.m, c.n, c.k, DerivationDouble)
		if err != nil {
			t.Fatal(err)
		}
		if ex := 100 * (rate/ExactFPR(c.m, c.n, c.k) - 1); ex < c.lo || ex > c.hi {
			t.Errorf("m=%d n=%d k=%d: excess %+.2f%%, measured [%+.2f%%, %+.2f%%]", c.m, c.n, c.k, ex, c.lo, c.hi)
		}
	}
	// §3's enhanced double and triple hashing at 1024 bits, R11 and R12.
	for _, c := range []struct {
		derivation string
		lo, hi     float64
	}{
		{DerivationEnhancedDouble, -0.12, 0.61}, {DerivationEnhancedDouble, -0.46, 0.30},
		{DerivationTriple, -0.21, 0.55}, {DerivationTriple, -0.16, 0.59},
	} {
		rate, err := DerivationFPR(1024, 128, 6, c.derivation)
		if err != nil {
			t.Fatal(err)
		}
		if ex := 100 * (rate/ExactFPR(1024, 128, 6) - 1); ex < c.lo || ex > c.hi {
			t.Errorf("%s: excess %+.2f%%, measured [%+.2f%%, %+.2f%%]", c.derivation, ex, c.lo, c.hi)
		}
	}
}

func TestDerivationInvalid(t *testing.T) {
	for _, c := range []struct {
		m          uint64
		k          int
		derivation string
	}{
		{0, 6, DerivationDouble},
		{MaxDerivationBits + 1, 6, DerivationDouble},
		{1024, 0, DerivationDouble},
		{1024, MaxDerivationHashes + 1, DerivationEnhancedDouble},
		{1024, 6, "Double"},
		{1024, 6, ""},
	} {
		if _, err := DerivationFPR(c.m, 10, c.k, c.derivation); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("DerivationFPR(%d, 10, %d, %q): error %v, want ErrInvalidParams", c.m, c.k, c.derivation, err)
		}
	}
	dr, err := NewDerivationRate(1024, 6, DerivationDouble)
	if err != nil {
		t.Fatal(err)
	}
	if got := dr.FPR(0); got != 0 {
		t.Errorf("FPR(0) = %v", got)
	}
	// Tiny tables and loads far past capacity stay probabilities.
	for _, m := range []uint64{1, 2, 3, 7} {
		for _, name := range []string{DerivationDouble, DerivationEnhancedDouble, DerivationTriple} {
			for _, n := range []uint64{1, 5, 1 << 40} {
				r, err := DerivationFPR(m, n, 8, name)
				if err != nil || !(r >= 0 && r <= 1+1e-12) {
					t.Errorf("m=%d n=%d %s: %v, %v", m, n, name, r, err)
				}
			}
		}
	}
}

// The work is bounded: the largest k at a small m (the most overlapping
// windows) for every derivation.
func TestDerivationWork(t *testing.T) {
	if !long() {
		t.Skip("set BLOOMLAB_LONG=1 (and no -short) for the timing")
	}
	for _, name := range []string{DerivationDouble, DerivationEnhancedDouble} {
		for _, m := range []uint64{64, 1024, 1 << 32} {
			start := time.Now()
			if _, err := DerivationFPR(m, m/8+1, MaxDerivationHashes, name); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("%s m=%d k=%d: %v", name, m, MaxDerivationHashes, d)
			}
		}
	}
}

// long reports whether the long checks run: BLOOMLAB_LONG=1 and no -short.
func long() bool { return !testing.Short() && os.Getenv("BLOOMLAB_LONG") != "" }

func BenchmarkDerivationFPR(b *testing.B) {
	for _, g := range []struct {
		m, n uint64
		k    int
	}{{1024, 128, 6}, {15872, 1000, 11}, {1 << 20, 1 << 17, 7}} {
		for _, name := range []string{DerivationDouble, DerivationEnhancedDouble} {
			b.Run(fmt.Sprintf("derivation=%s/m=%d/k=%d", name, g.m, g.k), func(b *testing.B) {
				for b.Loop() {
					if _, err := DerivationFPR(g.m, g.n, g.k, name); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
