package experiments

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"runtime"
	"sync"

	"github.com/bloomlab/bloomlab/variants"
)

// A plan is an experiment made concrete: the result rows with their
// plan-time fields (the point's parameters and theory) and the groups of
// rows that are measured together on one filter.
type plan struct {
	rows   []Row
	groups []group
	notes  []string
	caches []Cache // of the machine, for experiments that time
}

// A group is a set of rows measured on the same filter, in order: the
// checkpoints of a growing filter, or a single point. Each of its filters
// is one job.
type group struct {
	// key names the group for seeding; it must not depend on which other
	// groups the run holds, so that a point measures the same whatever
	// else is measured with it.
	key     string
	rows    []int // indexes into plan.rows
	filters int
	hashing variants.Hashing // Seed is replaced per filter
	run     runFunc
	// keys is the key source of a Spec's group; nil is the uniform one.
	keys *KeySource
	// pooled marks the group of a Spec: its rows are false-positive
	// rates of the same growing filters, which the notes check once,
	// pooled over the rows (see pooledCheck).
	pooled bool
	// alone marks a group that times: its filters run after every other
	// group's, one at a time, with nothing else of the run measuring, so
	// that an experiment can measure rates on all cores and times on one.
	alone bool
}

// runFunc measures one filter of a group: it fills out[j] for row rows[j].
// Out has the Filter field already set.
type runFunc func(ctx context.Context, t *trial, rows []*Row, out []Trial) error

// add appends row to the plan and returns its index.
func (p *plan) add(r Row) int {
	p.rows = append(p.rows, r)
	return len(p.rows) - 1
}

// trial is the per-filter state a runFunc gets: the filter's index, its
// hashing (seed set) and its key stream.
type trial struct {
	filter  int
	hashing variants.Hashing
	stream  uint64
	keys    *KeySource // nil for the uniform keys
	buf     [96]byte
}

// Keys are 16 bytes: the filter's 64-bit stream id, then a 64-bit counter
// whose top two bits say which space the key is from. The spaces are
// disjoint, so a query key is never an inserted key.
const (
	spaceMember  = 0
	spaceRemoved = 1 << 62 // never inserted, used for removals
	spaceQuery   = 1 << 63 // never inserted, used for queries
	counterMask  = 1<<62 - 1
)

func (t *trial) key(space, i uint64) []byte {
	binary.LittleEndian.PutUint64(t.buf[:8], t.stream)
	binary.LittleEndian.PutUint64(t.buf[8:], space|i&counterMask)
	return t.buf[:16]
}

// member returns the i-th key inserted into the filter, from its key
// source.
func (t *trial) member(i uint64) []byte {
	if t.keys != nil {
		return t.sourced(i, false)
	}
	return t.key(spaceMember, i)
}

// query returns the i-th never-inserted key used for queries, from its
// key source.
func (t *trial) query(i uint64) []byte {
	if t.keys != nil {
		return t.sourced(i, true)
	}
	return t.key(spaceQuery, i)
}

// sourced returns the i-th member (or query) key from the trial's key
// source.
func (t *trial) sourced(i uint64, query bool) []byte {
	return t.keys.key(t.buf[:0], t.stream, i, query)
}

// stranger returns the i-th never-inserted key used for removals.
func (t *trial) stranger(i uint64) []byte { return t.key(spaceRemoved, i) }

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

// execute measures every owned filter of every group on o.Workers
// goroutines and stores the trials in the plan's rows, in filter order.
func execute(ctx context.Context, pl *plan, o Options, sequential bool) error {
	type job struct{ g, slot, f int }
	var jobs []job
	slots := make([][][]Trial, len(pl.groups))
	for g, gr := range pl.groups {
		for f := range gr.filters {
			if !o.Shard.owns(f) {
				continue
			}
			out := make([]Trial, len(gr.rows))
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
	if sequential {
		workers = 1
	}
	// The groups that time run last, on one goroutine.
	var shared, alone []job
	for _, j := range jobs {
		if pl.groups[j.g].alone {
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
					gr := &pl.groups[j.g]
					rows := make([]*Row, len(gr.rows))
					for i, r := range gr.rows {
						rows[i] = &pl.rows[r]
					}
					t := &trial{filter: j.f, hashing: gr.hashing}
					if gr.keys != nil && gr.keys.kind != keysUniform {
						t.keys = gr.keys // nil: the uniform keys, made inline
					}
					var hseed uint64
					hseed, t.stream = seeds(o.Seed, gr.key, j.f)
					t.hashing = withSeed(t.hashing, hseed)
					if err := gr.run(ctx, t, rows, slots[j.g][j.slot]); err != nil {
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
	for g, gr := range pl.groups {
		for _, out := range slots[g] {
			for j, r := range gr.rows {
				pl.rows[r].Trials = append(pl.rows[r].Trials, out[j])
			}
		}
	}
	return nil
}

// interruptEvery is how many operations a runFunc does between checks of
// its context.
const interruptEvery = 1 << 14
