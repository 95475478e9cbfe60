package experiments_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
)

// keyLog is a filter that records the keys it is given, to check that
// every spec is timed on the same keys, and whether it was built.
type keyLog struct {
	*moduloFilter
	added    []string
	built    bool
	buildErr error
}

func (k *keyLog) Add(key []byte) {
	k.added = append(k.added, string(key))
	k.moduloFilter.Add(key)
}

func (k *keyLog) Contains(key []byte) bool {
	if !k.built {
		panic("Contains before Build")
	}
	return k.moduloFilter.Contains(key)
}

func (k *keyLog) Build() error { k.built = true; return k.buildErr }

// TestTime times two filters written here at two sizes: every row has its
// times, bits, rate and no false negatives; the baseline rows follow; the
// two specs are filled with the same keys; a Builder is built before it is
// queried and a failing Build fails the run; a forgetful filter fails it
// with ErrFalseNegative and the results.
func TestTime(t *testing.T) {
	var logs []*keyLog
	specs := []experiments.TimeSpec{
		{Name: "modulo", New: func(n, seed uint64) (experiments.Filter, error) { return newModuloFilter(10*n, 7, seed), nil }},
		{Name: "built", New: func(n, seed uint64) (experiments.Filter, error) {
			k := &keyLog{moduloFilter: newModuloFilter(10*n, 7, seed)}
			logs = append(logs, k)
			return k, nil
		}},
	}
	p := experiments.Params{Keys: []uint64{1000, 20_000}, Queries: 20_000, Passes: 1}
	r, err := experiments.Time(context.Background(), specs, p, experiments.Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if r.Experiment != "time" || r.Variant != "all" || len(r.Rows) != 6 || r.Params.MinAdds != 20_000 || r.Params.P != 0.01 {
		t.Fatalf("%s/%s, %d rows, params %+v", r.Experiment, r.Variant, len(r.Rows), r.Params)
	}
	for i, row := range r.Rows {
		if i >= 4 {
			if row.Series != experiments.RandomLines || !(row.NsPerQuery > 0) || row.Bits == 0 {
				t.Errorf("baseline row %d: %+v", i, row)
			}
			continue
		}
		if row.Series != specs[i/2].Name || row.Items != p.Keys[i%2] || !(row.NsPerAdd > 0 && row.NsPerQuery > 0 && row.NsPerPresent > 0) ||
			row.Bits != 10*row.Items || row.FalseNegatives != 0 || row.Members != 20_000 || !(row.Lo <= row.Rate && row.Rate <= row.Hi) || row.Rate > 0.02 {
			t.Errorf("row %d: %+v", i, row)
		}
	}
	// Filled at 1000 keys: 20 filters of 1000 keys each, then 1 of
	// 20000; the modulo spec got the same keys, in the same order, which
	// the built spec's log shows to be the members 0..n-1 each time.
	if len(logs) != 1+20+1 {
		t.Fatalf("%d filters built, want 22 (one checked first)", len(logs))
	}
	last := logs[len(logs)-1]
	if len(last.added) != 20_000 || !last.built || last.added[0] == last.added[1] {
		t.Errorf("last filter: %d keys, built %v", len(last.added), last.built)
	}
	if logs[1].added[0] != logs[2].added[0] || logs[1].added[0] == last.added[0] {
		t.Error("the refills of one size do not repeat their keys, or two sizes share them")
	}

	fails := []experiments.TimeSpec{{Name: "build fails", New: func(n, seed uint64) (experiments.Filter, error) {
		return &keyLog{moduloFilter: newModuloFilter(10*n, 7, seed), buildErr: errors.New("too few keys")}, nil
	}}}
	if _, err := experiments.Time(context.Background(), fails, p, experiments.Options{}); err == nil || !strings.Contains(err.Error(), "build: too few keys") {
		t.Errorf("failing build: %v", err)
	}
	forgets := []experiments.TimeSpec{{Name: "forgets", New: func(n, seed uint64) (experiments.Filter, error) {
		return &forgetful{moduloFilter: newModuloFilter(10*n, 7, seed)}, nil
	}}}
	r, err = experiments.Time(context.Background(), forgets, experiments.Params{Keys: []uint64{5000}, Queries: 5000, Passes: 1}, experiments.Options{})
	if !errors.Is(err, experiments.ErrFalseNegative) || r == nil || r.Rows[0].FalseNegatives != 5 || !strings.Contains(err.Error(), `"forgets" at 5000 items`) {
		t.Errorf("forgetful filter: %v", err)
	}
}

// TestTimeErrors checks that bad specs and parameters give an error
// wrapping ErrInvalidParams before anything is timed, and that a
// cancelled context stops the run.
func TestTimeErrors(t *testing.T) {
	ok := experiments.TimeSpec{Name: "ok", New: func(n, seed uint64) (experiments.Filter, error) { return newModuloFilter(10*n, 7, seed), nil }}
	small := experiments.Params{Keys: []uint64{100}, Queries: 100, Passes: 1}
	for _, c := range []struct {
		name  string
		specs []experiments.TimeSpec
		p     experiments.Params
		o     experiments.Options
		want  string
	}{
		{"no specs", nil, small, experiments.Options{}, "no spec"},
		{"no name", []experiments.TimeSpec{{New: ok.New}}, small, experiments.Options{}, "no name"},
		{"baseline name", []experiments.TimeSpec{{Name: experiments.RandomLines, New: ok.New}}, small, experiments.Options{}, "baseline"},
		{"same name", []experiments.TimeSpec{ok, ok}, small, experiments.Options{}, "two specs"},
		{"no New", []experiments.TimeSpec{{Name: "x"}}, small, experiments.Options{}, "no New"},
		{"New fails", []experiments.TimeSpec{{Name: "x", New: func(uint64, uint64) (experiments.Filter, error) { return nil, errors.New("no memory") }}}, small, experiments.Options{}, "no memory"},
		{"nil filter", []experiments.TimeSpec{{Name: "x", New: func(uint64, uint64) (experiments.Filter, error) { return nil, nil }}}, small, experiments.Options{}, "nil filter"},
		{"decreasing keys", []experiments.TimeSpec{ok}, experiments.Params{Keys: []uint64{100, 10}}, experiments.Options{}, "increasing"},
		{"zero keys", []experiments.TimeSpec{ok}, experiments.Params{Keys: []uint64{0}}, experiments.Options{}, "0 keys"},
		{"other field", []experiments.TimeSpec{ok}, experiments.Params{N: 5}, experiments.Options{}, "Time reads only"},
		{"bad passes", []experiments.TimeSpec{ok}, experiments.Params{Passes: -1}, experiments.Options{}, "passes"},
		{"sharded", []experiments.TimeSpec{ok}, small, experiments.Options{Shard: experiments.Shard{Index: 0, Count: 2}}, "cannot be sharded"},
	} {
		r, err := experiments.Time(context.Background(), c.specs, c.p, c.o)
		if r != nil || !errors.Is(err, experiments.ErrInvalidParams) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, %v; want an error wrapping ErrInvalidParams that says %q", c.name, r, err, c.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := experiments.Time(ctx, []experiments.TimeSpec{ok}, small, experiments.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
