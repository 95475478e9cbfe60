package experiments

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

var speedExperiment = Experiment{
	Name:       "speed",
	Summary:    "nanoseconds per Add and per Contains of each variant as the filter grows from cache-sized to far larger than cache",
	Variants:   Variants,
	Timed:      true,
	sequential: true,
	flags: func(variant string) []string {
		if variant == "scalable" || variant == "all" {
			return []string{"n", "p", "filters", "queries"} // n: the scalable filter's n0
		}
		return []string{"p", "filters", "queries"}
	},
	defaults: func(_ string, quick bool) Params {
		keys := []uint64{1e3, 1e4, 1e5, 1e6, 1e7, 3e7}
		if quick {
			keys = keys[:4]
		}
		return Params{N: 1000, P: 0.01, Filters: 1, Queries: 1_000_000, Conf: 0.95, Span: 1, Checkpoints: 1, Keys: keys}
	},
	plan: planSpeed,
}

// anyBuilder returns a builder of variant sized for n keys at rate p; a
// scalable filter starts at n0 = min(N, n) and grows to n.
func anyBuilder(variant string, n uint64, p Params) (builder, error) {
	if variant == "scalable" {
		return scalableBuilder(scalableSpec{P: p.P, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: min(p.N, n)}), nil
	}
	return sized(variant, n, p.P, 0)
}

// planSpeed plans, for each variant and each n in Keys, one filter sized
// for n (a scalable one growing to n) that is filled with n keys, refilled
// after a Reset until at least Queries adds were timed, then queried with
// Queries absent keys. It runs on one goroutine, so the times are those of
// one core with nothing else of the experiment's running.
func planSpeed(variant string, p Params) (*plan, error) {
	pl := &plan{caches: dataCaches()}
	for _, v := range selected(variant, Variants) {
		for _, n := range p.Keys {
			b, err := anyBuilder(v, n, p)
			if err != nil {
				return nil, err
			}
			if _, err := probe(b); err != nil {
				return nil, paramError("keys", "%v", err)
			}
			pl.groups = append(pl.groups, speedGroup(pl, v, v, n, p, timeOps(b)))
		}
	}
	for _, v := range selected(variant, Variants) {
		if v != "blocked" && v != "split-block" {
			continue
		}
		for _, n := range p.Keys {
			b, err := sized(v, n, p.P, 0)
			if err != nil {
				return nil, err
			}
			pl.groups = append(pl.groups, speedGroup(pl, v+" batched", v, n, p, timeBatches(b)))
		}
	}
	if variant == "scalable" || variant == "all" {
		for _, n := range p.Keys {
			b := scalableBuilder(scalableSpec{P: p.P, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: min(p.N, n), BlockBits: variants.DefaultBlockBits})
			pl.groups = append(pl.groups, speedGroup(pl, ScalableBlocked, "scalable", n, p, timeOps(b)))
		}
	}
	if variant == "all" {
		for _, n := range p.Keys {
			m, err := analysis.OptimalBits(n, p.P)
			if err != nil {
				return nil, paramError("keys", "%v", err)
			}
			g := speedGroup(pl, RandomLines, "", n, p, timeLines(m))
			pl.groups = append(pl.groups, g)
		}
	}
	pl.notes = append(pl.notes, "times per operation on one goroutine, keys of 16 bytes generated on the fly (about 1 ns of each operation); adds are repeated on a reset filter until at least as many as the queries were timed",
		fmt.Sprintf("batched: AddBatch and ContainsBatch with %d keys per call; %s: the time per load of a random 64-byte line of a table of the standard filter's size for n, loads independent of each other (the memory system's limit for one access per key)", speedBatch, RandomLines))
	if variant == "scalable" || variant == "all" {
		pl.notes = append(pl.notes, ScalableBlocked+": a scalable filter with the same parameters and blocked stages of 512 bits (ScalableParams.BlockBits), whose queries read every stage's block in one pass")
	}
	return pl, nil
}

// ScalableBlocked is the series name of the speed experiment's scalable
// filter with blocked stages (ScalableParams.BlockBits = 512).
const ScalableBlocked = "scalable blocked stages"

// RandomLines is the series name of the memory baseline of the speed
// experiment.
const RandomLines = "random lines"

// speedBatch is the number of keys per AddBatch and ContainsBatch call in
// the speed experiment.
const speedBatch = 256

