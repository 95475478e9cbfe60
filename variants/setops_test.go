package variants

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// setOpsFilter is what Standard and Partitioned offer for set operations,
// written generically so that one test covers both.
type setOpsFilter[F any] interface {
	Filter
	Union(F) error
	Intersect(F) error
	Equal(F) bool
}

func TestSetOpsStandard(t *testing.T) {
	testSetOps(t, allHashings, func(h Hashing) *Standard {
		f, err := NewStandardFor(5000, 0.01, h)
		if err != nil {
			t.Fatal(err)
		}
		return f
	})
}

func TestSetOpsPartitioned(t *testing.T) {
	testSetOps(t, allHashings, func(h Hashing) *Partitioned {
		f, err := NewPartitionedFor(5000, 0.01, h)
		if err != nil {
			t.Fatal(err)
		}
		return f
	})
}

// testSetOps checks, for every hashing option, that the union of filters
// of A and B equals the filter of A ∪ B, that their intersection has no
// false negatives on A ∩ B and contains the filter of A ∩ B, the item
// counts, and that Equal ignores the item count but not the bits.
func testSetOps[F setOpsFilter[F]](t *testing.T, hashings []Hashing, newFilter func(Hashing) F) {
	for _, h := range hashings {
		onlyA := testKeys(61, 1, 1500)
		onlyB := testKeys(61, 2, 1500)
		both := testKeys(61, 3, 1000)
		fa, fb, fab, fboth := newFilter(h), newFilter(h), newFilter(h), newFilter(h)
		for _, k := range append(append([][]byte{}, onlyA...), both...) {
			fa.Add(k)
			fab.Add(k)
		}
		for _, k := range append(append([][]byte{}, onlyB...), both...) {
			fb.Add(k)
			fab.Add(k)
		}
		for _, k := range both {
			fboth.Add(k)
		}

		u := clone(t, fa)
		if err := u.Union(fb); err != nil {
			t.Fatal(err)
		}
		if !u.Equal(fab) {
			t.Fatalf("%v/%v: union differs from the filter of the union", h.Kind, h.Derivation)
		}
		if got := u.Stats().Items; got != 5000 {
			t.Errorf("union items = %d, want 2500 + 2500", got)
		}

		in := clone(t, fa)
		if err := in.Intersect(fb); err != nil {
			t.Fatal(err)
		}
		for _, k := range both {
			if !in.Contains(k) {
				t.Fatalf("intersection misses a key of both sets")
			}
		}
		if got := in.Stats().Items; got != 2500 {
			t.Errorf("intersection items = %d, want min(2500, 2500)", got)
		}
		// The intersection holds every bit of the filter of A ∩ B, and so
		// fills at least as much.
		sub := clone(t, fboth)
		if err := sub.Intersect(in); err != nil || !sub.Equal(fboth) {
			t.Fatalf("the filter of A ∩ B is not inside the intersection (%v)", err)
		}
		if in.Stats().FillRatio < fboth.Stats().FillRatio {
			t.Errorf("intersection fill %v below that of the filter of A ∩ B %v", in.Stats().FillRatio, fboth.Stats().FillRatio)
		}

		// Equal ignores items but sees bits.
		twice := clone(t, fboth)
		for _, k := range both[:10] {
			twice.Add(k)
		}
		if !twice.Equal(fboth) {
			t.Error("Equal depends on the item count")
		}
		twice.Add([]byte("one more key"))
		if twice.Equal(fboth) {
			t.Error("Equal ignores a new key")
		}
		var nilF F
		if fa.Equal(nilF) || !nilF.Equal(nilF) {
			t.Error("Equal with nil")
		}
	}
}

// clone copies a filter through its encoding.
func clone[F Filter](t *testing.T, f F) F {
	t.Helper()
	data, err := any(f).(persistent).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	g, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return g.(F)
}

