package stats

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// z975 is the 97.5% quantile of the standard normal distribution, the z of
// a two-sided 95% interval (published tables: 1.959963984540054).
const z975 = 1.959963984540054

func TestWilson(t *testing.T) {
	t.Parallel()
	// x = 0, hand-derived from the formula: center (z^2/2)/(n+z^2) and
	// half-width z/(n+z^2) * z/2, so Lo = 0 and Hi = z^2/(n+z^2).
	for _, n := range []uint64{1, 10, 1000, 1e9} {
		iv, err := Wilson(0, n, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		want := z975 * z975 / (float64(n) + z975*z975)
		if iv.Lo != 0 || !scalar.EqualWithinAbsOrRel(iv.Hi, want, 0, 1e-12) {
			t.Errorf("Wilson(0, %d) = %+v, want [0, %g]", n, iv, want)
		}
		// x = n mirrors x = 0.
		iv2, _ := Wilson(n, n, 0.95)
		if iv2.Hi != 1 || !scalar.EqualWithinAbsOrRel(iv2.Lo, 1-want, 0, 1e-12) {
			t.Errorf("Wilson(n, n) = %+v, want [%g, 1]", iv2, 1-want)
		}
	}
	// Symmetry: Wilson(x, n) = 1 - Wilson(n-x, n) reflected; at x = n/2 the
	// interval is centred on 1/2. Hand-derived: x = 50, n = 100 gives
	// center 1/2, half-width z/(100+z^2) sqrt(25 + z^2/4).
	iv, _ := Wilson(50, 100, 0.95)
	half := z975 / (100 + z975*z975) * math.Sqrt(25+z975*z975/4)
	if !scalar.EqualWithinAbsOrRel(iv.Lo, 0.5-half, 0, 1e-12) || !scalar.EqualWithinAbsOrRel(iv.Hi, 0.5+half, 0, 1e-12) {
		t.Errorf("Wilson(50, 100) = %+v, want 0.5 ± %g", iv, half)
	}
	a, _ := Wilson(13, 200, 0.9)
	b, _ := Wilson(187, 200, 0.9)
	if !scalar.EqualWithinAbsOrRel(a.Lo, 1-b.Hi, 0, 1e-12) || !scalar.EqualWithinAbsOrRel(a.Hi, 1-b.Lo, 0, 1e-12) {
		t.Errorf("Wilson(13, 200) = %+v and Wilson(187, 200) = %+v are not mirror images", a, b)
	}
	if !a.Contains(13.0/200) || a.Contains(0.2) {
		t.Errorf("Contains wrong for %+v", a)
	}
}

func TestClopperPearson(t *testing.T) {
	t.Parallel()
	// x = 0: Hi = 1 - (alpha/2)^(1/n), Lo = 0 (hand-derived: P(X = 0) =
	// (1-p)^n = alpha/2). x = n mirrors it.
	for _, n := range []uint64{1, 5, 100, 1_000_000} {
		iv, err := ClopperPearson(0, n, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		want := 1 - math.Pow(0.025, 1/float64(n))
		if iv.Lo != 0 || !scalar.EqualWithinAbsOrRel(iv.Hi, want, 0, 1e-9) {
			t.Errorf("ClopperPearson(0, %d) = %+v, want [0, %.12g]", n, iv, want)
		}
		iv, _ = ClopperPearson(n, n, 0.95)
		if iv.Hi != 1 || !scalar.EqualWithinAbsOrRel(iv.Lo, math.Pow(0.025, 1/float64(n)), 0, 1e-9) {
			t.Errorf("ClopperPearson(%d, %d) = %+v", n, n, iv)
		}
	}
	// x = 1, n = 10: Lo solves P(X >= 1) = 1 - (1-p)^10 = alpha/2, so
	// Lo = 1 - (1 - alpha/2)^(1/10); Hi solves P(X <= 1) =
	// (1-p)^10 + 10 p (1-p)^9 = alpha/2, found here by bisection.
	iv, _ := ClopperPearson(1, 10, 0.95)
	lo := 1 - math.Pow(0.975, 0.1)
	cdf1 := func(p float64) float64 { return math.Pow(1-p, 10) + 10*p*math.Pow(1-p, 9) }
	hi := bisect(func(p float64) float64 { return cdf1(p) - 0.025 }, 0, 1)
	if !scalar.EqualWithinAbsOrRel(iv.Lo, lo, 0, 1e-9) || !scalar.EqualWithinAbsOrRel(iv.Hi, hi, 0, 1e-9) {
		t.Errorf("ClopperPearson(1, 10) = %+v, want [%.12g, %.12g]", iv, lo, hi)
	}
	// Large n, small x (the regime of false-positive counts): x = 3 of
	// n = 1e8. Bisection on the exact binomial CDF, summed in log space.
	n := 1e8
	cdf := func(p float64, upTo int) float64 {
		var s float64
		for j := 0; j <= upTo; j++ {
			lc := logChooseRef(n, float64(j))
			s += math.Exp(lc + float64(j)*math.Log(p) + (n-float64(j))*math.Log1p(-p))
		}
		return s
	}
	iv, _ = ClopperPearson(3, 1e8, 0.95)
	hi = bisect(func(p float64) float64 { return cdf(p, 3) - 0.025 }, 0, 1e-6)
	lo = bisect(func(p float64) float64 { return 0.025 - (1 - cdf(p, 2)) }, 0, 1e-6)
	if !scalar.EqualWithinAbsOrRel(iv.Hi, hi, 0, 1e-6) || !scalar.EqualWithinAbsOrRel(iv.Lo, lo, 0, 1e-6) {
		t.Errorf("ClopperPearson(3, 1e8) = %+v, want [%.8g, %.8g]", iv, lo, hi)
	}
	// Symmetry and containment of Wilson (Clopper-Pearson is conservative).
	a, _ := ClopperPearson(13, 200, 0.9)
	b, _ := ClopperPearson(187, 200, 0.9)
	if !scalar.EqualWithinAbsOrRel(a.Lo, 1-b.Hi, 0, 1e-9) || !scalar.EqualWithinAbsOrRel(a.Hi, 1-b.Lo, 0, 1e-9) {
		t.Errorf("not mirror images: %+v %+v", a, b)
	}
	w, _ := Wilson(13, 200, 0.9)
	if !(a.Lo < w.Lo && w.Hi < a.Hi) {
		t.Errorf("Clopper-Pearson %+v does not contain Wilson %+v", a, w)
	}
}

// logChooseRef is ln C(n, j) by a direct product, for the test's own use.
func logChooseRef(n, j float64) float64 {
	var s float64
	for i := 0.0; i < j; i++ {
		s += math.Log(n-i) - math.Log(i+1)
	}
	return s
}

// bisect finds a root of f in [a, b], where f changes sign.
func bisect(f func(float64) float64, a, b float64) float64 {
	fa := f(a)
	for range 200 {
		m := (a + b) / 2
		if fm := f(m); (fm < 0) == (fa < 0) {
			a, fa = m, fm
		} else {
			b = m
		}
	}
	return (a + b) / 2
}

func TestIntervalErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		x, n uint64
		conf float64
	}{{0, 0, 0.95}, {5, 4, 0.95}, {1, 10, 0}, {1, 10, 1}, {1, 10, math.NaN()}, {1, 10, 95}} {
		if _, err := Wilson(c.x, c.n, c.conf); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("Wilson(%d, %d, %v) error = %v", c.x, c.n, c.conf, err)
		}
		if _, err := ClopperPearson(c.x, c.n, c.conf); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("ClopperPearson(%d, %d, %v) error = %v", c.x, c.n, c.conf, err)
		}
	}
}

