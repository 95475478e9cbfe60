package experiments

import (
	"context"
	"fmt"
	"math/bits"
	"reflect"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
)

// RandomLines is the series name of the memory baseline of [Time] and
// the speed experiment: random loads of 64-byte lines (see [TimeLines]).
const RandomLines = "random lines"

// Timed is the Experiment of the [Results] that [Time] returns.
const Timed = "time"

// TimeSpec describes one filter to time: how to build one for a number of
// keys, and the keys to time it with.
type TimeSpec struct {
	// Name names the filter; it is the Series of its rows, so the specs
	// timed together must have distinct names, none of them RandomLines.
	Name string
	// New returns an empty filter sized for n keys whose hashing is
	// seeded with seed. Time calls it, untimed, for every filter it fills,
	// from one goroutine; and once, with the smallest size and seed 0,
	// before timing, so that an error is reported before any work is done.
	New func(n, seed uint64) (Filter, error)
	// Keys is the source of the keys (see KeySource); nil takes the
	// uniform keys. Time times each new key's Add once: the repeats of
	// the repeats source are not offered.
	Keys *KeySource
}

// Builder is a Filter that must be built after its keys are added and
// before it is queried, as a static filter (an xor or binary fuse filter)
// is. Time calls Build after the adds and counts its time as part of
// filling the filter.
type Builder interface {
	Filter
	// Build builds the filter from the keys added.
	Build() error
}

// Defaults of Time for the fields of Params left zero.
var (
	timeKeys = []uint64{1e3, 1e4, 1e5, 1e6, 1e7, 3e7}
)

const (
	timeQueries = 1_000_000
	timePasses  = 3
	timeRate    = 0.01
	// timeChunk is the number of keys made, untimed, before each timed
	// run of operations.
	timeChunk = 1024
)

// Time measures how fast the filters that specs describe are, by the
// method of the speed experiment, open to any filter: for each spec and
// each number of keys n in p.Keys, the time per key of filling empty
// filters sized for n with n keys (Add, then Build for a Builder),
// repeated on new filters until at least p.MinAdds keys were added; then,
// on the last filter filled, the time per Contains of p.Queries keys it
// holds (cycling through its n keys) and of p.Queries keys it never held.
// Keys are made in chunks of 1024 between timed runs, so their cost is not
// timed. Each measurement is repeated p.Passes times and the median
// reported. Everything runs on one goroutine, one filter at a time, and
// every spec gets the same keys at the same n (the keys depend on o.Seed
// and n only), so the times of the specs are comparable within one run;
// they are wall-clock times, which another program running on the machine
// disturbs.
//
// Beside each n Time measures the baseline of the speed experiment
// (series RandomLines): the time per load of a random 64-byte line of a
// table the size of a standard filter for n keys at rate p.P, the memory
// system's limit for a filter that touches one line per key. Sizes from
// 1e3 to 3e7 keys, the default, take such a table from the first-level
// cache (1.2 KB) to beyond the last-level one (36 MB).
//
// The Results have one Row per spec and n, then one per n for the
// baseline: NsPerAdd, NsPerQuery (absent keys) and NsPerPresent, the bits
// of the filter where it reports them (as for Measure), and, from the
// first pass, the false positives among the absent keys (Count, so Rate
// and its Clopper-Pearson interval) and the held keys that tested absent
// (FalseNegatives of Members = Queries times Passes). A false negative makes Time return
// the results with an error wrapping ErrFalseNegative, as Measure does.
// P sizes the baseline's table only: the specs' rows carry no Target,
// since their New sizes the filters. [Experiment] is [Timed]; package
// plots draws the results (plots.Time).
//
// Time reads Keys (default 1e3, 1e4, 1e5, 1e6, 1e7 and 3e7), Queries
// (default 1e6), MinAdds (default Queries), Passes (default 3), P (default
// 0.01) and Conf (default 0.95) of p, and Seed and Progress of o; other
// fields of p, and a sharded o, are an error wrapping ErrInvalidParams, as
// are specs without a name or New, sizes that are zero or not increasing,
// and an error or a nil filter from New. A cancelled ctx stops the run and
// returns ctx's error.
func Time(ctx context.Context, specs []TimeSpec, p Params, o Options) (*Results, error) {
	p, pl, err := planTime(specs, p, o)
	if err != nil {
		return nil, err
	}
	variant := "all"
	if len(specs) == 1 {
		variant = specs[0].Name
	}
	pl.Experiment, pl.Variant, pl.Sequential = Timed, variant, true
	return pl.results(ctx, p, o)
}

