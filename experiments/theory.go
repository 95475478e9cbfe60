package experiments

import (
	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/stats"
)

// The theory this package sets beside its measurements, in one place.

func classicFPR(m, n uint64, k int) float64     { return analysis.ClassicFPR(m, n, k) }
func exactFPR(m, n uint64, k int) float64       { return analysis.ExactFPR(m, n, k) }
func partitionedFPR(m, n uint64, k int) float64 { return analysis.PartitionedFPR(m, n, k) }
func blockedFPR(m, n uint64, k int, b uint64) float64 {
	return analysis.BlockedFPR(m, n, k, b)
}
func splitBlockFPR(m, n uint64) float64 { return analysis.SplitBlockFPR(m, n) }

func scalableFPR(s analysis.Scalable, items uint64) (float64, error) { return s.FPR(items) }

// tInterval returns the mean of samples and its t confidence interval.
func tInterval(samples []float64, conf float64) (mean, lo, hi float64, err error) {
	mean, iv, err := stats.TInterval(samples, conf)
	return mean, iv.Lo, iv.Hi, err
}

// clopperPearson returns the exact binomial interval for x of n.
func clopperPearson(x, n uint64, conf float64) (lo, hi float64, err error) {
	iv, err := stats.ClopperPearson(x, n, conf)
	return iv.Lo, iv.Hi, err
}
