package catalog

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

func hashingName(h variants.Hashing) string {
	return h.Kind.String() + "/" + h.Derivation.String()
}

var fillExperiment = Experiment{
	Name: "fill",
	Summary: "false-positive rate against items inserted, from empty to twice the capacity " +
		"(scalable: from n0 to 1000 n0, with stage boundaries and the target)",
	Variants:   Variants,
	PerVariant: true,
	Shardable:  true,
	flags: func(variant string) []string {
		switch variant {
		case "scalable":
			return []string{"n", "p", "filters", "queries", "r", "s", "keys"}
		case "split-block":
			return []string{"n", "p", "filters", "queries", "keys", "m", "hash"}
		}
		return []string{"n", "p", "filters", "queries", "keys", "m", "k", "hash", "derivation"}
	},
	defaults: func(variant string, quick bool) experiments.Params {
		if variant == "scalable" {
			return experiments.Params{N: 1000, P: 0.001, Filters: 20, Queries: 50_000, Conf: 0.95,
				Span: 1000, Checkpoints: 10, R: []float64{variants.DefaultTighteningRatio}, S: []float64{variants.DefaultGrowth}}
		}
		return experiments.Params{N: 10_000, P: 0.01, Filters: 20, Queries: 100_000, Conf: 0.95, Span: 2, Checkpoints: 20}
	},
	plan:   planFill,
	figure: fillFigures,
}

// planFill plans the fill experiment: a configuration of Measure's Spec.
// Filters filters of the variant sized for N at P, each filled in
// Checkpoints equal steps to Span N and queried with Queries
// never-inserted keys at every step, beside the variant's exact theory at
// the geometry built; the rows add the geometry, the classic rate and the
// target. M and K replace the sized geometry (see fillBuilder), and Hash
// and Derivation the default hashing (see hashingOf); a run with M or K
// set has no target.
func planFill(variant string, p experiments.Params) (*experiments.Plan, error) {
	if variant == "scalable" {
		return planScalable("fill", p, false, false)
	}
	h, err := hashingOf(variant, p)
	if err != nil {
		return nil, err
	}
	b, err := fillBuilder(variant, p)
	if err != nil {
		return nil, err
	}
	st, err := b(experiments.SeedHashing(h, 0))
	if err != nil {
		return nil, paramError(geometryParam(p), "%v", err)
	}
	stats := st.Stats()
	theory, model := variantTheory(variant, stats)
	spec := experiments.Spec{
		Name:    variant,
		New:     b.seeded(h),
		Items:   fillCheckpoints(p),
		Filters: p.Filters,
		Queries: p.Queries,
		Theory:  theory,
		Model:   model,
	}
	pl := &experiments.Plan{}
	err = pl.AddSpec("fill/"+variant, spec, func(r *experiments.Row) {
		r.Variant = variant
		r.Hashing = hashingName(h)
		r.Capacity = p.N
		r.Bits = stats.Bits
		r.Cells = cellsColumn(stats)
		r.Hashes = stats.Hashes
		r.Classic = classicOf(stats, r.Items)
		if p.M == 0 && p.K == 0 {
			r.Target = p.P // a geometry given is sized for no rate
		}
	})
	if err != nil {
		return nil, err
	}
	sizing := fmt.Sprintf("sized for n = %d items at p = %g", p.N, p.P)
	switch {
	case p.M != 0 && p.K != 0:
		sizing = fmt.Sprintf("of the geometry given, filled to %g n = %d items", p.Span, uint64(p.Span*float64(p.N)))
	case p.M != 0 && variant == "split-block":
		sizing = fmt.Sprintf("of the m given (k = 8 always), filled to %g n = %d items", p.Span, uint64(p.Span*float64(p.N)))
	case p.M != 0:
		sizing = fmt.Sprintf("of the m given, with the k that minimises the rate at n = %d items", p.N)
	case p.K != 0:
		sizing = fmt.Sprintf("of the m sized for n = %d items at p = %g, with the k given", p.N, p.P)
	}
	pl.Notes = append(pl.Notes, fmt.Sprintf("%s filter %s: %s, k = %d hashes, %s hashing; theory is the %s rate at that geometry%s",
		variant, sizing, geometryWords(stats), stats.Hashes, hashingName(h), modelWords(variant), derivationWords(h)))
	return pl, nil
}

