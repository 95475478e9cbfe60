package stats

import "math"

// Moments summarises a sample of independent measurements, such as the
// count estimates of independently seeded filters: its mean and variance
// and the standard errors of both, so that each can be set beside a
// prediction.
type Moments struct {
	// N is the number of samples.
	N int
	// Mean is the sample mean.
	Mean float64
	// Variance is the sample variance, with the n-1 denominator.
	Variance float64
	// MeanSE is the standard error of Mean, sqrt(Variance/N).
	MeanSE float64
	// VarianceSE is the standard error of Variance,
	// sqrt((m4 - m2^2)/N) with m2 and m4 the second and fourth central
	// moments of the sample: the large-sample form that holds for any
	// distribution with a fourth moment, not only the normal one (for
	// which it is Variance sqrt(2/N)).
	VarianceSE float64
}

// SampleMoments returns the [Moments] of samples. It reports an error if
// there are fewer than 2 samples or a sample is NaN or infinite.
func SampleMoments(samples []float64) (Moments, error) {
	if len(samples) < 2 {
		return Moments{}, invalid("moments need at least 2 samples, have %d", len(samples))
	}
	var sum float64
	for i, x := range samples {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Moments{}, invalid("sample %d is %v", i, x)
		}
		sum += x
	}
	n := float64(len(samples))
	mean := sum / n
	var m2, m4 float64
	for _, x := range samples {
		d := (x - mean) * (x - mean)
		m2 += d
		m4 += d * d
	}
	v := m2 / (n - 1)
	m2, m4 = m2/n, m4/n
	return Moments{
		N:          len(samples),
		Mean:       mean,
		Variance:   v,
		MeanSE:     math.Sqrt(v / n),
		VarianceSE: math.Sqrt(math.Max(m4-m2*m2, 0) / n),
	}, nil
}

// StdDev returns the sample standard deviation, sqrt(Variance).
func (m Moments) StdDev() float64 { return math.Sqrt(m.Variance) }

// StdDevInterval returns an approximate confidence interval at level conf
// for the standard deviation: the square roots of Variance ± z VarianceSE,
// z the two-sided normal quantile, the lower end clamped at 0. It is the
// large-sample interval that VarianceSE supports, for samples of any
// distribution; with few samples from a normal distribution the
// chi-square interval is more accurate. It reports an error if conf is
// outside (0, 1).
func (m Moments) StdDevInterval(conf float64) (Interval, error) {
	if err := checkConf(conf); err != nil {
		return Interval{}, err
	}
	half := normalQuantile(conf) * m.VarianceSE
	return Interval{Lo: math.Sqrt(math.Max(m.Variance-half, 0)), Hi: math.Sqrt(m.Variance + half)}, nil
}
