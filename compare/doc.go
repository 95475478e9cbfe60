// Package compare measures bloomlab's filters beside the Go
// approximate-membership libraries in common use: the Bloom filters of
// github.com/bits-and-blooms/bloom/v3, github.com/tylertreat/BoomFilters,
// github.com/AndreasBriese/bbloom and the split-block filter of
// github.com/parquet-go/parquet-go, and the static xor and binary fuse
// filters of github.com/FastFilter/xorfilter. It is a module of its own, so
// that bloomlab itself depends on none of them.
//
// The libraries' filters are measured by bloomlab's own harness
// (experiments.Measure), by the method of bloomlab's experiments: many
// filters per library, each with keys of its own, the mean rate with its
// t interval, beside the theory of the geometry each library builds.
// FixedSpecs and ScalableSpecs return those measurements, ready for
// experiments.Measure; CountingLosses measures what saturated counters
// cost the counting filters. The wrappers that make another library's
// filter an experiments.Filter take a few lines (see the example).
//
// The frontier of space against time: FrontierConfigs returns every
// structure sized for n keys at the target rates (the static filters,
// which take no insertion after they are built, are wrapped to keep the
// keys' hashes and build at the first query); Time times one filter of a
// config on the same keys as every other; FrontierCurves gives the lines of
// the information-theoretic bound, the optimal Bloom filter and bloomlab's
// theories; CheckSizing compares the bits bloomlab's variants allocate
// with those their theory needs; FrontierFigure draws it all.
//
// Sliding-window filters: decred's age-partitioned Bloom filter
// (github.com/decred/dcrd/container/apbf; DecredFor reads its sizing,
// NewDecred wraps it) and BoomFilters' stable Bloom filter (StableFor,
// NewStable, with a one-cell model of its rate and recall), measured by
// experiments.MeasureWindow beside bloomlab's age-partitioned filter
// (NewOurs) and bloomlab's exact theory (APTheory); CheckPhases checks a
// window promise after every add of a generation.
//
// The commands (go run ./cmd/peers, go run ./cmd/frontier, go run
// ./cmd/window) run them and
// print the README's sections; the benchmarks (go test -bench . in this
// directory) time Add and Contains for every library on the same
// precomputed keys in one run, and bloomlab's split-block filter beside
// parquet-go's.
package compare
