package catalog

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/internal/units"
	"github.com/bloomlab/bloomlab/variants"
)

// Series of the growth experiment: the designs it grows side by side. The
// times of each design are the series of its name followed by
// growthTimed.
const (
	// growthAlmeida is Almeida et al.'s scalable filter with partitioned
	// stages (variants.Scalable, r and s the defaults).
	growthAlmeida = "almeida partitioned"
	// growthAlmeidaBlocked is the same with blocked stages of 512 bits.
	growthAlmeidaBlocked = "almeida blocked"
	// growthRedis is RedisBloom's chain as BF.RESERVE builds it today
	// (variants.RedisBloom, expansion 2).
	growthRedis = "redisbloom"
	// growthRedisPow2 is the same chain with tables rounded up to powers
	// of two, RedisBloom's default before BF.RESERVE passed NOROUND.
	growthRedisPow2 = "redisbloom power-of-two"
	// growthDynamic is Guo et al.'s dynamic filter (variants.Dynamic):
	// stages of n0 items at rate p, no tightening.
	growthDynamic = "dynamic"
	// growthStandard is a standard filter sized in advance for the final
	// count at rate p: what knowing n would have cost.
	growthStandard = "standard sized in advance"
	// growthTaffy is the taffy block filter's schedule (taffyChain):
	// split-block stages of n0 2^i keys at error p 6/(π² (i+1)²).
	growthTaffy = "taffy"
	// growthHorizonExact, growthHorizon2x and growthHorizon10x are the
	// horizon-aware scalable filter (variants.ScalableParams.Estimate)
	// told the final count exactly, half of it and a tenth of it, trusted
	// (Spread 1); growthHorizon10xSpread is told a tenth of it with
	// Spread 10.
	growthHorizonExact     = "horizon, estimate exact"
	growthHorizon2x        = "horizon, estimate 2x low"
	growthHorizon10x       = "horizon, estimate 10x low"
	growthHorizon10xSpread = "horizon, 10x low, spread 10"
	// growthTimed ends the series name of a design's times.
	growthTimed = " (times)"
)

// growthDesigns lists the growth experiment's designs in the order of its
// rows: the first family (growthFamilyA: Almeida's, RedisBloom's and the
// dynamic filter beside the standard filter sized in advance), then the
// schedules nearer the bound (Taffy's and the horizon-aware filter's).
var growthDesigns = []string{growthAlmeida, growthAlmeidaBlocked, growthRedis, growthRedisPow2, growthDynamic, growthStandard,
	growthTaffy, growthHorizonExact, growthHorizon2x, growthHorizon10x, growthHorizon10xSpread}

// growthFamilyA is the number of designs of the first family, which the
// figure draws in panels of their own.
const growthFamilyA = 6

// growthHorizon returns the estimate divisor and the Spread of a
// horizon-aware design, and whether design is one.
func growthHorizon(design string) (low uint64, spread float64, ok bool) {
	switch design {
	case growthHorizonExact:
		return 1, 1, true
	case growthHorizon2x:
		return 2, 1, true
	case growthHorizon10x:
		return 10, 1, true
	case growthHorizon10xSpread:
		return 10, 10, true
	}
	return 0, 0, false
}

// growthHorizonParams returns the parameters of a horizon-aware design
// (growthHorizon) growing from n0 at target p to the final count final:
// the estimate final/low, N0 = n0 and s = 2 as Almeida's.
func growthHorizonParams(design string, n0 uint64, p float64, final uint64) (variants.ScalableParams, bool) {
	low, spread, ok := growthHorizon(design)
	if !ok {
		return variants.ScalableParams{}, false
	}
	return variants.ScalableParams{P: p, S: variants.DefaultGrowth, N0: n0, Estimate: max(1, final/low), Spread: spread}, true
}

// growthHorizonModel returns the theory of a horizon-aware design, as
// its filter's Model gives it.
func growthHorizonModel(design string, n0 uint64, p float64, final uint64) (variants.ScalableModel, error) {
	sp, _ := growthHorizonParams(design, n0, p, final)
	f, err := variants.NewScalable(sp)
	if err != nil {
		return nil, err
	}
	return f.Model(), nil
}

