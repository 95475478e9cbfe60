package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// ErrInvalidParams is wrapped by every error that reports a parameter
// outside its domain.
var ErrInvalidParams = errors.New("invalid parameters")

func invalid(format string, args ...any) error {
	return fmt.Errorf("stats: %w: "+format, append([]any{ErrInvalidParams}, args...)...)
}

// Interval is a closed interval [Lo, Hi], here a confidence interval.
type Interval struct {
	Lo, Hi float64 // the lower and upper ends, Lo <= Hi
}

// Contains reports whether Lo <= x <= Hi.
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// checkConf reports an error unless 0 < conf < 1.
func checkConf(conf float64) error {
	if math.IsNaN(conf) || conf <= 0 || conf >= 1 {
		return invalid("confidence level %v, want 0 < conf < 1 (for example 0.95)", conf)
	}
	return nil
}

// checkCounts reports an error unless 0 <= x <= n and n >= 1.
func checkCounts(x, n uint64) error {
	if n == 0 {
		return invalid("trials n = 0, want n >= 1")
	}
	if x > n {
		return invalid("successes x = %d exceed trials n = %d", x, n)
	}
	return nil
}

// normalQuantile returns the two-sided normal quantile z for confidence
// conf: P(|Z| <= z) = conf.
func normalQuantile(conf float64) float64 {
	return distuv.UnitNormal.Quantile(1 - (1-conf)/2)
}

// Wilson returns the Wilson score interval (Wilson 1927) for a binomial
// proportion after x successes in n trials at confidence level conf (0.95
// for 95%):
//
//	(x + z^2/2)/(n + z^2) ± z/(n + z^2) sqrt(x(n-x)/n + z^2/4)
//
// with z the two-sided normal quantile. It is the interval for the rate of
// a single filter measured with n independent queries; for several filters
// use [TInterval] over their rates, because filters differ. Lo is exactly 0
// when x = 0 and Hi exactly 1 when x = n. It reports an error if n = 0,
// x > n or conf is outside (0, 1).
func Wilson(x, n uint64, conf float64) (Interval, error) {
	if err := checkCounts(x, n); err != nil {
		return Interval{}, err
	}
	if err := checkConf(conf); err != nil {
		return Interval{}, err
	}
	z := normalQuantile(conf)
	xf, nf, z2 := float64(x), float64(n), z*z
	center := (xf + z2/2) / (nf + z2)
	half := z / (nf + z2) * math.Sqrt(xf*(nf-xf)/nf+z2/4)
	iv := Interval{Lo: math.Max(0, center-half), Hi: math.Min(1, center+half)}
	if x == 0 {
		iv.Lo = 0
	}
	if x == n {
		iv.Hi = 1
	}
	return iv, nil
}

// ClopperPearson returns the exact (conservative) Clopper-Pearson interval
// for a binomial proportion after x successes in n trials at confidence
// level conf: Lo is the alpha/2 quantile of Beta(x, n-x+1) and Hi the
// 1-alpha/2 quantile of Beta(x+1, n-x), alpha = 1 - conf, computed with
// gonum's distuv.Beta. Lo = 0 when x = 0 and Hi = 1 when x = n; for x = 0,
// Hi = 1 - (alpha/2)^(1/n). It reports an error if n = 0, x > n or conf is
// outside (0, 1).
func ClopperPearson(x, n uint64, conf float64) (Interval, error) {
	if err := checkCounts(x, n); err != nil {
		return Interval{}, err
	}
	if err := checkConf(conf); err != nil {
		return Interval{}, err
	}
	alpha := 1 - conf
	xf, nf := float64(x), float64(n)
	iv := Interval{Lo: 0, Hi: 1}
	if x > 0 {
		iv.Lo = distuv.Beta{Alpha: xf, Beta: nf - xf + 1}.Quantile(alpha / 2)
	}
	if x < n {
		iv.Hi = distuv.Beta{Alpha: xf + 1, Beta: nf - xf}.Quantile(1 - alpha/2)
	}
	return iv, nil
}

