package catalog

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/stats"
)

// tiny returns parameters that make experiment name run in well under a
// second.
func tiny(name string) experiments.Params {
	switch name {
	case "fill":
		return experiments.Params{N: 400, Filters: 4, Queries: 2000, Checkpoints: 4}
	case "bits":
		return experiments.Params{N: 200, Filters: 3, Queries: 500, BitsPerKey: []float64{2, 8}}
	case "hashes":
		return experiments.Params{N: 200, Filters: 3, Queries: 500, Hashes: []int{1, 4, 8}}
	case "small-m":
		return experiments.Params{Filters: 20, Queries: 500, Bits: []uint64{64, 256}}
	case "hashing":
		return experiments.Params{Filters: 3, Queries: 300, Bits: []uint64{256, 1024}}
	case "counting":
		return experiments.Params{N: 300, Filters: 3, Span: 2}
	case "scalable":
		return experiments.Params{N: 100, Filters: 2, Queries: 500, Span: 20, Checkpoints: 2, R: []float64{0.5, 0.9}, S: []float64{2}}
	case "memory":
		return experiments.Params{Keys: []uint64{1000, 3000}}
	case "speed":
		return experiments.Params{Keys: []uint64{1000, 5000}, Queries: 5000}
	case "self":
		return experiments.Params{Keys: []uint64{2000}, Queries: 2000, Passes: 2}
	case "blocking":
		return experiments.Params{N: 200, Filters: 3, Queries: 500, BitsPerKey: []float64{2, 8}, Keys: []uint64{1000, 5000}}
	case "adversary":
		return experiments.Params{N: 300, Filters: 3, Queries: 2000}
	case "cardinality":
		return experiments.Params{N: 400, Filters: 4}
	case "growth":
		return experiments.Params{N: 10, Filters: 2, Queries: 300, Span: 100, Checkpoints: 1, Passes: 1, MinAdds: 1000}
	case "window":
		return experiments.Params{N: 64, P: 0.01, Filters: 3, Queries: 500}
	case "boost":
		return experiments.Params{N: 2000, Filters: 3, Queries: 500, BitsPerKey: []float64{8}}
	}
	return experiments.Params{}
}

func csvOf(t *testing.T, r *experiments.Results) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := experiments.WriteCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jsonOf(t *testing.T, r *experiments.Results) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := experiments.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func mustRun(t *testing.T, name, variant string, p experiments.Params, o experiments.Options) *experiments.Results {
	t.Helper()
	r, err := Run(context.Background(), name, variant, p, o)
	if err != nil {
		t.Fatalf("Run(%s, %s): %v", name, variant, err)
	}
	return r
}

// TestEveryExperiment runs every experiment on every variant it measures at
// a tiny size and checks the shape of the results.
func TestEveryExperiment(t *testing.T) {
	for _, e := range List() {
		vs := []string{"all"}
		if e.PerVariant {
			vs = e.Variants
		}
		for _, v := range vs {
			t.Run(e.Name+"/"+v, func(t *testing.T) {
				r := mustRun(t, e.Name, v, tiny(e.Name), experiments.Options{Seed: 3})
				if len(r.Rows) == 0 {
					t.Fatal("no rows")
				}
				if r.Experiment != e.Name || r.Variant != v || r.Params.Conf != 0.95 || r.GoVersion == "" || r.ModuleVersion == "" {
					t.Errorf("metadata %q %q %+v %q %q", r.Experiment, r.Variant, r.Params, r.GoVersion, r.ModuleVersion)
				}
				for i, row := range r.Rows {
					if len(row.Trials) != row.Filters {
						t.Fatalf("row %d: %d trials, %d filters", i, len(row.Trials), row.Filters)
					}
					for j, tr := range row.Trials {
						if tr.Filter != j {
							t.Fatalf("row %d: trial %d is of filter %d", i, j, tr.Filter)
						}
					}
					if row.Queries > 0 && !(row.Lo <= row.Rate && row.Rate <= row.Hi) {
						t.Errorf("row %d: rate %g outside its interval [%g, %g]", i, row.Rate, row.Lo, row.Hi)
					}
					if row.Model != "" && row.Queries > 0 && row.Inside == "" {
						t.Errorf("row %d: theory not checked", i)
					}
				}
				if e.Timed {
					return
				}
				// Byte-identical on a rerun with another worker count.
				again := mustRun(t, e.Name, v, tiny(e.Name), experiments.Options{Seed: 3, Workers: 3})
				if !bytes.Equal(jsonOf(t, r), jsonOf(t, again)) {
					t.Error("rerun with 3 workers gives different JSON")
				}
			})
		}
	}
}

