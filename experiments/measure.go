package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/bloomlab/bloomlab/variants"
)

// Filter is what [Measure] needs of a filter: add a key, and test one. Every
// [variants.Filter] is a Filter, and a filter from another library becomes
// one with a wrapper of a few lines.
//
// A Filter may also report its memory, in one of two ways found by type
// assertion: a [Sizer] reports the bits of its cells, which the results
// record as Bits and bits per key; a filter with a method
// Stats() [variants.Stats], as every variants.Filter has, reports its bits,
// its number of stages and the false-positive rate its fill implies
// ([Row.Estimated]). Stats is used when a filter has both.
type Filter interface {
	// Add inserts key. It must not keep the slice: [Measure] writes the
	// next key into it once Add returns.
	Add(key []byte)
	// Contains reports whether key is possibly in the set.
	Contains(key []byte) bool
}

// Sizer is a [Filter] that reports the memory of its cells in bits.
type Sizer interface {
	Filter
	// Bits returns the memory of the filter's cells in bits.
	Bits() uint64
}

// Spec describes one filter to measure and how: the filter, the numbers of
// keys at which to measure it, how many filters and queries, and the
// theory to set beside the measurement. [Measure] measures it by the method
// of the named experiments (see the package documentation), which are
// themselves built from Specs.
type Spec struct {
	// Name names the filter. It is the Series of the filter's rows in the
	// results, so the specs measured together must have distinct names.
	Name string
	// New returns an empty filter whose hashing is seeded with seed.
	// [Measure] calls it once for every filter measured, with a different
	// seed for each, from several goroutines at once; and once more, with
	// seed 0, before measuring, so that an error is reported before any
	// work is done. A filter that cannot take a seed may ignore it: the
	// keys of every filter differ anyway.
	New func(seed uint64) (Filter, error)
	// Items are the numbers of keys at which the filter is measured, each
	// at least 1 and larger than the one before. Each filter grows through
	// them, as in the fill experiment, and is queried at each; a single
	// entry measures one size. The points of one filter are correlated,
	// which the results' notes take into account.
	Items []uint64
	// Filters is the number of independently seeded filters measured,
	// and Queries the number of never-inserted keys each filter is queried
	// with at every item count; zero takes the value of the [Params] given
	// to [Measure].
	Filters int
	Queries uint64
	// Theory, if not nil, returns the false-positive rate predicted for
	// the filter holding items keys. Each row then carries it as Theory,
	// says whether it lies inside the measured interval ([Row.Inside]), and
	// the notes check it once over all the spec's points.
	Theory func(items uint64) float64
	// Model names the theory in the results and their notes ("theory" if
	// empty). It is ignored without a Theory.
	Model string
	// Target is the false-positive rate the filter was sized for, which
	// its rows carry (Row.Target) and figures draw as a line; 0 for none.
	Target float64
	// Members is the number of inserted keys each filter is queried with
	// at every item count, to count its false negatives: all of its keys
	// when it holds at most Members, otherwise a seeded sample of them
	// (drawn with replacement from all the keys inserted so far). Zero
	// takes 10000. A filter that answers false for any of them fails the
	// measurement with an error wrapping [ErrFalseNegative].
	Members uint64
	// Keys is the source of the filter's member and query keys (see
	// [KeySource]); nil takes the uniform keys. A file source must hold at
	// least the last item count plus Queries distinct keys.
	Keys *KeySource
	// Timed records in each row the mean time per Add and per Contains
	// (NsPerAdd, NsPerQuery). The filters run in parallel, so the times
	// compare filters of one run only; see [Time] for times on one
	// goroutine.
	Timed bool
}

// Measured is the Experiment of the [Results] that [Measure] returns.
const Measured = "measure"

// Defaults of Measure for the fields of Params left zero.
const (
	measureFilters = 20
	measureQueries = 100_000
	measureConf    = 0.95
	measureMembers = 10_000
)

// ErrFalseNegative is wrapped by the error that [Measure], Run and [Merge]
// return when a filter answered false for a key inserted into it: the one
// answer a Bloom filter must never give. The results are returned beside
// the error, complete, with the false negatives counted in each row
// ([Row.FalseNegatives], [Trial.FalseNegatives]).
var ErrFalseNegative = errors.New("false negative")

