package variants

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

var counterWidths = []int{2, 4, 8, 16}

// counter returns counter i of f, read without the packed shortcuts.
func (f *Counting) counter(i uint64) uint64 {
	perWord := uint64(64 / f.width)
	return f.words[i/perWord] >> (i % perWord * uint64(f.width)) & (1<<f.width - 1)
}

// distinctIndexes returns the distinct counter indexes f derives for key.
func distinctIndexes(f *Counting, key []byte) []uint64 {
	g := f.Geometry()
	idx := f.Hashing().Indexes(nil, f.Hashing().Digest(key), g.Hashes, g.Bits)
	slices.Sort(idx)
	return slices.Compact(idx)
}

// TestCountingSticky: adding one key 2^w + 1 times saturates its counters;
// removing it 2^w + 1 times leaves them saturated and the key present.
func TestCountingSticky(t *testing.T) {
	for _, w := range counterWidths {
		for _, h := range allHashings[:2] {
			t.Run(fmt.Sprintf("w=%d/%v", w, h.Kind), func(t *testing.T) {
				f, err := NewCounting(CountingParams{Geometry: Geometry{Bits: 1000, Hashes: 5}, Width: w, Hashing: h})
				if err != nil {
					t.Fatal(err)
				}
				key := []byte("sticky")
				idx := distinctIndexes(f, key)
				times := 1<<w + 1
				for range times {
					f.Add(key)
				}
				for _, i := range idx {
					if c := f.counter(i); c != 1<<w-1 {
						t.Fatalf("counter %d = %d after %d adds, want saturated %d", i, c, times, 1<<w-1)
					}
				}
				if st := f.Stats(); st.Saturated != uint64(len(idx)) {
					t.Errorf("Stats.Saturated = %d, want %d", st.Saturated, len(idx))
				}
				d := h.Digest(key)
				for j := range times {
					// Alternate the key and digest forms.
					var ok bool
					if j%2 == 0 {
						ok = f.Remove(key)
					} else {
						ok = f.RemoveDigest(d)
					}
					if !ok {
						t.Fatalf("remove %d of %d reported the key absent", j+1, times)
					}
				}
				if !f.Contains(key) {
					t.Fatal("key absent after as many removes as adds: saturation is not sticky")
				}
				st := f.Stats()
				if st.Saturated != uint64(len(idx)) || st.Items != 0 {
					t.Errorf("after removes: Saturated = %d, Items = %d, want %d, 0", st.Saturated, st.Items, len(idx))
				}
			})
		}
	}
}

// TestCountingRoundTrip: below saturation, j adds and j removes of a key
// return every counter to zero, and one more remove reports false.
func TestCountingRoundTrip(t *testing.T) {
	for _, w := range counterWidths {
		for _, h := range allHashings {
			// A key may derive one index twice; 2j stays below 2^w - 1.
			for _, j := range []int{1, (1<<w - 1) / 2} {
				f, err := NewCounting(CountingParams{Geometry: Geometry{Bits: 777, Hashes: 7}, Width: w, Hashing: h})
				if err != nil {
					t.Fatal(err)
				}
				key := []byte("round trip")
				for range j {
					f.Add(key)
				}
				for range j {
					if !f.Remove(key) {
						t.Fatalf("w=%d %v/%v: Remove of a present key reported false", w, h.Kind, h.Derivation)
					}
				}
				if slices.ContainsFunc(f.words, func(x uint64) bool { return x != 0 }) {
					t.Errorf("w=%d %v/%v: counters not all zero after %d adds and removes", w, h.Kind, h.Derivation, j)
				}
				if f.Remove(key) {
					t.Errorf("w=%d %v/%v: Remove of a removed key reported true", w, h.Kind, h.Derivation)
				}
			}
		}
	}
}

