package analysis

import (
	"errors"
	"slices"
	"testing"
)

// TestScalableCurve checks Curve against FPR and BitsPerKey point by
// point, bit for bit, for partitioned and blocked stages, at counts
// inside, at and just past stage boundaries, in an order that is not
// sorted.
func TestScalableCurve(t *testing.T) {
	t.Parallel()
	for _, s := range []Scalable{
		{P: 0.01, R: 0.5, S: 2, N0: 1000},
		{P: 0.001, R: 0.9, S: 4, N0: 10},
		{P: 0.01, R: 0.9, S: 2, N0: 1000, BlockBits: 512},
	} {
		items := []uint64{5000, 1, 999, 1000, 1001, 3000, 3001, 2500, 7000, 7001, 40000, 12345}
		c, err := s.Curve(items)
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		if want, _ := s.Stages(40000); len(c.Stages) != len(want) {
			t.Errorf("%+v: %d stages, want %d", s, len(c.Stages), len(want))
		}
		for k := 0; k <= len(c.Stages); k++ {
			d, err := s.CurveFrom(c.Stages[:k], items)
			if err != nil || !slices.Equal(d.FPR, c.FPR) || !slices.Equal(d.BitsPerKey, c.BitsPerKey) || len(d.Stages) != len(c.Stages) {
				t.Errorf("%+v: CurveFrom(the first %d stages) = %+v, %v; Curve = %+v", s, k, d, err, c)
			}
		}
		more, _ := s.Stages(200000)
		if d, err := s.CurveFrom(more, items); err != nil || !slices.Equal(d.FPR, c.FPR) || len(d.Stages) != len(c.Stages) {
			t.Errorf("%+v: CurveFrom(more stages than needed) = %+v, %v; Curve = %+v", s, d, err, c)
		}
		for j, x := range items {
			want, err := s.FPR(x)
			if err != nil || c.FPR[j] != want {
				t.Errorf("%+v: Curve's FPR at %d = %v, FPR = %v (%v)", s, x, c.FPR[j], want, err)
			}
			want, err = s.BitsPerKey(x)
			if err != nil || c.BitsPerKey[j] != want {
				t.Errorf("%+v: Curve's BitsPerKey at %d = %v, BitsPerKey = %v (%v)", s, x, c.BitsPerKey[j], want, err)
			}
		}
	}
	s := Scalable{P: 0.01, R: 0.5, S: 1, N0: 1}
	if _, err := s.Curve([]uint64{1, 1000}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("Curve past MaxStages: %v", err)
	}
	if _, err := s.Curve([]uint64{0}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("Curve at 0 items: %v", err)
	}
}
