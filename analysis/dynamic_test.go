package analysis

import (
	"errors"
	"math"
	"testing"
)

func TestDynamic(t *testing.T) {
	t.Parallel()
	d := Dynamic{N: 1000, P: 0.01}
	st, err := d.Stage()
	if err != nil {
		t.Fatal(err)
	}
	// m = ceil(1000 ln 100 / ln(2)^2) = 9586, k = 7, slices of 1370 bits.
	if st.Hashes != 7 || st.SliceBits != 1370 || st.Bits != 9590 {
		t.Fatalf("stage %+v", st)
	}
	for _, c := range []struct {
		items uint64
		l     int
	}{{0, 1}, {1, 1}, {1000, 1}, {1001, 2}, {5000, 5}, {5001, 6}} {
		if l, err := d.Stages(c.items); l != c.l || err != nil {
			t.Errorf("Stages(%d) = %d, %v; want %d", c.items, l, err, c.l)
		}
	}
	f, err := d.FPR(2500)
	if err != nil {
		t.Fatal(err)
	}
	full := PartitionedFPR(st.Bits, 1000, 7)
	want := 1 - (1-full)*(1-full)*(1-PartitionedFPR(st.Bits, 500, 7))
	if math.Abs(f-want) > 1e-15 {
		t.Fatalf("FPR(2500) = %v, want %v", f, want)
	}
	// Ten full stages: about ten times one stage's rate.
	f10, _ := d.FPR(10000)
	if f10 < 9*full || f10 > 10*full {
		t.Fatalf("FPR(10000) = %v, one stage %v", f10, full)
	}
	for _, bad := range []Dynamic{{N: 0, P: 0.01}, {N: 10, P: 0}, {N: 10, P: 1}, {N: 10, P: math.NaN()}} {
		if _, err := bad.FPR(1); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if _, err := (Dynamic{N: 1, P: 0.01}).Stages(MaxDynamicStages + 1); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("too many stages: %v", err)
	}
	if b, err := d.BitsPerKey(2500); err != nil || b != 3*9590/2500.0 {
		t.Errorf("BitsPerKey(2500) = %v, %v", b, err)
	}
}