var growthExperiment = Experiment{
	Name: "growth",
	Summary: "growing filters side by side from n0 to 1000 n0 keys at one target: Almeida's scalable filter (partitioned and blocked stages), " +
		"RedisBloom's chain (both table roundings), the dynamic filter, and a standard filter sized in advance; rate, bits per key, stages and times",
	Variants:  []string{"all"},
	Timed:     true,
	Shardable: true,
	flags:     fixedFlags("n", "p", "filters", "queries"),
	defaults:  growthDefaults,
	plan:      planGrowth,
	summarize: summarizeGrowth,
	figure:    growthFigure,
}

// growthDefaults returns the growth experiment's defaults.
func growthDefaults(string, bool) experiments.Params {
	return experiments.Params{N: 1000, P: 0.01, Filters: 20, Queries: 20_000, Conf: 0.95, Span: 1000, Checkpoints: 5,
		Passes: 3, MinAdds: 200_000}
}

// growthBuilder returns the builder of design for first capacity n0 and
// target p; final is the count the standard filter is sized for.
func growthBuilder(design string, n0 uint64, p float64, final uint64) (builder, error) {
	switch design {
	case growthAlmeida:
		return scalableBuilder(scalableSpec{P: p, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: n0}), nil
	case growthAlmeidaBlocked:
		return scalableBuilder(scalableSpec{P: p, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: n0, BlockBits: variants.DefaultBlockBits}), nil
	case growthRedis, growthRedisPow2:
		pow2 := design == growthRedisPow2
		return func(h variants.Hashing) (filter, error) {
			return wrap(variants.NewRedisBloom(variants.RedisBloomParams{ErrorRate: p, Capacity: n0, Expansion: variants.DefaultRedisExpansion, PowerOfTwo: pow2, Seed: h.Seed}))
		}, nil
	case growthDynamic:
		return func(h variants.Hashing) (filter, error) {
			return wrap(variants.NewDynamic(variants.DynamicParams{N: n0, P: p, Hashing: h}))
		}, nil
	case growthStandard:
		return sized("standard", final, p, 0)
	case growthTaffy:
		return func(h variants.Hashing) (filter, error) { return wrap(newTaffyChain(n0, p, h)) }, nil
	}
	if sp, ok := growthHorizonParams(design, n0, p, final); ok {
		return func(h variants.Hashing) (filter, error) {
			sp.Hashing = h
			return wrap(variants.NewScalable(sp))
		}, nil
	}
	return nil, fmt.Errorf("experiments: no growth design %q", design)
}

// growthDoubleHashingBits is the largest power-of-two link whose exact
// rate of plain double hashing (analysis.DoubleHashing) the growth
// experiment computes: 16,384 bits, the first link at the defaults, where
// the excess over independent probes is largest (paper-notes §13e). The
// work grows as m log2(m) k^3; a link of 2^16 bits takes about a second.
const growthDoubleHashingBits = 1 << 14

// redisTheories keeps the theories of analysis.RedisBloom.DoubleHashingTheory
// by chain and item count, for every plan of the program (a merge plans
// its run again): a pure function's results, whose tables are costly.
var redisTheories struct {
	sync.Mutex
	m map[redisTheoryKey]func(uint64) float64
}

type redisTheoryKey struct {
	chain    analysis.RedisBloom
	maxItems uint64
}

// redisTheory returns r.DoubleHashingTheory(maxItems,
// growthDoubleHashingBits), computed once per program.
func redisTheory(r analysis.RedisBloom, maxItems uint64) (func(uint64) float64, error) {
	redisTheories.Lock()
	defer redisTheories.Unlock()
	key := redisTheoryKey{r, maxItems}
	if f, ok := redisTheories.m[key]; ok {
		return f, nil
	}
	f, err := r.DoubleHashingTheory(maxItems, growthDoubleHashingBits)
	if err != nil {
		return nil, err
	}
	if redisTheories.m == nil {
		redisTheories.m = make(map[redisTheoryKey]func(uint64) float64)
	}
	redisTheories.m[key] = f
	return f, nil
}

