package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// baselineSpecs returns window specs of the two baselines at a small size,
// with their exact theory.
func baselineSpecs(t *testing.T, window uint64, p float64) []experiments.WindowSpec {
	t.Helper()
	a, err := analysis.AlternatingWindowSize(window, p)
	if err != nil {
		t.Fatal(err)
	}
	c, err := analysis.ClearedWindowSize(2*window, p)
	if err != nil {
		t.Fatal(err)
	}
	var pos []uint64
	for x := window / 4; x <= 6*window; x += window / 4 {
		pos = append(pos, x)
	}
	ages := []uint64{0, window / 2, window, 3 * window / 2, 2 * window, 3 * window}
	at := []uint64{4 * window, 4*window + window/3, 4*window + 2*window/3}
	return []experiments.WindowSpec{
		{Name: "alternating", New: func(seed uint64) (experiments.Filter, error) { return newAlternating(a, variants.Hashing{Seed: seed}) },
			Positions: pos, Window: a.Window(), Theory: a.FPR, Model: "exact", Ages: ages, RecallAt: at, RecallTheory: a.Recall},
		{Name: "cleared", New: func(seed uint64) (experiments.Filter, error) { return newCleared(c, variants.Hashing{Seed: seed}) },
			Positions: pos, Window: c.Window(), Theory: c.FPR, Model: "exact", Ages: ages, RecallAt: at, RecallTheory: c.Recall},
	}
}

