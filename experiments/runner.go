package experiments

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"runtime"
	"sync"

	"github.com/bloomlab/bloomlab/variants"
)

// A Plan is a run made concrete: the result rows with their plan-time
// fields (each point's parameters and theory), and the groups of rows
// measured together on the same filters. [Execute] measures it and
// returns its [Results].
//
// A Plan is how a measurement that is not a [Spec] or a [WindowSpec]
// (counters, removals, attacks, estimates of a count) gets the harness's
// seeding, workers, shards, intervals and notes: build the rows, add a
// [Group] whose Run measures one filter of it, and call [Execute].
// [Plan.AddSpec] and [Plan.AddWindowSpec] add the groups of [Measure] and
// [MeasureWindow] to a plan, so that a run mixes both kinds.
type Plan struct {
	// Experiment and Variant name the run in its [Results].
	Experiment string
	Variant    string
	// Rows are the points of the run, in the order of the results.
	Rows []Row
	// Groups are the sets of rows measured on the same filters.
	Groups []Group
	// Notes are remarks known before measuring; the results keep them
	// first, before the notes the harness derives.
	Notes []string
	// Caches are the data caches of the machine, for a run whose times
	// depend on them (see [MachineCaches]).
	Caches []CacheLevel
	// Machine describes the processor, for a run whose times depend on
	// it (see [MachineCPU]).
	Machine *Machine
	// Sequential runs every filter on one goroutine, for a run that times.
	Sequential bool
	// Summarize, if not nil, returns notes derived from the aggregated
	// results, appended after the harness's own.
	Summarize func(*Results) []string
	// Label, if not nil, names a row's point in the notes ("k = 7");
	// an empty label, or a nil Label, names it by its items.
	Label func(Row) string
}

// A Group is a set of rows measured on the same filters, in order: the
// checkpoints of a growing filter, or a single point. Each of its filters
// is one [Job], run by Run.
type Group struct {
	// Key names the group for seeding: filter f of the group gets a hash
	// seed and a key stream derived from the run's seed, Key and f. It must
	// not depend on which other groups the run holds, so that a point
	// measures the same whatever else is measured with it.
	Key string
	// Rows are indexes into [Plan.Rows].
	Rows []int
	// Filters is the number of independently seeded filters measured.
	Filters int
	// Hashing is the hashing of the group's filters; its seed is replaced
	// per filter (see [SeedHashing]).
	Hashing variants.Hashing
	// Keys is the source of the member and query keys; nil is the
	// uniform one.
	Keys *KeySource
	// Alone marks a group that times: its filters run after every other
	// group's, one at a time, with nothing else of the run measuring, so
	// that a run can measure rates on all cores and times on one.
	Alone bool
	// Run measures one filter of the group.
	Run RunFunc

	// pooled marks the group of a Spec: its rows are false-positive rates
	// of the same growing filters, which the notes check once, pooled over
	// the rows (see pooledCheck).
	pooled bool
}

// RunFunc measures one filter of a [Group]: it fills out[i] for the row
// rows[i], whose plan-time fields it may read. Out has the [Filter] field
// already set. It is called from several goroutines at once, once per
// filter, and should return ctx's error soon after ctx is cancelled.
type RunFunc func(ctx context.Context, j *Job, rows []*Row, out []Trial) error

// AddRow appends r to the plan's rows and returns its index, for
// [Group.Rows].
func (p *Plan) AddRow(r Row) int {
	p.Rows = append(p.Rows, r)
	return len(p.Rows) - 1
}

// A Job is one filter of a [Group] to measure: its index, its hashing with
// the filter's seed, and its keys. Member, Query, Stranger and Candidate
// return keys from four disjoint spaces, a pure function of the run's
// seed, the group's Key and the filter's index. The slice they return is
// valid until the next call of any of them.
type Job struct {
	// Filter is the filter's index in its group, from 0 to Filters-1.
	Filter int
	// Hashing is the group's hashing with this filter's seed.
	Hashing variants.Hashing

	stream uint64
	keys   *KeySource // nil for the uniform keys
	buf    [96]byte
}

