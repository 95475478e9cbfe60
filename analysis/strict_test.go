package analysis_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// TestSolveFewerBitsThanItems checks that Solve refuses a geometry with
// fewer bits than items, given or computed, as cmd/bloomcalc does, and
// still answers one bit per item.
func TestSolveFewerBitsThanItems(t *testing.T) {
	for _, in := range []analysis.Sizing{
		{N: 1e6, M: 100},
		{N: 1e6, M: 100, K: 3},
		{N: 1e6, M: 100, P: 0.5},
		{N: 1e6, P: 0.7},
		{M: 100, P: 0.8},
	} {
		got, err := analysis.Solve(in)
		if !errors.Is(err, analysis.ErrInvalidParams) {
			t.Errorf("Solve(%+v) = %+v, %v; want ErrInvalidParams", in, got, err)
			continue
		}
		if !strings.Contains(err.Error(), "at least one bit per item") {
			t.Errorf("Solve(%+v): %v; want the reason", in, err)
		}
		if got != in {
			t.Errorf("Solve(%+v) returned %+v with its error, want the input", in, got)
		}
	}
	if s, err := analysis.Solve(analysis.Sizing{N: 1000, M: 1000}); err != nil || s.K != 1 {
		t.Errorf("Solve(n = m = 1000) = %+v, %v; want k = 1 and no error", s, err)
	}
}

// TestOptimalHashesNoBits checks that OptimalHashes returns 0, not a
// panic, for m = 0, and that the 0 gives NaN and an error downstream.
func TestOptimalHashesNoBits(t *testing.T) {
	for _, n := range []uint64{0, 1, 1e6} {
		if k := analysis.OptimalHashes(0, n); k != 0 {
			t.Errorf("OptimalHashes(0, %d) = %d, want 0", n, k)
		}
	}
	if k := analysis.OptimalHashes(1000, 0); k != 1 {
		t.Errorf("OptimalHashes(1000, 0) = %d, want 1", k)
	}
	if f := analysis.ClassicFPR(1000, 10, analysis.OptimalHashes(0, 10)); !math.IsNaN(f) {
		t.Errorf("ClassicFPR with k = OptimalHashes(0, 10) = %v, want NaN", f)
	}
	if _, err := (analysis.Standard{Bits: 0, Hashes: analysis.OptimalHashes(0, 10)}).FPR(10); !errors.Is(err, analysis.ErrInvalidParams) {
		t.Errorf("Standard{0, 0}.FPR: %v, want ErrInvalidParams", err)
	}
}

// TestRateInvalidInput checks the documented convention for the free rate
// functions (NaN) against the models (an error) on the inputs of the
// new-user review.
func TestRateInvalidInput(t *testing.T) {
	for name, f := range map[string]float64{
		"ClassicFPR(0, 10, 3)":         analysis.ClassicFPR(0, 10, 3),
		"BloomFPR(0, 10, 3)":           analysis.BloomFPR(0, 10, 3),
		"ExactFPR(100, 10, 0)":         analysis.ExactFPR(100, 10, 0),
		"ExactFPR(0, 10, 3)":           analysis.ExactFPR(0, 10, 3),
		"ExpectedFill(0, 10, 3)":       analysis.ExpectedFill(0, 10, 3),
		"FPRFromFill(0.5, 0)":          analysis.FPRFromFill(0.5, 0),
		"PartitionedFPR(2, 1, 3)":      analysis.PartitionedFPR(2, 1, 3),
		"BlockedFPR(1000, 10, 3, 0)":   analysis.BlockedFPR(1000, 10, 3, 0),
		"BlockedFPR(1000, 10, 3, 300)": analysis.BlockedFPR(1000, 10, 3, 300),
	} {
		if !math.IsNaN(f) {
			t.Errorf("%s = %v, want NaN", name, f)
		}
	}
	for _, s := range []analysis.Standard{{Bits: 0, Hashes: 3}, {Bits: 100, Hashes: 0}} {
		if _, err := s.FPR(10); !errors.Is(err, analysis.ErrInvalidParams) {
			t.Errorf("%+v.FPR(10): %v, want ErrInvalidParams", s, err)
		}
	}
	// A block of 100 bits is a valid model, though variants.Blocked
	// builds only powers of two (see CheckBlocked).
	if f := analysis.BlockedFPR(1000, 10, 3, 100); math.IsNaN(f) || f <= 0 || f >= 1 {
		t.Errorf("BlockedFPR(1000, 10, 3, 100) = %v, want a rate", f)
	}
	if err := analysis.CheckBlocked(1000, 100, 3); err != nil {
		t.Errorf("CheckBlocked(1000, 100, 3): %v", err)
	}
}

// TestScalableDefaults checks that analysis's defaults are variants', that
// WithDefaults gives the model of the filter built from the same zero
// fields, and that the error for a zero field names WithDefaults.
func TestScalableDefaults(t *testing.T) {
	if analysis.DefaultTighteningRatio != variants.DefaultTighteningRatio ||
		analysis.DefaultGrowth != variants.DefaultGrowth ||
		analysis.DefaultInitialCapacity != variants.DefaultInitialCapacity {
		t.Fatalf("analysis defaults r = %v, s = %v, n0 = %v; variants' %v, %v, %v",
			analysis.DefaultTighteningRatio, analysis.DefaultGrowth, analysis.DefaultInitialCapacity,
			variants.DefaultTighteningRatio, variants.DefaultGrowth, variants.DefaultInitialCapacity)
	}
	for _, s := range []analysis.Scalable{{P: 0.001}, {P: 0.001, R: 0.5}, {P: 0.001, S: 4}, {P: 0.001, N0: 10}} {
		_, err := s.FPR(1e6)
		if !errors.Is(err, analysis.ErrInvalidParams) || !strings.Contains(err.Error(), "WithDefaults") {
			t.Errorf("%+v.FPR: %v; want an error naming WithDefaults", s, err)
		}
		d := s.WithDefaults()
		got, err := d.FPR(1e6)
		if err != nil {
			t.Fatalf("%+v.FPR: %v", d, err)
		}
		f, err := variants.NewScalable(variants.ScalableParams{P: s.P, R: s.R, S: s.S, N0: s.N0})
		if err != nil {
			t.Fatal(err)
		}
		want, err := f.Model().FPR(1e6)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%+v.WithDefaults().FPR(1e6) = %v, the filter's model says %v", s, got, want)
		}
	}
	full := analysis.Scalable{P: 0.01, R: 0.8, S: 4, N0: 7}
	if full.WithDefaults() != full {
		t.Errorf("WithDefaults changed %+v to %+v", full, full.WithDefaults())
	}
}
