package experiments

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"time"
)

// WindowSpec describes one sliding-window filter to measure over a stream:
// a filter that answers "was this key among the recent items?" and forgets
// older ones (an age-partitioned filter, two standard filters used
// alternately, a filter cleared when full, a stable Bloom filter, or one
// from another library). Each filter takes the stream of its own keys, in
// order, and is measured at stream positions (the number of adds so far):
// its false-positive rate, with never-inserted keys; its promise, that the
// newest Window items all test present; and its recall, the fraction of
// the items of given ages that test present. The age of an item is the
// number of adds after it: 0 for the newest.
//
// [MeasureWindow] measures WindowSpecs by the method of [Measure] (independently
// seeded filters, the mean of their rates and the t interval over them).
// The window experiment is built from it.
type WindowSpec struct {
	// Name names the filter: the Series of its rate rows, and, followed
	// by " recall", of its recall rows.
	Name string
	// New returns an empty filter whose hashing is seeded with seed (see
	// [Spec.New]).
	New func(seed uint64) (Filter, error)
	// Positions are the stream positions at which the rate is measured,
	// each at least 1 and larger than the one before. Each is one row.
	Positions []uint64
	// Filters and Queries are the number of filters, and of
	// never-inserted keys each is queried with at every position; zero
	// takes the value of the [Params] given to [MeasureWindow].
	Filters int
	Queries uint64
	// Window is the number of newest items the filter promises to hold:
	// at every position every filter is queried with all of its newest
	// min(Window, position) items, and one that tests absent is a false
	// negative ([Row.FalseNegatives]), which makes [MeasureWindow] return an
	// error wrapping [ErrFalseNegative]. Zero checks nothing.
	Window uint64
	// Theory, if not nil, returns the rate predicted after t adds, and
	// Model names it ("theory" if empty). A negative value means no
	// prediction at that position: the row then has no theory.
	Theory func(t uint64) float64
	Model  string
	// Ages, if not empty, are the edges of the age buckets of the recall
	// rows, increasing: bucket i holds the ages Ages[i] to Ages[i+1]-1.
	// RecallAt are the stream positions at which every item of every
	// bucket is queried, increasing, each at least the last edge (so that
	// every age exists); a bucket's row counts the items that test
	// present over all of them.
	Ages     []uint64
	RecallAt []uint64
	// RecallTheory, if not nil, returns the probability that the item of
	// age age tests present after t adds; a recall row's Theory is its
	// mean over the row's ages and RecallAt. A negative value means no
	// prediction: a row with one has no theory. RecallModel names it
	// ("recall" if empty).
	RecallTheory func(age, t uint64) float64
	RecallModel  string
}

// MeasuredWindow is the Experiment of the [Results] that [MeasureWindow]
// returns.
const MeasuredWindow = "measure-window"

// MeasureWindow measures the sliding-window filters that specs describe
// and returns their results: for each spec, one rate [Row] per position
// (Items the position, Window the spec's window, Members the newest items
// checked, min(Window, position), BitsPerKey the bits per key of
// the window, Theory the spec's theory
// at the position), then one recall Row per age bucket (Age and AgeEnd its
// ages, Items the last recall position, Queries the items queried per
// filter, Rate the fraction that tested present), with the raw per-filter
// counts. Rate rows also carry the time per Add (over the adds before the
// position), per absent query and per present query (the window check),
// which differ from run to run; every other column depends only on
// o.Seed.
//
// MeasureWindow reads only Filters, Queries and Conf of p, as [Measure] does.
// [Options] work as for Run; sharded results merge with [Merge]. If a filter
// misses an item of its Window, MeasureWindow measures everything still and
// returns the results with an error wrapping [ErrFalseNegative].
//
// Invalid specs or parameters give an error wrapping [ErrInvalidParams]
// before anything is measured.
func MeasureWindow(ctx context.Context, specs []WindowSpec, p Params, o Options) (*Results, error) {
	if len(specs) == 0 {
		return nil, paramError("specs", "no spec to measure")
	}
	used := Params{Filters: p.Filters, Queries: p.Queries, Conf: p.Conf}
	if !reflect.DeepEqual(p, used) {
		return nil, paramError("params", "MeasureWindow reads only Filters, Queries and Conf; the other fields of Params must be zero")
	}
	p = used.Or(Params{Filters: measureFilters, Queries: measureQueries, Conf: measureConf})
	if math.IsNaN(p.Conf) || p.Conf <= 0 || p.Conf >= 1 {
		return nil, paramError("conf", "%v, want 0 < conf < 1", p.Conf)
	}
	if err := o.Shard.validate(); err != nil {
		return nil, err
	}
	if o.Workers < 0 {
		return nil, paramError("workers", "%d, want workers >= 0", o.Workers)
	}
	pl := &Plan{}
	names := map[string]bool{}
	for _, s := range specs {
		if names[s.Name] {
			return nil, paramError("name", "two specs are named %q", s.Name)
		}
		names[s.Name] = true
		if s.Filters == 0 {
			s.Filters = p.Filters
		}
		if s.Queries == 0 {
			s.Queries = p.Queries
		}
		if err := pl.AddWindowSpec(MeasuredWindow+"/"+s.Name, s, nil); err != nil {
			return nil, err
		}
	}
	variant := "all"
	if len(specs) == 1 {
		variant = specs[0].Name
	}
	pl.Experiment, pl.Variant = MeasuredWindow, variant
	return pl.results(ctx, p, o)
}