// TestMeasureWindowBaselines measures both baselines against their exact
// theory: the pooled checks of rate and recall are consistent, and no
// item of the window is missed.
func TestMeasureWindowBaselines(t *testing.T) {
	specs := baselineSpecs(t, 400, 0.05)
	res, err := experiments.MeasureWindow(context.Background(), specs, experiments.Params{Filters: 20, Queries: 2000}, experiments.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var pooled int
	for _, n := range res.Notes {
		if strings.Contains(n, "pooled over") {
			pooled++
			if !strings.Contains(n, ", consistent with the theory") {
				t.Errorf("note: %s", n)
			}
		}
	}
	if pooled != 4 {
		t.Errorf("%d pooled checks, want 4 (rate and recall of two specs): %q", pooled, res.Notes)
	}
	var recall int
	for _, r := range res.Rows {
		if r.AgeEnd > 0 {
			recall++
			if r.Series == "alternating recall" && r.AgeEnd <= 400 && r.Rate != 1 {
				t.Errorf("alternating: recall %g at ages %d to %d inside the window", r.Rate, r.Age, r.AgeEnd-1)
			}
		}
	}
	if recall != 10 {
		t.Errorf("%d recall rows, want 10", recall)
	}

	// A cleared filter does not keep two items: asking it to is caught.
	// Just after a clear (801 adds into a filter of capacity 800) it holds
	// one.
	specs[1].Window = 2
	specs[1].Positions = []uint64{801}
	_, err = experiments.MeasureWindow(context.Background(), specs[1:], experiments.Params{Filters: 2, Queries: 10}, experiments.Options{Seed: 3})
	if !errors.Is(err, experiments.ErrFalseNegative) {
		t.Errorf("cleared filter checked for a window of 2: %v, want ErrFalseNegative", err)
	}
}

// TestMeasureWindowShards checks that sharded window results merge into
// the unsharded ones.
func TestMeasureWindowShards(t *testing.T) {
	specs := baselineSpecs(t, 40, 0.1)
	p := experiments.Params{Filters: 5, Queries: 100}
	whole, err := experiments.MeasureWindow(context.Background(), specs, p, experiments.Options{Seed: 9, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var parts []*experiments.Results
	for i := range 2 {
		r, err := experiments.MeasureWindow(context.Background(), specs, p, experiments.Options{Seed: 9, Shard: experiments.Shard{Index: i, Count: 2}})
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, r)
	}
	merged, err := experiments.Merge(parts, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range whole.Rows {
		a, b := whole.Rows[i], merged.Rows[i]
		for j := range a.Trials {
			a.Trials[j].NsPerAdd, a.Trials[j].NsPerQuery, a.Trials[j].NsPerPresent = 0, 0, 0
			b.Trials[j].NsPerAdd, b.Trials[j].NsPerQuery, b.Trials[j].NsPerPresent = 0, 0, 0
		}
		a.NsPerAdd, a.NsPerQuery, a.NsPerPresent, b.NsPerAdd, b.NsPerQuery, b.NsPerPresent = 0, 0, 0, 0, 0, 0
		if !rowsEqual(a, b) {
			t.Fatalf("row %d: merged %+v, unsharded %+v", i, b, a)
		}
	}
}

func TestMeasureWindowInvalid(t *testing.T) {
	good := baselineSpecs(t, 40, 0.1)[0]
	for _, c := range []struct {
		name string
		mod  func(*experiments.WindowSpec)
	}{
		{"no name", func(s *experiments.WindowSpec) { s.Name = "" }},
		{"no new", func(s *experiments.WindowSpec) { s.New = nil }},
		{"no positions", func(s *experiments.WindowSpec) { s.Positions = nil }},
		{"zero position", func(s *experiments.WindowSpec) { s.Positions = []uint64{0, 5} }},
		{"decreasing", func(s *experiments.WindowSpec) { s.Positions = []uint64{5, 5} }},
		{"one age edge", func(s *experiments.WindowSpec) { s.Ages = []uint64{3} }},
		{"recall too early", func(s *experiments.WindowSpec) { s.RecallAt = []uint64{10} }},
		{"bad theory", func(s *experiments.WindowSpec) { s.Theory = func(uint64) float64 { return 2 } }},
		{"failing new", func(s *experiments.WindowSpec) {
			s.New = func(uint64) (experiments.Filter, error) { return nil, errors.New("no") }
		}},
	} {
		s := good
		c.mod(&s)
		if _, err := experiments.MeasureWindow(context.Background(), []experiments.WindowSpec{s}, experiments.Params{}, experiments.Options{}); !errors.Is(err, experiments.ErrInvalidParams) {
			t.Errorf("%s: %v, want ErrInvalidParams", c.name, err)
		}
	}
	if _, err := experiments.MeasureWindow(context.Background(), []experiments.WindowSpec{good}, experiments.Params{N: 5}, experiments.Options{}); !errors.Is(err, experiments.ErrInvalidParams) {
		t.Errorf("Params.N set: %v", err)
	}
}

// TestWindowAgePartitioned measures the age-partitioned design of the
// window experiment against its exact theory, from the first add (the
// stream rate) and by age, and checks the stream loads the theory uses
// against the filter's own per-slice counts.
func TestWindowAgePartitioned(t *testing.T) {
	ds, err := apDesigns(300, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	d := ds[0]
	var pos []uint64
	for x := uint64(50); x <= windowEnd(300, d); x += 50 {
		pos = append(pos, x)
	}
	spec := experiments.WindowSpec{Name: d.name, New: func(seed uint64) (experiments.Filter, error) { return d.build(variants.Hashing{Seed: seed}) },
		Positions: pos, Window: d.window, Theory: d.rate, Model: "exact",
		Ages: []uint64{0, 100, 200, 300, 350, 400, 500, 700}, RecallAt: []uint64{2000, 2000 + d.cycle/2}, RecallTheory: d.recall}
	res, err := experiments.MeasureWindow(context.Background(), []experiments.WindowSpec{spec}, experiments.Params{Filters: 20, Queries: 2000}, experiments.Options{Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	var pooled int
	for _, n := range res.Notes {
		if strings.Contains(n, "pooled over") {
			pooled++
			if !strings.Contains(n, ", consistent with the theory") {
				t.Errorf("note: %s", n)
			}
		}
	}
	if pooled != 2 {
		t.Errorf("%d pooled checks, want 2: %q", pooled, res.Notes)
	}

	a, err := analysis.AgePartitionedSize(300, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	f, err := variants.NewAgePartitioned(variants.AgePartitionedParams{K: a.K, L: a.L, G: a.G, SliceBits: a.SliceBits})
	if err != nil {
		t.Fatal(err)
	}
	for tt := uint64(1); tt <= uint64(a.K+a.L+2)*a.G; tt++ {
		f.Add([]byte{byte(tt), byte(tt >> 8), byte(tt >> 16)})
		if tt%5 != 0 && tt%a.G > 2 {
			continue // every fifth add, and around every shift
		}
		st := f.Stats()
		for j, s := range st.Slices {
			if want := analysis.AgePartitionedStreamLoad(a, j, tt); s.Items != want {
				t.Fatalf("after %d adds the slice of age %d holds %d items, AgePartitionedStreamLoad %d", tt, j, s.Items, want)
			}
		}
	}
}

// TestWindowExperimentParams checks the window experiment's parameter
// errors and its targets.
func TestWindowExperimentParams(t *testing.T) {
	for _, p := range []experiments.Params{{N: 10}, {N: 1 << 30}, {P: 1.5}} {
		if err := Check(context.Background(), "window", "all", p, experiments.Options{}); !errors.Is(err, experiments.ErrInvalidParams) {
			t.Errorf("%+v: %v, want ErrInvalidParams", p, err)
		}
	}
	for _, c := range []struct {
		p    float64
		want []float64
	}{{1e-4, []float64{0.1, 0.01, 0.001, 1e-4}}, {0.01, []float64{0.1, 0.01}}, {0.003, []float64{0.1, 0.01, 0.003}}, {0.3, []float64{0.3}}} {
		got := windowTargets(c.p)
		if len(got) != len(c.want) {
			t.Errorf("targets for %g: %v, want %v", c.p, got, c.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12*c.want[i] {
				t.Errorf("targets for %g: %v, want %v", c.p, got, c.want)
			}
		}
	}
}

// rowsEqual reports whether a and b have the same JSON form.
func rowsEqual(a, b experiments.Row) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
