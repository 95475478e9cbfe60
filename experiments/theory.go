package experiments

import (
	"github.com/bloomlab/bloomlab/stats"
)

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
