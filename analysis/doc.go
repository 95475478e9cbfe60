// Package analysis holds the exact theory of Bloom filters: rates, sizing and solvers.
//
// # Contents
//
//   - Rates: the classic, Bloom's and the exact finite-m false-positive
//     rates of standard filters ([ExactFPR]), and the exact rates of
//     partitioned, blocked, split-block and counting filters.
//   - Models: one value type per design ([Standard], [Partitioned],
//     [Counting], [Blocked], [SplitBlock], [Scalable], [Dynamic],
//     [RedisBloom], [AgePartitioned], [AlternatingWindow], [ClearedWindow])
//     with its parameters and its FPR; the filters of package variants
//     return theirs from their Model method.
//   - Sizing and solving: the fewest bits for a capacity and a target rate,
//     and a solver for any missing one of n, p, m and k ([Solve]).
//   - Growing filters: the stage geometry and compound rate of scalable,
//     dynamic and [RedisBloom] chains.
//   - Streams: the rate of age-partitioned filters at every position of
//     their generation cycle, with its worst and mean, and their recall by
//     age.
//   - Index derivations: the rate of a standard filter whose k cells come
//     from two 64-bit hashes, by bloomlab's plain, enhanced and triple
//     double hashing with multiply-shift ([DerivationRate],
//     [DerivationFPR]), and by plain double hashing modulo a power of two
//     ([DoubleHashing]).
//   - Attacks: the expected rate of a standard filter filled by a greedy
//     pollution attacker that examines T candidates per key
//     ([PollutedFPR], an exact Markov chain over the set bits), and the
//     bound every attacker obeys ([PollutionBound]).
//   - Counts: estimates of a filter's items and of the union and
//     intersection of two filters' sets from their fill, with their errors
//     ([FillEstimator]).
//   - Boost.Bloom's layouts: block, multiblock and fast_multiblock at any
//     byte stride, their exact rates, Boost's own approximation, and counts
//     from the fill of non-overlapping ones ([Multiblock]).
//
// Derivations and the numbers that check them against independent
// computations are in paper-notes.md.
//
// # Invalid input
//
// Values from callers give NaN, a defined value or an error, never a panic
// (a panic would be a bug). Three conventions, by the shape of the result:
//
//   - A free rate function that returns only a float64 ([ClassicFPR],
//     [BloomFPR], [ExactFPR], [ExpectedFill], [FPRFromFill],
//     [PartitionedFPR], [BlockedFPR], [SplitBlockFPR], [SaturationProbability] and the
//     like) returns NaN for a geometry outside its domain (m = 0, k < 1, m
//     not a multiple of the block size, ...), as its documentation states.
//     NaN fails every comparison, so "rate <= p" never accepts it.
//   - A function that returns a count returns a defined value that is not
//     a geometry: [OptimalHashes] and [BlockedOptimalHashes] return 0.
//   - Everything that returns an error (the models' Validate, FPR and
//     BitsPerKey, the sizing functions, [Solve], the Check functions
//     [CheckProbability] and [CheckBlocked]) reports an error wrapping
//     [ErrInvalidParams].
//
// A caller holding values from users therefore asks the model, for example
// Standard{Bits: m, Hashes: k}.FPR(n) rather than ExactFPR(m, n, k), or
// validates first. The models are as strict as the filters of package
// variants, with two documented differences: the blocked-filter theory
// takes any block size from 1 to [MaxBlockBits] (see [CheckBlocked]), and
// [Scalable] has no implicit defaults: a zero R, S or N0 is an error that
// names [Scalable.WithDefaults], which fills in those of
// variants.NewScalable.
//
// # Concurrency
//
// Everything here is a pure function or a plain value with methods: no
// I/O and no global state, so the functions are safe for concurrent use.
// The one exception is [BlockedSizer], a cache that its caller owns: it
// keeps the inner rates its calls compute, and is not safe for concurrent
// use.
//
// # Scope
//
// The package depends only on the standard library. It is not a filter
// implementation; see package variants. The statistics of measured rates
// (confidence intervals, moments) are in package stats.
package analysis
