package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/internal/units"
)

// ErrInvalidParams is wrapped by every error that reports a parameter,
// variant, experiment name or shard outside its domain.
var ErrInvalidParams = errors.New("invalid parameters")

// ParamError reports a parameter outside its domain. Param is the name of
// the parameter as the command line spells its flag ("n", "filters",
// "variant", ...).
type ParamError struct {
	Param string
	Msg   string
}

// Error returns "experiments: invalid parameters: <param>: <msg>".
func (e *ParamError) Error() string {
	return fmt.Sprintf("experiments: %v: %s: %s", ErrInvalidParams, e.Param, e.Msg)
}

// Unwrap returns ErrInvalidParams.
func (e *ParamError) Unwrap() error { return ErrInvalidParams }

func paramError(param, format string, args ...any) error {
	return &ParamError{Param: param, Msg: fmt.Sprintf(format, args...)}
}

// Variants lists the filter variants the experiments measure, in the order
// "all" expands to.
var Variants = []string{"standard", "partitioned", "counting", "scalable", "blocked", "split-block"}

// Params are the parameters of an experiment run. Zero fields take the
// experiment's defaults (see Experiment.Defaults); Results.Params holds the
// values actually used. Each experiment reads only the fields its
// documentation names.
type Params struct {
	// N is the capacity filters are sized for; for scalable filters the
	// capacity n0 of the first stage.
	N uint64 `json:"n,omitempty"`
	// P is the target false-positive rate filters are sized for.
	P float64 `json:"p,omitempty"`
	// Filters is the number of independently seeded filters per point.
	Filters int `json:"filters,omitempty"`
	// Queries is the number of never-inserted keys each filter is
	// queried with per point (the minimum, for experiments that raise it
	// where the rate is small).
	Queries uint64 `json:"queries,omitempty"`
	// Conf is the confidence level of the intervals, 0.95 by default.
	Conf float64 `json:"conf,omitempty"`
	// Span is the last fill checkpoint as a multiple of N (fill).
	Span float64 `json:"span,omitempty"`
	// Checkpoints is the number of fill checkpoints: evenly spaced from
	// N Span/Checkpoints to N Span for fixed-size filters, per decade of
	// growth for scalable ones.
	Checkpoints int `json:"checkpoints,omitempty"`
	// R and S are the tightening ratios and growth factors of scalable
	// filters; every combination is one series.
	R []float64 `json:"r,omitempty"`
	S []float64 `json:"s,omitempty"`
	// BitsPerElement are the bits per element m/n: the sweep of the bits
	// experiment, and the fixed m/n of hashes, small-m and hashing.
	BitsPerElement []float64 `json:"bits_per_element,omitempty"`
	// Hashes are the numbers of hashes k swept by the hashes experiment.
	Hashes []int `json:"hashes,omitempty"`
	// Bits are the filter sizes m swept by small-m and hashing.
	Bits []uint64 `json:"bits,omitempty"`
	// Widths are the counter widths of the counting experiment.
	Widths []int `json:"widths,omitempty"`
	// Keys are the numbers of keys of the memory and speed experiments.
	Keys []uint64 `json:"keys,omitempty"`
	// KeySource names the source of the keys filters are filled and
	// queried with (see NewKeySource: "uniform", "url", "sequential",
	// "prefix", "zipf" or "file:PATH"); empty means uniform. Only the
	// experiments whose every point is a Spec (fill, bits, hashes,
	// small-m, hashing, scalable, blocking) take another source.
	KeySource string `json:"key_source,omitempty"`
	// Passes is the number of times Time repeats each measurement, whose
	// median it reports, and MinAdds the fewest adds it times per pass.
	Passes  int    `json:"passes,omitempty"`
	MinAdds uint64 `json:"min_adds,omitempty"`
	// Quick selects smaller default sizes where an experiment's full
	// default is slow or large (memory and speed stop at 1e6 keys).
	Quick bool `json:"quick,omitempty"`
}

// merge returns p with its zero fields taken from d.
func (p Params) merge(d Params) Params {
	if p.N == 0 {
		p.N = d.N
	}
	if p.P == 0 {
		p.P = d.P
	}
	if p.Filters == 0 {
		p.Filters = d.Filters
	}
	if p.Queries == 0 {
		p.Queries = d.Queries
	}
	if p.Conf == 0 {
		p.Conf = d.Conf
	}
	if p.Span == 0 {
		p.Span = d.Span
	}
	if p.Checkpoints == 0 {
		p.Checkpoints = d.Checkpoints
	}
	if p.R == nil {
		p.R = d.R
	}
	if p.S == nil {
		p.S = d.S
	}
	if p.BitsPerElement == nil {
		p.BitsPerElement = d.BitsPerElement
	}
	if p.Hashes == nil {
		p.Hashes = d.Hashes
	}
	if p.Bits == nil {
		p.Bits = d.Bits
	}
	if p.Widths == nil {
		p.Widths = d.Widths
	}
	if p.Keys == nil {
		p.Keys = d.Keys
	}
	if p.Passes == 0 {
		p.Passes = d.Passes
	}
	if p.MinAdds == 0 {
		p.MinAdds = d.MinAdds
	}
	return p
}

// Limits on parameters: large enough for any sweep one machine runs, small
// enough that a typing slip fails at once rather than allocate for hours.
const (
	maxFilters = 1 << 20
	maxQueries = 1 << 34
	maxItems   = 1 << 40
)

