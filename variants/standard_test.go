package variants

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// classicFPR is (1-e^(-kn/m))^k, the classic rate (Broder and Mitzenmacher
// 2004, eq. 1), evaluated here by hand rather than through package analysis
// so that this test checks the filter against the formula itself.
func classicFPR(m, n uint64, k int) float64 {
	return math.Pow(-math.Expm1(-float64(k)*float64(n)/float64(m)), float64(k))
}

// partitionedFPR is (1-(1-1/b)^n)^k for k slices of b bits.
func partitionedFPR(b, n uint64, k int) float64 {
	return math.Pow(-math.Expm1(float64(n)*math.Log1p(-1/float64(b))), float64(k))
}

// measureFPR fills f with n seeded keys and returns the fraction of q
// absent keys (from a disjoint key set) that it reports present.
func measureFPR(t *testing.T, f Filter, seed uint64, n, q int) float64 {
	t.Helper()
	for _, k := range testKeys(seed, 1, n) {
		f.Add(k)
	}
	fp := 0
	for _, k := range testKeys(seed, 2, q) {
		if f.Contains(k) {
			fp++
		}
	}
	return float64(fp) / float64(q)
}

// within4SE reports whether a rate measured over q queries lies within four
// binomial standard errors of the theoretical rate p.
func within4SE(measured, p float64, q int) (bool, float64) {
	se := math.Sqrt(p * (1 - p) / float64(q))
	return math.Abs(measured-p) <= 4*se, (measured - p) / se
}