// Measure measures the filters that specs describe and returns their
// results: for each spec, one [Row] per item count, in the order of specs,
// with the raw per-filter counts, the mean rate and its interval, and the
// theory beside them. The method is the one every named experiment uses
// (see the package documentation): Filters independently seeded filters,
// each with its own keys, queried with keys from a disjoint space; the mean
// of their rates with the Student t interval over them, or the
// Clopper-Pearson interval of the pooled counts where all are equal. The
// [Results] are those of any experiment (Experiment is [Measured], Variant the
// spec's name, or "all" for several specs), so [WriteCSV], [WriteJSON], [Merge]
// and the figures of package plots take them unchanged.
//
// Measure reads only Filters, Queries and Conf of p: the number of filters
// and of queries of a spec that leaves its own zero (20 and 100000 if p's
// are zero too), and the confidence level of the intervals (0.95 if zero).
// [Options] work as for Run: the results depend on o.Seed, never on
// o.Workers; with o.Shard set Measure returns one shard's partial results
// for Merge; a cancelled ctx stops the run and returns ctx's error.
//
// At every item count each filter is also queried with Members of its
// inserted keys ([Spec.Members]). If any filter answers false for one of
// them, Measure measures every point still and then returns the Results
// together with an error wrapping [ErrFalseNegative] that names the spec,
// the points and the filters: a false negative is never a silent rate.
//
// Invalid specs or parameters (no specs, a nil New, an empty, zero or
// decreasing item count, a theory that is not a rate, another field of p
// set) give an error wrapping [ErrInvalidParams] before anything is
// measured, as does an error or a nil filter from New.
func Measure(ctx context.Context, specs []Spec, p Params, o Options) (*Results, error) {
	p, pl, err := planMeasure(specs, p, o)
	if err != nil {
		return nil, err
	}
	variant := "all"
	if len(specs) == 1 {
		variant = specs[0].Name
	}
	pl.Experiment, pl.Variant = Measured, variant
	return pl.results(ctx, p, o)
}

// planMeasure validates Measure's arguments and plans the measurement.
func planMeasure(specs []Spec, p Params, o Options) (Params, *Plan, error) {
	if len(specs) == 0 {
		return Params{}, nil, paramError("specs", "no spec to measure")
	}
	used := Params{Filters: p.Filters, Queries: p.Queries, Conf: p.Conf}
	if !reflect.DeepEqual(p, used) {
		return Params{}, nil, paramError("params", "Measure reads only Filters, Queries and Conf; the other fields of Params must be zero")
	}
	p = used.Or(Params{Filters: measureFilters, Queries: measureQueries, Conf: measureConf})
	if p.Filters < 1 || p.Filters > maxFilters {
		return Params{}, nil, paramError("filters", "%d, want 1 <= filters <= %d", p.Filters, maxFilters)
	}
	if p.Queries > maxQueries {
		return Params{}, nil, paramError("queries", "%d, want 1 <= queries <= %d", p.Queries, uint64(maxQueries))
	}
	if math.IsNaN(p.Conf) || p.Conf <= 0 || p.Conf >= 1 {
		return Params{}, nil, paramError("conf", "%v, want 0 < conf < 1", p.Conf)
	}
	if err := o.Shard.validate(); err != nil {
		return Params{}, nil, err
	}
	if o.Workers < 0 {
		return Params{}, nil, paramError("workers", "%d, want workers >= 0", o.Workers)
	}
	pl := &Plan{}
	names := map[string]bool{}
	for i, s := range specs {
		if s.Name == "" {
			return Params{}, nil, paramError("name", "spec %d has no name", i)
		}
		if names[s.Name] {
			return Params{}, nil, paramError("name", "two specs are named %q", s.Name)
		}
		names[s.Name] = true
		if s.New == nil {
			return Params{}, nil, paramError("new", "spec %q has no New function", s.Name)
		}
		// One filter before any work: an error here is the user's to fix.
		f, err := s.New(0)
		if err != nil {
			return Params{}, nil, fmt.Errorf("experiments: %w: new: spec %q: New(0): %w", ErrInvalidParams, s.Name, err)
		}
		if isNil(f) {
			return Params{}, nil, paramError("new", "spec %q: New(0) returned a nil filter and no error", s.Name)
		}
		if s.Filters == 0 {
			s.Filters = p.Filters
		}
		if s.Queries == 0 {
			s.Queries = p.Queries
		}
		if err := pl.AddSpec(Measured+"/"+s.Name, s, nil); err != nil {
			return Params{}, nil, err
		}
	}
	return p, pl, nil
}

