// Package experiments measures Bloom filters against their theory.
//
// It is the harness: one seeded method with confidence intervals that
// measures any filter, including one written outside bloomlab, by a [Spec]
// ([Measure]), a [WindowSpec] ([MeasureWindow]), a [TimeSpec] ([Time]) or
// a [Plan] of measurements of one's own ([Execute]). bloomlab's named
// experiments are configurations of this API in package
// [github.com/bloomlab/bloomlab/experiments/catalog].
//
// # Measuring your own filter
//
// A filter needs two methods to be measured, Add(key []byte) and
// Contains(key []byte) bool (the interface [Filter]; every variants.Filter
// has them, and another library's filter is wrapped in a few lines). A
// [Spec] names it, says how to build one from a seed, at which numbers of
// keys to measure it, and, optionally, the rate the theory predicts:
//
//	spec := experiments.Spec{
//		Name:   "mine",
//		New:    func(seed uint64) (experiments.Filter, error) { return NewMine(1<<16, seed), nil },
//		Items:  []uint64{2000, 4000, 8000}, // one growing filter, measured at each
//		Theory: func(n uint64) float64 { return myTheory(1<<16, n) },
//	}
//	res, err := experiments.Measure(ctx, []experiments.Spec{spec}, experiments.Params{Filters: 20}, experiments.Options{Seed: 1})
//
// [Measure] returns [Results] exactly like the named experiments': one [Row] per
// item count with the raw per-filter counts, the mean rate, its interval,
// the theory and whether it lies inside, and notes that check the theory
// once per group of correlated points. [WriteCSV] and [WriteJSON] store them,
// [Merge] combines shards of a large run, and package plots draws them. A
// filter that also reports its size ([Sizer], or Stats() as the variants
// have) gets its bits per key recorded. See ExampleMeasure in
// example_measure_test.go (go doc prints no examples; read the file, or run
// it with go test ./experiments -run ExampleMeasure -v), and bloomlab's
// compare module, which measures other Go libraries this way.
//
// # Filters for streams
//
// A sliding-window filter (one that forgets old items by design) is
// measured over a stream instead: a [WindowSpec] says at which stream
// positions to measure its rate, how many of the newest items it promises
// to hold (checked at every position: a miss is a false negative, an
// error), and at which positions and ages to measure its recall, the
// fraction of the items of an age that still test present. [MeasureWindow]
// returns the same Results; the window experiment is built from it, and
// bloomlab's compare module measures decred's age-partitioned filter and
// BoomFilters' stable filter with it.
//
// # Keys of your own
//
// By default every filter gets 16-byte keys that any good hash sees as
// random. A [KeySource] gives others ([Spec.Keys], [TimeSpec.Keys], and
// [Params.KeySource] for the named experiments): URL-like text, sequential
// integers, keys sharing a long prefix, a stream with Zipf-skewed repeats of uniform keys,
// or the lines of a file of your own ([KeysFromFile]), which each filter
// splits into members and queries by a seeded permutation. A hash weakness
// that random keys hide shows on the structured ones; ExampleTime, in
// example_time_test.go, measures a filter's rate and its time on a key
// file.
//
// A key file must be a regular file (not a directory, device, named pipe
// or socket) of at most 4 GiB, with lines of at most 64 KiB and at least
// 2 distinct keys; reading it takes at most the file's size plus 8 bytes
// a line of memory, and the context given stops it. A stream goes through
// [KeysFromLines], with the same limits.
//
// # Timing your own filter
//
// [Time] measures the speed of any filter by the method of the speed
// experiment: a [TimeSpec] says how to build one for n keys, and Time fills
// filters of each size from inside the cache to beyond it, times Add and
// Contains of present and of absent keys on one goroutine (keys made
// between timed runs, the median of several passes), and sets the time
// per load of a random cache line beside them, the memory system's limit.
// Its Results are those of any experiment, so a new filter's rate (from
// Measure) and its time can be drawn against bloomlab's on one method.
//
// # Plans of one's own
//
// A measurement that is not the rate of a growing filter (counters,
// removals, an attack, an estimate of a count) is a [Plan]: rows with
// their plan-time fields, and groups of rows measured together on the
// same filters, each group with a [RunFunc] that measures one filter. The
// run function gets a [Job]: the filter's index, its seeded hashing, and
// keys from disjoint spaces ([Job.Member], [Job.Query], [Job.Stranger],
// [Job.Candidate]). [Plan.AddSpec] adds a Spec's group to a plan, so a
// plan mixes both. [Execute] runs the plan with the seeding, workers,
// shards, intervals and notes of Measure. The named experiments of
// package catalog are such plans: fill, for one, is a Spec of a variant
// sized for N at P, its Items the fill checkpoints, its Theory the
// variant's exact rate at the geometry built; the counting experiment
// plans groups of its own.
//
// # Method
//
// Each point is measured on Filters independently seeded filters: filter f
// of a group of points (a Spec, or a point of its own) gets a hash seed
// and a key stream derived by SplitMix64 from ([Options.Seed], group, f),
// each is filled with its own keys and queried with Queries keys from a
// disjoint key space (by default keys are 16 bytes, the space in the top
// bits of a counter; see KeySource for others). The reported rate is the mean of the filters' rates and its
// interval the Student t interval over them (stats.TInterval), which
// includes the differences between filters; a pooled binomial interval
// would be too narrow. Where the filters' rates are all equal (usually all
// zero), the interval is the Clopper-Pearson interval of the pooled counts.
// Each filter's rate conditional on its contents (Stats.EstimatedFPR) is
// kept too, where the filter reports it, to separate insertion luck from
// query luck.
//
// At every point each filter is also queried with a sample of the keys
// inserted into it (all of them up to 10000, [Spec.Members]): a Bloom filter
// must never answer false for one. The rows count the misses
// ([Row.FalseNegatives], a CSV column beside Members), and a filter with
// any fails the run loudly: Measure, [Execute] and Merge return the complete
// results with an error wrapping [ErrFalseNegative] that names the series,
// the points and the filters.
//
// The checkpoints of one growing filter share its filters, so their marks
// inside or outside the interval are correlated, not independent evidence.
// The notes say how many independent groups a series' points come from,
// and check the theory once per group: the ratio of each filter's false
// positives over all the group's points to the number the theory expects,
// with its interval over the independent filters.
//
// # Reproducibility and scale
//
// Workers pull (group, filter) jobs from a channel and write into
// preallocated slots; aggregation runs afterwards in a fixed order. The same
// seed and parameters therefore give byte-identical CSV and JSON on any
// number of workers (times, which the timed experiments record, differ from
// run to run; an experiment that measures both, such as growth, measures
// its rates on all workers first and then its times on one goroutine, with
// nothing else of the run measuring). A sweep too large for one machine is split with
// [Options.Shard]: shard i of N measures the filters f with f mod N = i, and
// Merge combines the N partial results into exactly the unsharded results.
//
// # Output
//
// WriteCSV and WriteJSON write Results to an io.Writer; [ReadJSON] reads the
// JSON back. The package never chooses file names, draws nothing (see
// package plots) and has no command line (see cmd/experiment).
//
// It measures rates and times of filters against keys; it is not a
// framework for timing arbitrary code, and not a filter implementation.
package experiments
