package compare_test

import (
	"context"
	"testing"

	"github.com/bloomlab/bloomlab/compare"
	"github.com/bloomlab/bloomlab/experiments"
)

// dispersion returns the variance of the filters' false-positive counts
// over their mean: about 1 when the filters differ by query noise alone
// (binomial counts), larger when the filters themselves differ.
func dispersion(row experiments.Row) float64 {
	var sum, sq float64
	for _, t := range row.Trials {
		sum += float64(t.Count)
	}
	mean := sum / float64(len(row.Trials))
	for _, t := range row.Trials {
		d := float64(t.Count) - mean
		sq += d * d
	}
	return sq / float64(len(row.Trials)-1) / mean
}

// TestKeySourcesExposeFNV measures the fixed-size filters on sequential
// keys (8-byte big-endian integers from a per-filter start). bloomlab's
// and bits-and-blooms' filters differ from filter to filter little more
// than query noise explains (dispersion below 3; seeded, so the numbers
// are fixed: 0.15 to 1.8 here, on both sources). BoomFilters, which hashes
// with FNV-1, gets rates from none to several times its theory depending
// on where a filter's sequence starts: a dispersion above 20 (109 and 273
// here). On uniform keys BoomFilters' filters are as alike as the others'
// (0.5 and 0.8), so the spread comes from the keys.
func TestKeySourcesExposeFNV(t *testing.T) {
	const n = 20_000
	for _, name := range []string{"sequential", "uniform"} {
		src, err := experiments.NewKeySource(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		specs, err := compare.FixedSpecs(n, 0.01, []uint64{n})
		if err != nil {
			t.Fatal(err)
		}
		for i := range specs {
			specs[i].Keys = src
		}
		r, err := experiments.Measure(context.Background(), specs, experiments.Params{Filters: 10, Queries: 20_000}, experiments.Options{Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range r.Rows {
			d := dispersion(row)
			t.Logf("%s keys, %s: rate %.4g, theory %.4g, dispersion %.2f", name, row.Series, row.Rate, row.Theory, d)
			boom := row.Series == compare.BoomClassic || row.Series == compare.BoomPartitioned
			switch {
			case boom && name == "sequential" && d < 20:
				t.Errorf("%s on sequential keys: dispersion %.2f, want above 20", row.Series, d)
			case !(boom && name == "sequential") && d > 3:
				t.Errorf("%s on %s keys: dispersion %.2f, want below 3", row.Series, name, d)
			}
		}
	}
}
