package analysis

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

var scalableParams = []Scalable{
	{P: 0.01, R: 0.5, S: 2, N0: 1000},
	{P: 0.001, R: 0.9, S: 2, N0: 100},
	{P: 0.01, R: 0.8, S: 4, N0: 10},
	{P: 0.1, R: 0.5, S: 1, N0: 50},
	{P: 1e-6, R: 0.85, S: 2, N0: 1},
	{P: 0.05, R: 0.3, S: 1.5, N0: 777},
}

func TestScalableStages(t *testing.T) {
	t.Parallel()
	s := Scalable{P: 0.01, R: 0.5, S: 2, N0: 1000}
	// Capacities 1000, 2000, 4000, ...: after L full stages the filter
	// holds 1000 (2^L - 1) items (hand-evaluated).
	for _, c := range []struct {
		items  uint64
		stages int
	}{{0, 1}, {1, 1}, {1000, 1}, {1001, 2}, {3000, 2}, {3001, 3}, {7000, 3}, {7001, 4},
		{1000 * (1<<20 - 1), 20}, {1000*(1<<20-1) + 1, 21}} {
		st, err := s.Stages(c.items)
		if err != nil || len(st) != c.stages {
			t.Errorf("Stages(%d) = %d stages, %v; want %d", c.items, len(st), err, c.stages)
		}
		for i, x := range st {
			if x.Index != i {
				t.Errorf("stage %d has index %d", i, x.Index)
			}
		}
	}
	// Stage count grows like log_s: with s = 2 and 4 and the first stage
	// of n0 items, L stages hold n0 (s^L - 1)/(s - 1) items, so a filter
	// of N items has ceil(log_s(N (s-1)/n0 + 1)) stages (hand-derived).
	for _, sp := range []Scalable{{P: 0.01, R: 0.5, S: 2, N0: 1000}, {P: 0.01, R: 0.5, S: 4, N0: 10}} {
		for items := uint64(1); items < 1e12; items = items*3 + 1 {
			st, err := sp.Stages(items)
			if err != nil {
				t.Fatal(err)
			}
			x := float64(items)*(sp.S-1)/float64(sp.N0) + 1
			want := int(math.Ceil(math.Log(x)/math.Log(sp.S) - 1e-12))
			want = max(want, 1)
			if len(st) != want {
				t.Errorf("s=%g n0=%d: Stages(%d) has %d stages, want %d", sp.S, sp.N0, items, len(st), want)
			}
		}
	}
	// Growth factor 1 with n0 = 1 runs out of stages.
	if _, err := (Scalable{P: 0.01, R: 0.5, S: 1, N0: 1}).Stages(1000); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("Stages beyond MaxStages: err = %v", err)
	}
	if _, err := (Scalable{P: 2, R: 0.5, S: 2, N0: 1}).Stages(10); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("invalid P accepted: %v", err)
	}
}

func TestScalableFPRBelowBound(t *testing.T) {
	t.Parallel()
	// The compound rate stays below the target P at every size: checked
	// at each stage boundary, one past it, and at a log-spaced set of
	// sizes, for several (P, r, s, n0).
	for _, sp := range scalableParams {
		if b := sp.Bound(); !scalar.EqualWithinAbsOrRel(b, sp.P, 0, 1e-14) {
			t.Errorf("%+v: Bound = %v, want P", sp, b)
		}
		var sizes []uint64
		var total uint64
		for i := 0; i < 40; i++ {
			if _, err := sp.Stage(i + 1); err != nil {
				break // stage i must be fillable and i+1 openable
			}
			st, _ := sp.Stage(i)
			total += st.Capacity
			sizes = append(sizes, total-1, total, total+1)
		}
		for x := uint64(1); x < total; x = x*2 + 1 {
			sizes = append(sizes, x)
		}
		for _, items := range sizes {
			f, err := sp.FPR(items)
			if err != nil {
				t.Fatalf("%+v: FPR(%d): %v", sp, items, err)
			}
			if !(f < sp.P) {
				t.Errorf("%+v: FPR(%d) = %g, not below P = %g", sp, items, f, sp.P)
			}
			if f < 0 {
				t.Errorf("%+v: FPR(%d) = %g", sp, items, f)
			}
		}
	}
}