// growthTheory returns design's rate at each count of items, and the name
// of its model.
func growthTheory(design string, n0 uint64, p float64, items []uint64, st variants.Stats) (map[uint64]float64, string, error) {
	out := make(map[uint64]float64, len(items))
	switch design {
	case growthAlmeida, growthAlmeidaBlocked:
		s := analysis.Scalable{P: p, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: n0}
		model := "scalable"
		if design == growthAlmeidaBlocked {
			s.BlockBits = variants.DefaultBlockBits
			model = "scalable-blocked"
		}
		c, err := s.Curve(items)
		if err != nil {
			return nil, "", err
		}
		for j, n := range items {
			out[n] = c.FPR[j]
		}
		return out, model, nil
	case growthRedis:
		r := analysis.RedisBloom{ErrorRate: p, Capacity: n0, Expansion: variants.DefaultRedisExpansion}
		for _, n := range items {
			f, err := r.FPR(n)
			if err != nil {
				return nil, "", err
			}
			out[n] = f
		}
		return out, "redisbloom (independent probes)", nil
	case growthRedisPow2:
		// RedisBloom's own probing where its exact rate is known: links of
		// power-of-two tables up to growthDoubleHashingBits.
		r := analysis.RedisBloom{ErrorRate: p, Capacity: n0, Expansion: variants.DefaultRedisExpansion, PowerOfTwo: true}
		theory, err := redisTheory(r, items[len(items)-1])
		if err != nil {
			return nil, "", err
		}
		for _, n := range items {
			out[n] = theory(n)
		}
		return out, "redisbloom (double hashing)", nil
	case growthDynamic:
		d := analysis.Dynamic{N: n0, P: p}
		for _, n := range items {
			f, err := d.FPR(n)
			if err != nil {
				return nil, "", err
			}
			out[n] = f
		}
		return out, "dynamic", nil
	case growthTaffy:
		f, _, err := taffyTheory(n0, p, items)
		if err != nil {
			return nil, "", err
		}
		for j, n := range items {
			out[n] = f[j]
		}
		return out, "taffy: 1 − ∏(1 − f_i), split-block f_i", nil
	}
	if _, _, ok := growthHorizon(design); ok {
		m, err := growthHorizonModel(design, n0, p, items[len(items)-1])
		if err != nil {
			return nil, "", err
		}
		c, err := m.Curve(items)
		if err != nil {
			return nil, "", err
		}
		for j, n := range items {
			out[n] = c.FPR[j]
		}
		return out, "horizon", nil
	}
	theory, model := variantTheory("standard", st)
	for _, n := range items {
		out[n] = theory(n)
	}
	return out, model, nil
}

// growthTimeSizes returns the counts the growth experiment times at: n0
// and each decade above it up to the final count, which is always one.
func growthTimeSizes(n0 uint64, final uint64) []uint64 {
	var out []uint64
	for n := n0; n < final; n *= 10 {
		out = append(out, n)
		if n > math.MaxUint64/10 {
			break
		}
	}
	return append(out, final)
}

