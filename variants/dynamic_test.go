package variants

import (
	"errors"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// TestDynamicRate: 24 dynamic filters of stages of 1000 items at 1%, five
// stages full, against analysis.Dynamic.FPR.
func TestDynamicRate(t *testing.T) {
	geom := analysis.Dynamic{N: 1000, P: 0.01}
	growingRate(t, "dynamic", 24, 5000, 10000, func(seed uint64) Filter {
		f, err := NewDynamic(DynamicParams{N: 1000, P: 0.01, Hashing: Hashing{Seed: seed}})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}, func(items uint64) float64 {
		r, err := geom.FPR(items)
		if err != nil {
			t.Fatal(err)
		}
		return r
	})
}

func TestDynamicInvalid(t *testing.T) {
	for _, p := range []DynamicParams{
		{N: 0, P: 0.01},
		{N: 100, P: 0},
		{N: 100, P: 1},
		{N: 100, P: math.NaN()},
		{N: 100, P: 0.01, Hashing: Hashing{Derivation: Double}},
		{N: 100, P: 0.01, Hashing: Hashing{Kind: Murmur64A}},
		{N: 1 << 62, P: 1e-9},
	} {
		f, err := NewDynamic(p)
		if f != nil || !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v: %v", p, err)
		}
	}
}

// TestDynamicChain: stages of one geometry open as the newest fills, each
// holding N items; Add inserts every key, TestAndAdd only absent ones.
func TestDynamicChain(t *testing.T) {
	f, err := NewDynamic(DynamicParams{N: 100, P: 0.01, Hashing: Hashing{Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	keys := testKeys(22, 1, 1050)
	for _, k := range keys {
		f.Add(k)
	}
	st := f.Stats()
	geom, _ := analysis.Dynamic{N: 100, P: 0.01}.Stage()
	if f.Stages() != 11 || len(st.Stages) != 11 || st.Items != 1050 || st.Capacity != 1100 {
		t.Fatalf("%d stages, %+v", f.Stages(), st)
	}
	for i, s := range st.Stages {
		want := uint64(100)
		if i == 10 {
			want = 50
		}
		if s.Items != want || s.Bits != geom.Bits || s.Hashes != geom.Hashes || s.Error != 0.01 {
			t.Errorf("stage %d: %+v", i, s)
		}
	}
	for _, k := range keys {
		if !f.Contains(k) || !f.TestAndAdd(k) {
			t.Fatalf("false negative %x", k)
		}
	}
	if f.Stats().Items != 1050 {
		t.Error("TestAndAdd inserted a present key")
	}
	f.Add(keys[0])
	if f.Stats().Items != 1051 {
		t.Error("Add skipped a present key")
	}
	f.Reset()
	if f.Stages() != 1 || f.Stats().Items != 0 || f.Contains(keys[0]) {
		t.Error("Reset did not empty the filter")
	}
	for _, k := range keys {
		f.Add(k)
	}
	if f.Stages() != 11 {
		t.Errorf("%d stages after refilling", f.Stages())
	}
}

// TestDynamicStagesIndependent: a key's positions in two stages are
// unrelated. With stages of one slice of 94548 bits (N = 2^16 at P =
// 0.5, k = 1), a key takes the same position in stages 0 and 1 with
// probability 1/94548, so among 10^4 keys about 0.1 should.
func TestDynamicStagesIndependent(t *testing.T) {
	f, err := NewDynamic(DynamicParams{N: 1 << 16, P: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	h0, h1 := f.hot[0], f.streamStage(1, f.stages[0])
	if h0.k != 1 || h0.b < 90000 {
		t.Fatalf("stage of %d slices of %d bits", h0.k, h0.b)
	}
	same := 0
	for _, k := range testKeys(23, 1, 10000) {
		s := streamSeed(f.hashing.Digest(k))
		if h0.index(s+h0.x0, 0) == h1.index(s+h1.x0, 0) {
			same++
		}
	}
	if same > 3 {
		t.Errorf("%d of 10000 keys take the same position in stages 0 and 1", same)
	}
}
