package catalog

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/stats"
	"github.com/bloomlab/bloomlab/variants"
)

// paramError returns the error of a parameter outside its domain, named
// as cmd/experiment spells its flag.
func paramError(param, format string, args ...any) error {
	return &experiments.ParamError{Param: param, Msg: fmt.Sprintf(format, args...)}
}

// Limits on parameters: large enough for any sweep one machine runs, small
// enough that a typing slip fails at once rather than allocate for hours.
// They are the harness's limits.
const (
	maxFilters = 1 << 20
	maxQueries = 1 << 34
	maxItems   = 1 << 40
)

// interruptEvery is how many operations a run function does between
// checks of its context.
const interruptEvery = 1 << 14

// splitmix64 is the SplitMix64 output function (Steele, Lea and Flood
// 2014) applied to x + golden gamma.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// statser is a filter that reports variants.Stats.
type statser interface {
	Stats() variants.Stats
}

// The theory the catalogue sets beside its measurements, in one place.

func classicFPR(m, n uint64, k int) float64     { return analysis.ClassicFPR(m, n, k) }
func exactFPR(m, n uint64, k int) float64       { return analysis.ExactFPR(m, n, k) }
func partitionedFPR(m, n uint64, k int) float64 { return analysis.PartitionedFPR(m, n, k) }
func blockedFPR(m, n uint64, k int, b uint64) float64 {
	return analysis.BlockedFPR(m, n, k, b)
}
func splitBlockFPR(m, n uint64) float64 { return analysis.SplitBlockFPR(m, n) }

func scalableFPR(s analysis.Scalable, items uint64) (float64, error) { return s.FPR(items) }

// pointLabel names a row's point of experiment exp in words for notes
// ([experiments.Plan.Label]), or returns "" for the harness's label.
func pointLabel(exp string, r experiments.Row) string {
	switch exp {
	case "bits":
		return fmt.Sprintf("%.0f bits per key", float64(r.Bits)/float64(r.Items))
	case "hashes":
		return fmt.Sprintf("k = %d", r.Hashes)
	case "small-m", "hashing":
		return fmt.Sprintf("m = %d", r.Bits)
	case "blocking":
		if r.Target > 0 {
			return fmt.Sprintf("n = %d sized for p = %g", r.Items, r.Target)
		}
		return fmt.Sprintf("%.2f bits per key", float64(r.Bits)/float64(r.Items))
	case "counting":
		switch r.Model {
		case "binomial":
			return fmt.Sprintf("value %d", r.Value)
		case "binomial tail":
			return fmt.Sprintf("width %d, items %d", r.Width, r.Items)
		}
		return fmt.Sprintf("removals %d", r.Removals)
	case "adversary":
		if r.Candidates > 0 {
			return fmt.Sprintf("T = %d", r.Candidates)
		}
	}
	return ""
}

// tInterval returns the mean of samples and its t confidence interval.
func tInterval(samples []float64, conf float64) (mean, lo, hi float64, err error) {
	mean, iv, err := stats.TInterval(samples, conf)
	return mean, iv.Lo, iv.Hi, err
}