// speedGroup returns a group of the speed experiment: one row, series at
// n keys, measured by run.
func speedGroup(pl *plan, series, variant string, n uint64, p Params, run runFunc) group {
	h := variants.Hashing{}
	return group{
		key:     fmt.Sprintf("speed/%s/n=%d", series, n),
		filters: p.Filters,
		hashing: h,
		run:     run,
		rows: []int{pl.add(Row{
			Series:   series,
			Variant:  variant,
			Hashing:  hashingName(h),
			Items:    n,
			Capacity: n,
			Filters:  p.Filters,
			Queries:  p.Queries,
			Target:   p.P,
		})},
	}
}

// timeBatches is the runFunc of the batched series: like timeOps, with
// keys passed speedBatch at a time to AddBatch and ContainsBatch.
func timeBatches(build builder) runFunc {
	return func(ctx context.Context, t *trial, rows []*Row, out []Trial) error {
		r := rows[0]
		bf, err := build(t.hashing)
		if err != nil {
			return err
		}
		f, ok := bf.(batcher)
		if !ok {
			return fmt.Errorf("experiments: %T has no batched operations", bf)
		}
		var buf [speedBatch * 16]byte
		var keys [speedBatch][]byte
		fill := func(key func(uint64) []byte, from, n uint64) [][]byte {
			for i := range n {
				keys[i] = append(buf[16*i:16*i:16*i+16], key(from+i)...)
			}
			return keys[:n]
		}
		var addTime time.Duration
		var adds uint64
		for adds == 0 || adds < r.Queries {
			if adds > 0 {
				f.Reset()
			}
			start := time.Now()
			for i := uint64(0); i < r.Items; i += speedBatch {
				if i%interruptEvery < speedBatch && ctx.Err() != nil {
					return ctx.Err()
				}
				f.AddBatch(fill(t.member, i, min(speedBatch, r.Items-i)))
			}
			addTime += time.Since(start)
			adds += r.Items
		}
		var answers [speedBatch]bool
		var positives uint64
		start := time.Now()
		for i := uint64(0); i < r.Queries; i += speedBatch {
			if i%interruptEvery < speedBatch && ctx.Err() != nil {
				return ctx.Err()
			}
			ks := fill(t.query, i, min(speedBatch, r.Queries-i))
			f.ContainsBatch(ks, answers[:len(ks)])
			for _, a := range answers[:len(ks)] {
				if a {
					positives++
				}
			}
		}
		recordTimes(&out[0], f.Stats(), positives, addTime, adds, time.Since(start), r.Queries)
		return nil
	}
}

// lineSink receives the sums of timeLines, so that the compiler keeps the
// loads.
var lineSink atomic.Uint64

// batcher is what timeBatches needs of a filter.
type batcher interface {
	filter
	variants.Batcher
	Reset()
}

// timeLines is the runFunc of the memory baseline: Queries loads of random
// 64-byte lines of a table of m bits (rounded up to whole lines), each
// line's first word summed, with the line indexes from the trial's key
// stream so that no load waits for another. The time per load is the
// query time; there is no add time.
func timeLines(m uint64) runFunc {
	return func(ctx context.Context, t *trial, rows []*Row, out []Trial) error {
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

// timeOps is the runFunc of the speed experiment.
func timeOps(build builder) runFunc {
	return func(ctx context.Context, t *trial, rows []*Row, out []Trial) error {
		r := rows[0]
		f, err := build(t.hashing)
		if err != nil {
			return err
		}
		var addTime time.Duration
		var adds uint64
		for adds == 0 || adds < r.Queries {
			if adds > 0 {
				f.(interface{ Reset() }).Reset()
			}
			start := time.Now()
			for i := range r.Items {
				if i%interruptEvery == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				f.Add(t.key(spaceMember, i)) // t.member inlined: the speed experiment's keys are uniform
			}
			addTime += time.Since(start)
			adds += r.Items
		}
		start := time.Now()
		positives, err := t.countPositives(ctx, f, r.Queries)
		if err != nil {
			return err
		}
		recordTimes(&out[0], f.Stats(), positives, addTime, adds, time.Since(start), r.Queries)
		return nil
	}
}

// recordTimes fills a speed trial from the filter's stats, its false
// positives and the times of adds adds and queries queries.
func recordTimes(o *Trial, st variants.Stats, positives uint64, addTime time.Duration, adds uint64, queryTime time.Duration, queries uint64) {
	o.Count = positives
	o.Estimated = st.EstimatedFPR
	o.Bits = st.Bits
	o.Stages = len(st.Stages)
	o.Bytes = (st.Bits + 7) / 8
	o.NsPerAdd = float64(addTime.Nanoseconds()) / float64(adds)
	o.NsPerQuery = float64(queryTime.Nanoseconds()) / float64(queries)
}
