package experiments_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"github.com/bloomlab/bloomlab/stats"
	"github.com/bloomlab/bloomlab/variants"
)

// Every variants.Filter can be measured as it is.
var _ experiments.Filter = variants.Filter(nil)

// moduloFilter is a standard Bloom filter written for this test, outside
// bloomlab's variants: m bits, k indexes from k independently seeded
// hashes of the key, each reduced modulo m. Its rate is the exact
// finite-m rate of analysis.ExactFPR, whose model is exactly this: k
// independent uniform positions per key.
type moduloFilter struct {
	words []uint64
	m     uint64
	k     int
	seed  uint64
}

func newModuloFilter(m uint64, k int, seed uint64) *moduloFilter {
	return &moduloFilter{words: make([]uint64, (m+63)/64), m: m, k: k, seed: seed}
}

// hash is 64-bit FNV-1a of key started from seed and salt, finished with
// the SplitMix64 mixer.
func (f *moduloFilter) hash(key []byte, salt int) uint64 {
	h := 14695981039346656037 ^ f.seed ^ uint64(salt)*0x9e3779b97f4a7c15
	for _, c := range key {
		h = (h ^ uint64(c)) * 1099511628211
	}
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	return h ^ h>>31
}

func (f *moduloFilter) Add(key []byte) {
	for i := range f.k {
		x := f.hash(key, i) % f.m
		f.words[x/64] |= 1 << (x % 64)
	}
}

func (f *moduloFilter) Contains(key []byte) bool {
	for i := range f.k {
		x := f.hash(key, i) % f.m
		if f.words[x/64]&(1<<(x%64)) == 0 {
			return false
		}
	}
	return true
}

func (f *moduloFilter) Bits() uint64 { return f.m }

const moduloBits, moduloHashes = 8192, 4

// moduloSpec measures moduloFilter at three sizes, 500, 1000 and 2000
// keys, beside the exact theory at its geometry scaled by bias (1 for the
// true theory).
func moduloSpec(name string, bias float64) experiments.Spec {
	return experiments.Spec{
		Name: name,
		New: func(seed uint64) (experiments.Filter, error) {
			return newModuloFilter(moduloBits, moduloHashes, seed), nil
		},
		Items:   []uint64{500, 1000, 2000},
		Filters: 24,
		Queries: 20_000,
		Theory:  func(n uint64) float64 { return bias * analysis.ExactFPR(moduloBits, n, moduloHashes) },
		Model:   "exact",
	}
}

