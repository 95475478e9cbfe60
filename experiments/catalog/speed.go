package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
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
	defaults: func(_ string, quick bool) experiments.Params {
		keys := []uint64{1e3, 1e4, 1e5, 1e6, 1e7, 3e7}
		if quick {
			keys = keys[:4]
		}
		return experiments.Params{N: 1000, P: 0.01, Filters: 1, Queries: 1_000_000, Conf: 0.95, Span: 1, Checkpoints: 1, Keys: keys}
	},
	plan:   planSpeed,
	figure: speedFigure,
}

// anyBuilder returns a builder of variant sized for n keys at rate p; a
// scalable filter starts at n0 = min(N, n) and grows to n.
func anyBuilder(variant string, n uint64, p experiments.Params) (builder, error) {
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
func planSpeed(variant string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{Caches: experiments.MachineCaches(), Machine: experiments.MachineCPU()}
	for _, v := range selected(variant, Variants) {
		for _, n := range p.Keys {
			b, err := anyBuilder(v, n, p)
			if err != nil {
				return nil, err
			}
			if _, err := probe(b); err != nil {
				return nil, paramError("keys", "%v", err)
			}
			pl.Groups = append(pl.Groups, speedGroup(pl, v, v, n, p, timeOps(b)))
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
			pl.Groups = append(pl.Groups, speedGroup(pl, v+" batched", v, n, p, timeBatches(b)))
		}
	}
	if variant == "scalable" || variant == "all" {
		for _, n := range p.Keys {
			b := scalableBuilder(scalableSpec{P: p.P, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: min(p.N, n), BlockBits: variants.DefaultBlockBits})
			pl.Groups = append(pl.Groups, speedGroup(pl, scalableBlocked, "scalable", n, p, timeOps(b)))
		}
	}
	if variant == "all" {
		for _, n := range p.Keys {
			sd, err := analysis.StandardSize(n, p.P)
			if err != nil {
				return nil, paramError("keys", "%v", err)
			}
			g := speedGroup(pl, experiments.RandomLines, "", n, p, experiments.TimeLines(sd.Bits))
			pl.Groups = append(pl.Groups, g)
		}
	}
	pl.Notes = append(pl.Notes, "times per operation on one goroutine, keys of 16 bytes generated on the fly (about 1 ns of each operation); adds are repeated on a reset filter until at least as many as the queries were timed",
		fmt.Sprintf("lines: distinct 64-byte lines a query reads, counted from its probe sequence (variants.LineCounter) over %d absent and up to %d present keys, untimed; predicted: analysis.Scalable.Lines and analysis.TableLines for an absent key", lineSamples, lineSamples),
		fmt.Sprintf("batched: AddBatch and ContainsBatch with %d keys per call; %s: the time per load of a random 64-byte line of a table of the standard filter's size for n, loads independent of each other (the memory system's limit for one access per key)", speedBatch, experiments.RandomLines))
	if variant == "scalable" || variant == "all" {
		pl.Notes = append(pl.Notes, scalableBlocked+": a scalable filter with the same parameters and blocked stages of 512 bits (ScalableParams.BlockBits), whose queries read every stage's block in one pass")
	}
	return pl, nil
}

// scalableBlocked is the series name of the speed experiment's scalable
// filter with blocked stages (ScalableParams.BlockBits = 512).
const scalableBlocked = "scalable blocked stages"

// speedBatch is the number of keys per AddBatch and ContainsBatch call in
// the speed experiment.
const speedBatch = 256

// speedGroup returns a group of the speed experiment: one row, series at
// n keys, measured by run.
func speedGroup(pl *experiments.Plan, series, variant string, n uint64, p experiments.Params, run experiments.RunFunc) experiments.Group {
	h := variants.Hashing{}
	return experiments.Group{
		Key:     fmt.Sprintf("speed/%s/n=%d", series, n),
		Filters: p.Filters,
		Hashing: h,
		Run:     run,
		Rows: []int{pl.AddRow(experiments.Row{
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

// timeBatches is the experiments.RunFunc of the batched series: like timeOps, with
// keys passed speedBatch at a time to AddBatch and ContainsBatch.
func timeBatches(build builder) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		r := rows[0]
		bf, err := build(t.Hashing)
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
				f.AddBatch(fill(t.Member, i, min(speedBatch, r.Items-i)))
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
			ks := fill(t.Query, i, min(speedBatch, r.Queries-i))
			f.ContainsBatch(ks, answers[:len(ks)])
			for _, a := range answers[:len(ks)] {
				if a {
					positives++
				}
			}
		}
		recordTimes(&out[0], f.Stats(), positives, addTime, adds, time.Since(start), r.Queries)
		return recordLines(&out[0], f, t, r)
	}
}

// lineSamples is the number of absent and of present keys whose lines the
// speed experiment counts per filter.
const lineSamples = 10_000

// recordLines fills a speed trial's lines per query: the mean of
// variants.LineCounter over the first lineSamples query keys and over up
// to lineSamples members spread over all of them, and the prediction of
// package analysis for an absent key (scalable: Scalable.Lines with the
// stream stages' pairs; standard: TableLines at the filter's fill).
func recordLines(o *experiments.Trial, f filter, t *experiments.Job, r *experiments.Row) error {
	lc, ok := f.(variants.LineCounter)
	if !ok {
		return nil
	}
	var sum float64
	n := min(r.Queries, lineSamples)
	for i := range n {
		sum += float64(lc.QueryLines(t.Hashing.Digest(t.Query(i))))
	}
	o.LinesAbsent = sum / float64(n)
	sum = 0
	step := max(1, r.Items/lineSamples)
	var m float64
	for i := uint64(0); i < r.Items; i += step {
		sum += float64(lc.QueryLines(t.Hashing.Digest(t.Member(i))))
		m++
	}
	o.LinesPresent = sum / m
	st := f.Stats()
	switch f := f.(type) {
	case *variants.Scalable:
		g := f.Params()
		geom := analysis.Scalable{P: g.P, R: g.R, S: g.S, N0: g.N0, BlockBits: uint64(g.BlockBits)}
		abs, _, err := geom.Lines(st.Items, 2)
		if err != nil {
			return err
		}
		o.LinesPredicted = abs
	case *variants.Standard:
		o.LinesPredicted = analysis.TableLines(st.Bits, st.Hashes, 4, st.FillRatio)
	}
	return nil
}

// batcher is what timeBatches needs of a filter.
type batcher interface {
	filter
	variants.Batcher
	Reset()
}

// timeOps is the experiments.RunFunc of the speed experiment.
func timeOps(build builder) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		r := rows[0]
		f, err := build(t.Hashing)
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
				f.Add(t.Member(i)) // t.Member inlined: the speed experiment's keys are uniform
			}
			addTime += time.Since(start)
			adds += r.Items
		}
		start := time.Now()
		positives, err := t.CountPositives(ctx, f, r.Queries)
		if err != nil {
			return err
		}
		recordTimes(&out[0], f.Stats(), positives, addTime, adds, time.Since(start), r.Queries)
		return recordLines(&out[0], f, t, r)
	}
}

// recordTimes fills a speed trial from the filter's stats, its false
// positives and the times of adds adds and queries queries.
func recordTimes(o *experiments.Trial, st variants.Stats, positives uint64, addTime time.Duration, adds uint64, queryTime time.Duration, queries uint64) {
	o.Count = positives
	o.Estimated = st.EstimatedFPR
	o.Bits = st.Bits
	o.Stages = len(st.Stages)
	o.Bytes = (st.Bits + 7) / 8
	o.NsPerAdd = float64(addTime.Nanoseconds()) / float64(adds)
	o.NsPerQuery = float64(queryTime.Nanoseconds()) / float64(queries)
}