// TestSetOpsIncompatible: filters that differ in geometry or hashing give
// an error wrapping ErrIncompatible naming each difference, and the
// receiver is unchanged.
func TestSetOpsIncompatible(t *testing.T) {
	base := Hashing{Seed: 1}
	std := func(m uint64, k int, h Hashing) *Standard {
		f, err := NewStandard(Geometry{Bits: m, Hashes: k}, h)
		if err != nil {
			t.Fatal(err)
		}
		f.Add([]byte("a"))
		return f
	}
	part := func(m uint64, k int, h Hashing) *Partitioned {
		f, err := NewPartitioned(Geometry{Bits: m, Hashes: k}, h)
		if err != nil {
			t.Fatal(err)
		}
		f.Add([]byte("a"))
		return f
	}
	tests := []struct {
		name string
		op   func() (error, bool) // error, receiver unchanged
		want string
	}{
		{"bits", stdOp(std(1000, 3, base), std(2000, 3, base)), "bits 1000 != 2000"},
		{"hashes", stdOp(std(1000, 3, base), std(1000, 4, base)), "hashes 3 != 4"},
		{"kind", stdOp(std(1000, 3, base), std(1000, 3, Hashing{Kind: Metro, Seed: 1})), "hash kind xxh3 != metro"},
		{"derivation", stdOp(std(1000, 3, base), std(1000, 3, Hashing{Derivation: Triple, Seed: 1})), "derivation enhanced-double != triple"},
		{"seed", stdOp(std(1000, 3, base), std(1000, 3, Hashing{Seed: 2})), "seed 1 != 2"},
		{"several", stdOp(std(1000, 3, base), std(999, 3, Hashing{Seed: 2})), "bits 1000 != 999, seed 1 != 2"},
		{"slice bits", partOp(part(1000, 4, base), part(2000, 4, base)), "slice bits 250 != 500"},
		{"slices", partOp(part(1000, 4, base), part(1000, 5, base)), "slice bits 250 != 200, hashes 4 != 5"},
		{"partitioned seed", partOp(part(1000, 4, base), part(1000, 4, Hashing{Seed: 9})), "seed 1 != 9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err, unchanged := tt.op()
			if !errors.Is(err, ErrIncompatible) || !strings.HasPrefix(err.Error(), "variants: incompatible filters: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want ErrIncompatible naming %q", err, tt.want)
			}
			if !unchanged {
				t.Error("receiver changed")
			}
		})
	}
}

func stdOp(f, g *Standard) func() (error, bool) {
	return func() (error, bool) {
		before := *f
		before.words = append([]uint64(nil), f.words...)
		err1 := f.Union(g)
		err2 := f.Intersect(g)
		if (err1 == nil) != (err2 == nil) {
			return errors.New("Union and Intersect disagree"), false
		}
		return err1, f.Equal(&before) && f.items == before.items
	}
}

func partOp(f, g *Partitioned) func() (error, bool) {
	return func() (error, bool) {
		before := *f
		before.words = append([]uint64(nil), f.words...)
		err1 := f.Union(g)
		err2 := f.Intersect(g)
		if (err1 == nil) != (err2 == nil) {
			return errors.New("Union and Intersect disagree"), false
		}
		return err1, f.Equal(&before) && f.items == before.items
	}
}

// TestUnionItemsSaturate: the summed item count saturates.
func TestUnionItemsSaturate(t *testing.T) {
	f, _ := NewStandard(Geometry{Bits: 64, Hashes: 1}, Hashing{})
	g, _ := NewStandard(Geometry{Bits: 64, Hashes: 1}, Hashing{})
	f.items, g.items = math.MaxUint64-1, 5
	if err := f.Union(g); err != nil || f.items != math.MaxUint64 {
		t.Errorf("items = %d, %v", f.items, err)
	}
}

// TestCountingUnionLanes checks the packed saturating addition of Union
// against counter-by-counter addition, for every width, on random words
// weighted toward large counters so that many saturate.
func TestCountingUnionLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	for _, w := range counterWidths {
		f, _ := NewCounting(CountingParams{Geometry: Geometry{Bits: 64 * 64 / uint64(w), Hashes: 1}, Width: w})
		g, _ := NewCounting(CountingParams{Geometry: Geometry{Bits: 64 * 64 / uint64(w), Hashes: 1}, Width: w})
		for range 200 {
			for i := range f.words {
				f.words[i], g.words[i] = r.Uint64()|r.Uint64(), r.Uint64()&r.Uint64()
				if i%4 == 0 {
					g.words[i] = r.Uint64() | r.Uint64() | r.Uint64()
				}
			}
			want := make([]uint64, f.m)
			for i := range want {
				want[i] = min(f.counter(uint64(i))+g.counter(uint64(i)), f.max)
			}
			if err := f.Union(g); err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if got := f.counter(uint64(i)); got != want[i] {
					t.Fatalf("w=%d: counter %d = %d, want %d", w, i, got, want[i])
				}
			}
		}
	}
}

