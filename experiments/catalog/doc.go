// Package catalog holds bloomlab's named experiments.
//
// Each experiment (fill, bits, hashes, small-m, hashing, counting,
// scalable, memory, speed, blocking, cardinality, adversary, growth,
// window) is a configuration of the public API of package
// [github.com/bloomlab/bloomlab/experiments]: a [experiments.Plan] of
// Specs and groups of its own, with its defaults, its theory and its
// reference filters. [List] and [Lookup] describe them, [Run] measures
// one, [Check] validates its arguments before any work, and [Merge]
// combines the shards of a sharded run. Each experiment lives in a file
// of its own.
//
// # Parameters
//
// A run takes an [experiments.Params] whose zero fields take the
// experiment's defaults ([Experiment.Defaults]); [Experiment.Uses] says
// which fields a run reads, so that a command can refuse the others.
// The results record the parameters used, so a run is reproduced from
// its JSON.
//
// # Reference filters
//
// The MD5 and FNV indexings of the hashing experiment, the window
// baselines and the double-hashed age-partitioned model of the window
// experiment exist only to be compared with; they are not exported.
package catalog