func measure(t *testing.T, specs []experiments.Spec, p experiments.Params, o experiments.Options) *experiments.Results {
	t.Helper()
	r, err := experiments.Measure(context.Background(), specs, p, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func encode(t *testing.T, r *experiments.Results) (csv, json []byte) {
	t.Helper()
	var c, j bytes.Buffer
	if err := experiments.WriteCSV(&c, r); err != nil {
		t.Fatal(err)
	}
	if err := experiments.WriteJSON(&j, r); err != nil {
		t.Fatal(err)
	}
	return c.Bytes(), j.Bytes()
}

// standardErrors returns how many standard errors (of the mean over the
// row's filters) the row's rate lies from its theory.
func standardErrors(row experiments.Row) float64 {
	rates := make([]float64, len(row.Trials))
	for i, tr := range row.Trials {
		rates[i] = float64(tr.Count) / float64(row.Queries)
	}
	return math.Abs(row.Rate-row.Theory) / stats.StandardError(rates)
}

// TestMeasureOwnFilter measures a filter type defined here through the
// public harness at three sizes: the exact theory lies within four
// standard errors of every measured rate, and the pooled check of the
// notes finds it consistent. A theory 20% too high, the negative control,
// is more than four standard errors away at every size and fails the
// pooled check. The run sharded in three, passed through JSON and merged
// writes the unsharded run's bytes.
func TestMeasureOwnFilter(t *testing.T) {
	specs := []experiments.Spec{moduloSpec("modulo", 1), moduloSpec("modulo, theory 20% high", 1.2)}
	o := experiments.Options{Seed: 12}
	r := measure(t, specs, experiments.Params{}, o)
	if r.Experiment != experiments.Measured || r.Variant != "all" || r.Params.Conf != 0.95 || len(r.Rows) != 6 {
		t.Fatalf("results %s/%s, params %+v, %d rows", r.Experiment, r.Variant, r.Params, len(r.Rows))
	}
	for i, row := range r.Rows {
		name := specs[i/3].Name
		if row.Series != name || row.Items != specs[0].Items[i%3] || len(row.Trials) != 24 || row.Filters != 24 || row.Queries != 20_000 {
			t.Fatalf("row %d: %s at %d items, %d trials of %d filters, %d queries", i, row.Series, row.Items, len(row.Trials), row.Filters, row.Queries)
		}
		if row.Bits != moduloBits || row.BitsPerKey != moduloBits/float64(row.Items) || row.Interval != "t" {
			t.Errorf("row %d: bits %d, bits per key %g, interval %q", i, row.Bits, row.BitsPerKey, row.Interval)
		}
		se := standardErrors(row)
		switch {
		case name == "modulo" && (se > 4 || row.Inside == ""):
			t.Errorf("%d items: measured %g [%g, %g], exact theory %g, %.1f standard errors apart", row.Items, row.Rate, row.Lo, row.Hi, row.Theory, se)
		case name != "modulo" && (se <= 4 || row.Inside != "no"):
			t.Errorf("negative control at %d items: measured %g [%g, %g], biased theory %g only %.1f standard errors apart", row.Items, row.Rate, row.Lo, row.Hi, row.Theory, se)
		}
	}
	notes := strings.Join(r.Notes, "\n")
	for _, want := range []string{
		"modulo: the exact theory lies", "the 3 points are checkpoints of the same 24 growing filters",
		"modulo, pooled over its 3 points from 500 to 2000 items", "over the 24 filters",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if !strings.Contains(r.Notes[1], "), consistent with the theory") || !strings.Contains(r.Notes[3], "NOT consistent") {
		t.Errorf("pooled checks: %q; %q", r.Notes[1], r.Notes[3])
	}

	wholeCSV, wholeJSON := encode(t, r)
	var shards []*experiments.Results
	for i := range 3 {
		o := o
		o.Shard, o.Workers = experiments.Shard{Index: i, Count: 3}, 1+i
		s := measure(t, specs, experiments.Params{}, o)
		if s.Shard == nil || len(s.Rows[0].Trials) != 8 {
			t.Fatalf("shard %d: %v, %d trials", i, s.Shard, len(s.Rows[0].Trials))
		}
		_, j := encode(t, s)
		back, err := experiments.ReadJSON(bytes.NewReader(j))
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, back)
	}
	merged, err := experiments.Merge(shards, nil)
	if err != nil {
		t.Fatal(err)
	}
	mergedCSV, mergedJSON := encode(t, merged)
	if !bytes.Equal(mergedCSV, wholeCSV) || !bytes.Equal(mergedJSON, wholeJSON) {
		t.Errorf("merged shards differ from the unsharded run:\n%s\nwant\n%s", mergedCSV, wholeCSV)
	}
	if f, err := plots.Measure(merged); err != nil {
		t.Errorf("the figure of the merged results: %v", err)
	} else if err := f.Render(new(bytes.Buffer), "svg"); err != nil {
		t.Errorf("rendering the merged results: %v", err)
	}
}

// TestMeasureReproducible checks that a measurement depends on the seed
// and not on the workers, that a spec measures the same alone or beside
// another, and that a variants filter records its stats.
func TestMeasureReproducible(t *testing.T) {
	std := experiments.Spec{
		Name: "standard",
		New: func(seed uint64) (experiments.Filter, error) {
			return variants.NewStandardFor(1000, 0.01, variants.Hashing{Seed: seed})
		},
		Items: []uint64{1000, 1500},
	}
	p := experiments.Params{Filters: 6, Queries: 5000}
	one := measure(t, []experiments.Spec{std}, p, experiments.Options{Seed: 3, Workers: 1})
	four := measure(t, []experiments.Spec{std}, p, experiments.Options{Seed: 3, Workers: 4})
	c1, j1 := encode(t, one)
	c4, j4 := encode(t, four)
	if !bytes.Equal(c1, c4) || !bytes.Equal(j1, j4) {
		t.Error("1 and 4 workers give different results")
	}
	both := measure(t, []experiments.Spec{moduloSpec("modulo", 1), std}, p, experiments.Options{Seed: 3})
	for i, row := range one.Rows {
		if fmt.Sprint(row.Trials) != fmt.Sprint(both.Rows[3+i].Trials) {
			t.Errorf("row %d: measured beside another spec, the trials change", i)
		}
	}
	other := measure(t, []experiments.Spec{std}, p, experiments.Options{Seed: 4})
	if fmt.Sprint(other.Rows[0].Trials) == fmt.Sprint(one.Rows[0].Trials) {
		t.Error("seeds 3 and 4 give the same trials")
	}
	row := one.Rows[1]
	if row.Variant != "" || row.Model != "" || row.Inside != "" || row.Estimated <= 0 || row.Bits == 0 {
		t.Errorf("row %+v", row)
	}
	if one.Variant != "standard" || len(one.Notes) != 0 {
		t.Errorf("variant %q, notes %q", one.Variant, one.Notes)
	}
}

// TestMeasureErrors checks that bad specs and parameters give an error
// wrapping ErrInvalidParams, never a panic, before anything is measured.
func TestMeasureErrors(t *testing.T) {
	ok := moduloSpec("ok", 1)
	with := func(f func(*experiments.Spec)) []experiments.Spec {
		s := ok
		f(&s)
		return []experiments.Spec{s}
	}
	var nilFilter *moduloFilter
	for _, c := range []struct {
		name  string
		specs []experiments.Spec
		p     experiments.Params
		o     experiments.Options
		want  string
	}{
		{"no specs", nil, experiments.Params{}, experiments.Options{}, "no spec"},
		{"no name", with(func(s *experiments.Spec) { s.Name = "" }), experiments.Params{}, experiments.Options{}, "no name"},
		{"same name", []experiments.Spec{ok, ok}, experiments.Params{}, experiments.Options{}, "two specs"},
		{"nil New", with(func(s *experiments.Spec) { s.New = nil }), experiments.Params{}, experiments.Options{}, "no New"},
		{"New fails", with(func(s *experiments.Spec) {
			s.New = func(uint64) (experiments.Filter, error) { return nil, errors.New("no memory") }
		}), experiments.Params{}, experiments.Options{}, "no memory"},
		{"nil filter", with(func(s *experiments.Spec) {
			s.New = func(uint64) (experiments.Filter, error) { return nil, nil }
		}), experiments.Params{}, experiments.Options{}, "nil filter"},
		{"nil pointer", with(func(s *experiments.Spec) {
			s.New = func(uint64) (experiments.Filter, error) { return nilFilter, nil }
		}), experiments.Params{}, experiments.Options{}, "nil filter"},
		{"no items", with(func(s *experiments.Spec) { s.Items = nil }), experiments.Params{}, experiments.Options{}, "no item counts"},
		{"zero items", with(func(s *experiments.Spec) { s.Items = []uint64{0, 10} }), experiments.Params{}, experiments.Options{}, "0 items"},
		{"decreasing items", with(func(s *experiments.Spec) { s.Items = []uint64{100, 50} }), experiments.Params{}, experiments.Options{}, "50 items after 100"},
		{"repeated items", with(func(s *experiments.Spec) { s.Items = []uint64{100, 100} }), experiments.Params{}, experiments.Options{}, "want increasing"},
		{"negative filters", with(func(s *experiments.Spec) { s.Filters = -1 }), experiments.Params{}, experiments.Options{}, "filters"},
		{"zero filters", with(func(s *experiments.Spec) { s.Filters = 0 }), experiments.Params{Filters: -3}, experiments.Options{}, "filters"},
		{"NaN theory", with(func(s *experiments.Spec) { s.Theory = func(uint64) float64 { return math.NaN() } }), experiments.Params{}, experiments.Options{}, "theory"},
		{"theory above 1", with(func(s *experiments.Spec) { s.Theory = func(n uint64) float64 { return float64(n) } }), experiments.Params{}, experiments.Options{}, "theory"},
		{"unused parameter", []experiments.Spec{ok}, experiments.Params{N: 1000}, experiments.Options{}, "only Filters, Queries and Conf"},
		{"bad conf", []experiments.Spec{ok}, experiments.Params{Conf: 1.5}, experiments.Options{}, "conf"},
		{"bad shard", []experiments.Spec{ok}, experiments.Params{}, experiments.Options{Shard: experiments.Shard{Index: 2, Count: 2}}, "shard"},
		{"negative workers", []experiments.Spec{ok}, experiments.Params{}, experiments.Options{Workers: -1}, "workers"},
	} {
		r, err := experiments.Measure(context.Background(), c.specs, c.p, c.o)
		if err == nil || r != nil || !errors.Is(err, experiments.ErrInvalidParams) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "experiments: ") {
			t.Errorf("%s: Measure = %v, %v; want an error wrapping ErrInvalidParams that says %q", c.name, r, err, c.want)
		}
	}

	// A constructor that fails only for some seeds fails the run, with
	// the spec's name.
	flaky := with(func(s *experiments.Spec) {
		s.New = func(seed uint64) (experiments.Filter, error) {
			if seed != 0 && seed%3 == 0 {
				return nil, errors.New("seed divisible by three")
			}
			if seed != 0 && seed%3 == 1 {
				return nilFilter, nil
			}
			return newModuloFilter(64, 1, seed), nil
		}
	})
	if _, err := experiments.Measure(context.Background(), flaky, experiments.Params{}, experiments.Options{Seed: 1}); err == nil || !strings.Contains(err.Error(), "ok: filter") {
		t.Errorf("a failing constructor gives %v", err)
	}
}

// TestMeasureCancelAndProgress checks that a cancelled context stops a
// measurement soon, and that progress is reported once per filter.
func TestMeasureCancelAndProgress(t *testing.T) {
	big := moduloSpec("big", 1)
	big.Items, big.Queries = []uint64{1e9}, 1e9
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := experiments.Measure(ctx, []experiments.Spec{big}, experiments.Params{}, experiments.Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}

	small := moduloSpec("small", 1)
	small.Filters, small.Queries = 5, 100
	var calls, last int
	_, err := experiments.Measure(context.Background(), []experiments.Spec{small}, experiments.Params{}, experiments.Options{Progress: func(done, total int) {
		calls++
		if done != last+1 || total != 5 {
			t.Errorf("progress %d of %d after %d", done, total, last)
		}
		last = done
	}})
	if err != nil || calls != 5 {
		t.Errorf("%d progress calls, err %v", calls, err)
	}
}

// alwaysFalse is a broken filter: it answers false for every key.
type alwaysFalse struct{}

func (alwaysFalse) Add([]byte)           {}
func (alwaysFalse) Contains([]byte) bool { return false }

// forgetful is moduloFilter with a fault: it drops every thousandth key
// offered to Add, so 0.1% of its keys are false negatives.
type forgetful struct {
	*moduloFilter
	adds int
}

func (f *forgetful) Add(key []byte) {
	f.adds++
	if f.adds%1000 == 0 {
		return
	}
	f.moduloFilter.Add(key)
}

// TestMeasureFalseNegatives checks that Measure catches a filter that
// answers false for inserted keys: the always-false filter and a filter
// that forgets one key in a thousand both fail with an error wrapping
// ErrFalseNegative that names the spec and the point, the results beside
// it count the misses, and a correct filter beside them counts none. The
// error survives sharding and Merge.
func TestMeasureFalseNegatives(t *testing.T) {
	broken := experiments.Spec{
		Name:  "always false",
		New:   func(uint64) (experiments.Filter, error) { return alwaysFalse{}, nil },
		Items: []uint64{500},
	}
	forgets := experiments.Spec{
		Name: "forgets 1 in 1000",
		New: func(seed uint64) (experiments.Filter, error) {
			return &forgetful{moduloFilter: newModuloFilter(1<<18, 4, seed)}, nil
		},
		Items: []uint64{5000, 30_000},
	}
	good := moduloSpec("correct", 1)
	p := experiments.Params{Filters: 4, Queries: 1000}
	for _, c := range []struct {
		spec experiments.Spec
		want []string
		// missed is the exact count at the first point, where every
		// inserted key is queried: 500 per filter for the always-false
		// filter, 5 per filter for the forgetful one.
		missed uint64
	}{
		{broken, []string{`"always false" at 500 items: 2000 of 2000 inserted keys`, "filters 0, 1, 2, 3"}, 2000},
		{forgets, []string{`"forgets 1 in 1000" at 5000 items: 20 of 20000 inserted keys`, `"forgets 1 in 1000" at 30000 items: `}, 20},
	} {
		r, err := experiments.Measure(context.Background(), []experiments.Spec{good, c.spec}, p, experiments.Options{Seed: 7})
		if !errors.Is(err, experiments.ErrFalseNegative) || r == nil {
			t.Fatalf("%s: Measure = %v, %v; want results and an error wrapping ErrFalseNegative", c.spec.Name, r, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", c.spec.Name, err, w)
			}
		}
		if strings.Contains(err.Error(), "correct") {
			t.Errorf("the error names the correct filter: %v", err)
		}
		for _, row := range r.Rows[:3] {
			if row.FalseNegatives != 0 || row.Members != row.Items {
				t.Errorf("correct filter at %d items: %d false negatives among %d members", row.Items, row.FalseNegatives, row.Members)
			}
		}
		row := r.Rows[3]
		if row.FalseNegatives != c.missed || row.Members != row.Items {
			t.Errorf("%s: %d false negatives among %d members per filter, want %d", c.spec.Name, row.FalseNegatives, row.Members, c.missed)
		}
		csv, _ := encode(t, r)
		if !strings.Contains(string(csv), "members,false_negatives") {
			t.Errorf("%s: the CSV has no false-negative column:\n%s", c.spec.Name, csv)
		}
	}
	// The forgetful filter at 30000 items is sampled: 10000 of its keys
	// per filter, about 10 of which it forgot.
	r, _ := experiments.Measure(context.Background(), []experiments.Spec{forgets}, p, experiments.Options{Seed: 7})
	if row := r.Rows[1]; row.Members != 10_000 || row.FalseNegatives == 0 || row.FalseNegatives > 80 {
		t.Errorf("sampled point: %d false negatives among %d members of 4 filters, want about 40", row.FalseNegatives, row.Members)
	}

	var shards []*experiments.Results
	for i := range 2 {
		s, err := experiments.Measure(context.Background(), []experiments.Spec{broken}, p, experiments.Options{Seed: 7, Shard: experiments.Shard{Index: i, Count: 2}})
		if !errors.Is(err, experiments.ErrFalseNegative) {
			t.Errorf("shard %d: %v", i, err)
		}
		shards = append(shards, s)
	}
	if m, err := experiments.Merge(shards, nil); !errors.Is(err, experiments.ErrFalseNegative) || m == nil || m.Rows[0].FalseNegatives != 2000 {
		t.Errorf("Merge = %v, %v; want the merged results and ErrFalseNegative", m, err)
	}
}

// TestMeasureUnnamedTheory checks the notes of a spec whose theory has no
// model name.
func TestMeasureUnnamedTheory(t *testing.T) {
	s := moduloSpec("modulo", 1)
	s.Model = ""
	r := measure(t, []experiments.Spec{s}, experiments.Params{Filters: 4, Queries: 2000}, experiments.Options{Seed: 1})
	notes := strings.Join(r.Notes, "\n")
	if strings.Contains(notes, "theory theory") || !strings.Contains(notes, "modulo: the theory lies") || !strings.Contains(notes, "the number the theory expects") {
		t.Errorf("notes:\n%s", notes)
	}
}
