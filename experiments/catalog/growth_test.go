package catalog

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/stats"
)

// growthParams grows every design from 20 to 20,000 keys on 8 filters:
// about a second.
var growthParams = experiments.Params{N: 20, Filters: 8, Queries: 3000, Span: 1000, Checkpoints: 2, Passes: 1, MinAdds: 2000}

// TestGrowth runs the growth experiment small and checks what it exists
// to show. Each design's false positives, pooled over its checkpoints per
// filter, are within 4 standard errors (from the spread over the
// filters) of what its theory expects, for every design but RedisBloom's
// chain of tables as computed, whose theory is that of independent probes
// and whose excess is what the experiment measures (the power-of-two
// chain's small links take the exact rate of its double hashing). Almeida's theory stays below the target at every
// checkpoint and the dynamic filter's passes it; the standard filter sized
// in advance uses the fewest bits per key at the end and the scalable
// filters more; every design has times and lines per query at every
// decade. The theories of Taffy's chain and the horizon-aware filters
// stay below the target too, and the taffy chain, which inserts every
// key, has exactly its geometry's bits per key.
func TestGrowth(t *testing.T) {
	r := mustRun(t, "growth", "all", growthParams, experiments.Options{Seed: 11})
	target := r.Params.P
	final := uint64(20_000)
	rates := map[string][]*experiments.Row{}
	times := map[string][]*experiments.Row{}
	for i := range r.Rows {
		row := &r.Rows[i]
		if d, ok := strings.CutSuffix(row.Series, growthTimed); ok {
			times[d] = append(times[d], row)
		} else {
			rates[row.Series] = append(rates[row.Series], row)
		}
	}
	for _, d := range growthDesigns {
		rows := rates[d]
		if len(rows) != 7 || rows[len(rows)-1].Items != final {
			t.Fatalf("%s: %d rate rows, want 7 checkpoints from 20 to %d", d, len(rows), final)
		}
		if ts := times[d]; len(ts) != 4 || ts[0].Items != 20 || ts[3].Items != final {
			t.Fatalf("%s: %d time rows, want 4 decades", d, len(ts))
		}
		for _, ts := range times[d] {
			if !(ts.NsPerAdd > 0 && ts.NsPerQuery > 0 && ts.NsPerPresent > 0) {
				t.Errorf("%s at %d: times %g, %g, %g", d, ts.Items, ts.NsPerAdd, ts.NsPerQuery, ts.NsPerPresent)
			}
		}
		if d == growthRedis {
			continue
		}
		// Pooled check, one value per filter.
		ratios := make([]float64, growthParams.Filters)
		var expected float64
		for _, row := range rows {
			expected += float64(row.Queries) * row.Theory
		}
		for f := range ratios {
			var c float64
			for _, row := range rows {
				c += float64(row.Trials[f].Count)
			}
			ratios[f] = c / expected
		}
		mean, iv, err := stats.TInterval(ratios, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		se := (iv.Hi - iv.Lo) / 2 / 2.365 // t quantile, 7 degrees of freedom
		t.Logf("%s: pooled %.3f, %.1f standard errors from 1", d, mean, (mean-1)/se)
		if math.Abs(mean-1) > 4*se {
			t.Errorf("%s: false positives %.3f times the theory's, %.1f standard errors from 1", d, mean, (mean-1)/se)
		}
	}
	for _, d := range []string{growthAlmeida, growthAlmeidaBlocked, growthTaffy, growthHorizonExact, growthHorizon2x, growthHorizon10x, growthHorizon10xSpread} {
		for _, row := range rates[d] {
			if row.Theory > target {
				t.Errorf("%s at %d: theory %g above the target", d, row.Items, row.Theory)
			}
		}
	}
	// Every timed filter counts its lines, and an absent key reads at
	// least one line per stage of a chain of blocks (Taffy's).
	for _, d := range growthDesigns {
		for _, ts := range times[d] {
			if !(ts.LinesAbsent >= 1 && ts.LinesPresent >= 1) {
				t.Errorf("%s at %d: lines per query %g absent, %g present", d, ts.Items, ts.LinesAbsent, ts.LinesPresent)
			}
		}
	}
	for _, ts := range times[growthTaffy] {
		if ts.Stages < 1 || ts.LinesAbsent < ts.Stages*0.99 || ts.LinesAbsent > ts.Stages {
			t.Errorf("taffy at %d: %g lines per absent query with %g stages, want about one a stage", ts.Items, ts.LinesAbsent, ts.Stages)
		}
	}
	if last := rates[growthDynamic][6]; last.Theory < 10*target || last.Rate < 10*target {
		t.Errorf("dynamic filter after 1000 stages: theory %g, measured %g, want far above the target", last.Theory, last.Rate)
	}
	std := rates[growthStandard][6].BitsPerKey
	for _, d := range growthDesigns {
		if bpe := rates[d][6].BitsPerKey; bpe < std*0.999 {
			t.Errorf("%s: %.2f bits per key at the end, below the standard filter's %.2f", d, bpe, std)
		}
	}
	if a := rates[growthAlmeida][6].BitsPerKey; a < 1.3*std {
		t.Errorf("almeida: %.2f bits per key, want well above the standard filter's %.2f", a, std)
	}
	// The geometry's bits per key, as the figure draws them, are the
	// measured ones: at every point for the filters that insert every key,
	// at most points for those that skip keys testing present.
	for _, d := range growthDesigns {
		var ns []uint64
		for _, row := range rates[d] {
			ns = append(ns, row.Items)
		}
		bits, err := growthBits(d, r.Params, ns)
		if err != nil {
			t.Fatal(err)
		}
		same := 0
		for i, row := range rates[d] {
			if math.Abs(bits[i]-row.BitsPerKey) <= 1e-9*bits[i] {
				same++
			}
		}
		if want := len(ns); (d == growthDynamic || d == growthStandard || d == growthTaffy) && same != want || same < want/2 {
			t.Errorf("%s: growthBits equals the measured bits per key at %d of %d points", d, same, want)
		}
	}
	if _, err := growthBits("bloom", r.Params, []uint64{1}); !errors.Is(err, experiments.ErrInvalidParams) {
		t.Errorf("growthBits of an unknown design: %v", err)
	}
	summary := 0
	for _, n := range r.Notes {
		if strings.Contains(n, "times the standard filter sized in advance") {
			summary++
		}
	}
	if summary != len(growthDesigns) {
		t.Errorf("%d summary notes, want one per design", summary)
	}
}

// TestGrowthShards: a sharded growth run merges to the unsharded run's
// rate rows; the times, measured again, are the only difference.
func TestGrowthShards(t *testing.T) {
	p := tiny("growth")
	whole := mustRun(t, "growth", "all", p, experiments.Options{Seed: 4})
	var shards []*experiments.Results
	for i := range 2 {
		s := mustRun(t, "growth", "all", p, experiments.Options{Seed: 4, Shard: experiments.Shard{Index: i, Count: 2}})
		back, err := experiments.ReadJSON(bytes.NewReader(jsonOf(t, s)))
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, back)
	}
	merged, err := Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	if len(merged.Rows) != len(whole.Rows) {
		t.Fatalf("%d rows merged, %d whole", len(merged.Rows), len(whole.Rows))
	}
	for i := range whole.Rows {
		a, b := &merged.Rows[i], &whole.Rows[i]
		if strings.HasSuffix(a.Series, growthTimed) {
			continue
		}
		if a.Series != b.Series || a.Items != b.Items || a.Rate != b.Rate || a.Theory != b.Theory || a.BitsPerKey != b.BitsPerKey {
			t.Errorf("row %d: merged %s at %d: %g (theory %g), whole %s at %d: %g (theory %g)", i, a.Series, a.Items, a.Rate, a.Theory, b.Series, b.Items, b.Rate, b.Theory)
		}
	}
}
