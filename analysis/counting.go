package analysis

import "math"

// A counting Bloom filter replaces each bit by a small counter that every
// item hashing to it increments. The functions here model the counters the
// usual way (Fan, Cao, Almeida and Broder, "Summary cache", SIGCOMM 1998 and
// IEEE/ACM ToN 8(3), 2000): the kn increments of n items with k hashes fall
// on uniformly random counters independently, so one counter's value is
// Binomial(kn, 1/m), close to Poisson(kn/m) when m is large.

// MaxCounterValue is the largest max that [CounterDistribution] and
// [PoissonCounterDistribution] accept; it bounds the slice they allocate.
const MaxCounterValue = 1 << 24

// CounterDistribution returns P[counter = j] for j = 0..max-1 and, as its
// last entry (index max), P[counter >= max], for one counter of a counting
// filter of m counters after n items with k hashes: the Binomial(kn, 1/m)
// distribution with its tail folded into the last entry. The entries sum
// to 1. The probabilities are computed in log space with the recurrence
// P[j+1]/P[j] = (kn-j)/(j+1) * (1/m)/(1-1/m), so they neither underflow
// early nor lose accuracy for huge kn, and stay accurate far into the tail;
// the tail entry is summed directly rather than taken as one minus the rest
// when it is small. The relative error of an entry is about 1e-16 times
// the larger of j and kn/m (1e-12 at a load of 5,000).
//
// It returns nil if m = 0, k < 1, max < 0 or max > [MaxCounterValue].
func CounterDistribution(m, n uint64, k int, max int) []float64 {
	if m == 0 || k < 1 || max < 0 || max > MaxCounterValue {
		return nil
	}
	return binomialDist(float64(n)*float64(k), 1/float64(m)).table(max)
}

// PoissonCounterDistribution returns the Poisson(lambda) limit of
// [CounterDistribution], with lambda = kn/m: P[counter = j] for j < max and
// P[counter >= max] as the last entry. It returns nil if lambda is negative,
// infinite or NaN, or max < 0 or max > [MaxCounterValue].
func PoissonCounterDistribution(lambda float64, max int) []float64 {
	if math.IsNaN(lambda) || math.IsInf(lambda, 0) || lambda < 0 || max < 0 || max > MaxCounterValue {
		return nil
	}
	return poissonDist(lambda).table(max)
}

