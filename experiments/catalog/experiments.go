package catalog

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/internal/units"
	"github.com/bloomlab/bloomlab/plots"
)

// Variants lists the filter variants the experiments measure, in the order
// "all" expands to.
var Variants = []string{"standard", "partitioned", "counting", "scalable", "blocked", "split-block"}

// validate reports the first parameter outside its domain.
func validate(p experiments.Params) error {
	if p.N < 1 || p.N > maxItems {
		return paramError("n", "%d, want 1 <= n <= %d", p.N, uint64(maxItems))
	}
	if math.IsNaN(p.P) || p.P <= 0 || p.P >= 1 {
		return paramError("p", "%v, want 0 < p < 1", p.P)
	}
	if p.Filters < 1 || p.Filters > maxFilters {
		return paramError("filters", "%d, want 1 <= filters <= %d", p.Filters, maxFilters)
	}
	if p.Queries < 1 || p.Queries > maxQueries {
		return paramError("queries", "%d, want 1 <= queries <= %d", p.Queries, uint64(maxQueries))
	}
	if math.IsNaN(p.Conf) || p.Conf <= 0 || p.Conf >= 1 {
		return paramError("conf", "%v, want 0 < conf < 1", p.Conf)
	}
	if math.IsNaN(p.Span) || p.Span <= 0 {
		return paramError("span", "%v, want span > 0", p.Span)
	}
	if keys := p.Span * float64(p.N); keys > maxItems {
		// Span is not a flag: the limit is the user's n.
		msg := fmt.Sprintf("%d items: the experiment inserts up to %g times n = %.3g keys into each filter, more than its limit of 2^40 (about 1.1e12) keys", p.N, p.Span, keys)
		if sd, err := analysis.StandardSize(p.N, p.P); err == nil {
			msg += fmt.Sprintf("; a standard filter for n items at p = %g alone needs %s of memory", p.P, units.FormatBytes(sd.Bits))
		}
		return paramError("n", "%s", msg)
	}
	if p.Checkpoints < 1 || p.Checkpoints > 10000 {
		return paramError("checkpoints", "%d, want 1 <= checkpoints <= 10000", p.Checkpoints)
	}
	for _, r := range p.R {
		if math.IsNaN(r) || r <= 0 || r >= 1 {
			return paramError("r", "%v, want 0 < r < 1", r)
		}
	}
	for _, s := range p.S {
		if math.IsNaN(s) || math.IsInf(s, 0) || s < 1 || s > 1000 {
			return paramError("s", "%v, want 1 <= s <= 1000", s)
		}
	}
	for _, b := range p.BitsPerKey {
		if math.IsNaN(b) || b <= 0 || b > 1000 {
			return paramError("bits-per-key", "%v, want 0 < bits per key <= 1000", b)
		}
	}
	for _, k := range p.Hashes {
		if k < 1 || k > 64 {
			return paramError("hashes", "%d, want 1 <= k <= 64", k)
		}
	}
	for _, m := range p.Bits {
		if m < 8 || m > 1<<36 {
			return paramError("bits", "%d, want 8 <= m <= 2^36", m)
		}
	}
	for _, w := range p.Widths {
		if w != 2 && w != 4 && w != 8 && w != 16 {
			return paramError("widths", "%d, want 2, 4, 8 or 16", w)
		}
	}
	for i, t := range p.Candidates {
		if t < 1 || t > maxCandidates {
			return paramError("candidates", "%d, want 1 <= T <= %d", t, maxCandidates)
		}
		if slices.Contains(p.Candidates[:i], t) {
			return paramError("candidates", "%d given twice", t)
		}
	}
	for _, n := range p.Keys {
		if n < 1 || n > 1<<32 {
			return paramError("keys", "%d, want 1 <= keys <= 2^32", n)
		}
	}
	return nil
}

// Experiment describes a named experiment.
type Experiment struct {
	// Name is the experiment's name on the command line.
	Name string
	// Summary says in one sentence what the experiment measures.
	Summary string
	// Variants are the variants it measures.
	Variants []string
	// PerVariant reports whether a run measures one variant only: the
	// variant "all" then means one run per variant. Other experiments
	// measure the variants they are given side by side in one run, and
	// "all" means every variant in Variants.
	PerVariant bool
	// Timed reports whether the results include times (or heap sizes),
	// which differ from run to run; all other columns are reproducible.
	Timed bool
	// Shardable reports whether the experiment can be split into shards.
	Shardable bool

	// flags lists, by their cmd/experiment flag names ("n", "p",
	// "filters", "queries", "r", "s"), the parameters a run on a variant
	// reads; see Uses.
	flags      func(variant string) []string
	sequential bool
	defaults   func(variant string, quick bool) experiments.Params
	plan       func(variant string, p experiments.Params) (*experiments.Plan, error)
	summarize  func(*experiments.Results) []string
	figure     func(*experiments.Results) (*plots.Figure, error)
}

// Defaults returns the parameters a run of the experiment on variant uses
// for the fields left zero.
func (e Experiment) Defaults(variant string, quick bool) experiments.Params {
	d := e.defaults(variant, quick)
	d.Quick = quick
	return d
}

// Uses reports whether a run of the experiment on variant reads the
// parameter that cmd/experiment sets with the flag named param: one of
// "n" (N), "p" (P), "filters", "queries", "r", "s", "candidates", "keys",
// the geometry of fill, "m" (M) and "k" (K), and the hashing of fill,
// hashes and small-m, "hash" and "derivation". A command should
// refuse a parameter that the experiment would ignore rather than record a
// value that was never used.
func (e Experiment) Uses(param, variant string) bool {
	return slices.Contains(e.flags(variant), param)
}