// planTime validates Time's arguments and plans the timing.
func planTime(specs []TimeSpec, p Params, o Options) (Params, *Plan, error) {
	fail := func(err error) (Params, *Plan, error) { return Params{}, nil, err }
	if len(specs) == 0 {
		return fail(paramError("specs", "no spec to time"))
	}
	used := Params{Keys: p.Keys, Queries: p.Queries, MinAdds: p.MinAdds, Passes: p.Passes, P: p.P, Conf: p.Conf}
	if !reflect.DeepEqual(p, used) {
		return fail(paramError("params", "Time reads only Keys, Queries, MinAdds, Passes, P and Conf; the other fields of Params must be zero"))
	}
	p = used.Or(Params{Keys: timeKeys, Queries: timeQueries, Passes: timePasses, P: timeRate, Conf: measureConf})
	if p.MinAdds == 0 {
		p.MinAdds = p.Queries
	}
	p.Filters = 1
	switch {
	case p.Queries > maxQueries:
		return fail(paramError("queries", "%d, want 1 <= queries <= %d", p.Queries, uint64(maxQueries)))
	case p.MinAdds > maxQueries:
		return fail(paramError("min-adds", "%d, want at most %d", p.MinAdds, uint64(maxQueries)))
	case p.Passes < 1 || p.Passes > 1000:
		return fail(paramError("passes", "%d, want 1 <= passes <= 1000", p.Passes))
	case len(p.Keys) == 0:
		return fail(paramError("keys", "no sizes, want at least one number of keys"))
	}
	if err := analysis.CheckProbability("p", p.P); err != nil {
		return fail(paramError("p", "%v, want 0 < p < 1", p.P))
	}
	if p.Conf <= 0 || p.Conf >= 1 || p.Conf != p.Conf {
		return fail(paramError("conf", "%v, want 0 < conf < 1", p.Conf))
	}
	if o.Shard.sharded() {
		return fail(paramError("shard", "Time measures times on one machine and cannot be sharded"))
	}
	for i, n := range p.Keys {
		switch {
		case n < 1 || n > maxItems:
			return fail(paramError("keys", "%d keys, want 1 <= keys <= %d", n, uint64(maxItems)))
		case i > 0 && n <= p.Keys[i-1]:
			return fail(paramError("keys", "%d keys after %d, want increasing sizes", n, p.Keys[i-1]))
		}
	}
	names := map[string]bool{}
	for i, s := range specs {
		switch {
		case s.Name == "":
			return fail(paramError("name", "spec %d has no name", i))
		case s.Name == RandomLines:
			return fail(paramError("name", "spec %d is named %q, the baseline's name", i, RandomLines))
		case names[s.Name]:
			return fail(paramError("name", "two specs are named %q", s.Name))
		case s.New == nil:
			return fail(paramError("new", "spec %q has no New function", s.Name))
		}
		names[s.Name] = true
		f, err := s.New(p.Keys[0], 0)
		if err != nil {
			return fail(fmt.Errorf("experiments: %w: new: spec %q: New(%d, 0): %w", ErrInvalidParams, s.Name, p.Keys[0], err))
		}
		if isNil(f) {
			return fail(paramError("new", "spec %q: New(%d, 0) returned a nil filter and no error", s.Name, p.Keys[0]))
		}
		if d := s.Keys.Distinct(); d > 0 {
			if n := p.Keys[len(p.Keys)-1]; n > d || p.Queries > d-n {
				return fail(paramError("keys", "spec %q: %s has %d distinct keys, too few for %d keys and %d absent queries", s.Name, s.Keys.Name(), d, n, p.Queries))
			}
		}
	}
	pl := &Plan{}
	for _, s := range specs {
		for _, n := range p.Keys {
			pl.Groups = append(pl.Groups, Group{
				// Every spec at n gets the same keys and hash seed.
				Key:     fmt.Sprintf("%s/n=%d", Timed, n),
				Filters: 1,
				Run:     TimeFilter(s, n, p),
				Keys:    s.Keys,
				Rows: []int{pl.AddRow(Row{Series: s.Name, Items: n, Capacity: n, Filters: 1,
					Queries: p.Queries, Members: p.Queries * uint64(p.Passes), Keys: keysName(s.Keys)})},
			})
		}
	}
	for _, n := range p.Keys {
		sd, err := analysis.StandardSize(n, p.P)
		if err != nil {
			return fail(paramError("keys", "%v", err))
		}
		pl.Groups = append(pl.Groups, Group{
			Key:     fmt.Sprintf("%s/%s/n=%d", Timed, RandomLines, n),
			Filters: 1,
			Run:     TimeLines(sd.Bits),
			Rows:    []int{pl.AddRow(Row{Series: RandomLines, Items: n, Capacity: n, Filters: 1, Queries: p.Queries, Target: p.P})},
		})
	}
	pl.Notes = append(pl.Notes,
		fmt.Sprintf("times per operation on one goroutine, the median of %d passes; keys made in chunks of %d between timed runs, untimed; adds repeated on new filters until at least %d were timed; present queries cycle through the filter's keys", p.Passes, timeChunk, p.MinAdds),
		fmt.Sprintf("%s: the time per load of a random 64-byte line of a table of the standard filter's size for n keys at p = %g, loads independent of each other", RandomLines, p.P))
	return p, pl, nil
}