// Keys are 16 bytes: the filter's 64-bit stream id, then a 64-bit counter
// whose top two bits say which space the key is from. The spaces are
// disjoint, so a query key is never an inserted key.
const (
	spaceMember  = 0
	spaceRemoved = 1 << 62 // never inserted, used for removals
	spaceQuery   = 1 << 63 // never inserted, used for queries
	counterMask  = 1<<62 - 1
	// spaceCandidate (both top bits set) is disjoint from the others.
	spaceCandidate = spaceQuery | spaceRemoved
)

func (t *Job) key(space, i uint64) []byte {
	binary.LittleEndian.PutUint64(t.buf[:8], t.stream)
	binary.LittleEndian.PutUint64(t.buf[8:], space|i&counterMask)
	return t.buf[:16]
}

// Member returns the i-th key to insert into the filter, from its key
// source.
func (t *Job) Member(i uint64) []byte {
	if t.keys != nil {
		return t.sourced(i, false)
	}
	return t.key(spaceMember, i)
}

// Query returns the i-th key to query the filter with, never one of its
// members, from its key source.
func (t *Job) Query(i uint64) []byte {
	if t.keys != nil {
		return t.sourced(i, true)
	}
	return t.key(spaceQuery, i)
}

// sourced returns the i-th member (or query) key from the trial's key
// source.
func (t *Job) sourced(i uint64, query bool) []byte {
	return t.keys.key(t.buf[:0], t.stream, i, query)
}

// Stranger returns the i-th key of a space of uniform keys that are
// neither members nor queries: keys offered to Remove, for example.
func (t *Job) Stranger(i uint64) []byte { return t.key(spaceRemoved, i) }

// Candidate returns the i-th key of a fourth space of uniform keys,
// disjoint from the members, queries and strangers: keys a measurement
// chooses among, such as an attacker's candidates.
func (t *Job) Candidate(i uint64) []byte { return t.key(spaceCandidate, i) }

// Stream returns the filter's key stream id, from which its keys derive:
// a seed for randomness of the measurement's own that differs from filter
// to filter.
func (t *Job) Stream() uint64 { return t.stream }

// CountPositives queries f with the job's first q query keys and returns
// how many it reports present, or ctx's error if ctx is cancelled.
func (t *Job) CountPositives(ctx context.Context, f Filter, q uint64) (uint64, error) {
	var positives uint64
	for i := range q {
		if i%interruptEvery == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		var key []byte
		if t.keys == nil {
			key = t.key(spaceQuery, i) // the uniform keys, inline (speed times this loop)
		} else {
			key = t.sourced(i, true)
		}
		if f.Contains(key) {
			positives++
		}
	}
	return positives, nil
}

// SeedHashing returns h with its seed replaced by seed; for the keyed hash
// kind, whose seed must be zero, with a key derived from seed instead
// (SplitMix64 mixes, never zero), so that its filters are independent and
// reproducible like the others. A key derived from a known seed is no
// secret: it stands for a key an attacker does not know. The harness
// seeds [Job.Hashing] this way.
func SeedHashing(h variants.Hashing, seed uint64) variants.Hashing {
	if h.Kind != variants.SipHash {
		h.Seed = seed
		return h
	}
	h.Seed = 0
	binary.LittleEndian.PutUint64(h.Key[:8], derive(seed, 1))
	binary.LittleEndian.PutUint64(h.Key[8:], derive(seed, 2)|1)
	return h
}

// uniformKeys is the default key source.
var uniformKeys = UniformKeys()

// splitmix64 is the SplitMix64 output function (Steele, Lea and Flood
// 2014) applied to x + golden gamma.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// derive mixes seed and parts into one 64-bit value, counter-based: the
// result depends on the values only, never on the order work is done in.
func derive(seed uint64, parts ...uint64) uint64 {
	x := splitmix64(seed)
	for _, p := range parts {
		x = splitmix64(x ^ splitmix64(p))
	}
	return x
}

func nameHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// seeds returns filter f's hash seed and key stream id in group key.
func seeds(seed uint64, key string, f int) (hash, stream uint64) {
	g := nameHash(key)
	return derive(seed, 1, g, uint64(f)), derive(seed, 2, g, uint64(f))
}