// validate reports the first parameter outside its domain.
func (p Params) validate() error {
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
		if m, err := analysis.OptimalBits(p.N, p.P); err == nil {
			msg += fmt.Sprintf("; a standard filter for n items at p = %g alone needs %s of memory", p.P, units.FormatBytes(m))
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
	for _, b := range p.BitsPerElement {
		if math.IsNaN(b) || b <= 0 || b > 1000 {
			return paramError("bits-per-element", "%v, want 0 < bits per element <= 1000", b)
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
	for _, n := range p.Keys {
		if n < 1 || n > 1<<32 {
			return paramError("keys", "%d, want 1 <= keys <= 2^32", n)
		}
	}
	return nil
}

// Shard selects one share of a run's filters: filter f belongs to shard
// f mod Count. The zero value (and Count 1) is the whole run.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// String returns "i/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseShard parses "i/N" with 0 <= i < N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, paramError("shard", "%q, want i/N, for example 0/4", s)
	}
	sh := Shard{Index: i, Count: n}
	if n < 1 {
		return Shard{}, paramError("shard", "%q, want i/N with 0 <= i < N", s)
	}
	if err := sh.validate(); err != nil {
		return Shard{}, err
	}
	return sh, nil
}

func (s Shard) validate() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Count > maxFilters || s.Index < 0 || s.Index >= s.Count {
		return paramError("shard", "%d/%d, want i/N with 0 <= i < N", s.Index, s.Count)
	}
	return nil
}

func (s Shard) sharded() bool { return s.Count > 1 }

func (s Shard) owns(filter int) bool { return s.Count <= 1 || filter%s.Count == s.Index }

// Options control how a run executes, not what it measures: they do not
// change the numbers (apart from which filters a shard measures) and are
// not part of the results, except Seed.
type Options struct {
	// Seed is the seed from which every filter's hash seed and key stream
	// derive, by a counter-based scheme: filter f of group g gets
	// SplitMix64 mixes of (Seed, g, f), whatever worker runs it.
	Seed uint64
	// Workers is the number of goroutines measuring in parallel;
	// 0 means runtime.GOMAXPROCS(0). Timed experiments (speed, memory)
	// always run on one.
	Workers int
	// Shard selects a share of the filters for a sharded run; see Merge.
	Shard Shard
	// Progress, if not nil, is called after each unit of work with the
	// number of units done and the total, from one goroutine.
	Progress func(done, total int)
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
	defaults   func(variant string, quick bool) Params
	plan       func(variant string, p Params) (*plan, error)
	summarize  func(*Results) []string
}

// Defaults returns the parameters a run of the experiment on variant uses
// for the fields left zero.
func (e Experiment) Defaults(variant string, quick bool) Params {
	d := e.defaults(variant, quick)
	d.Quick = quick
	return d
}

// Uses reports whether a run of the experiment on variant reads the
// parameter that cmd/experiment sets with the flag named param: one of
// "n" (N), "p" (P), "filters", "queries", "r" and "s". A command should
// refuse a parameter that the experiment would ignore rather than record a
// value that was never used.
func (e Experiment) Uses(param, variant string) bool {
	return slices.Contains(e.flags(variant), param)
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
func Run(ctx context.Context, name, variant string, p Params, o Options) (*Results, error) {
	e, p, pl, err := prepare(name, variant, p, o)
	if err != nil {
		return nil, err
	}
	return pl.results(ctx, name, variant, p, o, e.sequential, e.summarize)
}

// Check reports the error Run would report for its arguments before
// measuring anything: an unknown experiment or variant, or a parameter
// outside its domain. It builds one filter of each kind the run would
// build, so it takes as long as allocating them.
func Check(name, variant string, p Params, o Options) error {
	_, _, _, err := prepare(name, variant, p, o)
	return err
}

// prepare validates Run's arguments and plans the run.
func prepare(name, variant string, p Params, o Options) (Experiment, Params, *plan, error) {
	fail := func(err error) (Experiment, Params, *plan, error) { return Experiment{}, Params{}, nil, err }
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
	if err := o.Shard.validate(); err != nil {
		return fail(err)
	}
	if o.Shard.sharded() && !e.Shardable {
		return fail(paramError("shard", "experiment %s measures time or memory on one machine and cannot be sharded", name))
	}
	if o.Workers < 0 {
		return fail(paramError("workers", "%d, want workers >= 0", o.Workers))
	}
	p = p.merge(e.Defaults(variant, p.Quick))
	if err := p.validate(); err != nil {
		return fail(err)
	}
	pl, err := e.plan(variant, p)
	if err != nil {
		return fail(err)
	}
	if p.KeySource != "" && p.KeySource != "uniform" {
		src, err := NewKeySource(p.KeySource)
		if err != nil {
			return fail(err)
		}
		if err := pl.useKeys(name, src); err != nil {
			return fail(err)
		}
	}
	return e, p, pl, nil
}

// moduleVersion returns the main module's version from the build
// information: "(devel)" in a source tree, the tag when installed.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	if bi.Main.Path != "github.com/bloomlab/bloomlab" {
		// A test binary or a program importing bloomlab as a dependency.
		for _, d := range bi.Deps {
			if d.Path == "github.com/bloomlab/bloomlab" {
				return d.Version
			}
		}
	}
	if bi.Main.Version == "" {
		return "(devel)"
	}
	return bi.Main.Version
}