// TestWorkersDoNotMatter checks that the same seed gives byte-identical CSV
// and JSON on 1 and 4 workers, and that another seed changes the numbers.
func TestWorkersDoNotMatter(t *testing.T) {
	p := experiments.Params{N: 1000, Filters: 8, Queries: 5000, Checkpoints: 5}
	one := mustRun(t, "fill", "standard", p, experiments.Options{Seed: 42, Workers: 1})
	four := mustRun(t, "fill", "standard", p, experiments.Options{Seed: 42, Workers: 4})
	if !bytes.Equal(csvOf(t, one), csvOf(t, four)) {
		t.Errorf("CSV differs between 1 and 4 workers:\n%s\n%s", csvOf(t, one), csvOf(t, four))
	}
	if !bytes.Equal(jsonOf(t, one), jsonOf(t, four)) {
		t.Error("JSON differs between 1 and 4 workers")
	}
	other := mustRun(t, "fill", "standard", p, experiments.Options{Seed: 43, Workers: 4})
	if bytes.Equal(csvOf(t, one), csvOf(t, other)) {
		t.Error("seeds 42 and 43 give identical results")
	}
}

// TestShardMerge splits runs into shards, passes the shards through JSON
// as the command line does, merges them, and checks the merged output is
// byte for byte the unsharded run's.
func TestShardMerge(t *testing.T) {
	for _, c := range []struct {
		exp, variant string
		shards       int
	}{
		{"fill", "partitioned", 3},
		{"fill", "scalable", 2},
		{"small-m", "all", 4},
		{"counting", "all", 2},
		{"cardinality", "all", 3},
		{"adversary", "all", 2},
	} {
		t.Run(c.exp+"/"+c.variant, func(t *testing.T) {
			p := tiny(c.exp)
			whole := mustRun(t, c.exp, c.variant, p, experiments.Options{Seed: 7})
			var shards []*experiments.Results
			for i := c.shards - 1; i >= 0; i-- { // any order
				s := mustRun(t, c.exp, c.variant, p, experiments.Options{Seed: 7, Workers: 2, Shard: experiments.Shard{Index: i, Count: c.shards}})
				if s.Shard == nil || s.Shard.Index != i {
					t.Fatalf("shard %d results have Shard %v", i, s.Shard)
				}
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
			if !bytes.Equal(jsonOf(t, merged), jsonOf(t, whole)) {
				t.Errorf("merged JSON differs from the unsharded run's")
			}
			if !bytes.Equal(csvOf(t, merged), csvOf(t, whole)) {
				t.Errorf("merged CSV differs from the unsharded run's:\n%s\n%s", csvOf(t, merged), csvOf(t, whole))
			}

			// Incomplete, repeated and foreign shards are refused.
			if _, err := Merge(shards[1:]); err == nil {
				t.Error("merge without shard 0 succeeded")
			}
			dup := append([]*experiments.Results{shards[0]}, shards[:len(shards)-1]...)
			if _, err := Merge(dup); err == nil {
				t.Error("merge with a repeated shard succeeded")
			}
			other := mustRun(t, c.exp, c.variant, p, experiments.Options{Seed: 8, Shard: *shards[0].Shard})
			foreign := append([]*experiments.Results{other}, shards[1:]...)
			if _, err := Merge(foreign); err == nil {
				t.Error("merge of shards with different seeds succeeded")
			}
			if _, err := Merge([]*experiments.Results{whole}); err == nil {
				t.Error("merge of complete results succeeded")
			}
		})
	}
}

// TestAggregates recomputes a row's statistics from its raw trials with
// package analysis.
func TestAggregates(t *testing.T) {
	r := mustRun(t, "fill", "standard", experiments.Params{N: 2000, Filters: 6, Queries: 4000, Checkpoints: 2, Span: 1.5}, experiments.Options{Seed: 5})
	for _, row := range r.Rows {
		rates := make([]float64, len(row.Trials))
		var est float64
		for i, tr := range row.Trials {
			rates[i] = float64(tr.Count) / float64(row.Queries)
			est += tr.Estimated
		}
		mean, iv, err := stats.TInterval(rates, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if row.Interval != "t" || row.Rate != mean || row.Lo != math.Max(iv.Lo, 0) || row.Hi != iv.Hi {
			t.Errorf("items %d: row says %g [%g, %g] (%s), TInterval %g [%g, %g]", row.Items, row.Rate, row.Lo, row.Hi, row.Interval, mean, iv.Lo, iv.Hi)
		}
		if math.Abs(row.Estimated-est/float64(len(row.Trials))) > 1e-15 {
			t.Errorf("items %d: estimated %g, mean of trials %g", row.Items, row.Estimated, est/float64(len(row.Trials)))
		}
		want := analysis.ExactFPR(row.Bits, row.Items, row.Hashes)
		if row.Theory != want || row.Model != "exact" {
			t.Errorf("items %d: theory %g (%s), ExactFPR %g", row.Items, row.Theory, row.Model, want)
		}
	}
}

// TestZeroCountsUsePooledInterval checks the interval of a point where no
// filter saw a false positive: the Clopper-Pearson interval of the pooled
// queries.
func TestZeroCountsUsePooledInterval(t *testing.T) {
	r := mustRun(t, "fill", "standard", experiments.Params{N: 1000, Filters: 4, Queries: 1000, Checkpoints: 10, Span: 0.1}, experiments.Options{Seed: 1})
	row := r.Rows[0] // 10 items in a filter sized for 1000: rate about 1e-18
	if row.Rate != 0 || row.Interval != "pooled" || row.Lo != 0 {
		t.Fatalf("row %+v", row)
	}
	iv, _ := stats.ClopperPearson(0, 4000, 0.95)
	if row.Hi != iv.Hi {
		t.Errorf("Hi = %g, want %g", row.Hi, iv.Hi)
	}
}

// TestTheoryInsideIntervals is the statistical check of the runner against
// analysis: at a moderate size, the exact theory lies within four standard
// errors (from the spread between filters) of the measured rate at every
// point, and inside the 95% interval at nearly every point (the points of
// one run share their filters, so misses come in runs).
func TestTheoryInsideIntervals(t *testing.T) {
	p := experiments.Params{N: 2000, Filters: 24, Queries: 20_000, Checkpoints: 8}
	if testing.Short() {
		p.Filters, p.Queries = 12, 10_000
	}
	for _, v := range []string{"standard", "partitioned", "counting"} {
		r := mustRun(t, "fill", v, p, experiments.Options{Seed: 11})
		outside, checked := 0, 0
		for _, row := range r.Rows {
			checked++
			if row.Inside == "no" {
				outside++
			}
			rates := make([]float64, len(row.Trials))
			for i, tr := range row.Trials {
				rates[i] = float64(tr.Count) / float64(row.Queries)
			}
			se := stats.StandardError(rates)
			if se > 0 && math.Abs(row.Rate-row.Theory) > 4*se {
				t.Errorf("%s items %d: measured %g, theory %g: %.1f standard errors apart", v, row.Items, row.Rate, row.Theory, math.Abs(row.Rate-row.Theory)/se)
			}
		}
		if outside > checked/4 {
			t.Errorf("%s: theory outside the 95%% interval at %d of %d points", v, outside, checked)
		}
	}
}

// TestSmallMClassicUnderestimates reproduces the small-m acceptance check:
// at m = 64 bits the classic formula lies below the measured interval and
// the exact rate inside it.
func TestSmallMClassicUnderestimates(t *testing.T) {
	r := mustRun(t, "small-m", "standard", experiments.Params{Filters: 1000, Queries: 2000, Bits: []uint64{64}}, experiments.Options{Seed: 2})
	row := r.Rows[0]
	if row.Inside != "yes" {
		t.Errorf("exact %g outside the measured [%g, %g]", row.Theory, row.Lo, row.Hi)
	}
	if row.Classic >= row.Lo {
		t.Errorf("classic %g not below the measured [%g, %g]", row.Classic, row.Lo, row.Hi)
	}
}

// TestScalableBelowTarget grows scalable filters a hundredfold and checks
// the measured rate stays below the target P at every checkpoint, and the
// compound theory below its bound.
func TestScalableBelowTarget(t *testing.T) {
	p := experiments.Params{N: 200, P: 0.01, Filters: 6, Queries: 20_000, Span: 100, Checkpoints: 3}
	r := mustRun(t, "fill", "scalable", p, experiments.Options{Seed: 9})
	for _, row := range r.Rows {
		if row.Hi >= p.P || row.Theory > p.P {
			t.Errorf("items %d: measured %g [%g, %g], theory %g, target %g", row.Items, row.Rate, row.Lo, row.Hi, row.Theory, p.P)
		}
		if row.Stages < 1 || row.BitsPerKey <= 0 {
			t.Errorf("items %d: stages %g, bits per key %g", row.Items, row.Stages, row.BitsPerKey)
		}
	}
	if last := r.Rows[len(r.Rows)-1]; last.Items != 20_000 || last.Stages < 5 {
		t.Errorf("last checkpoint %d items, %g stages", last.Items, last.Stages)
	}
}

// TestCountingHistogram checks the counting experiment's histogram sums to
// one and its replayed counters agree with the filter (Run fails if not).
func TestCountingHistogram(t *testing.T) {
	r := mustRun(t, "counting", "counting", experiments.Params{N: 1000, Filters: 4, Span: 2}, experiments.Options{Seed: 4})
	var total float64
	for _, row := range r.Rows {
		if row.Series == countingHistogram {
			total += row.Rate
		}
	}
	if math.Abs(total-1) > 1e-12 {
		t.Errorf("histogram sums to %g", total)
	}
}

func TestWriteCSV(t *testing.T) {
	r := mustRun(t, "fill", "standard", experiments.Params{N: 500, Filters: 3, Queries: 1000, Checkpoints: 3}, experiments.Options{Seed: 1})
	recs, err := csv.NewReader(bytes.NewReader(csvOf(t, r))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+len(r.Rows) {
		t.Fatalf("%d records for %d rows", len(recs), len(r.Rows))
	}
	want := "series,variant,hashing,items,capacity,bits,hashes,bits_per_element,filters,queries,members,false_negatives,rate,lo,hi,interval,estimated,classic,theory,model,target,inside"
	if got := strings.Join(recs[0], ","); got != want {
		t.Errorf("header\n%s\nwant\n%s", got, want)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for i, rec := range recs[1:] {
		row := r.Rows[i]
		if rec[col["items"]] != strconv.FormatUint(row.Items, 10) || rec[col["series"]] != "standard" || rec[col["rate"]] != strconv.FormatFloat(row.Rate, 'g', -1, 64) {
			t.Errorf("record %d = %v, row %+v", i, rec, row)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	for _, name := range []string{"fill", "counting", "bits"} {
		r := mustRun(t, name, map[string]string{"fill": "standard", "counting": "all", "bits": "all"}[name], tiny(name), experiments.Options{Seed: 1})
		back, err := experiments.ReadJSON(bytes.NewReader(jsonOf(t, r)))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r, back) {
			t.Errorf("%s: JSON round trip changed the results", name)
		}
	}
	if _, err := experiments.ReadJSON(strings.NewReader(`{"experiment": "fill", "bogus": 1}`)); err == nil {
		t.Error("unknown field accepted")
	}
	if _, err := experiments.ReadJSON(strings.NewReader(`{}`)); err == nil {
		t.Error("results without an experiment accepted")
	}
}

func TestParamErrors(t *testing.T) {
	for _, c := range []struct {
		exp, variant string
		p            experiments.Params
		o            experiments.Options
		param        string
	}{
		{"nope", "standard", experiments.Params{}, experiments.Options{}, "exp"},
		{"fill", "all", experiments.Params{}, experiments.Options{}, "variant"},
		{"bits", "scalable", experiments.Params{}, experiments.Options{}, "variant"},
		{"fill", "standard", experiments.Params{P: 1.5}, experiments.Options{}, "p"},
		{"fill", "standard", experiments.Params{P: -1}, experiments.Options{}, "p"},
		{"fill", "standard", experiments.Params{Filters: -2}, experiments.Options{}, "filters"},
		{"fill", "standard", experiments.Params{Conf: 2}, experiments.Options{}, "conf"},
		{"fill", "scalable", experiments.Params{R: []float64{1.5}}, experiments.Options{}, "r"},
		{"fill", "scalable", experiments.Params{S: []float64{0.5}}, experiments.Options{}, "s"},
		{"counting", "all", experiments.Params{Widths: []int{3}}, experiments.Options{}, "widths"},
		{"fill", "standard", experiments.Params{}, experiments.Options{Shard: experiments.Shard{Index: 3, Count: 2}}, "shard"},
		{"speed", "all", experiments.Params{}, experiments.Options{Shard: experiments.Shard{Index: 0, Count: 2}}, "shard"},
		{"fill", "standard", experiments.Params{}, experiments.Options{Workers: -1}, "workers"},
	} {
		_, err := Run(context.Background(), c.exp, c.variant, c.p, c.o)
		var pe *experiments.ParamError
		if !errors.As(err, &pe) || pe.Param != c.param || !errors.Is(err, experiments.ErrInvalidParams) {
			t.Errorf("Run(%s, %s, %+v, %+v) = %v, want a ParamError for %s", c.exp, c.variant, c.p, c.o, err, c.param)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "experiments: ") {
			t.Errorf("error %q lacks the package prefix", err)
		}
	}
	for _, s := range []string{"", "1", "a/b", "2/2", "-1/3", "0/0"} {
		if _, err := experiments.ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q) succeeded", s)
		}
	}
	if sh, err := experiments.ParseShard("2/5"); err != nil || sh != (experiments.Shard{Index: 2, Count: 5}) {
		t.Errorf("ParseShard(2/5) = %v, %v", sh, err)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	_, err := Run(ctx, "fill", "standard", experiments.Params{N: 1_000_000, Filters: 50, Queries: 1_000_000}, experiments.Options{Seed: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestProgress(t *testing.T) {
	var calls, last, total int
	_, err := Run(context.Background(), "small-m", "all", tiny("small-m"), experiments.Options{Seed: 1, Progress: func(d, n int) {
		calls++
		if d != last+1 {
			t.Errorf("progress %d after %d", d, last)
		}
		last, total = d, n
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 || last != total {
		t.Errorf("%d calls, last %d of %d", calls, last, total)
	}
}

func TestGrowthCheckpoints(t *testing.T) {
	got := growthCheckpoints(1000, 1000, 1)
	want := []uint64{1000, 10000, 100000, 1000000}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("growthCheckpoints(1000, 1000, 1) = %v, want %v", got, want)
	}
	if got := growthCheckpoints(10, 10, 10); got[0] != 10 || got[len(got)-1] != 100 || len(got) != 11 {
		t.Errorf("growthCheckpoints(10, 10, 10) = %v", got)
	}
}

// TestBlockingPointLabels: the notes name a blocking point by what tells
// it apart, its memory or its sizing, not by its item count alone.
func TestBlockingPointLabels(t *testing.T) {
	if got := pointLabel("blocking", experiments.Row{Items: 10000, Bits: 100352}); got != "10.04 bits per key" {
		t.Errorf("sweep point %q", got)
	}
	if got := pointLabel("blocking", experiments.Row{Items: 20000, Bits: 191744, Target: 0.01}); got != "n = 20000 sized for p = 0.01" {
		t.Errorf("sized point %q", got)
	}
}