// plan plans a run of e on variant with parameters p, defaults filled in.
func plan(e Experiment, variant string, p experiments.Params) (*experiments.Plan, error) {
	pl, err := e.plan(variant, p)
	if err != nil {
		return nil, err
	}
	pl.Experiment, pl.Variant = e.Name, variant
	pl.Sequential = e.sequential
	pl.Summarize = e.summarize
	pl.Label = func(r experiments.Row) string { return pointLabel(e.Name, r) }
	return pl, nil
}

// Merge combines the results of all N shards of one sharded run of a
// named experiment into the results of the unsharded run, as
// [catalog.Merge] does for the results of [experiments.Measure]: it
// plans the run again from the shards' parameters to learn which rows
// were measured on the same filters.
func Merge(shards []*experiments.Results) (*experiments.Results, error) {
	if len(shards) == 0 || shards[0].Experiment == experiments.Measured || shards[0].Experiment == experiments.MeasuredWindow {
		return experiments.Merge(shards, nil)
	}
	first := shards[0]
	e, ok := Lookup(first.Experiment)
	if !ok {
		return nil, fmt.Errorf("catalog: merge: unknown experiment %q", first.Experiment)
	}
	pl, err := plan(e, first.Variant, first.Params)
	if err != nil {
		return nil, fmt.Errorf("catalog: merge: planning the run again: %w", err)
	}
	return experiments.Merge(shards, pl)
}

// fixedFlags returns a flags function that ignores the variant.
func fixedFlags(names ...string) func(string) []string {
	return func(string) []string { return names }
}

var registry []Experiment

// List returns every experiment, in the order "all" runs them.
func List() []Experiment { return slices.Clone(registry) }

// Lookup returns the experiment called name.
func Lookup(name string) (Experiment, bool) {
	for _, e := range registry {
		if e.Name == name {
			return e, true
		}
	}
	return Experiment{}, false
}

// Names returns the experiments' names in order.
func Names() []string {
	var s []string
	for _, e := range registry {
		s = append(s, e.Name)
	}
	return s
}

// Run runs experiment name on variant (one of Variants, or "all" for an
// experiment that is not PerVariant) with parameters p, zero fields
// defaulted, and returns its results. Work spreads over o.Workers
// goroutines; the results do not depend on their number. A cancelled ctx
// stops the run and returns ctx's error.
//
// With o.Shard set, Run measures only that shard's filters and returns
// partial results (Results.Shard set, rows holding raw trials and no
// aggregates), which Merge combines.
//
// The experiments that measure rates query every filter with a sample of
// its inserted keys too (see Spec.Members); a false negative makes Run
// return the results with an error wrapping ErrFalseNegative.
func Run(ctx context.Context, name, variant string, p experiments.Params, o experiments.Options) (*experiments.Results, error) {
	_, p, pl, err := prepare(ctx, name, variant, p, o)
	if err != nil {
		return nil, err
	}
	return experiments.Execute(ctx, pl, p, o)
}

// Check reports the error Run would report for its arguments before
// measuring anything: an unknown experiment or variant, or a parameter
// outside its domain. It builds one filter of each kind the run would
// build, so it takes as long as allocating them, and reads a key file
// (Params.KeySource "file:PATH"), which a cancelled ctx stops.
func Check(ctx context.Context, name, variant string, p experiments.Params, o experiments.Options) error {
	_, _, _, err := prepare(ctx, name, variant, p, o)
	return err
}

// prepare validates Run's arguments and plans the run.
func prepare(ctx context.Context, name, variant string, p experiments.Params, o experiments.Options) (Experiment, experiments.Params, *experiments.Plan, error) {
	fail := func(err error) (Experiment, experiments.Params, *experiments.Plan, error) {
		return Experiment{}, experiments.Params{}, nil, err
	}
	e, ok := Lookup(name)
	if !ok {
		return fail(paramError("exp", "unknown experiment %q, want one of %s", name, strings.Join(Names(), ", ")))
	}
	if variant == "all" && e.PerVariant {
		return fail(paramError("variant", "experiment %s measures one variant per run, want one of %s", name, strings.Join(e.Variants, ", ")))
	}
	if variant != "all" && !slices.Contains(e.Variants, variant) {
		return fail(paramError("variant", "experiment %s does not measure %q, want one of %s", name, variant, strings.Join(e.Variants, ", ")))
	}
	if err := o.Validate(); err != nil {
		return fail(err)
	}
	if o.Shard.Count > 1 && !e.Shardable {
		return fail(paramError("shard", "experiment %s measures time or memory on one machine and cannot be sharded", name))
	}
	for _, g := range []struct {
		name string
		set  bool
	}{{"m", p.M != 0}, {"k", p.K != 0}, {"hash", p.Hash != ""}, {"derivation", p.Derivation != ""}} {
		if g.set && !e.Uses(g.name, variant) {
			return fail(paramError(g.name, "experiment %s does not use it for %s", name, variant))
		}
	}
	p = p.Or(e.Defaults(variant, p.Quick))
	if err := validate(p); err != nil {
		return fail(err)
	}
	pl, err := plan(e, variant, p)
	if err != nil {
		return fail(err)
	}
	if p.KeySource != "" && p.KeySource != "uniform" {
		src, err := experiments.NewKeySource(ctx, p.KeySource)
		if err != nil {
			return fail(err)
		}
		if err := pl.UseKeys(src); err != nil {
			return fail(err)
		}
	}
	return e, p, pl, nil
}
