// Package analysis holds the theory of Bloom filters: sizing (optimal bits
// and hashes), the classic, Bloom's and the exact finite-m false-positive
// rates of standard filters, the exact rate of partitioned filters, the
// exact rate and sizing of blocked and split-block filters (with the block
// penalty), the counter distribution of counting filters, the stage
// geometry and compound rate of scalable filters, the exact rate of
// age-partitioned filters at every position of their generation cycle with
// its worst and mean, their recall by age and their sizing for a window
// (AgePartitioned), with the rate from the first add on
// (AgePartitionedStreamFPR), the rate and recall over the cycle of the two
// usual sliding-window baselines (AlternatingWindow, ClearedWindow), a
// solver for any missing one of n, p, m and k, and the estimates of a
// filter's item count and of the union and intersection of two filters'
// sets from their fill, with their exact or delta-method errors
// (FillEstimator).
//
// # Concurrency
//
// Everything here is a pure function or a plain value with methods: no
// I/O and no global state, so the functions are safe for concurrent use.
// The one exception is BlockedSizer, a cache that its caller owns: it
// keeps the inner rates its calls compute, and is not safe for concurrent
// use.
//
// # Scope
//
// The package depends only on the standard library. It is not a filter
// implementation; see package variants. The statistics of measured rates
// (confidence intervals, moments) are in package stats.
package analysis
