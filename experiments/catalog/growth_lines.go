package catalog

import (
	"context"
	"fmt"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// growthLineSamples is the number of absent keys, and the most present
// keys, whose lines the growth experiment counts per timed filter.
const growthLineSamples = 2000

// growthTimeRun times the filters that newFilter builds at n keys, as
// experiments.TimeFilter does, and then counts the lines per query of the
// last filter it filled (variants.LineCounter, through the filter's own
// hashing): the mean over growthLineSamples absent keys and over up to
// growthLineSamples held keys spread over all n.
func growthTimeRun(name string, newFilter func(seed uint64) (experiments.Filter, error), n uint64, tp experiments.Params) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		var last experiments.Filter
		spec := experiments.TimeSpec{Name: name, New: func(_, seed uint64) (experiments.Filter, error) {
			f, err := newFilter(seed)
			last = f
			return f, err
		}}
		if err := experiments.TimeFilter(spec, n, tp)(ctx, t, rows, out); err != nil {
			return err
		}
		lc, ok := last.(variants.LineCounter)
		hf, ok2 := last.(interface{ Hashing() variants.Hashing })
		if !ok || !ok2 {
			return fmt.Errorf("experiments: %s counts no lines", name)
		}
		h := hf.Hashing()
		o := &out[0]
		var sum float64
		for i := range uint64(growthLineSamples) {
			sum += float64(lc.QueryLines(h.Digest(t.Query(i))))
		}
		o.LinesAbsent = sum / growthLineSamples
		sum = 0
		step := max(1, n/growthLineSamples)
		var m float64
		for i := uint64(0); i < n; i += step {
			sum += float64(lc.QueryLines(h.Digest(t.Member(i))))
			m++
		}
		o.LinesPresent = sum / m
		return nil
	}
}
