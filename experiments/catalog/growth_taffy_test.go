package catalog

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/variants"
)

// TestTaffyChain checks the growth experiment's taffy chain against its
// definition: stage errors p 6/(π² (i+1)²) that sum to less than p,
// capacities n0 2^i, every key inserted into the newest stage, no false
// negative, the geometry's bits (taffyTheory) and its rate at the built
// stages, and one line per stage for an absent key.
func TestTaffyChain(t *testing.T) {
	const p, n0 = 0.01, 100
	var sum float64
	for i := range 48 {
		sum += taffyStageError(p, i)
	}
	if !(sum < p && sum > 0.97*p) {
		t.Errorf("stage errors sum to %g, want just below %g", sum, p)
	}
	c, err := newTaffyChain(n0, p, variants.Hashing{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	key := func(i uint64) []byte { return binary.LittleEndian.AppendUint64(nil, i) }
	const n = 10_000 // stages of 100, 200, ..., 6400: seven
	for i := range uint64(n) {
		c.Add(key(i))
	}
	st := c.Stats()
	if len(st.Stages) != 7 || st.Items != n {
		t.Fatalf("%d stages, %d items, want 7 and %d", len(st.Stages), st.Items, n)
	}
	for i, s := range st.Stages {
		if s.Capacity != n0<<i || s.Error != taffyStageError(p, i) {
			t.Errorf("stage %d: capacity %d, error %g", i, s.Capacity, s.Error)
		}
		if want := min(uint64(n0<<i), n-(n0<<i-n0)); s.Items != want {
			t.Errorf("stage %d holds %d keys, want %d", i, s.Items, want)
		}
	}
	fpr, bpk, err := taffyTheory(n0, p, []uint64{n})
	if err != nil {
		t.Fatal(err)
	}
	if got := float64(st.Bits) / n; got != bpk[0] {
		t.Errorf("%g bits per key built, theory's geometry %g", got, bpk[0])
	}
	if !(fpr[0] > 0 && fpr[0] < p) {
		t.Errorf("theory %g, want below %g", fpr[0], p)
	}
	for i := range uint64(n) {
		if !c.Contains(key(i)) {
			t.Fatalf("false negative for key %d", i)
		}
	}
	const q = 200_000
	var fp, lines int
	for i := range uint64(q) {
		k := key(1<<40 + i)
		if c.Contains(k) {
			fp++
		}
		lines += c.QueryLines(c.Hashing().Digest(k))
	}
	rate := float64(fp) / q
	if se := math.Sqrt(fpr[0] / q); math.Abs(rate-fpr[0]) > 4*se {
		t.Errorf("measured %g, theory %g (standard error %.2g)", rate, fpr[0], se)
	}
	if m := float64(lines) / q; m < 6.9 || m > 7 {
		t.Errorf("%g lines per absent query with 7 stages of 32-byte blocks", m)
	}
	if _, err := newTaffyChain(0, p, variants.Hashing{}); err == nil {
		t.Error("n0 = 0 accepted")
	}
}
