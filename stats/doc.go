// Package stats computes the statistics of measured rates.
//
// # Contents
//
// Confidence intervals for a binomial proportion ([Wilson],
// [ClopperPearson]), the Student t interval over the rates of
// independently seeded filters ([TInterval]), the standard error of a
// mean, the number of queries a measurement needs ([PlanSamples]), and the
// moments of a sample with their standard errors ([SampleMoments]).
//
// # Which interval
//
// [Wilson] and [ClopperPearson] are for a single filter queried n times.
// Filters built from different seeds have different rates, so a pooled
// binomial interval over several filters is too narrow; bloomlab's
// experiments report [TInterval] over the per-filter rates instead.
//
// # Scope
//
// Everything here is a pure function or a plain value with methods: no
// I/O, no global state, safe for concurrent use. It depends on the standard
// library and gonum's stat and stat/distuv. It holds no Bloom filter
// theory; see package analysis for that, and package variants for the
// filters.
package stats