// TInterval returns the mean of samples and the Student t confidence
// interval for it at level conf: mean ± t_{conf, n-1} s/sqrt(n), with s the
// sample standard deviation (n-1 denominator) and t from gonum's
// distuv.StudentsT. This is the interval bloomlab's experiments report over
// per-filter false-positive rates: it reflects both the query noise and the
// differences between independently seeded filters. If all samples are
// equal the interval is the single point [mean, mean]. It reports an error
// if there are fewer than 2 samples, a sample is NaN or infinite, or conf
// is outside (0, 1).
func TInterval(samples []float64, conf float64) (mean float64, iv Interval, err error) {
	if len(samples) < 2 {
		return 0, Interval{}, invalid("t interval needs at least 2 samples, have %d", len(samples))
	}
	if err := checkConf(conf); err != nil {
		return 0, Interval{}, err
	}
	equal := true
	for i, v := range samples {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, Interval{}, invalid("sample %d is %v", i, v)
		}
		equal = equal && v == samples[0]
	}
	if equal {
		return samples[0], Interval{Lo: samples[0], Hi: samples[0]}, nil
	}
	mean, sd := stat.MeanStdDev(samples, nil)
	nf := float64(len(samples))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nf - 1}.Quantile(1 - (1-conf)/2)
	half := t * sd / math.Sqrt(nf)
	return mean, Interval{Lo: mean - half, Hi: mean + half}, nil
}

// StandardError returns the standard error of the mean of samples,
// s/sqrt(n) with s the sample standard deviation (n-1 denominator). It
// returns NaN for fewer than 2 samples.
func StandardError(samples []float64) float64 {
	if len(samples) < 2 {
		return math.NaN()
	}
	return stat.StdDev(samples, nil) / math.Sqrt(float64(len(samples)))
}

// SamplePlan is the size of a measurement of a false-positive rate: Filters
// independently seeded filters, each queried with Queries absent keys.
type SamplePlan struct {
	Filters int
	Queries uint64
}

// PlanSamples returns the number of queries per filter for which the
// confidence interval at level conf of a rate near p, measured over filters
// filters, has half-width relHalfWidth p. It uses the binomial variance of
// the pooled query count, p(1-p)/(F Q), at the normal quantile z:
//
//	Q = ceil(z^2 (1 - p) / (relHalfWidth^2 p F)).
//
// This is the query noise only. Filters built from different seeds have
// different actual rates (their fills differ), and that between-filter
// variance adds Var(rate)/F to the variance of the mean whatever Q is; it is
// ignored here, as is the difference between the normal quantile and the
// t quantile with F-1 degrees of freedom that [TInterval] uses. The plan is
// therefore a lower bound, accurate when the filters are large (their rates
// then differ little); when it is not, add filters rather than queries.
//
// It reports an error if p or conf is outside (0, 1), relHalfWidth is not
// positive and finite, filters < 1, or Q would exceed 2^63.
func PlanSamples(p, relHalfWidth, conf float64, filters int) (SamplePlan, error) {
	if math.IsNaN(p) || p <= 0 || p >= 1 {
		return SamplePlan{}, invalid("p = %v, want 0 < p < 1", p)
	}
	if math.IsNaN(relHalfWidth) || math.IsInf(relHalfWidth, 0) || relHalfWidth <= 0 {
		return SamplePlan{}, invalid("relative half-width %v, want a finite value > 0", relHalfWidth)
	}
	if err := checkConf(conf); err != nil {
		return SamplePlan{}, err
	}
	if filters < 1 {
		return SamplePlan{}, invalid("filters = %d, want at least 1", filters)
	}
	z := normalQuantile(conf)
	q := math.Ceil(z * z * (1 - p) / (relHalfWidth * relHalfWidth * p * float64(filters)))
	if q > 1<<63 {
		return SamplePlan{}, invalid("p = %g at relative half-width %g needs %.3g queries per filter, too many", p, relHalfWidth, q)
	}
	return SamplePlan{Filters: filters, Queries: uint64(math.Max(q, 1))}, nil
}
