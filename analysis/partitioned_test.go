package analysis

import (
	"math"
	"math/big"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestPartitionedHand(t *testing.T) {
	t.Parallel()
	// Hand-evaluated: m = 8 bits in k = 2 slices of 4, n = 2 items. A slice
	// bit stays clear with probability (3/4)^2 = 9/16, so the fill is 7/16
	// and the rate (7/16)^2 = 49/256.
	if got := PartitionedFill(8, 2, 2); !scalar.EqualWithinAbsOrRel(got, 7.0/16, 0, 1e-15) {
		t.Errorf("PartitionedFill(8, 2, 2) = %v, want 7/16", got)
	}
	if got := PartitionedFPR(8, 2, 2); !scalar.EqualWithinAbsOrRel(got, 49.0/256, 0, 1e-15) {
		t.Errorf("PartitionedFPR(8, 2, 2) = %v, want 49/256", got)
	}
	// Slices of one bit are full after one item.
	if got := PartitionedFPR(5, 1, 5); got != 1 {
		t.Errorf("PartitionedFPR(5, 1, 5) = %v, want 1", got)
	}
	// k = 1 is a standard filter with one hash: all three rates coincide.
	if a, b := PartitionedFPR(1000, 300, 1), ExactFPR(1000, 300, 1); !scalar.EqualWithinAbsOrRel(a, b, 0, 1e-14) {
		t.Errorf("k = 1: partitioned %v, exact %v", a, b)
	}
	if got := PartitionedFPR(100, 0, 3); got != 0 {
		t.Errorf("n = 0: %v", got)
	}
	if got := PartitionedFPR(3, 1, 4); !math.IsNaN(got) {
		t.Errorf("m < k: %v, want NaN", got)
	}
}

func TestPartitionedBigFloat(t *testing.T) {
	t.Parallel()
	// Reference: (1 - (1 - k/m)^n)^k in 300-bit floating point via
	// math/big, powers by repeated squaring.
	for _, c := range []struct {
		m, n uint64
		k    int
	}{{12, 5, 3}, {64, 10, 4}, {1000, 100, 5}, {1 << 20, 100_000, 7}, {1 << 40, 1 << 36, 11}} {
		const prec = 300
		base := new(big.Float).SetPrec(prec).SetUint64(c.m - uint64(c.k))
		base.Quo(base, new(big.Float).SetPrec(prec).SetUint64(c.m))
		fill := bigPow(base, c.n)
		fill.Sub(new(big.Float).SetPrec(prec).SetInt64(1), fill)
		w, _ := bigPow(fill, uint64(c.k)).Float64()
		if got := PartitionedFPR(c.m, c.n, c.k); !scalar.EqualWithinAbsOrRel(got, w, 0, 1e-13) {
			t.Errorf("PartitionedFPR(%d, %d, %d) = %.17g, want %.17g", c.m, c.n, c.k, got, w)
		}
	}
}

// bigPow returns x^e by repeated squaring at x's precision.
func bigPow(x *big.Float, e uint64) *big.Float {
	r := new(big.Float).SetPrec(x.Prec()).SetInt64(1)
	b := new(big.Float).Copy(x)
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r.Mul(r, b)
		}
		b.Mul(b, b)
	}
	return r
}

func TestPartitionedAboveExact(t *testing.T) {
	t.Parallel()
	// At equal m and k >= 2 a partitioned filter has a higher rate than a
	// standard one, for any n >= 1 (for n = 1 the standard filter's item
	// may set fewer than k bits), checked over a grid.
	for _, m := range []uint64{16, 64, 100, 1000, 1 << 16, 1 << 24, 1 << 36} {
		for _, k := range []int{2, 3, 4, 7, 11, 16} {
			mm := m - m%uint64(k)
			for _, n := range []uint64{1, 2, 3, 10, 100, 1000, 100_000, 10_000_000} {
				if n > 8*mm {
					continue
				}
				p, e := PartitionedFPR(mm, n, k), ExactFPR(mm, n, k)
				if (p == 0 && e == 0) || e > 1-1e-12 {
					continue // both underflow, or both round to 1
				}
				if !(p > e) {
					t.Errorf("m=%d n=%d k=%d: partitioned %.6g not above exact %.6g", mm, n, k, p, e)
				}
			}
		}
	}
}