// TestStandardRateMatchesTheory: n = 1e6 at p = 0.01, one filter, 1e6
// absent queries; the measured rate must lie within 4 standard errors of
// the classic rate for the geometry actually built. At m ~ 9.6e6 the
// classic formula and the exact finite-m rate differ by a relative 1e-7,
// far below the standard error of 1%.
func TestStandardRateMatchesTheory(t *testing.T) {
	t.Parallel()
	const n, q = 1_000_000, 1_000_000
	f, err := NewStandardFor(n, 0.01, Hashing{Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	g := f.Geometry()
	got := measureFPR(t, f, 11, n, q)
	want := classicFPR(g.Bits, n, g.Hashes)
	if ok, z := within4SE(got, want, q); !ok {
		t.Errorf("standard m=%d k=%d: measured rate %.5f, theory %.5f (%.1f standard errors)", g.Bits, g.Hashes, got, want, z)
	}
}

// TestPartitionedRateMatchesTheory is the same for a partitioned filter
// against (1-(1-1/b)^n)^k with b its slice size.
func TestPartitionedRateMatchesTheory(t *testing.T) {
	t.Parallel()
	const n, q = 1_000_000, 1_000_000
	f, err := NewPartitionedFor(n, 0.01, Hashing{Seed: 43})
	if err != nil {
		t.Fatal(err)
	}
	got := measureFPR(t, f, 12, n, q)
	want := partitionedFPR(f.SliceBits(), n, f.Geometry().Hashes)
	if ok, z := within4SE(got, want, q); !ok {
		t.Errorf("partitioned b=%d k=%d: measured rate %.5f, theory %.5f (%.1f standard errors)", f.SliceBits(), f.Geometry().Hashes, got, want, z)
	}
}

// TestEveryHashingMatchesTheory checks the rate of every hash kind and
// derivation at a smaller size, where derivation defects would show.
func TestEveryHashingMatchesTheory(t *testing.T) {
	t.Parallel()
	const n, q = 50_000, 400_000
	for i, h := range allHashings {
		f, err := NewStandardFor(n, 0.01, h)
		if err != nil {
			t.Fatal(err)
		}
		g := f.Geometry()
		got := measureFPR(t, f, uint64(100+i), n, q)
		want := classicFPR(g.Bits, n, g.Hashes)
		if ok, z := within4SE(got, want, q); !ok {
			t.Errorf("%v/%v: measured rate %.5f, theory %.5f (%.1f standard errors)", h.Kind, h.Derivation, got, want, z)
		}
	}
}

// TestIndexUniformity runs a chi-square test that each derived index
// position, and each pair of positions jointly, is uniform over the table,
// for every derivation, at table sizes that are and are not powers of two.
func TestIndexUniformity(t *testing.T) {
	t.Parallel()
	const k = 8
	for _, h := range allHashings {
		for _, m := range []uint64{1009, 1024} {
			r := rand.New(rand.NewPCG(uint64(m), uint64(h.Derivation)))
			const draws = 100_000
			single := make([][]float64, k)
			for i := range single {
				single[i] = make([]float64, m)
			}
			const pm = 31 // pairs on a small table, 961 cells
			pairs := make([]float64, pm*pm)
			var idx, small []uint64
			for range draws {
				d := Digest{r.Uint64(), r.Uint64()}
				idx = h.Indexes(idx[:0], d, k, m)
				for i, x := range idx {
					single[i][x]++
				}
				small = h.Indexes(small[:0], d, k, pm)
				pairs[small[1]*pm+small[2]]++
			}
			for i := range single {
				checkUniform(t, fmt.Sprintf("%v/%v m=%d position %d", h.Kind, h.Derivation, m, i), single[i], draws)
			}
			checkUniform(t, fmt.Sprintf("%v/%v positions (1,2) jointly on %d", h.Kind, h.Derivation, pm), pairs, draws)
		}
	}
}

// checkUniform fails if the chi-square statistic of counts against the
// uniform distribution has an upper-tail probability below 1e-6 (about 5
// standard deviations: a sound derivation fails this once in a million
// runs, a biased one every time).
func checkUniform(t *testing.T, name string, counts []float64, total int) {
	t.Helper()
	e := float64(total) / float64(len(counts))
	var chi2 float64
	for _, c := range counts {
		chi2 += (c - e) * (c - e) / e
	}
	if p := (distuv.ChiSquared{K: float64(len(counts) - 1)}).Survival(chi2); p < 1e-6 {
		t.Errorf("%s: chi-square %.1f on %d degrees of freedom, p = %.2g: not uniform", name, chi2, len(counts)-1, p)
	}
}

// TestDegenerateSecondHalf: a digest whose second half h2 is a multiple of
// m sends plain double hashing modulo m to one repeated index. With
// multiply-shift reduction the risk is h2 small against 2^64/m, which a
// multiple j*m of m is. Enhanced double, triple and independent hashing
// must still spread the k indexes; plain double hashing collapses, which is
// the weakness the hashing experiment measures.
func TestDegenerateSecondHalf(t *testing.T) {
	const k = 8
	for _, m := range []uint64{1000, 1 << 20, 12345677} {
		for _, j := range []uint64{0, 1, 7, 1000} {
			d := Digest{H1: 0x0123456789abcdef, H2: j * m}
			for _, h := range allHashings {
				idx := h.Indexes(nil, d, k, m)
				distinct := map[uint64]bool{}
				for _, x := range idx {
					distinct[x] = true
				}
				if h.Derivation == Double {
					if len(distinct) > 2 {
						t.Errorf("double hashing with h2 = %d*m spread to %d indexes; expected the known collapse", j, len(distinct))
					}
					continue
				}
				// Enhanced double hashing keeps g_0 and g_1 apart only by
				// h2 (as in Dillinger and Manolios), so those two may
				// coincide; every later index is distinct. Triple hashing
				// with h2 = 0 is quadratic probing with a pseudo-random
				// step, whose later indexes can meet by chance; it must
				// still spread over at least half of k.
				want := k - 1
				if h.Derivation == Triple {
					want = k / 2
				}
				if len(distinct) < want {
					t.Errorf("%v/%v m=%d h2=%d*m: only %d distinct indexes of %d: %v", h.Kind, h.Derivation, m, j, len(distinct), k, idx)
				}
			}
		}
	}
}

// TestBeyond32Bits builds filters of more than 2^32 bits and checks that
// keys whose indexes lie beyond 2^32 are set and found.
func TestBeyond32Bits(t *testing.T) {
	// Not parallel, so that its 512 MiB filters are never held at the
	// same time as TestBeyond32BitsRoundTrip's.
	if testing.Short() {
		t.Skip("allocates 512 MiB per filter")
	}
	const m = 1<<32 + 1<<22
	for _, v := range []string{"standard", "partitioned"} {
		t.Run(v, func(t *testing.T) {
			var f Filter
			var err error
			if v == "standard" {
				f, err = NewStandard(Geometry{Bits: m, Hashes: 3}, Hashing{})
			} else {
				f, err = NewPartitioned(Geometry{Bits: m, Hashes: 1}, Hashing{})
			}
			if err != nil {
				t.Fatal(err)
			}
			keys := testKeys(5, 1, 1000)
			high := 0
			k := f.Stats().Hashes
			for _, key := range keys {
				if v == "partitioned" {
					f.Add(key)
					continue
				}
				for _, x := range f.Hashing().Indexes(nil, f.Hashing().Digest(key), k, m) {
					if x >= 1<<32 {
						high++
					}
				}
				f.Add(key)
			}
			if v == "standard" && high == 0 {
				t.Fatal("no index beyond 2^32 among 1000 keys")
			}
			for _, k := range keys {
				if !f.Contains(k) {
					t.Fatalf("false negative in a %d-bit filter", uint64(m))
				}
			}
			var words []uint64
			switch f := f.(type) {
			case *Standard:
				words = f.words
			case *Partitioned:
				words = f.words
			}
			if popcount(words[1<<26:]) == 0 {
				t.Error("no bit set beyond bit 2^32")
			}
		})
	}
}

// TestInvalidParams: every invalid parameter gives an error wrapping
// ErrInvalidParams whose text names the parameter; never a panic.
func TestInvalidParams(t *testing.T) {
	huge := uint64(1) << 47 // 16 TiB of bits, more than any machine here
	tests := []struct {
		name string
		make func() (Filter, error)
		want string
	}{
		{"standard m=0", func() (Filter, error) { return NewStandard(Geometry{Bits: 0, Hashes: 3}, Hashing{}) }, "bits m = 0"},
		{"standard k=0", func() (Filter, error) { return NewStandard(Geometry{Bits: 100, Hashes: 0}, Hashing{}) }, "hashes k = 0"},
		{"standard k<0", func() (Filter, error) { return NewStandard(Geometry{Bits: 100, Hashes: -3}, Hashing{}) }, "hashes k = -3"},
		{"standard k too large", func() (Filter, error) { return NewStandard(Geometry{Bits: 100, Hashes: MaxHashes + 1}, Hashing{}) }, "hashes k = 4097"},
		{"standard m too large", func() (Filter, error) { return NewStandard(Geometry{Bits: MaxBits + 1, Hashes: 3}, Hashing{}) }, "bits m = 281474976710657"},
		{"standard m beyond memory", func() (Filter, error) { return NewStandard(Geometry{Bits: huge, Hashes: 3}, Hashing{}) }, "memory"},
		{"standard bad hash kind", func() (Filter, error) { return NewStandard(Geometry{Bits: 100, Hashes: 3}, Hashing{Kind: 9}) }, "hash kind 9"},
		{"standard bad derivation", func() (Filter, error) { return NewStandard(Geometry{Bits: 100, Hashes: 3}, Hashing{Derivation: 9}) }, "derivation 9"},
		{"for n=0", func() (Filter, error) { return NewStandardFor(0, 0.01, Hashing{}) }, "capacity n = 0"},
		{"for p=0", func() (Filter, error) { return NewStandardFor(100, 0, Hashing{}) }, "p = 0"},
		{"for p<0", func() (Filter, error) { return NewStandardFor(100, -0.1, Hashing{}) }, "p = -0.1"},
		{"for p=1", func() (Filter, error) { return NewStandardFor(100, 1, Hashing{}) }, "p = 1"},
		{"for p>1", func() (Filter, error) { return NewStandardFor(100, 2, Hashing{}) }, "p = 2"},
		{"for p NaN", func() (Filter, error) { return NewStandardFor(100, math.NaN(), Hashing{}) }, "p = NaN"},
		{"for p +Inf", func() (Filter, error) { return NewStandardFor(100, math.Inf(1), Hashing{}) }, "p = +Inf"},
		{"for p -Inf", func() (Filter, error) { return NewStandardFor(100, math.Inf(-1), Hashing{}) }, "p = -Inf"},
		{"for too large", func() (Filter, error) { return NewStandardFor(1<<62, 1e-9, Hashing{}) }, "needs more than the maximum"},
		{"partitioned m<k", func() (Filter, error) { return NewPartitioned(Geometry{Bits: 3, Hashes: 4}, Hashing{}) }, "fewer than hashes"},
		{"partitioned m=0", func() (Filter, error) { return NewPartitioned(Geometry{Bits: 0, Hashes: 4}, Hashing{}) }, "bits m = 0"},
		{"partitioned k=0", func() (Filter, error) { return NewPartitioned(Geometry{Bits: 10, Hashes: 0}, Hashing{}) }, "hashes k = 0"},
		{"partitioned beyond memory", func() (Filter, error) { return NewPartitioned(Geometry{Bits: huge, Hashes: 4}, Hashing{}) }, "memory"},
		{"partitioned for p NaN", func() (Filter, error) { return NewPartitionedFor(100, math.NaN(), Hashing{}) }, "p = NaN"},
		{"partitioned bad hash kind", func() (Filter, error) { return NewPartitioned(Geometry{Bits: 100, Hashes: 3}, Hashing{Kind: 6}) }, "hash kind 6"},
		{"partitioned murmur64a", func() (Filter, error) {
			return NewPartitioned(Geometry{Bits: 100, Hashes: 3}, Hashing{Kind: Murmur64A})
		}, "only a RedisBloom filter"},
		{"partitioned xxh64", func() (Filter, error) { return NewPartitioned(Geometry{Bits: 100, Hashes: 3}, Hashing{Kind: XXH64}) }, "only a split-block filter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := tt.make()
			if err == nil {
				t.Fatalf("no error; got %+v", f.Stats())
			}
			if !errors.Is(err, ErrInvalidParams) {
				t.Errorf("error %q does not wrap ErrInvalidParams", err)
			}
			if !strings.HasPrefix(err.Error(), "variants: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to start with %q and mention %q", err, "variants: ", tt.want)
			}
			if f != nil && !isNilFilter(f) {
				t.Errorf("non-nil filter returned with an error")
			}
		})
	}
}