// TestCountingRemoveAbsent: removing a key that tests absent changes
// nothing and reports false.
func TestCountingRemoveAbsent(t *testing.T) {
	f, err := NewCountingFor(1000, 0.01, Hashing{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range testKeys(1, 1, 500) {
		f.Add(k)
	}
	before := slices.Clone(f.words)
	items := f.Stats().Items
	removed := 0
	for _, k := range testKeys(1, 2, 2000) {
		if f.Contains(k) {
			continue // a false positive; see TestCountingRemoveNonMember
		}
		if f.Remove(k) || f.RemoveDigest(f.Hashing().Digest(k)) {
			t.Fatalf("Remove of absent key %x reported true", k)
		}
		removed++
	}
	if !slices.Equal(before, f.words) || f.Stats().Items != items {
		t.Error("Remove of absent keys changed the filter")
	}
	if removed < 1900 {
		t.Errorf("only %d of 2000 fresh keys tested absent", removed)
	}
}

// TestCountingRandomOps runs a long seeded sequence of adds and removes
// against a reference multiset: no key with positive multiplicity ever
// tests absent. Only keys with positive multiplicity are removed (see
// TestCountingRemoveNonMember for why). The loads are chosen so that
// counters saturate in both configurations.
func TestCountingRandomOps(t *testing.T) {
	for _, tc := range []struct {
		width int
		m     uint64
	}{{2, 1 << 14}, {4, 1 << 12}} {
		t.Run(fmt.Sprintf("w=%d/m=%d", tc.width, tc.m), func(t *testing.T) {
			const universe, ops = 2000, 200_000
			h := Hashing{Seed: uint64(tc.width)}
			f, err := NewCounting(CountingParams{Geometry: Geometry{Bits: tc.m, Hashes: 4}, Width: tc.width, Hashing: h})
			if err != nil {
				t.Fatal(err)
			}
			keys := testKeys(9, 1, universe)
			mult := make([]int, universe)
			r := rand.New(rand.NewPCG(10, uint64(tc.width)))
			checkAll := func(op int) {
				t.Helper()
				for j, k := range keys {
					if mult[j] > 0 && !f.Contains(k) {
						t.Fatalf("op %d: key %d with multiplicity %d tests absent", op, j, mult[j])
					}
				}
			}
			var total, removes int
			for op := range ops {
				j := r.IntN(universe)
				k := keys[j]
				// From multiplicity 0 a key is added with probability
				// 1/2; above it, added with 2/5 and removed with 3/5, so
				// multiplicities stay small (mean about 2) and counters
				// keep returning to zero.
				switch u := r.Float64(); {
				case mult[j] == 0 && u >= 0.5:
					f.Contains(k)
				case mult[j] == 0 || u < 0.4:
					switch op % 3 {
					case 0:
						f.Add(k)
					case 1:
						f.AddDigest(h.Digest(k))
					case 2:
						if was := f.TestAndAdd(k); mult[j] > 0 && !was {
							t.Fatalf("op %d: TestAndAdd of a member reported absent", op)
						}
					}
					mult[j]++
					total++
				default:
					var ok bool
					if op%2 == 0 {
						ok = f.Remove(k)
					} else {
						ok = f.RemoveDigest(h.Digest(k))
					}
					if !ok {
						t.Fatalf("op %d: Remove of key %d with multiplicity %d reported false", op, j, mult[j])
					}
					mult[j]--
					total--
					removes++
				}
				if mult[j] > 0 && !f.Contains(k) {
					t.Fatalf("op %d: key %d with multiplicity %d tests absent", op, j, mult[j])
				}
				if op%5000 == 0 {
					checkAll(op)
				}
			}
			checkAll(ops)
			st := f.Stats()
			if st.Items != uint64(total) {
				t.Errorf("Stats.Items = %d, want %d (adds minus removes)", st.Items, total)
			}
			t.Logf("%d removes; at the end %d items, %d of %d counters saturated, fill %.3f", removes, total, st.Saturated, st.Cells, st.FillRatio)
			if st.Saturated == 0 {
				t.Error("no counter saturated: the test does not exercise saturation")
			}
		})
	}
}

// TestCountingMatchesStandard: with no saturation, a counting filter that
// added A and removed a subset B answers every query (keys of A, of B and
// never added) exactly as a standard filter of the same geometry and
// hashing that added only A minus B; before the removals it answers
// exactly as a standard filter that added A, so its false-positive
// behaviour is the standard filter's.
func TestCountingMatchesStandard(t *testing.T) {
	const nA, nB, nQ = 6000, 2500, 20000
	g := Geometry{Bits: 60000, Hashes: 6}
	a := testKeys(21, 1, nA)
	q := testKeys(21, 2, nQ)
	all := slices.Concat(a, q)
	for _, w := range counterWidths[1:] { // at this load 2-bit counters saturate
		for _, h := range allHashings {
			t.Run(fmt.Sprintf("w=%d/%v/%v", w, h.Kind, h.Derivation), func(t *testing.T) {
				c, err := NewCounting(CountingParams{Geometry: g, Width: w, Hashing: h})
				if err != nil {
					t.Fatal(err)
				}
				s, err := NewStandard(g, h)
				if err != nil {
					t.Fatal(err)
				}
				same := func(stage string) {
					t.Helper()
					if st := c.Stats(); st.Saturated != 0 {
						t.Fatalf("%s: %d counters saturated; the comparison needs none", stage, st.Saturated)
					}
					for i, k := range all {
						if cc, sc := c.Contains(k), s.Contains(k); cc != sc {
							t.Fatalf("%s: key %d: counting says %v, standard %v", stage, i, cc, sc)
						}
					}
					if cf, sf := c.Stats().FillRatio, s.Stats().FillRatio; cf != sf {
						t.Errorf("%s: fill ratio %v, standard %v", stage, cf, sf)
					}
				}
				for _, k := range a {
					c.Add(k)
					s.Add(k)
				}
				same("after adding A")
				for _, k := range a[:nB] {
					if !c.Remove(k) {
						t.Fatalf("Remove of a member reported false")
					}
				}
				s.Reset()
				for _, k := range a[nB:] {
					s.Add(k)
				}
				same("after removing B")
			})
		}
	}
}

// TestCountingRemoveNonMember documents the hazard that Remove's comment
// describes: removing keys that were never added but test present (false
// positives) decrements counters of members and makes some members test
// absent. The counting experiment measures how often.
func TestCountingRemoveNonMember(t *testing.T) {
	f, err := NewCounting(CountingParams{Geometry: Geometry{Bits: 2000, Hashes: 4}, Hashing: Hashing{Seed: 5}})
	if err != nil {
		t.Fatal(err)
	}
	members := testKeys(31, 1, 400)
	for _, k := range members {
		f.Add(k)
	}
	falsePositives := 0
	for _, k := range testKeys(31, 2, 5000) {
		if f.Contains(k) {
			falsePositives++
			if !f.Remove(k) {
				t.Fatal("Remove of a key that tests present reported false")
			}
		}
	}
	lost := 0
	for _, k := range members {
		if !f.Contains(k) {
			lost++
		}
	}
	t.Logf("removing %d false positives made %d of %d members test absent", falsePositives, lost, len(members))
	if falsePositives == 0 || lost == 0 {
		t.Errorf("removing %d false positives lost %d members; expected the documented false negatives", falsePositives, lost)
	}
}

// TestCountingCounts checks the packed counts of Stats against counters
// read one by one, and the memory of packed counters.
func TestCountingCounts(t *testing.T) {
	for _, w := range counterWidths {
		const m = 1001
		f, err := NewCounting(CountingParams{Geometry: Geometry{Bits: m, Hashes: 3}, Width: w})
		if err != nil {
			t.Fatal(err)
		}
		if want := (m*w + 63) / 64; len(f.words) != want {
			t.Errorf("w=%d: %d words for %d counters, want %d", w, len(f.words), m, want)
		}
		for _, k := range testKeys(41, 1, 600) {
			f.Add(k)
			f.Add(k) // loads of several per counter, so narrow ones saturate
		}
		var nz, sat uint64
		for i := range uint64(m) {
			c := f.counter(i)
			if c != 0 {
				nz++
			}
			if c == 1<<w-1 {
				sat++
			}
		}
		st := f.Stats()
		if st.Cells != m || st.CellBits != w || st.Bits != m*uint64(w) || st.Hashes != 3 || st.Variant != "counting" {
			t.Errorf("w=%d: geometry in Stats %+v", w, st)
		}
		if st.FillRatio != float64(nz)/m || st.Saturated != sat {
			t.Errorf("w=%d: Stats fill %v saturated %d, counted %v and %d", w, st.FillRatio, st.Saturated, float64(nz)/m, sat)
		}
		if want := math.Pow(st.FillRatio, 3); st.EstimatedFPR != want {
			t.Errorf("w=%d: EstimatedFPR %v, want fill^k = %v", w, st.EstimatedFPR, want)
		}
		if f.Width() != w || f.Geometry() != (Geometry{Bits: m, Hashes: 3}) {
			t.Errorf("w=%d: Width %d, Geometry %+v", w, f.Width(), f.Geometry())
		}
	}
	f, err := NewCounting(CountingParams{Geometry: Geometry{Bits: 100, Hashes: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Width() != DefaultCounterWidth || DefaultCounterWidth != 4 {
		t.Errorf("width 0 built width %d, want the default 4", f.Width())
	}
}

// TestCountingInvalidParams: every invalid parameter gives an error
// wrapping ErrInvalidParams that names it.
func TestCountingInvalidParams(t *testing.T) {
	g := Geometry{Bits: 100, Hashes: 3}
	tests := []struct {
		name string
		make func() (*Counting, error)
		want string
	}{
		{"width 1", func() (*Counting, error) { return NewCounting(CountingParams{Geometry: g, Width: 1}) }, "counter width w = 1"},
		{"width 3", func() (*Counting, error) { return NewCounting(CountingParams{Geometry: g, Width: 3}) }, "counter width w = 3"},
		{"width 32", func() (*Counting, error) { return NewCounting(CountingParams{Geometry: g, Width: 32}) }, "counter width w = 32"},
		{"width -4", func() (*Counting, error) { return NewCounting(CountingParams{Geometry: g, Width: -4}) }, "counter width w = -4"},
		{"m=0", func() (*Counting, error) {
			return NewCounting(CountingParams{Geometry: Geometry{Bits: 0, Hashes: 3}, Width: 4})
		}, "bits m = 0"},
		{"k=0", func() (*Counting, error) {
			return NewCounting(CountingParams{Geometry: Geometry{Bits: 100, Hashes: 0}, Width: 4})
		}, "hashes k = 0"},
		{"m too large", func() (*Counting, error) {
			return NewCounting(CountingParams{Geometry: Geometry{Bits: MaxBits + 1, Hashes: 3}, Width: 4})
		}, "bits m ="},
		{"beyond memory", func() (*Counting, error) {
			return NewCounting(CountingParams{Geometry: Geometry{Bits: 1 << 47, Hashes: 3}, Width: 16})
		}, "memory"},
		{"bad hash kind", func() (*Counting, error) {
			return NewCounting(CountingParams{Geometry: g, Width: 4, Hashing: Hashing{Kind: 9}})
		}, "hash kind 9"},
		{"for n=0", func() (*Counting, error) { return NewCountingFor(0, 0.01, Hashing{}) }, "capacity n = 0"},
		{"for p=0", func() (*Counting, error) { return NewCountingFor(100, 0, Hashing{}) }, "p = 0"},
		{"for width 5", func() (*Counting, error) { return countingFor(100, 0.01, 5, Hashing{}) }, "counter width w = 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := tt.make()
			if err == nil {
				t.Fatalf("no error; got %+v", f.Stats())
			}
			if f != nil {
				t.Error("non-nil filter returned with an error")
			}
			if !errors.Is(err, ErrInvalidParams) {
				t.Errorf("error %q does not wrap ErrInvalidParams", err)
			}
			if !strings.HasPrefix(err.Error(), "variants: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to start with %q and mention %q", err, "variants: ", tt.want)
			}
		})
	}
}

// TestCountingRemoveNoAllocs checks that Remove does not allocate.
func TestCountingRemoveNoAllocs(t *testing.T) {
	f, err := NewCountingFor(1000, 0.01, Hashing{})
	if err != nil {
		t.Fatal(err)
	}
	keys := testKeys(3, 1, 100)
	allocs := testing.AllocsPerRun(100, func() {
		for _, k := range keys {
			f.Add(k)
			f.Remove(k)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

// TestCountingHistogram checks Histogram against counters replayed from
// Hashing.Indexes (the derivation Counting shares with Standard), capped
// at the saturated value, for every width.
func TestCountingHistogram(t *testing.T) {
	for _, w := range []int{2, 4, 8, 16} {
		h := Hashing{Seed: uint64(w)}
		f, err := NewCounting(CountingParams{Geometry: Geometry{Bits: 1001, Hashes: 5}, Width: w, Hashing: h})
		if err != nil {
			t.Fatal(err)
		}
		top := uint64(1)<<w - 1
		replay := make([]uint64, 1001)
		for _, k := range testKeys(uint64(w), 1, 700) {
			f.Add(k)
			for _, i := range h.Indexes(nil, h.Digest(k), 5, 1001) {
				if replay[i] < top {
					replay[i]++
				}
			}
		}
		want := make([]uint64, top+1)
		for _, c := range replay {
			want[c]++
		}
		if got := f.Histogram(); !slices.Equal(got, want) {
			t.Errorf("width %d: Histogram %v, replayed %v", w, got, want)
		}
	}
}

// countingFor returns an empty counting filter sized by StandardGeometry
// for capacity items at rate fpr with counters of width bits:
// NewCountingFor for a width other than the default.
func countingFor(capacity uint64, fpr float64, width int, h Hashing) (*Counting, error) {
	g, err := StandardGeometry(capacity, fpr)
	if err != nil {
		return nil, err
	}
	return NewCounting(CountingParams{Geometry: g, Width: width, Hashing: h})
}
