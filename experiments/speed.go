package experiments

import (
	"context"
	"fmt"
	"time"

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
	pl := &plan{}
	for _, v := range selected(variant, Variants) {
		for _, n := range p.Keys {
			b, err := anyBuilder(v, n, p)
			if err != nil {
				return nil, err
			}
			if _, err := probe(b); err != nil {
				return nil, paramError("keys", "%v", err)
			}
			h := variants.Hashing{}
			pl.groups = append(pl.groups, group{
				key:     fmt.Sprintf("speed/%s/n=%d", v, n),
				filters: p.Filters,
				hashing: h,
				run:     timeOps(b),
				rows: []int{pl.add(Row{
					Series:   v,
					Variant:  v,
					Hashing:  hashingName(h),
					Items:    n,
					Capacity: n,
					Filters:  p.Filters,
					Queries:  p.Queries,
					Target:   p.P,
				})},
			})
		}
	}
	pl.notes = append(pl.notes, "times per operation on one goroutine, keys of 16 bytes generated on the fly (about 1 ns of each operation); adds are repeated on a reset filter until at least as many as the queries were timed")
	return pl, nil
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
				f.Add(t.member(i))
			}
			addTime += time.Since(start)
			adds += r.Items
		}
		start := time.Now()
		positives, err := t.countPositives(ctx, f, r.Queries)
		if err != nil {
			return err
		}
		queryTime := time.Since(start)
		st := f.Stats()
		out[0].Count = positives
		out[0].Estimated = st.EstimatedFPR
		out[0].Bits = st.Bits
		out[0].Stages = len(st.Stages)
		out[0].Bytes = (st.Bits + 7) / 8
		out[0].NsPerAdd = float64(addTime.Nanoseconds()) / float64(adds)
		out[0].NsPerQuery = float64(queryTime.Nanoseconds()) / float64(r.Queries)
		return nil
	}
}
