package experiments

import (
	"cmp"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
)

// ErrInvalidParams is wrapped by every error that reports a parameter,
// variant, experiment name or shard outside its domain. It is
// [analysis.ErrInvalidParams], the same value (as is
// variants.ErrInvalidParams), so that errors.Is(err,
// analysis.ErrInvalidParams) holds for a parameter error of any of the
// three packages.
var ErrInvalidParams = analysis.ErrInvalidParams

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

// Unwrap returns [ErrInvalidParams].
func (e *ParamError) Unwrap() error { return ErrInvalidParams }

func paramError(param, format string, args ...any) error {
	return &ParamError{Param: param, Msg: fmt.Sprintf(format, args...)}
}

// Params are the parameters of an experiment run. Zero fields take the
// experiment's defaults (see Experiment.Defaults); [Results.Params] holds the
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
	// BitsPerKey are the bits per key m/n: the sweep of the bits
	// experiment, and the fixed m/n of hashes, small-m and hashing.
	BitsPerKey []float64 `json:"bits_per_element,omitempty"`
	// Hashes are the numbers of hashes k swept by the hashes experiment.
	Hashes []int `json:"hashes,omitempty"`
	// Bits are the filter sizes m swept by small-m and hashing.
	Bits []uint64 `json:"bits,omitempty"`
	// Widths are the counter widths of the counting experiment.
	Widths []int `json:"widths,omitempty"`
	// Candidates are the numbers T of candidate keys the pollution
	// attacker of the adversary experiment examines per key it inserts.
	Candidates []uint64 `json:"candidates,omitempty"`
	// Keys are the numbers of keys of the memory and speed experiments.
	Keys []uint64 `json:"keys,omitempty"`
	// KeySource names the source of the keys filters are filled and
	// queried with (see [NewKeySource]: "uniform", "url", "sequential",
	// "prefix", "repeats" or "file:PATH"); empty means uniform. Only the
	// experiments whose every point is a [Spec] (fill, bits, hashes,
	// small-m, hashing, scalable, blocking) take another source.
	KeySource string `json:"key_source,omitempty"`
	// Passes is the number of times [Time] repeats each measurement, whose
	// median it reports, and MinAdds the fewest adds it times per pass.
	Passes  int    `json:"passes,omitempty"`
	MinAdds uint64 `json:"min_adds,omitempty"`
	// M and K fix the geometry of the fill experiment's fixed-size
	// filters: M bits (counters for a counting filter), K hashes, in
	// place of the geometry sized for N at P; zero means sized. Hash and
	// Derivation name the hashing of fill, hashes and small-m
	// ([variants.HashKind] and [variants.Derivation] names as
	// cmd/experiment's -hash and -derivation take them); empty means the
	// default (xxh3, enhanced double hashing). Unlike the lists above,
	// they are never defaulted.
	M          uint64 `json:"m,omitempty"`
	K          int    `json:"k,omitempty"`
	Hash       string `json:"hash,omitempty"`
	Derivation string `json:"derivation,omitempty"`
	// Quick selects smaller default sizes where an experiment's full
	// default is slow or large (memory and speed stop at 1e6 keys).
	Quick bool `json:"quick,omitempty"`
}

// Or returns p with its zero fields taken from d: the defaults d of a run
// filled in where p leaves them zero (nil for the lists). [KeySource],
// M, K, Hash, Derivation and Quick are p's.
func (p Params) Or(d Params) Params {
	p.N = cmp.Or(p.N, d.N)
	p.P = cmp.Or(p.P, d.P)
	p.Filters = cmp.Or(p.Filters, d.Filters)
	p.Queries = cmp.Or(p.Queries, d.Queries)
	p.Conf = cmp.Or(p.Conf, d.Conf)
	p.Span = cmp.Or(p.Span, d.Span)
	p.Checkpoints = cmp.Or(p.Checkpoints, d.Checkpoints)
	p.R = orNil(p.R, d.R)
	p.S = orNil(p.S, d.S)
	p.BitsPerKey = orNil(p.BitsPerKey, d.BitsPerKey)
	p.Hashes = orNil(p.Hashes, d.Hashes)
	p.Bits = orNil(p.Bits, d.Bits)
	p.Widths = orNil(p.Widths, d.Widths)
	p.Candidates = orNil(p.Candidates, d.Candidates)
	p.Keys = orNil(p.Keys, d.Keys)
	p.Passes = cmp.Or(p.Passes, d.Passes)
	p.MinAdds = cmp.Or(p.MinAdds, d.MinAdds)
	return p
}

// orNil returns a, or b if a is nil.
func orNil[S ~[]E, E any](a, b S) S {
	if a == nil {
		return b
	}
	return a
}

// Limits on parameters: large enough for any sweep one machine runs, small
// enough that a typing slip fails at once rather than allocate for hours.
const (
	maxFilters = 1 << 20
	maxQueries = 1 << 34
	maxItems   = 1 << 40
)

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

// Validate reports a shard or a worker count outside its domain, with an
// error wrapping [ErrInvalidParams].
func (o Options) Validate() error {
	if err := o.Shard.validate(); err != nil {
		return err
	}
	if o.Workers < 0 {
		return paramError("workers", "%d, want workers >= 0", o.Workers)
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
	// Shard selects a share of the filters for a sharded run; see [Merge].
	Shard Shard
	// Progress, if not nil, is called after each unit of work with the
	// number of units done and the total, from one goroutine.
	Progress func(done, total int)
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