// TimeFilter returns the [RunFunc] that times the filter of s at n keys by
// the method of [Time], for a [Group] of one filter with one row, whose
// Queries and Members (Queries times p.Passes) it reads; p gives Queries,
// MinAdds and Passes. Such a group is timed alone (Group.Alone) in a run
// that measures rates as well.
func TimeFilter(s TimeSpec, n uint64, p Params) RunFunc {
	return func(ctx context.Context, t *Job, rows []*Row, out []Trial) error {
		r := rows[0]
		keys := t.keys
		buf := make([]byte, 0, 32*timeChunk)
		ends := make([]int, timeChunk)
		batch := make([][]byte, timeChunk)
		// chunk makes count keys from first: members, or with query
		// set absent keys.
		chunk := func(first, count uint64, query bool) [][]byte {
			buf = buf[:0]
			for i := range count {
				if query {
					buf = keys.Query(buf, t.stream, first+i)
				} else {
					buf = keys.Member(buf, t.stream, first+i)
				}
				ends[i] = len(buf)
			}
			start := 0
			for i := range count {
				batch[i] = buf[start:ends[i]:ends[i]]
				start = ends[i]
			}
			return batch[:count]
		}
		var f Filter
		fill := func() (time.Duration, error) {
			g, err := s.New(n, t.Hashing.Seed)
			if err != nil {
				return 0, fmt.Errorf("experiments: %s at %d keys: %w", s.Name, n, err)
			}
			if isNil(g) {
				return 0, fmt.Errorf("experiments: %s at %d keys: New returned a nil filter and no error", s.Name, n)
			}
			var took time.Duration
			for i := uint64(0); i < n; i += timeChunk {
				if err := ctx.Err(); err != nil {
					return 0, err
				}
				b := chunk(i, min(timeChunk, n-i), false)
				start := time.Now()
				for _, k := range b {
					g.Add(k)
				}
				took += time.Since(start)
			}
			if b, ok := g.(Builder); ok {
				start := time.Now()
				err := b.Build()
				took += time.Since(start)
				if err != nil {
					return 0, fmt.Errorf("experiments: %s at %d keys: build: %w", s.Name, n, err)
				}
			}
			f = g
			return took, nil
		}
		// query times Queries Contains calls of held (or, with absent
		// set, never-held) keys and returns the time per call and the
		// number that tested present.
		query := func(absent bool) (float64, uint64, error) {
			var took time.Duration
			var hits uint64
			for done := uint64(0); done < r.Queries; {
				if err := ctx.Err(); err != nil {
					return 0, 0, err
				}
				var b [][]byte
				if absent {
					b = chunk(done, min(timeChunk, r.Queries-done), true)
				} else {
					first := done % n
					b = chunk(first, min(timeChunk, r.Queries-done, n-first), false)
				}
				done += uint64(len(b))
				start := time.Now()
				for _, k := range b {
					if f.Contains(k) {
						hits++
					}
				}
				took += time.Since(start)
			}
			return float64(took.Nanoseconds()) / float64(r.Queries), hits, nil
		}

		rounds := max(1, (p.MinAdds+n-1)/n)
		var add, present, absent []float64
		o := &out[0]
		for pass := range p.Passes {
			var took time.Duration
			f = nil
			runtime.GC() // collect the last pass's filters, untimed
			for range rounds {
				d, err := fill()
				if err != nil {
					return err
				}
				took += d
			}
			add = append(add, float64(took.Nanoseconds())/float64(rounds*n))
			ns, hits, err := query(false)
			if err != nil {
				return err
			}
			present = append(present, ns)
			o.FalseNegatives += r.Queries - hits
			ns, hits, err = query(true)
			if err != nil {
				return err
			}
			absent = append(absent, ns)
			if pass == 0 {
				o.Count = hits
			}
		}
		switch s := f.(type) {
		case statser:
			st := s.Stats()
			o.Estimated = st.EstimatedFPR
			o.Bits = st.Bits
			o.Stages = len(st.Stages)
		case Sizer:
			o.Bits = s.Bits()
		}
		o.NsPerAdd, o.NsPerPresent, o.NsPerQuery = median(add), median(present), median(absent)
		return nil
	}
}

// median returns the median of xs (the mean of the middle two for an even
// count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// lineSink receives the sums of TimeLines, so that the compiler keeps the
// loads.
var lineSink atomic.Uint64

// TimeLines returns the [RunFunc] of the memory baseline (series
// [RandomLines]), for a group of one filter with one row: Queries loads of random
// 64-byte lines of a table of m bits (rounded up to whole lines), each
// line's first word summed, with the line indexes from the trial's key
// stream so that no load waits for another. The time per load is the
// query time; there is no add time.
func TimeLines(m uint64) RunFunc {
	return func(ctx context.Context, t *Job, rows []*Row, out []Trial) error {
		r := rows[0]
		lines := max(1, (m+511)/512)
		table := make([]uint64, 8*lines)
		for i := range table {
			table[i] = uint64(i)
		}
		x := t.stream
		var sum uint64
		start := time.Now()
		for i := range r.Queries {
			if i%interruptEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			x = splitmix64(x)
			hi, _ := bits.Mul64(x, lines)
			sum += table[8*hi]
		}
		d := time.Since(start)
		lineSink.Add(sum) // keeps the loads
		out[0].Bits = 512 * lines
		out[0].Bytes = 64 * lines
		out[0].NsPerQuery = float64(d.Nanoseconds()) / float64(r.Queries)
		return nil
	}
}
