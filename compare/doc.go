// Package compare measures bloomlab's filters beside the Go Bloom-filter
// libraries in common use: github.com/bits-and-blooms/bloom/v3 and
// github.com/tylertreat/BoomFilters. It is a module of its own, so that
// bloomlab itself depends on neither.
//
// The benchmarks (go test -bench . in this directory) time Add and Contains
// for every library on the same precomputed keys in one run; the command
// (go run ./cmd/peers) measures the false-positive rates the libraries
// actually deliver against the rates they were asked for.
package compare
