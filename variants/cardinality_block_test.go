package variants

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// blockCountCase builds a cache-local filter for the pooled count tests.
type blockCountCase struct {
	name  string
	build func(t *testing.T, seed uint64) BlockCounter
}

func blockCountCases(bits uint64) []blockCountCase {
	return []blockCountCase{
		{"blocked B=512 k=6", func(t *testing.T, seed uint64) BlockCounter {
			f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: bits, Hashes: 6}, BlockBits: 512, Hashing: Hashing{Seed: seed}})
			if err != nil {
				t.Fatal(err)
			}
			return f
		}},
		{"split-block", func(t *testing.T, seed uint64) BlockCounter {
			f, err := NewSplitBlock(Geometry{Bits: bits, Hashes: 8}, Hashing{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			return f
		}},
		{"multiblock 64x8", func(t *testing.T, seed uint64) BlockCounter {
			f, err := NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: bits, Hashes: 8}, WordBits: 64, Multi: true, Hashing: Hashing{Seed: seed}})
			if err != nil {
				t.Fatal(err)
			}
			return f
		}},
		{"block uint64 K=5", func(t *testing.T, seed uint64) BlockCounter {
			f, err := NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: bits, Hashes: 5}, WordBits: 64, Hashing: Hashing{Seed: seed}})
			if err != nil {
				t.Fatal(err)
			}
			return f
		}},
	}
}

// TestEstimateCountBlock checks the pooled estimate of every cache-local
// layout: each seeded filter's estimate within 4 predicted standard errors
// of the true count (less the predicted bias), and over 200 filters the
// mean and variance of the estimates against the prediction
// (checkMoments).
func TestEstimateCountBlock(t *testing.T) {
	const n, filters = 5000, 200
	for _, c := range blockCountCases(10 * n) {
		t.Run(c.name, func(t *testing.T) {
			var est []float64
			var sd, bias float64
			for seed := range uint64(filters) {
				f := c.build(t, seed+1)
				for i := range n {
					f.Add(fmt.Appendf(nil, "key-%d", i))
				}
				e, err := f.EstimateCount()
				if err != nil {
					t.Fatal(err)
				}
				// The prediction at the true count, for the moments.
				p, err := f.CountModel().EstimateError(n)
				if err != nil {
					t.Fatal(err)
				}
				sd, bias = p.StdDev, p.Bias
				if d := e.Items - n - p.Bias; math.Abs(d) > 4*e.Error.StdDev {
					t.Errorf("seed %d: estimate %.1f of %d keys, %.1f predicted standard errors off", seed+1, e.Items, n, d/e.Error.StdDev)
				}
				if st := f.Stats(); st.EstimatedItems != e.Items {
					t.Errorf("seed %d: EstimateCount %v, Stats %v", seed+1, e.Items, st.EstimatedItems)
				}
				est = append(est, e.Items)
			}
			checkMoments(t, c.name, est, n+bias, sd)
		})
	}
}

// TestEstimateBlockSetsStatistics checks the pooled union and
// intersection estimates: each pair's within 4 predicted standard errors,
// and their moments over 200 pairs.
func TestEstimateBlockSetsStatistics(t *testing.T) {
	const n, shared, pairs = 4000, 1500, 200
	for _, c := range blockCountCases(12 * n) {
		t.Run(c.name, func(t *testing.T) {
			var us, is []float64
			var pu, pi float64
			var su, si float64
			for seed := range uint64(pairs) {
				a, b := c.build(t, seed+1), c.build(t, seed+1)
				for i := range n {
					a.Add(fmt.Appendf(nil, "key-%d", i))
					b.Add(fmt.Appendf(nil, "key-%d", i+n-shared))
				}
				s, e, err := EstimateBlockSets(a, b)
				if err != nil {
					t.Fatal(err)
				}
				p, err := a.CountModel().SetError(n, n, shared)
				if err != nil {
					t.Fatal(err)
				}
				pu, pi = 2*n-shared+p.Union.Bias, shared+p.Intersection.Bias
				su, si = p.Union.StdDev, p.Intersection.StdDev
				if d := s.Union - pu; math.Abs(d) > 4*e.Union.StdDev {
					t.Errorf("seed %d: union %.1f, %.1f predicted standard errors off", seed+1, s.Union, d/e.Union.StdDev)
				}
				if d := s.Intersection - pi; math.Abs(d) > 4*e.Intersection.StdDev {
					t.Errorf("seed %d: intersection %.1f, %.1f predicted standard errors off", seed+1, s.Intersection, d/e.Intersection.StdDev)
				}
				us, is = append(us, s.Union), append(is, s.Intersection)
			}
			checkMoments(t, c.name+" union", us, pu, su)
			checkMoments(t, c.name+" intersection", is, pi, si)
		})
	}
}

