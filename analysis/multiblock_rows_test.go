package analysis

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// TestMultiblockRows checks the sum by rows against the sum by count
// vectors (overlapExactMulti), two organisations of the same series, on
// overlapping multiblock layouts where both run: with exp(-lambda H) for
// the binomial factor in both they must agree to rounding (1e-12
// relative, or 1e-14 absolute, the rounding of terms of order 1, for the
// small rates); with
// the binomial factor (1 - H/P)^n, which the rows take to second order in
// H/P, to 1e-12 at P = 10^7 and to 1e-5 at P = 3000.
func TestMultiblockRows(t *testing.T) {
	for _, c := range []struct {
		w      uint64
		k      int
		stride uint64
		p      uint64
	}{
		{64, 4, 8, 3000}, {32, 5, 8, 3000}, {64, 4, 64, 3000}, {64, 3, 24, 3000},
		{64, 3, 40, 3000}, {32, 6, 16, 3000}, {64, 5, 8, 10_000_000}, {32, 6, 8, 10_000_000},
	} {
		b := Multiblock{Hashes: c.k, WordBits: c.w, Multi: true, StrideBits: c.stride}
		b.Bits = b.BlockBits() + c.stride*(c.p-1)
		n := c.p * 5 / 6
		tp, rp := b.overlapExactMultiTerm(n, true), b.overlapRows(n, true)
		tb, rb := b.overlapExactMultiTerm(n, false), b.overlapRows(n, false)
		t.Logf("w=%d K=%d stride=%d P=%d: Poisson %.15g by rows %.15g (rel %.2g); binomial %.15g by rows %.15g (rel %.2g)",
			c.w, c.k, c.stride, c.p, tp, rp, rp/tp-1, tb, rb, rb/tb-1)
		if math.Abs(rp/tp-1) > 1e-12 && math.Abs(rp-tp) > 1e-14 {
			t.Errorf("w=%d K=%d stride=%d: Poisson sums %.15g by count vectors, %.15g by rows", c.w, c.k, c.stride, tp, rp)
		}
		tol := 1e-5
		if c.p >= 10_000_000 {
			tol = 1e-12
		}
		if math.Abs(rb/tb-1) > tol {
			t.Errorf("w=%d K=%d stride=%d P=%d: binomial sums %.15g by count vectors, %.15g by rows", c.w, c.k, c.stride, c.p, tb, rb)
		}
	}
}

// TestMultiblockRowsBudget checks that FPR takes the rows beyond the
// count vectors' budget and refuses beyond the rows' own.
func TestMultiblockRowsBudget(t *testing.T) {
	at := func(w uint64, k int) Multiblock { return BoostMultiblock(16*boostItems, k, w, true, 1) }
	b := at(64, 11)
	if b.overlapWork() <= overlapBudget || b.overlapRowWork() > overlapRowBudget {
		t.Fatalf("multiblock<uint64_t, 11>, 1: work %.3g by count vectors, %.3g by rows", b.overlapWork(), b.overlapRowWork())
	}
	if f, err := b.FPR(boostItems); err != nil || f != b.overlapRows(boostItems, false) {
		t.Errorf("multiblock<uint64_t, 11>, 1: FPR %g, %v", f, err)
	}
	for _, c := range []struct {
		b    Multiblock
		want string
	}{
		{at(64, 15), "at most 14 windows"},
		{at(512, 14), "by rows 4.59e+09, beyond 1e+09"},
	} {
		_, err := c.b.FPR(boostItems)
		if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d windows of %d bits: error %v, want one saying %q", c.b.Windows(), c.b.WordBits, err, c.want)
		}
	}
}

// TestMultiblockRowsMonteCarlo sets the rows' rate of two byte-stride
// multiblocks beyond the count vectors' budget beside seeded simulated
// filters of 10^6 keys (circular tables, the interior model): within 4
// standard errors (of the spread between the four filters, or of the
// pooled queries' binomial count where that is larger).
func TestMultiblockRowsMonteCarlo(t *testing.T) {
	if testing.Short() {
		t.Skip("about 3 s")
	}
	const n = 1_000_000
	for i, c := range []struct {
		name string
		w    uint64
		k    int
		bpk  uint64
	}{
		{"multiblock<uint64_t,14>,1", 64, 14, 8},
		{"fast_multiblock32<13>,1", 32, 13, 10},
	} {
		b := BoostMultiblock(c.bpk*n, c.k, c.w, true, 1)
		start := time.Now()
		want, err := b.FPR(n)
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(start)
		const filters, queries = 4, 500_000
		got, se := simulateMultiblock(b, n, filters, queries, uint64(100+i))
		// Four filters give the spread three degrees of freedom: take the
		// pooled queries' binomial SE where it is the larger.
		se = max(se, math.Sqrt(want*(1-want)/(filters*queries)))
		z := (got - want) / se
		t.Logf("%s c=%d P=%d: rows %.6f%% [%v], simulated %.6f%% ± %.6f%% (rel %+.3f%%, z %+.2f)", c.name, c.bpk, b.Starts(), 100*want, el.Round(time.Millisecond), 100*got, 100*se, 100*(got/want-1), z)
		if math.Abs(z) > 4 {
			t.Errorf("%s: rows %.6f%%, simulated %.6f%% ± %.6f%%", c.name, 100*want, 100*got, 100*se)
		}
	}
}
