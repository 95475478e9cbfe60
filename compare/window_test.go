package compare

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
)

func TestDecredGeometry(t *testing.T) {
	for _, c := range []struct {
		window uint32
		p      float64
	}{{1000, 0.1}, {1000, 0.01}, {10000, 0.001}, {5000, 1e-4}, {7, 0.5}} {
		d, err := DecredFor(c.window, c.p)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("window %d p %g: k %d l %d g %d slice bits %d, capacity %d, guaranteed %d, %.2f bits per guaranteed item",
			c.window, c.p, d.K, d.L, d.Generation, d.SliceBits, d.Capacity(), d.Guaranteed(), float64(d.Bits())/float64(d.Guaranteed()))
		if d.Capacity() < uint64(c.window) {
			t.Errorf("capacity %d below the window %d", d.Capacity(), c.window)
		}
	}
	for _, bad := range []func() error{
		func() error { _, err := DecredFor(0, 0.01); return err },
		func() error { _, err := DecredFor(10, 1); return err },
		func() error { _, err := DecredKL(10, 0, 3); return err },
		func() error { _, err := StableFor(1, 0.01); return err },
	} {
		if err := bad(); !errors.Is(err, experiments.ErrInvalidParams) {
			t.Errorf("got %v, want ErrInvalidParams", err)
		}
	}
}

// TestDecredPromise checks decred's window at every phase of a
// generation: the newest L g + 1 items always test present, and some of
// the Capacity() = (L+1) g it promises do not.
func TestDecredPromise(t *testing.T) {
	d, err := DecredKL(400, 4, 3) // g = 100
	if err != nil {
		t.Fatal(err)
	}
	key := func(f int, i uint64) []byte {
		return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, uint64(f)), i)
	}
	warm := 10 * d.Generation
	pc, err := CheckPhases(NewDecred(400, d), 4, warm, int(d.Generation), d.Capacity(), key)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v, guaranteed %d", pc, d.Guaranteed())
	if pc.Safe < d.Guaranteed() {
		t.Errorf("an item of age %d tested absent, below the guaranteed %d", pc.Safe, d.Guaranteed())
	}
	if pc.Missed == 0 || pc.Safe >= d.Capacity() {
		t.Errorf("no item of the promised %d tested absent: %+v", d.Capacity(), pc)
	}
	pc, err = CheckPhases(NewDecred(400, d), 4, warm, int(d.Generation), d.Guaranteed(), key)
	if err != nil || pc.Missed != 0 {
		t.Errorf("guaranteed window: %+v, %v", pc, err)
	}
}

// TestStableModel checks the one-cell model of the stable filter: no
// false positive before the first add, recall 1 at age 0, and a limit
// within 2% of Deng and Rafiei's stable-point rate, which it should
// approach (both count a cell cleared with probability P/m and set with
// about K/m per add).
func TestStableModel(t *testing.T) {
	st, err := StableFor(100_000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	rate, recall := st.Model()
	if rate(0) != 0 || recall(0, 5) != 1 {
		t.Errorf("rate(0) = %g, recall(0) = %g", rate(0), recall(0, 5))
	}
	lim := rate(1 << 30)
	if r := lim / st.StableRate(); r < 0.98 || r > 1.02 {
		t.Errorf("model limit %g, stable-point rate %g", lim, st.StableRate())
	}
	if !(recall(1000, 0) < recall(10, 0) && recall(1<<30, 0) > 0) {
		t.Errorf("recall does not fall with age: %g, %g", recall(10, 0), recall(1000, 0))
	}
}

// TestAPTheoryOnDecred checks that the exact theory at decred's geometry
// gives its published rate at its published point: decred's README
// (v1.0.1) reports 0.867% at a 1% target and capacity 1000, measured
// after 10 capacities of adds, the end of a generation.
func TestAPTheoryOnDecred(t *testing.T) {
	d, err := DecredFor(1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.Theory()
	if err != nil {
		t.Fatal(err)
	}
	rate, recall := APTheory(a)
	at := rate(10 * d.Capacity())
	t.Logf("exact rate at 10 capacities %.4g, worst %.4g, decred's formula %.4g", at, a.WorstFPR(), a.OneNumberFPR())
	if at < 0.0083 || at > 0.0089 {
		t.Errorf("exact rate at decred's published point %g, published 0.867%%", at)
	}
	if recall(d.Guaranteed()-1, 10*d.Capacity()) != 1 || recall(0, 1) != -1 {
		t.Errorf("recall inside the window %g, before the steady state %g", recall(d.Guaranteed()-1, 10*d.Capacity()), recall(0, 1))
	}
}

// TestDecredPublishedTable sets bloomlab's exact theory, at the geometry
// decred's NewFilter builds, beside the table of observed rates in
// decred's README (apbf v1.0.1, "Accuracy Under Workloads"): each filter
// took 10 capacities of adds, the end of a generation, and was probed
// with capacity/p never-added items. The theory must lie within 4
// standard errors of each published rate (binomial, with that many
// probes), plus half a unit of its last printed digit; decred's own
// formula (CalcFPRate) is logged beside it.
func TestDecredPublishedTable(t *testing.T) {
	for _, c := range []struct {
		capacity  uint32
		p         float64
		published float64 // percent, as printed
		digit     float64 // the unit of its last printed digit, percent
	}{
		{1000, 0.001, 0.097, 0.001}, {10000, 0.001, 0.099, 0.001}, {10000000, 0.001, 0.1, 0.1},
		{1000, 0.01, 0.867, 0.001}, {10000, 0.01, 0.862, 0.001}, {10000000, 0.01, 0.857, 0.001},
		{1000, 0.02, 1.464, 0.001}, {10000, 0.02, 1.451, 0.001}, {10000000, 0.02, 1.461, 0.001},
		{1000, 0.1, 6.74, 0.01}, {10000, 0.1, 6.96, 0.01}, {10000000, 0.1, 7.024, 0.001},
	} {
		d, err := DecredFor(c.capacity, c.p)
		if err != nil {
			t.Fatal(err)
		}
		a, err := d.Theory()
		if err != nil {
			t.Fatal(err)
		}
		rate, _ := APTheory(a)
		th := rate(10 * d.Capacity())
		obs := c.published / 100
		probes := float64(c.capacity) / c.p
		se := math.Sqrt(th * (1 - th) / probes)
		tol := 4*se + c.digit/200
		t.Logf("capacity %d at %g: published %.4g%%, exact theory %.4g%% (tolerance %.2g%%), decred's formula %.4g%%",
			c.capacity, c.p, c.published, 100*th, 100*tol, 100*a.OneNumberFPR())
		if math.Abs(th-obs) > tol {
			t.Errorf("capacity %d at %g: published %g%%, exact theory %.4g%%, more than %.2g%% apart", c.capacity, c.p, c.published, 100*th, 100*tol)
		}
	}
}