// AddSpec adds to the plan the group of rows that measures spec s by the
// method of [Measure]: one row per item count, with Series s.Name, the
// spec's filters and queries (which must be set) and its theory. decorate,
// if not nil, then sets the columns the plan adds to each row (the
// geometry, the classic rate, the target). The group is seeded by key
// (see [Group.Key]). This is the only place where the rate of a filter
// against its keys is planned: [Measure] and the named experiments all come
// here.
func (pl *Plan) AddSpec(key string, s Spec, decorate func(*Row)) error {
	if s.New == nil {
		return paramError("new", "spec %q has no New function", s.Name)
	}
	if s.Filters < 1 || s.Filters > maxFilters {
		return paramError("filters", "spec %q: %d filters, want 1 <= filters <= %d", s.Name, s.Filters, maxFilters)
	}
	if s.Queries < 1 || s.Queries > maxQueries {
		return paramError("queries", "spec %q: %d queries, want 1 <= queries <= %d", s.Name, s.Queries, uint64(maxQueries))
	}
	if len(s.Items) == 0 {
		return paramError("items", "spec %q has no item counts, want at least one", s.Name)
	}
	if s.Members == 0 {
		s.Members = measureMembers
	}
	if s.Members > maxQueries {
		return paramError("members", "spec %q: %d members, want members <= %d", s.Name, s.Members, uint64(maxQueries))
	}
	if math.IsNaN(s.Target) || s.Target < 0 || s.Target >= 1 {
		return paramError("target", "spec %q: target %v, want 0 (none) or a rate between 0 and 1", s.Name, s.Target)
	}
	model := ""
	if s.Theory != nil {
		model = s.Model
		if model == "" {
			model = "theory"
		}
	}
	if s.Keys != nil && s.Keys.Distinct() > 0 {
		if n := s.Items[len(s.Items)-1]; n > s.Keys.Distinct() || s.Queries > s.Keys.Distinct()-n {
			return paramError("keys", "spec %q: %s has %d distinct keys, too few for %d members and %d queries per filter",
				s.Name, s.Keys.Name(), s.Keys.Distinct(), n, s.Queries)
		}
	}
	g := Group{Key: key, Filters: s.Filters, Run: measureRun(s.New, s.Timed), pooled: true, Keys: s.Keys}
	var last uint64
	for i, n := range s.Items {
		switch {
		case n < 1 || n > maxItems:
			return paramError("items", "spec %q: %d items, want 1 <= items <= %d", s.Name, n, uint64(maxItems))
		case i > 0 && n <= last:
			return paramError("items", "spec %q: %d items after %d, want increasing item counts", s.Name, n, last)
		}
		last = n
		r := Row{Series: s.Name, Items: n, Filters: s.Filters, Queries: s.Queries, Members: min(n, s.Members), Model: model, Keys: keysName(s.Keys), Target: s.Target}
		if s.Theory != nil {
			r.Theory = s.Theory(n)
			if math.IsNaN(r.Theory) || r.Theory < 0 || r.Theory > 1 {
				return paramError("theory", "spec %q: the theory at %d items is %v, want a rate between 0 and 1", s.Name, n, r.Theory)
			}
		}
		if decorate != nil {
			decorate(&r)
		}
		g.Rows = append(g.Rows, pl.AddRow(r))
	}
	pl.Groups = append(pl.Groups, g)
	return nil
}

// keysName returns the name a row records for key source k: "" for the
// uniform keys.
func keysName(k *KeySource) string {
	if k == nil || k.kind == keysUniform {
		return ""
	}
	return k.Name()
}

