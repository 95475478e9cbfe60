package analysis

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestSolveCases(t *testing.T) {
	t.Parallel()
	// Hand-evaluated cases.
	cases := []struct {
		in, want Sizing
	}{
		// n = 1e7, p = 1e-4: m = 191,701,168 (TestSizingExample10M),
		// (m/n) ln 2 = 13.29, k = 13.
		{Sizing{N: 10_000_000, P: 1e-4}, Sizing{N: 10_000_000, M: 191_701_168, K: 13, P: 1e-4}},
		// n = 1000, p = 0.01: m = ceil(1000 x 4.60517 / 0.480453) =
		// ceil(9585.06) = 9586; (m/n) ln 2 = 6.64, k = 7.
		{Sizing{N: 1000, P: 0.01}, Sizing{N: 1000, M: 9586, K: 7, P: 0.01}},
		// n = 1000, m = 10000: (m/n) ln 2 = 6.93, k = 7, p = (1 - e^-0.7)^7.
		{Sizing{N: 1000, M: 10000}, Sizing{N: 1000, M: 10000, K: 7, P: math.Pow(1-math.Exp(-0.7), 7)}},
		// n = 1000, m = 10000, k = 3: p = (1 - e^-0.3)^3.
		{Sizing{N: 1000, M: 10000, K: 3}, Sizing{N: 1000, M: 10000, K: 3, P: math.Pow(1-math.Exp(-0.3), 3)}},
		// n = 1, p = 1/2: m = ceil(ln 2 / (ln 2)^2) = ceil(1.4427) = 2, k = 1.
		{Sizing{N: 1, P: 0.5}, Sizing{N: 1, M: 2, K: 1, P: 0.5}},
	}
	for _, c := range cases {
		got, err := Solve(c.in)
		if err != nil {
			t.Errorf("Solve(%+v): %v", c.in, err)
			continue
		}
		if got.N != c.want.N || got.M != c.want.M || got.K != c.want.K ||
			!scalar.EqualWithinAbsOrRel(got.P, c.want.P, 0, 1e-14) {
			t.Errorf("Solve(%+v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestSolveMinimalAndMaximal(t *testing.T) {
	t.Parallel()
	// The solved m is the fewest bits, and the solved n the most items,
	// that meet p; checked by evaluating the classic rate one step beyond.
	for _, n := range []uint64{1, 10, 1000, 123_457, 10_000_000} {
		for _, p := range []float64{0.5, 0.1, 0.01, 1e-4, 1e-9} {
			for _, k := range []int{1, 2, 5, 13} {
				s, err := Solve(Sizing{N: n, P: p, K: k})
				if err != nil && strings.Contains(err.Error(), "more than the maximum") {
					continue // k = 1 at p = 1e-9 for 1e7 items needs 1e16 bits
				}
				if err != nil {
					t.Fatalf("Solve(n=%d p=%g k=%d): %v", n, p, k, err)
				}
				if ClassicFPR(s.M, n, k) > p || (s.M > 1 && ClassicFPR(s.M-1, n, k) <= p) {
					t.Errorf("n=%d p=%g k=%d: m = %d is not the fewest bits", n, p, k, s.M)
				}
				// And back: m, p, k -> the largest n, at least the n we
				// started from.
				back, err := Solve(Sizing{M: s.M, P: p, K: k})
				if err != nil {
					t.Fatalf("Solve(m=%d p=%g k=%d): %v", s.M, p, k, err)
				}
				if back.N < n || ClassicFPR(s.M, back.N, k) > p || ClassicFPR(s.M, back.N+1, k) <= p {
					t.Errorf("m=%d p=%g k=%d: n = %d (started from %d) is not the largest", s.M, p, k, back.N, n)
				}
			}
			// m, p with k unknown: the largest n whose best k meets p.
			s, err := Solve(Sizing{N: n, P: p})
			if err != nil {
				t.Fatal(err)
			}
			back, err := Solve(Sizing{M: s.M, P: p})
			if err != nil {
				t.Fatalf("Solve(m=%d p=%g): %v", s.M, p, err)
			}
			best := func(n uint64) float64 { return ClassicFPR(s.M, n, OptimalHashes(s.M, n)) }
			if best(back.N) > p || best(back.N+1) <= p || back.K != OptimalHashes(s.M, back.N) {
				t.Errorf("m=%d p=%g: n = %d, k = %d is not the largest n with its best k", s.M, p, back.N, back.K)
			}
		}
	}
}

func TestSolveRoundTrip(t *testing.T) {
	t.Parallel()
	// n, p -> m, k -> p' = classic rate: p' is within the rounding of the
	// conventions (under 1% here, where m/n >= 4.8), and all four together
	// are accepted as consistent.
	for _, n := range []uint64{100, 4000, 10_000_000} {
		for _, p := range []float64{0.1, 0.01, 1e-4, 1e-7} {
			s, err := Solve(Sizing{N: n, P: p})
			if err != nil {
				t.Fatal(err)
			}
			r, err := Solve(Sizing{N: n, M: s.M, K: s.K})
			if err != nil {
				t.Fatal(err)
			}
			if !scalar.EqualWithinAbsOrRel(r.P, p, 0, 0.01) {
				t.Errorf("n=%d p=%g: m=%d k=%d give p = %g", n, p, s.M, s.K, r.P)
			}
			if _, err := Solve(s); err != nil {
				t.Errorf("Solve(%+v), its own output: %v", s, err)
			}
			if _, err := Solve(Sizing{N: n, M: s.M, P: p}); err != nil {
				t.Errorf("n, m, p from its own output: %v", err)
			}
		}
	}
	// Where the integer k costs more than 1% (p = 0.5: m/n = 1.44, k = 1),
	// the solver's own output is still consistent.
	s, _ := Solve(Sizing{N: 1000, P: 0.5})
	if _, err := Solve(s); err != nil {
		t.Errorf("Solve(%+v): %v", s, err)
	}
}

func TestSolveErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in      Sizing
		mention []string
	}{
		{Sizing{}, []string{"insufficient", "nothing"}},
		{Sizing{N: 10}, []string{"insufficient", "only n", "m or p"}},
		{Sizing{N: 10, K: 3}, []string{"only n and k", "m or p"}},
		{Sizing{M: 100}, []string{"only m", "n or p"}},
		{Sizing{M: 100, K: 3}, []string{"n or p"}},
		{Sizing{P: 0.1}, []string{"only p", "n or m"}},
		{Sizing{K: 3, P: 0.1}, []string{"n or m"}},
		{Sizing{K: 3}, []string{"only k", "two of n, m and p"}},
		{Sizing{N: 10, P: 1.5}, []string{"p = 1.5"}},
		{Sizing{N: 10, P: -0.1}, []string{"p = -0.1"}},
		{Sizing{N: 10, P: math.NaN()}, []string{"p = NaN"}},
		{Sizing{N: 10, P: 0.1, K: -1}, []string{"k = -1"}},
		{Sizing{N: 10, P: 0.1, K: MaxHashes + 1}, []string{"k = 4097"}},
		{Sizing{N: 10, M: MaxBits + 1}, []string{"exceeds the maximum"}},
		{Sizing{N: 1 << 50, P: 1e-300}, []string{"more than the maximum"}},
		{Sizing{N: 1, P: 1e-300, K: 1}, []string{"more than the maximum"}},
		{Sizing{M: 10, P: 1e-9}, []string{"cannot hold even one item"}},
		{Sizing{M: 10, P: 1e-9, K: 3}, []string{"cannot hold even one item"}},
		{Sizing{N: 1000, M: 20000, K: 7, P: 0.01}, []string{"contradictory", "p = 0.0001959"}},
		{Sizing{N: 1000, M: 20000, P: 0.01}, []string{"contradictory", "optimal k"}},
	}
	for _, c := range cases {
		got, err := Solve(c.in)
		if err == nil {
			t.Errorf("Solve(%+v) = %+v, want an error", c.in, got)
			continue
		}
		if !errors.Is(err, ErrInvalidParams) || !strings.HasPrefix(err.Error(), "analysis: ") {
			t.Errorf("Solve(%+v) error %q: want ErrInvalidParams and the prefix", c.in, err)
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("Solve(%+v) error %q does not mention %q", c.in, err, m)
			}
		}
		if got != c.in && !(math.IsNaN(c.in.P) && math.IsNaN(got.P)) {
			t.Errorf("Solve(%+v) changed its input on error: %+v", c.in, got)
		}
	}
}