// TestEstimateBlockSetsErrors checks the refusals: filters of other seeds,
// sizes, layouts or variants give ErrIncompatible, an overlapping stride
// ErrInvalidParams, a full filter ErrSaturated.
func TestEstimateBlockSetsErrors(t *testing.T) {
	cs := blockCountCases(1 << 14)
	for i, c := range cs {
		a := c.build(t, 1)
		for _, g := range []Filter{c.build(t, 2), blockCountCases(1 << 15)[i].build(t, 1), cs[(i+1)%len(cs)].build(t, 1)} {
			if _, _, err := EstimateBlockSets(a, g); !errors.Is(err, ErrIncompatible) {
				t.Errorf("%s with %s: err %v, want ErrIncompatible", c.name, variantName(g), err)
			} else {
				t.Logf("%s: %v", c.name, err)
			}
		}
	}
	m1, _ := NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: 1 << 14, Hashes: 8}, WordBits: 64, Multi: true, Hashing: Hashing{Seed: 1}})
	m2, _ := NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: 1 << 14, Hashes: 8}, WordBits: 64, Multi: true, StrideBits: 64, Hashing: Hashing{Seed: 1}})
	if _, _, err := EstimateBlockSets(m1, m2); !errors.Is(err, ErrIncompatible) {
		t.Errorf("natural and overlapping stride: err %v, want ErrIncompatible", err)
	}
	if _, _, err := EstimateBlockSets(m2, m2); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("overlapping stride: err %v, want ErrInvalidParams", err)
	}
	if _, err := m2.EstimateCount(); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("overlapping stride: EstimateCount err %v, want ErrInvalidParams", err)
	}
	s, _ := NewStandard(Geometry{Bits: 1 << 14, Hashes: 3}, Hashing{})
	if _, _, err := EstimateBlockSets(s, s); !errors.Is(err, ErrIncompatible) {
		t.Errorf("standard: err %v, want ErrIncompatible", err)
	}
	if _, _, err := EstimateBlockSets(nil, m1); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("nil: err %v, want ErrInvalidParams", err)
	}
	full := cs[0].build(t, 1)
	for i := range 1 << 17 {
		full.Add(fmt.Appendf(nil, "key-%d", i))
	}
	if e, err := full.EstimateCount(); !errors.Is(err, ErrSaturated) || !math.IsInf(e.Items, 1) {
		t.Errorf("full filter: %v, %v; want +Inf and ErrSaturated", e.Items, err)
	}
	if s, _, err := EstimateBlockSets(full, cs[0].build(t, 1)); !errors.Is(err, ErrSaturated) || !math.IsNaN(s.Intersection) {
		t.Errorf("full union: %+v, %v; want ErrSaturated", s, err)
	}
	if e, err := cs[1].build(t, 1).EstimateCount(); err != nil || e.Items != 0 || e.Error.StdDev != 0 {
		t.Errorf("empty filter: %+v, %v", e, err)
	}
}

// TestEstimateSetsMultiblock checks that EstimateSets gives a multiblock
// filter the pooled estimates of EstimateBlockSets.
func TestEstimateSetsMultiblock(t *testing.T) {
	c := blockCountCases(1 << 15)[2]
	a, b := c.build(t, 1), c.build(t, 1)
	for i := range 2000 {
		a.Add(fmt.Appendf(nil, "key-%d", i))
		b.Add(fmt.Appendf(nil, "key-%d", i+1000))
	}
	s, err := EstimateSets(a, b)
	p, _, err2 := EstimateBlockSets(a, b)
	if err != nil || err2 != nil || s != p {
		t.Errorf("EstimateSets %+v, %v; EstimateBlockSets %+v, %v", s, err, p, err2)
	}
	if _, err := EstimateSets(a, c.build(t, 2)); !errors.Is(err, ErrIncompatible) {
		t.Errorf("seeds 1 and 2: %v", err)
	}
}