// fillCheckpoints returns the item counts of the fill experiment:
// Checkpoints equal steps to Span N, rounded, without zeros and repeats.
func fillCheckpoints(p experiments.Params) []uint64 {
	var items []uint64
	var last uint64
	for j := 1; j <= p.Checkpoints; j++ {
		n := uint64(math.Round(p.Span * float64(p.N) * float64(j) / float64(p.Checkpoints)))
		if n == 0 || n == last {
			continue
		}
		last = n
		items = append(items, n)
	}
	return items
}

// cellsColumn returns the Cells column of a row: the counters of a
// counting filter, 0 for bit filters.
func cellsColumn(st variants.Stats) uint64 {
	if st.CellBits > 1 {
		return st.Cells
	}
	return 0
}

func geometryWords(st variants.Stats) string {
	if st.CellBits > 1 {
		return fmt.Sprintf("m = %d counters of %d bits", st.Cells, st.CellBits)
	}
	return fmt.Sprintf("m = %d bits", st.Bits)
}

func modelWords(variant string) string {
	switch variant {
	case "partitioned":
		return "exact partitioned"
	case "scalable":
		return "compound (1 - prod(1 - f_i) over the stages)"
	case "scalable-blocked":
		return "compound (1 - prod(1 - f_i) over the stages, f_i the exact blocked rate of stage i)"
	case "split-block":
		return "exact split-block (binomial block load, (1 - (31/32)^j)^8 per block)"
	}
	if _, ok := blockSize(variant); ok {
		return "exact blocked (binomial block load mixed over the exact rate of one block)"
	}
	return "exact finite-m"
}

// growthCheckpoints returns the item counts from n0 to span n0, perDecade
// log-spaced points per decade, rounded and without repeats, ending at
// span n0 exactly.
func growthCheckpoints(n0 uint64, span float64, perDecade int) []uint64 {
	var out []uint64
	end := uint64(math.Round(float64(n0) * span))
	for j := 0; ; j++ {
		x := float64(n0) * math.Pow(10, float64(j)/float64(perDecade))
		v := uint64(math.Round(x))
		if v >= end {
			break
		}
		if len(out) == 0 || v > out[len(out)-1] {
			out = append(out, v)
		}
	}
	if len(out) == 0 || out[len(out)-1] != end {
		out = append(out, end)
	}
	return out
}

// planScalableSeries plans one growing scalable filter of spec, measured
// at items against its compound theory.
func planScalableSeries(pl *experiments.Plan, exp string, p experiments.Params, items []uint64, timed bool, sp scalableSpec) error {
	h := variants.Hashing{}
	spec := analysis.Scalable{P: sp.P, R: sp.R, S: sp.S, N0: sp.N0, BlockBits: uint64(sp.BlockBits)}
	if err := spec.Validate(); err != nil {
		return paramError("p", "%v", err)
	}
	theory := make(map[uint64]float64, len(items))
	for _, n := range items {
		fpr, err := scalableFPR(spec, n)
		if err != nil {
			// Too many stages: the growth s (from n0) is too slow for
			// the items; the span is not the user's to set.
			return paramError("s", "%g: from n0 = %d, %d stages growing by s = %g cannot hold %d items; want a larger s (default %v)",
				sp.S, sp.N0, analysis.MaxStages, sp.S, n, variants.DefaultGrowth)
		}
		theory[n] = fpr
	}
	b := scalableBuilder(sp)
	if _, err := probe(b); err != nil {
		return paramError("n", "%v", err)
	}
	name := fmt.Sprintf("scalable r=%g s=%g", sp.R, sp.S)
	model := "scalable"
	if sp.BlockBits != 0 {
		name += fmt.Sprintf(" blocked B=%d", sp.BlockBits)
		model = "scalable-blocked"
	}
	err := pl.AddSpec(exp+"/"+name, experiments.Spec{
		Name:    name,
		New:     b.seeded(h),
		Items:   items,
		Filters: p.Filters,
		Queries: p.Queries,
		Theory:  func(n uint64) float64 { return theory[n] },
		Model:   model,
		Timed:   timed,
	}, func(row *experiments.Row) {
		row.Variant = "scalable"
		row.Hashing = hashingName(h)
		row.R, row.S = sp.R, sp.S
		row.Capacity = p.N
		row.Target = p.P
	})
	if err != nil {
		return err
	}
	first, _ := spec.Stage(0)
	pl.Notes = append(pl.Notes, fmt.Sprintf("%s: target P = %g, first stage n0 = %d items, k0 = %d, error P0 = %.3g; theory is the %s, which never exceeds P",
		name, p.P, p.N, first.Hashes, spec.P0(), modelWords(model)))
	return nil
}

