package compare

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/stats"
	boom "github.com/tylertreat/BoomFilters"
)

// TestFixedSpecsOnHarness measures every library's fixed-size filter
// through the harness on 20 filters at three sizes. bloomlab's variants
// and bits-and-blooms' filter, whose positions are well mixed, measure
// their theory within four standard errors at every size; every filter
// reports the bits of the geometry its theory describes.
func TestFixedSpecsOnHarness(t *testing.T) {
	const n, p = 4000, 0.01
	specs, err := FixedSpecs(n, p, []uint64{n / 2, n, 2 * n})
	if err != nil {
		t.Fatal(err)
	}
	r, err := experiments.Measure(context.Background(), specs, experiments.Params{Filters: 20, Queries: 20_000}, experiments.Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 3*len(specs) {
		t.Fatalf("%d rows for %d specs", len(r.Rows), len(specs))
	}
	for _, row := range r.Rows {
		if row.Filters != 20 || row.Bits < 9*n || row.Bits > 11*n || row.Model == "" {
			t.Errorf("%s at %d: %d filters, %d bits, model %q", row.Series, row.Items, row.Filters, row.Bits, row.Model)
		}
		if row.Series == BoomClassic || row.Series == BoomPartitioned {
			continue // see the README: its positions are not independent on these keys
		}
		rates := make([]float64, len(row.Trials))
		for i, tr := range row.Trials {
			rates[i] = float64(tr.Count) / float64(row.Queries)
		}
		if se := stats.StandardError(rates); math.Abs(row.Rate-row.Theory) > 4*se {
			t.Errorf("%s at %d keys: measured %g, theory %g, %.1f standard errors apart", row.Series, row.Items, row.Rate, row.Theory, math.Abs(row.Rate-row.Theory)/se)
		}
	}
}

// TestBoomScalableStages checks the model of BoomScalableFPR against the
// library: after n keys, the sum of the stages' m that the model builds is
// the Capacity of a BoomFilters default scalable filter that was given n
// distinct keys, so the model opens its stages where the library does.
func TestBoomScalableStages(t *testing.T) {
	const p = 0.001
	f := boom.NewDefaultScalableBloomFilter(p)
	var key [8]byte
	var added uint64
	for _, n := range []uint64{0, 1, 9_000, 9_966, 9_967, 9_968, 25_000, 60_000} {
		for ; added < n; added++ {
			binary.LittleEndian.PutUint64(key[:], added)
			f.Add(key[:])
		}
		var m uint64
		stages := boomStages(p, n)
		for _, st := range stages {
			m += st.m
		}
		if m != uint64(f.Capacity()) {
			t.Errorf("%d keys: the model's %d stages have %d bits, the library's Capacity is %d", n, len(stages), m, f.Capacity())
		}
	}
	if got := BoomScalableFPR(p, 0); got != 0 {
		t.Errorf("empty: rate %g", got)
	}
	// Full stages keep each rate near its design error p r^i, so the
	// compound rate stays below the sum p/(1-r) of the design errors.
	if got, bound := BoomScalableFPR(p, 1_000_000), p/(1-BoomScalableRatio); got <= BoomScalableFPR(p, 100_000) || got >= bound {
		t.Errorf("rate %g at 10^6 keys, bound %g", got, bound)
	}
}

// TestCountingLosses checks that bloomlab's sticky counters lose no member
// in the counting test, and that bad arguments give an error.
func TestCountingLosses(t *testing.T) {
	losses, err := CountingLosses(3, 4, 20_000, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range losses {
		if len(l.Lost) != 4 || l.Interval.Lo > l.Mean || l.Mean > l.Interval.Hi {
			t.Errorf("%s: lost %v, mean %g in %v", l.Name, l.Lost, l.Mean, l.Interval)
		}
	}
	if lab := losses[1]; lab.Mean != 0 {
		t.Errorf("%s lost %v members", lab.Name, lab.Lost)
	}
	for _, bad := range [][3]int{{1, 100, 1}, {4, 0, 1}, {4, 100, 0}} {
		if _, err := CountingLosses(1, bad[0], uint64(bad[1]), bad[2]); err == nil {
			t.Errorf("CountingLosses(%v) succeeded", bad)
		}
	}
}

// TestReversed checks that Reversed feeds its filter every key reversed,
// reports the filter's bits and keeps the spec's other fields.
func TestReversed(t *testing.T) {
	specs, err := FixedSpecs(1000, 0.01, []uint64{1000})
	if err != nil {
		t.Fatal(err)
	}
	s := specs[len(specs)-1]
	r := Reversed(s)
	if r.Name != s.Name+" (keys reversed)" || r.Theory == nil || r.Model != s.Model || len(r.Items) != 1 {
		t.Fatalf("reversed spec %+v", r)
	}
	f, err := r.New(0)
	if err != nil {
		t.Fatal(err)
	}
	inner := f.(*reversed).f
	f.Add([]byte("abc"))
	if !inner.Contains([]byte("cba")) || !f.Contains([]byte("abc")) {
		t.Error("the reversed key is not in the filter")
	}
	if got, want := f.(experiments.Sizer).Bits(), inner.(experiments.Sizer).Bits(); got != want || got == 0 {
		t.Errorf("Bits = %d, want %d", got, want)
	}
}
