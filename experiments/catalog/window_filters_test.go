package catalog

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// TestWindowBaselineFilters checks the two baseline filters against their
// theory's Held at every position of several cycles: the queried filter
// holds exactly the last Held(t) items, every one of them tests present,
// and TestAndAdd agrees with Contains.
func TestWindowBaselineFilters(t *testing.T) {
	h := variants.Hashing{Seed: 7}
	a := analysis.AlternatingWindow{Half: 50, Bits: 2000, Hashes: 4}
	c := analysis.ClearedWindow{Capacity: 70, Bits: 2000, Hashes: 4}
	fa, err := newAlternating(a, h)
	if err != nil {
		t.Fatal(err)
	}
	fc, err := newCleared(c, h)
	if err != nil {
		t.Fatal(err)
	}
	key := func(i uint64) []byte { return binary.LittleEndian.AppendUint64(nil, i) }
	for _, x := range []struct {
		name string
		f    variants.Filter
		held func(uint64) uint64
	}{{"alternating", fa, a.Held}, {"cleared", fc, c.Held}} {
		for tt := uint64(1); tt <= 400; tt++ {
			before := x.f.Contains(key(tt - 1))
			if got := x.f.TestAndAdd(key(tt - 1)); got != before {
				t.Fatalf("%s: TestAndAdd at %d = %v, Contains before %v", x.name, tt, got, before)
			}
			held := x.held(tt)
			if st := x.f.Stats(); st.Items != held {
				t.Fatalf("%s: after %d adds the queried filter holds %d items, theory %d", x.name, tt, st.Items, held)
			}
			for age := range held {
				if !x.f.Contains(key(tt - 1 - age)) {
					t.Fatalf("%s: after %d adds the item of age %d tests absent, held %d", x.name, tt, age, held)
				}
			}
		}
		x.f.Reset()
		if st := x.f.Stats(); st.Items != 0 || st.FillRatio != 0 {
			t.Errorf("%s: after Reset %d items, fill %g", x.name, st.Items, st.FillRatio)
		}
	}
	if st := fa.Stats(); st.Bits != 2*a.Bits || st.Variant != "alternating" {
		t.Errorf("alternating: Stats %+v, want %d bits", st, 2*a.Bits)
	}
	if _, err := newAlternating(analysis.AlternatingWindow{}, h); !errors.Is(err, experiments.ErrInvalidParams) {
		t.Errorf("alternating of half 0: %v", err)
	}
	if _, err := newCleared(analysis.ClearedWindow{Capacity: 1}, h); !errors.Is(err, experiments.ErrInvalidParams) {
		t.Errorf("cleared of 0 bits: %v", err)
	}
}

// TestDoubleHashedAPWindow checks the double-hashed model's window at
// every phase of several generations: the newest l g + 1 items test
// present, and the item just older than that does not always.
func TestDoubleHashedAPWindow(t *testing.T) {
	const k, l, g, b = 4, 3, 50, 300
	f, err := newDoubleHashedAP(k, l, g, b, variants.Hashing{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	key := func(i uint64) []byte { return binary.LittleEndian.AppendUint64(nil, i) }
	var beyond, absent int
	for tt := uint64(1); tt <= 20*g; tt++ {
		f.Add(key(tt - 1))
		w := min(tt, l*g+1)
		for age := range w {
			if !f.Contains(key(tt - 1 - age)) {
				t.Fatalf("after %d adds the item of age %d tests absent, window %d", tt, age, w)
			}
		}
		if tt > (k+l)*g && (tt-1)%g == 0 { // just after a shift
			beyond++
			if !f.Contains(key(tt - 1 - (l*g + 1))) {
				absent++
			}
		}
	}
	if absent == 0 {
		t.Errorf("the item of age l g + 1 tested present at all %d shifts", beyond)
	}
	if f.Bits() != (k+l)*b {
		t.Errorf("bits %d", f.Bits())
	}
	if _, err := newDoubleHashedAP(0, 1, 1, 1, variants.Hashing{}); !errors.Is(err, experiments.ErrInvalidParams) {
		t.Errorf("k = 0: %v", err)
	}
}

// TestDoubleHashedAPContains checks the jumping query against a plain
// scan for a run of K set bits, on a filter in its steady state.
func TestDoubleHashedAPContains(t *testing.T) {
	f, err := newDoubleHashedAP(3, 5, 20, 40, variants.Hashing{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	key := func(i uint64) []byte { return binary.LittleEndian.AppendUint64(nil, i) }
	for i := range uint64(400) {
		f.Add(key(i))
	}
	var present int
	for q := uint64(1000); q < 3000; q++ {
		d := f.hashing.Digest(key(q))
		run, want := 0, false
		for j := range f.n {
			p := f.pos(d, (f.front+j)%f.n)
			if f.words[p/64]&(1<<(p%64)) == 0 {
				run = 0
			} else if run++; run >= f.k {
				want = true
			}
		}
		if got := f.Contains(key(q)); got != want {
			t.Fatalf("key %d: Contains %v, scan %v", q, got, want)
		}
		if want {
			present++
		}
	}
	if present == 0 || present == 2000 {
		t.Errorf("%d of 2000 keys present: the test does not tell the two apart", present)
	}
}