// planScalable plans the growth of scalable filters with every combination
// of R and S, from N to Span N items, Checkpoints per decade; with
// standard, beside a standard filter sized in advance for the final count;
// with timed, recording times. Each series is one Spec.
func planScalable(exp string, p experiments.Params, standard, timed bool) (*experiments.Plan, error) {
	pl := &experiments.Plan{}
	items := growthCheckpoints(p.N, p.Span, p.Checkpoints)
	final := items[len(items)-1]
	h := variants.Hashing{}
	for _, r := range p.R {
		for _, s := range p.S {
			if err := planScalableSeries(pl, exp, p, items, timed, scalableSpec{P: p.P, R: r, S: s, N0: p.N}); err != nil {
				return nil, err
			}
		}
	}
	if standard {
		// Beside the sweep, the default r and s with blocked stages.
		spec := scalableSpec{P: p.P, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: p.N, BlockBits: variants.DefaultBlockBits}
		if err := planScalableSeries(pl, exp, p, items, timed, spec); err != nil {
			return nil, err
		}
	}
	if standard {
		b, err := sized("standard", final, p.P, 0)
		if err != nil {
			return nil, err
		}
		st, err := probe(b)
		if err != nil {
			return nil, paramError("n", "%v", err)
		}
		name := fmt.Sprintf("standard sized for %d", final)
		theory, model := variantTheory("standard", st)
		err = pl.AddSpec(exp+"/"+name, experiments.Spec{
			Name:    name,
			New:     b.seeded(h),
			Items:   items,
			Filters: p.Filters,
			Queries: p.Queries,
			Theory:  theory,
			Model:   model,
			Timed:   timed,
		}, func(row *experiments.Row) {
			row.Variant = "standard"
			row.Hashing = hashingName(h)
			row.Capacity = final
			row.Bits = st.Bits
			row.Hashes = st.Hashes
			row.Classic = classicOf(st, row.Items)
			row.Target = p.P
		})
		if err != nil {
			return nil, err
		}
		pl.Notes = append(pl.Notes, fmt.Sprintf("%s: a standard filter sized in advance for the final count at p = %g: m = %d bits, k = %d", name, p.P, st.Bits, st.Hashes))
	}
	return pl, nil
}

var scalableExperiment = Experiment{
	Name: "scalable",
	Summary: "scalable filter, sweeps of the tightening ratio r and growth factor s: rate, stages, bits per key and query time " +
		"as the filter grows, against a standard filter sized in advance",
	Variants:  []string{"scalable"},
	Timed:     true,
	Shardable: true,
	flags:     fixedFlags("n", "p", "filters", "queries", "r", "s", "keys"),
	defaults: func(string, bool) experiments.Params {
		return experiments.Params{N: 1000, P: 0.001, Filters: 10, Queries: 20_000, Conf: 0.95, Span: 1000, Checkpoints: 5,
			R: []float64{0.5, 0.75, 0.9}, S: []float64{2, 4}}
	},
	plan: func(_ string, p experiments.Params) (*experiments.Plan, error) {
		return planScalable("scalable", p, true, true)
	},
	figure: scalableFigure,
}
