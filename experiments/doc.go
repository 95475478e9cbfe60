// Package experiments runs bloomlab's named experiments: it measures the
// false-positive rate, memory and speed of the filters of package variants,
// and the error of the item counts they estimate from their fill, and sets
// every measurement beside the theory of package analysis.
//
// An experiment (fill, bits, hashes, small-m, hashing, counting, scalable,
// memory, speed, blocking, cardinality; see List) has a plain parameter
// struct, Params, whose zero
// fields take the experiment's defaults. Run measures and returns Results:
// metadata (experiment, parameters, seed, Go and module versions) and one
// Row per point, holding the raw per-filter counts (Trials), the mean rate
// and its confidence interval, the theory at the geometry actually built,
// and whether the theory lies inside the interval.
//
// # Method
//
// Each point is measured on Params.Filters independently seeded filters:
// filter f of a group of points gets a hash seed and a key stream derived
// by SplitMix64 from (Options.Seed, group, f), each is filled with its own
// keys and queried with Params.Queries keys from a disjoint key space (keys
// are 16 bytes, the space in the top bits of a counter). The reported rate
// is the mean of the filters' rates and its interval the Student t
// interval over them (analysis.TInterval), which includes the differences
// between filters; a pooled binomial interval would be too narrow. Where
// the filters' rates are all equal (usually all zero), the interval is the
// Clopper-Pearson interval of the pooled counts. Each filter's rate
// conditional on its contents (Stats.EstimatedFPR) is kept too, to separate
// insertion luck from query luck.
//
// # Reproducibility and scale
//
// Workers pull (group, filter) jobs from a channel and write into
// preallocated slots; aggregation runs afterwards in a fixed order. The same
// seed and parameters therefore give byte-identical CSV and JSON on any
// number of workers (times, which the timed experiments record, differ from
// run to run). A sweep too large for one machine is split with
// Options.Shard: shard i of N measures the filters f with f mod N = i, and
// Merge combines the N partial results into exactly the unsharded results.
//
// # Output
//
// WriteCSV and WriteJSON write Results to an io.Writer; ReadJSON reads the
// JSON back. The package never chooses file names, draws nothing (see
// package plots) and has no command line (see cmd/experiment).
//
// It is not a benchmark framework for arbitrary code, and not a filter
// implementation: the reference MD5 and FNV indexings of the hashing
// experiment exist only to be compared with.
package experiments