// planGrowth plans, for every design, Filters filters grown from N to Span
// N keys, Checkpoints per decade, their rates measured on all cores
// beside the design's theory; then, one at a time, the time per add of
// filling a design's filter from empty to each decade (stage creation
// included) and per query of present and absent keys, by the method of
// Time, and the lines per query of the last filter timed
// (growthTimeRun).
func planGrowth(_ string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{Caches: experiments.MachineCaches()}
	items := growthCheckpoints(p.N, p.Span, p.Checkpoints)
	final := items[len(items)-1]
	h := variants.Hashing{}
	for _, d := range growthDesigns {
		b, err := growthBuilder(d, p.N, p.P, final)
		if err != nil {
			return nil, err
		}
		st, err := probe(b)
		if err != nil {
			return nil, paramError("n", "%s: %v", d, err)
		}
		theory, model, err := growthTheory(d, p.N, p.P, items, st)
		if err != nil {
			return nil, paramError("n", "%s: %v", d, err)
		}
		err = pl.AddSpec("growth/"+d, experiments.Spec{
			Name:    d,
			New:     b.seeded(h),
			Items:   items,
			Filters: p.Filters,
			Queries: p.Queries,
			Theory:  func(n uint64) float64 { return theory[n] },
			Model:   model,
		}, func(r *experiments.Row) {
			r.Variant = growthVariant(d)
			r.Hashing = hashingName(h)
			r.Capacity = p.N
			r.Target = p.P
			if d == growthStandard {
				r.Capacity = final
				r.Hashes = st.Hashes
				r.Classic = classicOf(st, r.Items)
			}
			if d == growthAlmeida || d == growthAlmeidaBlocked {
				r.R, r.S = variants.DefaultTighteningRatio, variants.DefaultGrowth
			}
		})
		if err != nil {
			return nil, err
		}
	}
	sizes := growthTimeSizes(p.N, final)
	for _, d := range growthDesigns {
		b, _ := growthBuilder(d, p.N, p.P, final)
		tp := experiments.Params{Queries: p.MinAdds, MinAdds: p.MinAdds, Passes: p.Passes}
		for _, n := range sizes {
			pl.Groups = append(pl.Groups, experiments.Group{
				// Every design at n gets the same keys and hash seed.
				Key:     fmt.Sprintf("growth/time/n=%d", n),
				Filters: 1,
				Run:     growthTimeRun(d+growthTimed, b.seeded(h), n, tp),
				Alone:   true,
				Rows: []int{pl.AddRow(experiments.Row{Series: d + growthTimed, Variant: growthVariant(d), Items: n, Capacity: p.N, Filters: 1,
					Queries: tp.Queries, Members: tp.Queries * uint64(tp.Passes), Target: p.P})},
			})
		}
	}
	pl.Notes = append(pl.Notes,
		fmt.Sprintf("every design grows from n0 = %d to %d keys at target p = %g, its rate measured at %d checkpoints on %d filters with %d absent queries each; the checkpoints of one design come from one independent group of filters, checked once by the pooled check", p.N, final, p.P, len(items), p.Filters, p.Queries),
		fmt.Sprintf("%s and %s: r = %g, s = %g, stage 0 of n0 items (blocked: B = %d bits); %s and %s: BF.RESERVE error_rate %g, capacity %d, EXPANSION %d, with MurmurHash64A seeded per filter; %s: stages of n0 items at rate %g each, so its rate grows with its stages; %s: m and k of a standard filter for %d keys at %g",
			growthAlmeida, growthAlmeidaBlocked, variants.DefaultTighteningRatio, float64(variants.DefaultGrowth), variants.DefaultBlockBits,
			growthRedis, growthRedisPow2, p.P, p.N, variants.DefaultRedisExpansion, growthDynamic, p.P, growthStandard, final, p.P),
		fmt.Sprintf("%s: the theory is that of independent uniform probes into each link (no exact rate of RedisBloom's probe, whose 64-bit sum wraps before the remainder, is known for these tables), so its pooled check measures what plain double hashing costs over independent probes; %s: the exact rate of plain double hashing modulo a power of two (analysis.DoubleHashing) for links of up to %d bits, independent probes for larger ones; for both, a note gives the false positives over the independent-probe theory", growthRedis, growthRedisPow2, growthDoubleHashingBits),
		fmt.Sprintf("%s: Taffy's schedule (Apple, arXiv 2109.01947; Pagh, Segev and Wieder's first construction), split-block stages of n0 2^i keys at error p 6/(π² (i+1)²) each (the errors sum to p), sized by variants.SplitBlockGeometry, every key inserted into the newest stage, each stage hashing the key's digest its own way; theory 1 − ∏(1 − f_i) with f_i the split-block rate (analysis.SplitBlockFPR) of stage i at its fill", growthTaffy),
		fmt.Sprintf("horizon designs: the scalable filter given an estimate (variants.ScalableParams{Estimate, Spread}, N0 = %d, S = %g, Tail %g): %s %d, %s %d, %s %d (Spread 1 each) and %s %d with Spread 10; theory: the filter's Model (analysis.Horizon)",
			p.N, float64(variants.DefaultGrowth), analysis.DefaultHorizonTail, growthHorizonExact, final, growthHorizon2x, final/2, growthHorizon10x, final/10, growthHorizon10xSpread, final/10),
		fmt.Sprintf("times (series ending %q): on one goroutine after the rates, the median of %d passes; ns/add is the time per add of filling an empty filter to the count, stage creation included (the geometry of blocked stages, sized once per program, comes from its cache), repeated on new filters until at least %d adds were timed; ns/query and ns/present time %d absent and %d present keys on the last filter filled; lines_absent and lines_present are the mean distinct 64-byte lines a query reads (variants.LineCounter; the taffy chain's, the sum of its stages'), over %d absent and up to %d present keys of that filter", growthTimed, p.Passes, p.MinAdds, p.MinAdds, p.MinAdds, growthLineSamples, growthLineSamples),
	)
	return pl, nil
}

// growthVariant returns the Variant of design's rows.
func growthVariant(design string) string {
	switch design {
	case growthAlmeida, growthAlmeidaBlocked:
		return "scalable"
	case growthRedis, growthRedisPow2:
		return "redisbloom"
	case growthDynamic:
		return "dynamic"
	case growthTaffy:
		return "taffy"
	case growthStandard:
		return "standard"
	}
	return "scalable" // the horizon designs
}