// Execute measures the plan's filters and returns their results: for each
// group, Filters filters, each with its own hash seed and keys derived
// from o.Seed, the group's Key and the filter's index, each measured by
// the group's Run; then each row's mean rate and interval from its
// trials, and the notes. The plan's rows are the results' rows, trials
// appended, so a plan is executed once.
//
// Execute reads only Conf of p for the intervals, and stores p in the
// results as the parameters of the run. [Options] work as for [Measure]:
// the results depend on o.Seed, never on o.Workers; with o.Shard set
// Execute returns one shard's partial results for [Merge]; a cancelled
// ctx stops the run and returns ctx's error. A false negative counted by
// a Run ([Trial.FalseNegatives]) makes Execute return the results with an
// error wrapping [ErrFalseNegative].
func Execute(ctx context.Context, pl *Plan, p Params, o Options) (*Results, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if math.IsNaN(p.Conf) || p.Conf <= 0 || p.Conf >= 1 {
		return nil, paramError("conf", "%v, want 0 < conf < 1", p.Conf)
	}
	for _, g := range pl.Groups {
		if g.Run == nil {
			return nil, paramError("plan", "group %q has no Run function", g.Key)
		}
		if g.Filters < 1 || g.Filters > maxFilters {
			return nil, paramError("filters", "group %q: %d filters, want 1 <= filters <= %d", g.Key, g.Filters, maxFilters)
		}
		for _, r := range g.Rows {
			if r < 0 || r >= len(pl.Rows) {
				return nil, paramError("plan", "group %q: row %d of %d", g.Key, r, len(pl.Rows))
			}
		}
	}
	return pl.results(ctx, p, o)
}

// execute measures every owned filter of every group on o.Workers
// goroutines and stores the trials in the plan's rows, in filter order.
func execute(ctx context.Context, pl *Plan, o Options) error {
	type job struct{ g, slot, f int }
	var jobs []job
	slots := make([][][]Trial, len(pl.Groups))
	for g, gr := range pl.Groups {
		for f := range gr.Filters {
			if !o.Shard.owns(f) {
				continue
			}
			out := make([]Trial, len(gr.Rows))
			for j := range out {
				out[j].Filter = f
			}
			slots[g] = append(slots[g], out)
			jobs = append(jobs, job{g, len(slots[g]) - 1, f})
		}
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if pl.Sequential {
		workers = 1
	}
	// The groups that time run last, on one goroutine.
	var shared, alone []job
	for _, j := range jobs {
		if pl.Groups[j.g].Alone {
			alone = append(alone, j)
		} else {
			shared = append(shared, j)
		}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	n := 0
	run := func(jobs []job, workers int) {
		workers = max(1, min(workers, len(jobs)))
		ch := make(chan job)
		done := make(chan struct{}, len(jobs))
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for j := range ch {
					gr := &pl.Groups[j.g]
					rows := make([]*Row, len(gr.Rows))
					for i, r := range gr.Rows {
						rows[i] = &pl.Rows[r]
					}
					t := &Job{Filter: j.f, Hashing: gr.Hashing}
					if gr.Keys != nil && gr.Keys.kind != keysUniform {
						t.keys = gr.Keys // nil: the uniform keys, made inline
					}
					var hseed uint64
					hseed, t.stream = seeds(o.Seed, gr.Key, j.f)
					t.Hashing = SeedHashing(t.Hashing, hseed)
					if err := gr.Run(ctx, t, rows, slots[j.g][j.slot]); err != nil {
						cancel(err)
					}
					done <- struct{}{}
				}
			})
		}
		go func() {
			defer close(ch)
			for _, j := range jobs {
				select {
				case ch <- j:
				case <-ctx.Done():
					return
				}
			}
		}()
		go func() {
			wg.Wait()
			close(done)
		}()
		for range done {
			n++
			if o.Progress != nil && ctx.Err() == nil {
				o.Progress(n, len(shared)+len(alone))
			}
		}
	}
	run(shared, workers)
	if ctx.Err() == nil {
		run(alone, 1)
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	for g, gr := range pl.Groups {
		for _, out := range slots[g] {
			for j, r := range gr.Rows {
				pl.Rows[r].Trials = append(pl.Rows[r].Trials, out[j])
			}
		}
	}
	return nil
}

// interruptEvery is how many operations a RunFunc does between checks of
// its context.
const interruptEvery = 1 << 14