func TestTInterval(t *testing.T) {
	t.Parallel()
	// Two samples {1, 3}: mean 2, s = sqrt(2), standard error 1; the t
	// distribution with 1 degree of freedom is Cauchy, so t_0.975 =
	// tan(0.475 pi) (hand-derived closed form).
	mean, iv, err := TInterval([]float64{1, 3}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	tq := math.Tan(0.475 * math.Pi)
	if mean != 2 || !scalar.EqualWithinAbsOrRel(iv.Lo, 2-tq, 0, 1e-9) || !scalar.EqualWithinAbsOrRel(iv.Hi, 2+tq, 0, 1e-9) {
		t.Errorf("TInterval({1,3}) = %v, %+v; want 2 ± %g", mean, iv, tq)
	}
	// Three samples {1, 2, 3}: s = 1, standard error 1/sqrt(3); with 2
	// degrees of freedom t_p = (2p-1)/sqrt(2p(1-p)) (closed form), so
	// t_0.975 = 0.95/sqrt(0.04875) = 4.302652729749464.
	mean, iv, _ = TInterval([]float64{3, 1, 2}, 0.95)
	half := 0.95 / math.Sqrt(0.04875) / math.Sqrt(3)
	if mean != 2 || !scalar.EqualWithinAbsOrRel(iv.Hi-iv.Lo, 2*half, 0, 1e-9) {
		t.Errorf("TInterval({3,1,2}) = %v, %+v; want 2 ± %g", mean, iv, half)
	}
	// Zero variance: a degenerate interval at the mean.
	mean, iv, err = TInterval([]float64{0.1, 0.1, 0.1}, 0.95)
	if err != nil || mean != 0.1 || iv.Lo != 0.1 || iv.Hi != 0.1 {
		t.Errorf("constant samples: %v, %+v, %v", mean, iv, err)
	}
	for _, bad := range [][]float64{nil, {1}, {1, math.NaN()}, {1, math.Inf(1)}} {
		if _, _, err := TInterval(bad, 0.95); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("TInterval(%v) error = %v", bad, err)
		}
	}
	if _, _, err := TInterval([]float64{1, 2}, 1); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("conf 1 accepted: %v", err)
	}
}