// TestCountingUnion: the union of counting filters of A and B equals the
// filter that added both, saturated counters included; keys of B survive
// the removal of A from the union; the item counts add.
func TestCountingUnion(t *testing.T) {
	for _, w := range []int{2, 4} {
		for _, h := range allHashings {
			newF := func() *Counting {
				f, err := countingFor(3000, 0.01, w, h)
				if err != nil {
					t.Fatal(err)
				}
				return f
			}
			fa, fb, fab := newF(), newF(), newF()
			a, b := testKeys(81, 1, 1500), testKeys(81, 2, 1500)
			for i, k := range a {
				for range 1 + i%5 { // repeats saturate narrow counters
					fa.Add(k)
					fab.Add(k)
				}
			}
			for _, k := range b {
				fb.Add(k)
				fab.Add(k)
			}
			if err := fa.Union(fb); err != nil {
				t.Fatal(err)
			}
			if !fa.Equal(fab) {
				t.Fatalf("w=%d %v/%v: union differs from the filter of both", w, h.Kind, h.Derivation)
			}
			if fa.Stats().Items != fab.Stats().Items {
				t.Errorf("items %d, want %d", fa.Stats().Items, fab.Stats().Items)
			}
			if w == 2 && fa.Stats().Saturated == 0 {
				t.Error("no saturated counter: the test does not exercise saturation")
			}
			for _, k := range a {
				fa.Remove(k)
			}
			for _, k := range b {
				if !fa.Contains(k) {
					t.Fatalf("false negative for a key of B after removing A from the union")
				}
			}
		}
	}
}

// TestCountingUnionIncompatible: differences are named and the receiver
// is unchanged.
func TestCountingUnionIncompatible(t *testing.T) {
	mk := func(m uint64, k, w int, h Hashing) *Counting {
		f, err := NewCounting(CountingParams{Geometry: Geometry{Bits: m, Hashes: k}, Width: w, Hashing: h})
		if err != nil {
			t.Fatal(err)
		}
		f.Add([]byte("a"))
		return f
	}
	for _, tt := range []struct {
		g    *Counting
		want string
	}{
		{mk(1000, 3, 8, Hashing{}), "counter width 4 != 8"},
		{mk(999, 3, 4, Hashing{}), "counters 1000 != 999"},
		{mk(1000, 2, 4, Hashing{}), "hashes 3 != 2"},
		{mk(1000, 3, 4, Hashing{Kind: Metro}), "hash kind xxh3 != metro"},
		{mk(1000, 3, 2, Hashing{Seed: 5}), "counter width 4 != 2, seed 0 != 5"},
	} {
		f := mk(1000, 3, 4, Hashing{})
		before := append([]uint64(nil), f.words...)
		err := f.Union(tt.g)
		if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want ErrIncompatible naming %q", err, tt.want)
		}
		if !slices.Equal(before, f.words) || f.items != 1 {
			t.Error("receiver changed")
		}
	}
}

// TestCountingEqual: Equal sees counter values, not only non-zero cells.
func TestCountingEqual(t *testing.T) {
	f, _ := NewCounting(CountingParams{Geometry: Geometry{Bits: 1000, Hashes: 3}, Width: 4})
	g, _ := NewCounting(CountingParams{Geometry: Geometry{Bits: 1000, Hashes: 3}, Width: 4})
	f.Add([]byte("a"))
	g.Add([]byte("a"))
	if !f.Equal(g) {
		t.Fatal("equal filters not Equal")
	}
	g.Add([]byte("a"))
	if f.Equal(g) {
		t.Fatal("counters 1 and 2 compare Equal")
	}
	var nilF *Counting
	if f.Equal(nilF) || !nilF.Equal(nil) {
		t.Error("Equal with nil")
	}
}

// TestScalableEqual: Equal compares parameters, hashing and stages.
func TestScalableEqual(t *testing.T) {
	mk := func(p ScalableParams) *Scalable {
		f, err := NewScalable(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range testKeys(91, 1, 300) {
			f.Add(k)
		}
		return f
	}
	base := ScalableParams{P: 0.01, N0: 100}
	f, g := mk(base), mk(base)
	if f.Stages() < 2 || !f.Equal(g) {
		t.Fatalf("%d stages; equal filters not Equal", f.Stages())
	}
	for _, p := range []ScalableParams{{P: 0.02, N0: 100}, {P: 0.01, N0: 101}, {P: 0.01, R: 0.8, N0: 100}, {P: 0.01, N0: 100, Hashing: Hashing{Seed: 1}}} {
		if f.Equal(mk(p)) {
			t.Errorf("Equal ignores a difference in %+v", p)
		}
	}
	g.Add([]byte("one more"))
	if f.Equal(g) {
		t.Error("Equal ignores a key")
	}
	var nilF *Scalable
	if f.Equal(nilF) || !nilF.Equal(nil) {
		t.Error("Equal with nil")
	}
}