// summarizeGrowth notes, at the final count, each design's bits per key
// against the standard filter sized in advance, its rate against the
// target (with its interval), its false positives pooled over the
// checkpoints against its theory with their z (growthPooledZ), its times
// against the standard filter's, and its lines per query.
func summarizeGrowth(res *experiments.Results) []string {
	last := map[string]*experiments.Row{}
	timed := map[string]*experiments.Row{}
	var final uint64
	for i := range res.Rows {
		r := &res.Rows[i]
		if name, ok := strings.CutSuffix(r.Series, growthTimed); ok {
			if t := timed[name]; t == nil || r.Items > t.Items {
				timed[name] = r
			}
			continue
		}
		if l := last[r.Series]; l == nil || r.Items > l.Items {
			last[r.Series] = r
			final = max(final, r.Items)
		}
	}
	std := last[growthStandard]
	if std == nil || std.BitsPerKey == 0 {
		return nil
	}
	var notes []string
	for _, d := range []string{growthRedis, growthRedisPow2} {
		if n := independentExcess(res, d); n != "" {
			notes = append(notes, n)
		}
	}
	for _, d := range growthDesigns {
		r := last[d]
		if r == nil {
			continue
		}
		stages := "one table"
		if r.Stages > 0 {
			stages = units.FormatMean(r.Stages) + " stages" // a mean over the filters
		}
		note := fmt.Sprintf("%s at %d keys: %.2f bits per key (%.2f times the standard filter sized in advance), %s, rate %.3g [%.3g, %.3g] against the target %g (%.3g times it; theory %.3g)",
			d, r.Items, r.BitsPerKey, r.BitsPerKey/std.BitsPerKey, stages, r.Rate, r.Lo, r.Hi, r.Target, r.Rate/r.Target, r.Theory)
		if ratio, z, ok := growthPooledZ(res, d); ok {
			note += fmt.Sprintf("; pooled over its checkpoints the false positives are %.4g times the theory's, z = %+.1f", ratio, z)
		}
		if t, ts := timed[d], timed[growthStandard]; t != nil && ts != nil && ts.NsPerAdd > 0 && ts.NsPerQuery > 0 && ts.NsPerPresent > 0 {
			note += fmt.Sprintf("; at %d keys %.0f ns per add, %.0f per absent and %.0f per present query: %.2f, %.2f and %.2f times the standard filter's",
				t.Items, t.NsPerAdd, t.NsPerQuery, t.NsPerPresent, t.NsPerAdd/ts.NsPerAdd, t.NsPerQuery/ts.NsPerQuery, t.NsPerPresent/ts.NsPerPresent)
			if t.LinesAbsent > 0 {
				note += fmt.Sprintf("; %.2f lines per absent and %.2f per present query", t.LinesAbsent, t.LinesPresent)
			}
		}
		notes = append(notes, note)
	}
	return notes
}

// growthBits returns the bits per key of the filter of design (one of
// growthDesigns) in a growth run with parameters p (N, P and Span, zero
// fields defaulted) holding each count of items, from its geometry: the
// stages it has opened by then over the items, as its rows'
// BitsPerKey measure them. A filter that skips keys testing present
// (the scalable and RedisBloom filters) holds a little fewer than the
// keys offered, so near a stage boundary a measured row may have opened
// one stage fewer. Figures draw it as a line between the checkpoints,
// where the bits jump at every new stage. It reports an error for an
// unknown design or parameters outside their domains.
func growthBits(design string, p experiments.Params, items []uint64) ([]float64, error) {
	p = p.Or(growthDefaults("all", false))
	final := uint64(math.Round(float64(p.N) * p.Span))
	out := make([]float64, len(items))
	for _, n := range items {
		if n == 0 {
			return nil, paramError("items", "0 items, want at least 1")
		}
	}
	switch design {
	case growthAlmeida, growthAlmeidaBlocked:
		s := analysis.Scalable{P: p.P, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: p.N}
		if design == growthAlmeidaBlocked {
			s.BlockBits = variants.DefaultBlockBits
		}
		c, err := s.Curve(items)
		if err != nil {
			return nil, paramError("n", "%v", err)
		}
		return c.BitsPerKey, nil
	case growthRedis, growthRedisPow2:
		r := analysis.RedisBloom{ErrorRate: p.P, Capacity: p.N, Expansion: variants.DefaultRedisExpansion, PowerOfTwo: design == growthRedisPow2}
		for i, n := range items {
			b, err := r.BitsPerKey(n)
			if err != nil {
				return nil, paramError("n", "%v", err)
			}
			out[i] = b
		}
		return out, nil
	case growthDynamic:
		d := analysis.Dynamic{N: p.N, P: p.P}
		for i, n := range items {
			b, err := d.BitsPerKey(n)
			if err != nil {
				return nil, paramError("n", "%v", err)
			}
			out[i] = b
		}
		return out, nil
	case growthStandard:
		b, err := growthBuilder(design, p.N, p.P, final)
		if err != nil {
			return nil, err
		}
		st, err := probe(b)
		if err != nil {
			return nil, paramError("n", "%v", err)
		}
		for i, n := range items {
			out[i] = float64(st.Bits) / float64(n)
		}
		return out, nil
	case growthTaffy:
		_, bits, err := taffyTheory(p.N, p.P, items)
		if err != nil {
			return nil, paramError("n", "%v", err)
		}
		return bits, nil
	}
	if _, _, ok := growthHorizon(design); ok {
		m, err := growthHorizonModel(design, p.N, p.P, final)
		if err != nil {
			return nil, paramError("n", "%v", err)
		}
		c, err := m.Curve(items)
		if err != nil {
			return nil, paramError("n", "%v", err)
		}
		return c.BitsPerKey, nil
	}
	return nil, paramError("design", "unknown growth design %q, want one of %s", design, strings.Join(growthDesigns, ", "))
}