func TestStandardError(t *testing.T) {
	t.Parallel()
	// {1,2,3,4,5}: s^2 = 10/4 = 2.5, standard error sqrt(2.5/5) =
	// sqrt(0.5) (hand-evaluated).
	if got := StandardError([]float64{1, 2, 3, 4, 5}); !scalar.EqualWithinAbsOrRel(got, math.Sqrt(0.5), 0, 1e-15) {
		t.Errorf("StandardError = %v, want sqrt(0.5)", got)
	}
	if !math.IsNaN(StandardError([]float64{1})) {
		t.Error("one sample: want NaN")
	}
}

func TestPlanSamples(t *testing.T) {
	t.Parallel()
	// Hand-evaluated: p = 0.01, relative half-width 0.1, 95%, 10 filters:
	// Q = ceil(z^2 x 0.99 / (0.01 x 0.01 x 10)) = ceil(3803.04) = 3804.
	plan, err := PlanSamples(0.01, 0.1, 0.95, 10)
	if err != nil || plan.Filters != 10 || plan.Queries != 3804 {
		t.Errorf("PlanSamples = %+v, %v; want {10 3804}", plan, err)
	}
	// Consistency with Wilson: with that many pooled queries and the rate
	// observed exactly, the Wilson interval's half-width is close to
	// 0.1 p (Wilson's centre shift makes it slightly different).
	total := uint64(plan.Filters) * plan.Queries
	iv, _ := Wilson(uint64(math.Round(0.01*float64(total))), total, 0.95)
	if hw := (iv.Hi - iv.Lo) / 2; !scalar.EqualWithinAbsOrRel(hw, 0.001, 0, 0.02) {
		t.Errorf("Wilson half-width with the planned queries = %g, want about 0.001", hw)
	}
	// Huge requests are refused, and at least one query is planned.
	if _, err := PlanSamples(1e-300, 1e-10, 0.95, 1); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("huge plan: %v", err)
	}
	if plan, _ := PlanSamples(0.9, 10, 0.5, 1000); plan.Queries != 1 {
		t.Errorf("tiny plan = %+v", plan)
	}
	for _, c := range []struct {
		p, rel, conf float64
		f            int
	}{{0, 0.1, 0.95, 1}, {1, 0.1, 0.95, 1}, {0.1, 0, 0.95, 1}, {0.1, math.Inf(1), 0.95, 1}, {0.1, 0.1, 1, 1}, {0.1, 0.1, 0.95, 0}} {
		if _, err := PlanSamples(c.p, c.rel, c.conf, c.f); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("PlanSamples(%v, %v, %v, %d) error = %v", c.p, c.rel, c.conf, c.f, err)
		}
	}
}
