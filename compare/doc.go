// Package compare measures bloomlab's filters beside the Go Bloom-filter
// libraries in common use: github.com/bits-and-blooms/bloom/v3 and
// github.com/tylertreat/BoomFilters. It is a module of its own, so that
// bloomlab itself depends on neither.
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
// The command (go run ./cmd/peers) runs all of them and prints the README's
// comparison section; the benchmarks (go test -bench . in this directory)
// time Add and Contains for every library on the same precomputed keys in
// one run.
package compare