// independentExcess returns a note on design's false positives over the
// number the theory of independent probes expects (analysis.RedisBloom.FPR),
// pooled over its checkpoints as pooledCheck pools them, or "" if its rows
// are missing.
func independentExcess(res *experiments.Results, design string) string {
	var rows []*experiments.Row
	for i := range res.Rows {
		if res.Rows[i].Series == design {
			rows = append(rows, &res.Rows[i])
		}
	}
	if len(rows) < 2 || len(rows[0].Trials) < 2 {
		return ""
	}
	r := analysis.RedisBloom{ErrorRate: res.Params.P, Capacity: res.Params.N, Expansion: variants.DefaultRedisExpansion, PowerOfTwo: design == growthRedisPow2}
	var expected float64
	for _, row := range rows {
		f, err := r.FPR(row.Items)
		if err != nil {
			return ""
		}
		expected += float64(row.Queries) * f
	}
	nf := len(rows[0].Trials)
	ratios := make([]float64, nf)
	for f := range ratios {
		var c uint64
		for _, row := range rows {
			if len(row.Trials) != nf {
				return ""
			}
			c += row.Trials[f].Count
		}
		ratios[f] = float64(c) / expected
	}
	mean, lo, hi, err := tInterval(ratios, res.Params.Conf)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s, pooled over its %d points: the filters' false positives are %.4g times the number independent probes into its links expect (%g%% t interval over the %d filters: %.4g to %.4g): what its plain double hashing costs",
		design, len(rows), mean, 100*res.Params.Conf, nf, lo, hi)
}

// growthPooledZ returns design's false positives pooled over its
// checkpoints per filter, as the pooled check pools them, over the number
// its theory expects (the mean over the filters), and how many standard
// errors of that mean it lies from 1; ok is false without the per-filter
// counts.
func growthPooledZ(res *experiments.Results, design string) (ratio, z float64, ok bool) {
	var rows []*experiments.Row
	for i := range res.Rows {
		if res.Rows[i].Series == design {
			rows = append(rows, &res.Rows[i])
		}
	}
	if len(rows) == 0 || len(rows[0].Trials) < 2 {
		return 0, 0, false
	}
	var expected float64
	for _, row := range rows {
		expected += float64(row.Queries) * row.Theory
	}
	nf := len(rows[0].Trials)
	if expected == 0 {
		return 0, 0, false
	}
	ratios := make([]float64, nf)
	for f := range ratios {
		var c uint64
		for _, row := range rows {
			if len(row.Trials) != nf {
				return 0, 0, false
			}
			c += row.Trials[f].Count
		}
		ratios[f] = float64(c) / expected
	}
	var mean, ss float64
	for _, x := range ratios {
		mean += x
	}
	mean /= float64(nf)
	for _, x := range ratios {
		ss += (x - mean) * (x - mean)
	}
	se := math.Sqrt(ss / float64(nf-1) / float64(nf))
	if se == 0 {
		return mean, 0, mean == 1
	}
	return mean, (mean - 1) / se, true
}