// SaturationProbability returns the probability that at least one of the m
// counters of width bits reaches its maximum value 2^width - 1 after n items
// with k hashes, which for bloomlab's saturating (sticky) counters is the
// probability that any counter saturates. It treats the m counters as
// independent Binomial(kn, 1/m) variables and returns
// 1 - (1 - P[c >= 2^width - 1])^m, computed as -expm1(m log1p(-P)) so that
// tiny probabilities keep their accuracy. The counters are in fact
// multinomial and negatively associated, for which this product form is a
// lower bound and the union bound m P[c >= 2^width - 1] an upper bound; when
// the probability is small the two agree to first order.
//
// It returns NaN if m = 0, k < 1 or width is outside 1..64, and 0 if n = 0.
func SaturationProbability(m, n uint64, k int, width int) float64 {
	if m == 0 || k < 1 || width < 1 || width > 64 {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	top := math.Ldexp(1, width) - 1
	tail := binomialDist(float64(n)*float64(k), 1/float64(m)).tail(top)
	if tail >= 1 {
		return 1
	}
	return -math.Expm1(float64(m) * math.Log1p(-tail))
}

// FanOverflowBound returns the union bound of Fan et al. (Summary Cache,
// section V.C) on the probability that some counter of width bits
// overflows, that is reaches j = 2^width, after n items with k hashes in m
// counters:
//
//	P(max counter >= j) <= m C(kn, j) m^(-j) <= m (e k n / (j m))^j.
//
// At the optimal k = (m/n) ln 2 this is m (e ln 2 / j)^j, which for width 4
// (j = 16) is 1.37e-15 m, Fan et al.'s argument that 4-bit counters
// suffice. Note the different event from [SaturationProbability]: a
// saturating counter is stuck at 2^width - 1, one below the value counted
// here. The bound is returned as computed, so it can exceed 1 (and is then
// vacuous) or overflow to +Inf.
//
// It returns NaN if m = 0, k < 1 or width is outside 1..64, and 0 if n = 0.
func FanOverflowBound(m, n uint64, k int, width int) float64 {
	if m == 0 || k < 1 || width < 1 || width > 64 {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	j := math.Ldexp(1, width)
	mf := float64(m)
	l := math.Log(mf) + j*(1+math.Log(float64(n))+math.Log(float64(k))-math.Log(j)-math.Log(mf))
	return math.Exp(l)
}

// discrete is a distribution on the non-negative integers described by its
// mean, its log probability at any point and the ratio P[j+1]/P[j] in log
// form, or a point mass.
type discrete struct {
	point   bool // all mass at mean
	mean    float64
	support float64                 // largest value with positive probability (+Inf if none)
	logPMF  func(j float64) float64 // ln P[j], for 0 <= j <= support
	logStep func(j float64) float64 // ln(P[j+1]/P[j]), for 0 <= j < support
}

func binomialDist(trials, q float64) discrete {
	if trials == 0 || q == 0 {
		return pointMass(0)
	}
	if q >= 1 {
		return pointMass(trials)
	}
	lq, l1q := math.Log(q), math.Log1p(-q)
	return discrete{
		mean:    trials * q,
		support: trials,
		logPMF: func(j float64) float64 {
			return logChoose(trials, j) + j*lq + (trials-j)*l1q
		},
		logStep: func(j float64) float64 {
			return math.Log((trials-j)/(j+1)) + lq - l1q
		},
	}
}

func poissonDist(lambda float64) discrete {
	if lambda == 0 {
		return pointMass(0)
	}
	ll := math.Log(lambda)
	return discrete{
		mean:    lambda,
		support: math.Inf(1),
		logPMF: func(j float64) float64 {
			lg, _ := math.Lgamma(j + 1)
			return -lambda + j*ll - lg
		},
		logStep: func(j float64) float64 { return ll - math.Log(j+1) },
	}
}

func pointMass(at float64) discrete {
	return discrete{point: true, mean: at, support: at}
}

// logChoose returns ln C(n, j) for 0 <= j <= n. For min(j, n-j) below 2^16
// it sums ln((n-i)/(i+1)), which stays accurate for huge n where the
// difference of log-gamma values would lose digits.
func logChoose(n, j float64) float64 {
	if j > n-j {
		j = n - j
	}
	if j < 1<<16 {
		var s float64
		for i := 0.0; i < j; i++ {
			s += math.Log((n - i) / (i + 1))
		}
		return s
	}
	a, _ := math.Lgamma(n + 1)
	b, _ := math.Lgamma(j + 1)
	c, _ := math.Lgamma(n - j + 1)
	return a - b - c
}

// table returns P[j] for j < top and P[>= top] at index top.
func (d discrete) table(top int) []float64 {
	out := make([]float64, top+1)
	if d.point {
		if d.mean < float64(top) {
			out[int(d.mean)] = 1
		} else {
			out[top] = 1
		}
		return out
	}
	if top == 0 {
		out[0] = 1
		return out
	}
	lp := d.logPMF(0)
	for j := 0; j < top; j++ {
		if float64(j) > d.support {
			break
		}
		out[j] = math.Exp(lp)
		if float64(j) < d.support {
			lp += d.logStep(float64(j))
		}
	}
	out[top] = d.tail(float64(top))
	return out
}

// tail returns P[X >= top] for an integer top. Above the mean it sums the
// decreasing terms from top upward; at or below the mean, where the tail is
// at least about 1/2, it returns one minus the lower sum, summed downward
// from top-1 where its terms are largest.
func (d discrete) tail(top float64) float64 {
	if top <= 0 {
		return 1
	}
	if top > d.support {
		return 0
	}
	if d.point {
		return 1 // top <= support = the point
	}
	const eps = 1e-18
	// The sums stop when the terms are negligible; the cap only guarantees
	// termination on absurd inputs (a j so large that j+1 == j in float64).
	const maxTerms = 1 << 24
	if top > d.mean {
		l0 := d.logPMF(top)
		if math.IsInf(l0, -1) {
			return 0
		}
		// Sum exp(lp - l0) for j >= top; terms decrease geometrically once
		// past the mean.
		var s, rel float64
		for j, i := top, 0; j <= d.support && i < maxTerms; j, i = j+1, i+1 {
			term := math.Exp(rel)
			s += term
			if term < eps*s || j == d.support {
				break
			}
			rel += d.logStep(j)
		}
		return math.Exp(l0) * s
	}
	j := top - 1
	l0 := d.logPMF(j)
	var s, rel float64
	for i := 0; j >= 0 && i < maxTerms; j, i = j-1, i+1 {
		term := math.Exp(rel)
		s += term
		if term < eps*s || j == 0 {
			break
		}
		// ln(P[j-1]/P[j]) = -ln(P[j]/P[j-1])
		rel -= d.logStep(j - 1)
	}
	lower := math.Exp(l0) * s
	return math.Max(0, 1-lower)
}