// isNil reports whether f is nil or holds a nil pointer, map, slice,
// channel or function, on which a method call would panic.
func isNil(f Filter) bool {
	if f == nil {
		return true
	}
	switch v := reflect.ValueOf(f); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// statser is a filter that reports variants.Stats.
type statser interface {
	Stats() variants.Stats
}

// measureRun returns the RunFunc of a spec: it builds the trial's filter,
// fills it to each row's Items in turn and queries it with the row's
// Queries never-inserted keys. With timed set it records the time per Add
// and per Contains.
func measureRun(newFilter func(uint64) (Filter, error), timed bool) RunFunc {
	return func(ctx context.Context, t *Job, rows []*Row, out []Trial) error {
		f, err := newFilter(t.Hashing.Seed)
		if err != nil {
			return fmt.Errorf("experiments: %s: filter %d: %w", rows[0].Series, t.Filter, err)
		}
		if isNil(f) {
			return fmt.Errorf("experiments: %s: filter %d: New returned a nil filter and no error", rows[0].Series, t.Filter)
		}
		var inserted uint64
		for j, r := range rows {
			start := time.Now()
			added := r.Items - inserted
			for ; inserted < r.Items; inserted++ {
				if inserted%interruptEvery == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				f.Add(t.Member(inserted))
				for j := range t.keys.repeats(t.stream, inserted) {
					f.Add(t.Member(t.keys.repeatOf(t.stream, inserted, j)))
				}
			}
			addTime := time.Since(start)
			start = time.Now()
			positives, err := t.CountPositives(ctx, f, r.Queries)
			if err != nil {
				return err
			}
			queryTime := time.Since(start)
			missed, err := t.countMissing(ctx, f, j, r.Items, r.Members)
			if err != nil {
				return err
			}
			o := &out[j]
			o.Count = positives
			o.FalseNegatives = missed
			switch s := f.(type) {
			case statser:
				st := s.Stats()
				o.Estimated = st.EstimatedFPR
				o.Bits = st.Bits
				o.Stages = len(st.Stages)
			case Sizer:
				o.Bits = s.Bits()
			}
			if timed {
				if added > 0 {
					o.NsPerAdd = float64(addTime.Nanoseconds()) / float64(added)
				}
				if r.Queries > 0 {
					o.NsPerQuery = float64(queryTime.Nanoseconds()) / float64(r.Queries)
				}
			}
		}
		return nil
	}
}

// results executes the plan and returns its results: partial ones for a
// shard, aggregated ones with their notes otherwise.
func (pl *Plan) results(ctx context.Context, p Params, o Options) (*Results, error) {
	res := &Results{
		Experiment:    pl.Experiment,
		Variant:       pl.Variant,
		Params:        p,
		Seed:          o.Seed,
		GoVersion:     runtime.Version(),
		ModuleVersion: moduleVersion(),
	}
	if err := execute(ctx, pl, o); err != nil {
		return nil, err
	}
	res.Rows = pl.Rows
	res.Caches = pl.Caches
	res.Machine = pl.Machine
	if o.Shard.sharded() {
		sh := o.Shard
		res.Shard = &sh
		res.Notes = pl.Notes
		return res, falseNegatives(res)
	}
	if err := res.finish(pl.Notes, pl); err != nil {
		return nil, err
	}
	return res, falseNegatives(res)
}

// countMissing queries f with q of its first items inserted keys (all of
// them when q = items, a seeded sample with replacement otherwise; the
// sample of point j differs from the other points') and returns how many
// it reports absent.
func (t *Job) countMissing(ctx context.Context, f Filter, j int, items, q uint64) (uint64, error) {
	var missed uint64
	base := derive(t.stream, 3, uint64(j))
	for i := range q {
		if i%interruptEvery == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		x := i
		if q < items {
			x, _ = bits.Mul64(splitmix64(base+i), items)
		}
		if !f.Contains(t.Member(x)) {
			missed++
		}
	}
	return missed, nil
}

// falseNegatives returns an error wrapping ErrFalseNegative that names
// every series, point and filter of res with a false negative, or nil if
// there is none.
func falseNegatives(res *Results) error {
	var points []string
	var total uint64
	for _, r := range res.Rows {
		var bad []string
		var missed uint64
		for _, t := range r.Trials {
			if t.FalseNegatives > 0 {
				bad = append(bad, strconv.Itoa(t.Filter))
				missed += t.FalseNegatives
			}
		}
		if missed == 0 {
			continue
		}
		total += missed
		if len(bad) > 8 {
			bad = append(bad[:8], "...")
		}
		points = append(points, fmt.Sprintf("%q at %d items: %d of %d inserted keys queried tested absent (filters %s)",
			r.Series, r.Items, missed, r.Members*uint64(len(r.Trials)), strings.Join(bad, ", ")))
	}
	if len(points) == 0 {
		return nil
	}
	if len(points) > 5 {
		points = append(points[:5], fmt.Sprintf("and %d more points", len(points)-5))
	}
	return fmt.Errorf("experiments: %w: %d inserted keys tested absent: %s", ErrFalseNegative, total, strings.Join(points, "; "))
}

// measuredGroups returns the groups of results from Measure: each spec is
// one group, the consecutive rows of one series.
func measuredGroups(r *Results) []Group {
	var gs []Group
	for i, row := range r.Rows {
		if i == 0 || row.Series != r.Rows[i-1].Series {
			gs = append(gs, Group{Key: Measured + "/" + row.Series, Filters: row.Filters, pooled: true})
		}
		g := &gs[len(gs)-1]
		g.Rows = append(g.Rows, i)
	}
	return gs
}
