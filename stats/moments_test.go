package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/stat"
)

func TestSampleMoments(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(14, 4))
	x := make([]float64, 100000)
	for i := range x {
		x[i] = 3 + 2*r.NormFloat64()
	}
	m, err := SampleMoments(x)
	if err != nil {
		t.Fatal(err)
	}
	mean, v := stat.MeanVariance(x, nil) // gonum: n-1 denominator
	if m.N != len(x) || !scalar.EqualWithinRel(m.Mean, mean, 1e-12) || !scalar.EqualWithinRel(m.Variance, v, 1e-12) ||
		!scalar.EqualWithinRel(m.MeanSE, math.Sqrt(v/1e5), 1e-12) || !scalar.EqualWithinRel(m.StdDev(), math.Sqrt(v), 1e-12) {
		t.Errorf("%+v, want mean %v, variance %v", m, mean, v)
	}
	// For a normal sample the standard error of the variance is
	// sigma^2 sqrt(2/n) = 4 sqrt(2e-5); the fourth moment estimates it.
	if !scalar.EqualWithinRel(m.VarianceSE, 4*math.Sqrt(2e-5), 0.02) {
		t.Errorf("VarianceSE %v, want about %v", m.VarianceSE, 4*math.Sqrt(2e-5))
	}
	iv, err := m.StdDevInterval(0.95)
	if err != nil || !iv.Contains(2) || iv.Hi-iv.Lo > 0.05 {
		t.Errorf("StdDevInterval %+v, %v; want a narrow interval around 2", iv, err)
	}
	if _, err := m.StdDevInterval(1); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("conf 1: %v", err)
	}
	for _, bad := range [][]float64{nil, {1}, {1, math.NaN()}, {math.Inf(1), 2}} {
		if _, err := SampleMoments(bad); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("SampleMoments(%v): %v", bad, err)
		}
	}
	if m, err := SampleMoments([]float64{5, 5, 5}); err != nil || m.Variance != 0 || m.VarianceSE != 0 {
		t.Errorf("constant sample: %+v, %v", m, err)
	}
}