func TestScalableFPRHand(t *testing.T) {
	t.Parallel()
	// One full stage: the compound rate is that stage's rate. With every
	// key added it is the partitioned rate, at most 2^-k0 because the
	// slice fill is at most 1/2; the filter skips the keys that test
	// present, which raises it by 0.3% here.
	s := Scalable{P: 0.01, R: 0.5, S: 2, N0: 1000}
	st, _ := s.Stage(0)
	f, err := s.FPR(st.Capacity)
	if err != nil {
		t.Fatal(err)
	}
	if want := s.StageFPR(st, st.Capacity); f != want {
		t.Errorf("FPR(n0) = %v, want StageFPR %v", f, want)
	}
	all := PartitionedFPR(st.Bits, st.Capacity, st.Hashes)
	if all > math.Ldexp(1, -st.Hashes) {
		t.Errorf("full stage rate with every key added %g above 2^-k = %g", all, math.Ldexp(1, -st.Hashes))
	}
	if !(f > all && f < all*1.01) {
		t.Errorf("full stage rate %g, want a little above %g (every key added)", f, all)
	}
	// Two stages, the second holding 5 items: 1 - (1-f0)(1-f1).
	st1, _ := s.Stage(1)
	f2, _ := s.FPR(st.Capacity + 5)
	f1 := s.StageFPR(st1, 5)
	if want := 1 - (1-f)*(1-f1); !scalar.EqualWithinAbsOrRel(f2, want, 0, 1e-12) {
		t.Errorf("FPR(n0+5) = %v, want %v", f2, want)
	}
	if f0, _ := s.FPR(0); f0 != 0 {
		t.Errorf("FPR(0) = %v", f0)
	}
}

func TestScalableBitsPerKey(t *testing.T) {
	t.Parallel()
	s := Scalable{P: 0.01, R: 0.5, S: 2, N0: 1000}
	st0, _ := s.Stage(0)
	st1, _ := s.Stage(1)
	got, err := s.BitsPerKey(1000)
	if err != nil || got != float64(st0.Bits)/1000 {
		t.Errorf("BitsPerKey(1000) = %v, %v; want %v", got, err, float64(st0.Bits)/1000)
	}
	got, _ = s.BitsPerKey(1500)
	if want := float64(st0.Bits+st1.Bits) / 1500; got != want {
		t.Errorf("BitsPerKey(1500) = %v, want %v", got, want)
	}
	// A half-full partitioned stage of k slices spends about k / ln 2 bits
	// per key (each slice has about n / ln 2 bits), and later stages have
	// more slices, so a filter of full stages spends at least k_0 / ln 2.
	got, _ = s.BitsPerKey(3000)
	if got < float64(st0.Hashes)/math.Ln2 {
		t.Errorf("BitsPerKey(3000) = %v, below k0/ln 2", got)
	}
	if _, err := s.BitsPerKey(0); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("BitsPerKey(0) error = %v", err)
	}
}

// TestScalableBlockedStages: with BlockBits set, every stage is the
// blocked filter BlockedSize gives for its capacity and design error, so a
// full stage's rate is at most P_i, the compound rate stays below P at
// every size, and a blocked stage costs at most twice the bits of the
// partitioned one it replaces. (It can cost fewer with large blocks:
// BlockedSize chooses k and m for the design error exactly, where a
// partitioned stage rounds k up and sizes for fill 1/2.)
func TestScalableBlockedStages(t *testing.T) {
	t.Parallel()
	for _, b := range []uint64{64, 512, 4096} {
		s := Scalable{P: 0.01, R: 0.9, S: 2, N0: 1000, BlockBits: b}
		part := s
		part.BlockBits = 0
		for i := range 12 {
			st, err := s.Stage(i)
			if err != nil {
				t.Fatal(err)
			}
			// BlockedSize's geometry for the design error, unless the keys
			// the filter skips would take it above the error: then the
			// fewest bits BlockedSize gives for a lower target.
			bl, err := BlockedSize(st.Capacity, st.Error, b)
			if err != nil || st.SliceBits != 0 || st.Bits < bl.Bits {
				t.Fatalf("B = %d, stage %d: %+v, want at least m = %d from BlockedSize (%v)", b, i, st, bl.Bits, err)
			}
			if st.Bits != bl.Bits || st.Hashes != bl.Hashes {
				first := Stage{Capacity: st.Capacity, Hashes: bl.Hashes, Bits: bl.Bits}
				if r := s.StageFPR(first, st.Capacity); r <= st.Error {
					t.Errorf("B = %d, stage %d: %+v, but BlockedSize's m = %d, k = %d keeps rate %g within %g", b, i, st, bl.Bits, bl.Hashes, r, st.Error)
				}
			}
			if r := s.StageFPR(st, st.Capacity); r > st.Error {
				t.Errorf("B = %d, stage %d: full rate %g above its design error %g", b, i, r, st.Error)
			}
			ps, _ := part.Stage(i)
			if st.Bits > 2*ps.Bits {
				t.Errorf("B = %d, stage %d: %d bits against %d partitioned", b, i, st.Bits, ps.Bits)
			}
		}
		for _, n := range []uint64{1, 999, 1000, 5000, 1 << 20} {
			r, err := s.FPR(n)
			if err != nil || r > s.Bound() || r <= 0 {
				t.Errorf("B = %d, n = %d: compound rate %g (%v), want in (0, %g]", b, n, r, err, s.Bound())
			}
		}
	}
	for _, b := range []uint64{1, 32, 100, 1 << 20} {
		if err := (Scalable{P: 0.01, R: 0.9, S: 2, N0: 1000, BlockBits: b}).Validate(); err == nil {
			t.Errorf("block bits %d accepted", b)
		}
	}
}