func isNilFilter(f Filter) bool {
	switch f := f.(type) {
	case *Standard:
		return f == nil
	case *Partitioned:
		return f == nil
	}
	return f == nil
}

// TestSizedGeometry checks the sizing rule against values worked by hand:
// n = 1e6, p = 0.01: m = ceil(1e6 * ln 100 / (ln 2)^2) = ceil(9585058.38) =
// 9585059 and (m/n) ln 2 = 6.64, so k is 6 or 7; the classic rate is
// 0.0101432 at k = 6 and 0.0100392 at k = 7, so k = 7.
func TestSizedGeometry(t *testing.T) {
	g, err := StandardGeometry(1_000_000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if g.Bits != 9585059 || g.Hashes != 7 {
		t.Errorf("StandardGeometry(1e6, 0.01) = %+v, want {9585059 7}", g)
	}
	p, err := NewPartitioned(Geometry{Bits: 100, Hashes: 7}, Hashing{})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Geometry(); got.Bits != 105 || p.SliceBits() != 15 {
		t.Errorf("partitioned {100 7} built %+v with slices of %d, want 105 bits in slices of 15", got, p.SliceBits())
	}
}

// TestFastPathMatchesProbe: the inlined recurrence loops of Standard and
// Partitioned must set and test exactly the cells that the general probe
// (and Hashing.Indexes) derives.
func TestFastPathMatchesProbe(t *testing.T) {
	for _, h := range allHashings {
		if h.Derivation == Independent {
			continue // always takes the probe path
		}
		s1, _ := NewStandard(Geometry{Bits: 10007, Hashes: 11}, h)
		s2, _ := NewStandard(Geometry{Bits: 10007, Hashes: 11}, h)
		p1, _ := NewPartitioned(Geometry{Bits: 10007, Hashes: 11}, h)
		p2, _ := NewPartitioned(Geometry{Bits: 10007, Hashes: 11}, h)
		keys := testKeys(9, 1, 800)
		for i, k := range keys {
			d := h.Digest(k)
			if i%2 == 0 {
				s1.AddDigest(d)
				s2.addProbe(d)
				p1.AddDigest(d)
				p2.addProbe(d)
			} else if s1.TestAndAddDigest(d) != s2.testAndAddProbe(d) || p1.TestAndAddDigest(d) != p2.testAndAddProbe(d) {
				t.Fatalf("%v: TestAndAdd paths disagree", h.Derivation)
			}
		}
		for i := range s1.words {
			if s1.words[i] != s2.words[i] {
				t.Fatalf("%v: standard fast path and probe path set different bits", h.Derivation)
			}
		}
		for i := range p1.words {
			if p1.words[i] != p2.words[i] {
				t.Fatalf("%v: partitioned fast path and probe path set different bits", h.Derivation)
			}
		}
		// Every bit a key sets is the one Indexes derives.
		idx := h.Indexes(nil, h.Digest(keys[0]), 11, 10007)
		for _, i := range idx {
			if s1.words[i>>6]&(1<<(i&63)) == 0 {
				t.Fatalf("%v: bit %d from Indexes not set", h.Derivation, i)
			}
		}
		for _, k := range testKeys(10, 2, 5000) {
			d := h.Digest(k)
			if s1.ContainsDigest(d) != s1.containsProbe(d) || p1.ContainsDigest(d) != p1.containsProbe(d) {
				t.Fatalf("%v: Contains paths disagree", h.Derivation)
			}
		}
	}
}

// TestSmallPartitionedMatchesTheory: a partitioned filter sized for 1000
// items at 1% and holding 500 has slices of 1370 bits, where double hashing
// without the mixer measured 11% above (1-(1-1/b)^n)^k. Over 400 seeded
// filters the mean rate must lie within 4 standard errors (of the spread
// between filters) of the formula, for every derivation.
func TestSmallPartitionedMatchesTheory(t *testing.T) {
	t.Parallel()
	const filters, n, q = 400, 500, 25_000
	for _, h := range []Hashing{{}, {Derivation: Double}} {
		rates := make([]float64, filters)
		var want float64
		for i := range rates {
			h.Seed = uint64(i)
			f, err := NewPartitionedFor(1000, 0.01, h)
			if err != nil {
				t.Fatal(err)
			}
			want = partitionedFPR(f.SliceBits(), n, f.Geometry().Hashes)
			rates[i] = measureFPR(t, f, uint64(1000+i), n, q)
		}
		var mean, ss float64
		for _, r := range rates {
			mean += r / filters
		}
		for _, r := range rates {
			ss += (r - mean) * (r - mean)
		}
		se := math.Sqrt(ss / (filters - 1) / filters)
		if math.Abs(mean-want) > 4*se {
			t.Errorf("%v: mean rate %.4g over %d filters, theory %.4g (%.1f standard errors)", h.Derivation, mean, filters, want, (mean-want)/se)
		}
	}
}
