package analysis

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestGroupedProbes checks GroupedProbes against closed forms: with groups
// of one, (1 - p^k)/(1 - p) (the geometric series up to the first clear
// bit); with one group, k; and, for k = 6 in groups of 4, 4 + 2 p^4
// (worked by hand).
func TestGroupedProbes(t *testing.T) {
	t.Parallel()
	for _, p := range []float64{0, 0.3, 0.5, 0.9} {
		for _, k := range []int{1, 2, 7, 20} {
			want := float64(k)
			if p < 1 {
				want = (1 - math.Pow(p, float64(k))) / (1 - p)
			}
			if got := GroupedProbes(k, 1, p); !scalar.EqualWithinAbsOrRel(got, want, 1e-12, 1e-12) {
				t.Errorf("k = %d, g = 1, p = %v: %v, want %v", k, p, got, want)
			}
			if got := GroupedProbes(k, k, p); got != float64(k) {
				t.Errorf("k = %d in one group: %v, want %d", k, got, k)
			}
		}
		if got, want := GroupedProbes(6, 4, p), 4+2*math.Pow(p, 4); !scalar.EqualWithinAbsOrRel(got, want, 1e-12, 1e-12) {
			t.Errorf("k = 6, g = 4, p = %v: %v, want %v", p, got, want)
		}
	}
	for _, c := range []struct {
		k, g int
		p    float64
	}{{0, 1, 0.5}, {3, 0, 0.5}, {3, 1, -0.1}, {3, 1, 1.1}, {3, 1, math.NaN()}} {
		if got := GroupedProbes(c.k, c.g, c.p); !math.IsNaN(got) {
			t.Errorf("GroupedProbes(%d, %d, %v) = %v, want NaN", c.k, c.g, c.p, got)
		}
	}
}

// TestTableLines checks that a huge table gives GroupedProbes (no two
// probes share a line) and a one-line table gives one line.
func TestTableLines(t *testing.T) {
	t.Parallel()
	if got, want := TableLines(1<<40, 7, 4, 0.5), GroupedProbes(7, 4, 0.5); !scalar.EqualWithinAbsOrRel(got, want, 1e-6, 1e-6) {
		t.Errorf("large table: %v, want %v", got, want)
	}
	if got := TableLines(512, 7, 4, 0.5); got != 1 {
		t.Errorf("one line: %v, want 1", got)
	}
	if got := TableLines(0, 7, 4, 0.5); !math.IsNaN(got) {
		t.Errorf("m = 0: %v, want NaN", got)
	}
}

// TestSharedLine checks sharedLine on layouts worked by hand: slices of
// 1024 bits (16 words) never share a line; slices of 600 bits (10 words,
// a stride of 640) share the line [512, 1024) between slice 0 (bits 512
// to 599, 88 bits) and slice 1 (bits 640 to 1023, 384 bits).
func TestSharedLine(t *testing.T) {
	t.Parallel()
	if q := sharedLine(1024, 0); q != 0 {
		t.Errorf("1024-bit slices: %v, want 0", q)
	}
	if got, want := sharedLine(600, 0), 88.0/600*384/600; !scalar.EqualWithinAbsOrRel(got, want, 1e-15, 1e-15) {
		t.Errorf("600-bit slices: %v, want %v", got, want)
	}
}

// TestScalableLinesBlocked checks that absent keys read one line per
// blocked stage of one line, and the errors.
func TestScalableLinesBlocked(t *testing.T) {
	t.Parallel()
	s := Scalable{P: 0.01, R: 0.9, S: 2, N0: 1000, BlockBits: 512}
	for _, items := range []uint64{500, 10_000, 100_000} {
		stages, err := s.Stages(items)
		if err != nil {
			t.Fatal(err)
		}
		absent, present, err := s.Lines(items, 2)
		if err != nil {
			t.Fatal(err)
		}
		if absent != float64(len(stages)) || present != float64(len(stages)) {
			t.Errorf("%d items, %d stages: %v and %v lines", items, len(stages), absent, present)
		}
	}
	if _, _, err := s.Lines(0, 2); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("items = 0: error %v", err)
	}
	if _, _, err := s.Lines(10, 0); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("group = 0: error %v", err)
	}
}