// AddWindowSpec adds to the plan the group of rows that measures window
// spec s by the method of [MeasureWindow], seeded by key (see
// [Group.Key]); decorate, if not nil, sets the columns the plan adds to
// each row. It checks the spec and builds one filter (New(0)) first, so
// that errors come before any work.
func (pl *Plan) AddWindowSpec(key string, s WindowSpec, decorate func(*Row)) error {
	switch {
	case s.Name == "":
		return paramError("name", "a window spec has no name")
	case s.New == nil:
		return paramError("new", "spec %q has no New function", s.Name)
	case s.Filters < 1 || s.Filters > maxFilters:
		return paramError("filters", "spec %q: %d filters, want 1 <= filters <= %d", s.Name, s.Filters, maxFilters)
	case s.Queries < 1 || s.Queries > maxQueries:
		return paramError("queries", "spec %q: %d queries, want 1 <= queries <= %d", s.Name, s.Queries, uint64(maxQueries))
	case len(s.Positions) == 0:
		return paramError("positions", "spec %q has no positions, want at least one", s.Name)
	case s.Window > maxQueries:
		return paramError("window", "spec %q: window %d, want at most %d", s.Name, s.Window, uint64(maxQueries))
	case len(s.Ages) == 1:
		return paramError("ages", "spec %q: one age edge, want none or at least two", s.Name)
	case len(s.Ages) > 1 && len(s.RecallAt) == 0:
		return paramError("recall-at", "spec %q has age buckets and no recall positions", s.Name)
	}
	if err := increasing(s.Name, "positions", s.Positions, 1); err != nil {
		return err
	}
	if err := increasing(s.Name, "ages", s.Ages, 0); err != nil {
		return err
	}
	if err := increasing(s.Name, "recall-at", s.RecallAt, 1); err != nil {
		return err
	}
	if len(s.Ages) > 1 && s.RecallAt[0] < s.Ages[len(s.Ages)-1] {
		return paramError("recall-at", "spec %q: recall at %d adds, before the items of age %d exist", s.Name, s.RecallAt[0], s.Ages[len(s.Ages)-1]-1)
	}
	f, err := s.New(0)
	if err != nil {
		return fmt.Errorf("experiments: %w: new: spec %q: New(0): %w", ErrInvalidParams, s.Name, err)
	}
	if isNil(f) {
		return paramError("new", "spec %q: New(0) returned a nil filter and no error", s.Name)
	}
	model := ""
	if s.Theory != nil {
		model = s.Model
		if model == "" {
			model = "theory"
		}
	}
	g := Group{Key: key, Filters: s.Filters, Run: windowRun(s), pooled: true}
	for _, t := range s.Positions {
		r := Row{Series: s.Name, Items: t, Window: s.Window, Members: min(s.Window, t),
			Filters: s.Filters, Queries: s.Queries, Model: model}
		if s.Theory != nil {
			r.Theory = s.Theory(t)
			switch {
			case r.Theory < 0 && !math.IsInf(r.Theory, 0):
				r.Theory, r.Model = 0, "" // no prediction at this position
			case math.IsNaN(r.Theory) || r.Theory > 1 || r.Theory < 0:
				return paramError("theory", "spec %q: the theory at %d adds is %v, want a rate between 0 and 1", s.Name, t, r.Theory)
			}
		}
		if decorate != nil {
			decorate(&r)
		}
		g.Rows = append(g.Rows, pl.AddRow(r))
	}
	rmodel := ""
	if s.RecallTheory != nil {
		rmodel = s.RecallModel
		if rmodel == "" {
			rmodel = "recall"
		}
	}
	for i := 0; i+1 < len(s.Ages); i++ {
		lo, hi := s.Ages[i], s.Ages[i+1]
		r := Row{Series: s.Name + " recall", Items: s.RecallAt[len(s.RecallAt)-1], Window: s.Window, Age: lo, AgeEnd: hi,
			Filters: s.Filters, Queries: (hi - lo) * uint64(len(s.RecallAt)), Model: rmodel}
		if s.RecallTheory != nil {
			var sum float64
			none := false
		ages:
			for _, t := range s.RecallAt {
				for a := lo; a < hi; a++ {
					x := s.RecallTheory(a, t)
					switch {
					case x < 0 && !math.IsInf(x, 0):
						none = true // no prediction for this row
						break ages
					case math.IsNaN(x) || x < 0 || x > 1+1e-12:
						return paramError("recall-theory", "spec %q: the recall of age %d after %d adds is %v, want a probability", s.Name, a, t, x)
					}
					sum += x
				}
			}
			if none {
				r.Model = ""
			} else {
				r.Theory = min(sum/float64(r.Queries), 1)
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

// increasing reports an error unless xs increase strictly from at least
// least.
func increasing(spec, param string, xs []uint64, least uint64) error {
	for i, x := range xs {
		switch {
		case x < least || x > maxItems:
			return paramError(param, "spec %q: %d, want %d <= %s <= %d", spec, x, least, param, uint64(maxItems))
		case i > 0 && x <= xs[i-1]:
			return paramError(param, "spec %q: %d after %d, want increasing values", spec, x, xs[i-1])
		}
	}
	return nil
}

// windowRun returns the RunFunc of a window spec: it streams the trial's
// member keys into a new filter and, at each position of the spec in
// order, measures the rate row (and checks the window) or queries the age
// buckets of the recall rows.
func windowRun(s WindowSpec) RunFunc {
	return func(ctx context.Context, t *Job, rows []*Row, out []Trial) error {
		f, err := s.New(t.Hashing.Seed)
		if err != nil {
			return fmt.Errorf("experiments: %s: filter %d: %w", s.Name, t.Filter, err)
		}
		if isNil(f) {
			return fmt.Errorf("experiments: %s: filter %d: New returned a nil filter and no error", s.Name, t.Filter)
		}
		nRate := len(s.Positions)
		var added uint64
		advance := func(to uint64) (time.Duration, uint64) {
			start := time.Now()
			n := to - added
			for ; added < to; added++ {
				if added%interruptEvery == 0 && ctx.Err() != nil {
					return 0, 0
				}
				f.Add(t.Member(added))
			}
			return time.Since(start), n
		}
		i, j := 0, 0 // next rate position, next recall position
		for i < nRate || j < len(s.RecallAt) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if i < nRate && (j == len(s.RecallAt) || s.Positions[i] <= s.RecallAt[j]) {
				pos := s.Positions[i]
				d, n := advance(pos)
				if ctx.Err() != nil {
					return ctx.Err()
				}
				o := &out[i]
				if n > 0 {
					o.NsPerAdd = float64(d.Nanoseconds()) / float64(n)
				}
				// Fresh query keys at every position, so that the
				// points of one filter share its bits but not its
				// queries.
				start := time.Now()
				var positives uint64
				for q := range s.Queries {
					if q%interruptEvery == 0 && ctx.Err() != nil {
						return ctx.Err()
					}
					if f.Contains(t.Query(uint64(i)*s.Queries + q)) {
						positives++
					}
				}
				o.NsPerQuery = float64(time.Since(start).Nanoseconds()) / float64(s.Queries)
				o.Count = positives
				if w := rows[i].Members; w > 0 {
					start = time.Now()
					for a := range w {
						if !f.Contains(t.Member(pos - 1 - a)) {
							o.FalseNegatives++
						}
					}
					o.NsPerPresent = float64(time.Since(start).Nanoseconds()) / float64(w)
				}
				if st, ok := f.(statser); ok {
					s := st.Stats()
					o.Estimated, o.Bits = s.EstimatedFPR, s.Bits
				} else if sz, ok := f.(Sizer); ok {
					o.Bits = sz.Bits()
				}
				i++
				continue
			}
			pos := s.RecallAt[j]
			advance(pos)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			for b := nRate; b < len(rows); b++ {
				r := rows[b]
				for a := r.Age; a < r.AgeEnd; a++ {
					if f.Contains(t.Member(pos - 1 - a)) {
						out[b].Count++
					}
				}
			}
			j++
		}
		return nil
	}
}
