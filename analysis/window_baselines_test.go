package analysis

import (
	"errors"
	"math"
	"testing"
)

// TestWindowBaselinesHeld checks Held against a literal simulation of the
// two designs: the set of stream positions the queried filter holds.
func TestWindowBaselinesHeld(t *testing.T) {
	t.Parallel()
	for _, h := range []uint64{1, 2, 5} {
		a := AlternatingWindow{Half: h, Bits: 100, Hashes: 3}
		older, newer := 0, 0 // items held by each filter
		for tt := uint64(1); tt <= 10*h; tt++ {
			older++
			newer++
			if tt%h == 0 {
				older, newer = newer, 0
			}
			if got := a.Held(tt); got != uint64(older) {
				t.Fatalf("alternating half %d: Held(%d) = %d, simulation %d", h, tt, got, older)
			}
			if a.Held(tt) < min(tt, a.Window()) {
				t.Fatalf("alternating half %d: Held(%d) = %d below the window %d", h, tt, a.Held(tt), a.Window())
			}
		}
	}
	for _, w := range []uint64{1, 3, 7} {
		c := ClearedWindow{Capacity: w, Bits: 100, Hashes: 3}
		held := uint64(0)
		for tt := uint64(1); tt <= 5*w; tt++ {
			if held == w {
				held = 0
			}
			held++
			if got := c.Held(tt); got != held {
				t.Fatalf("cleared capacity %d: Held(%d) = %d, simulation %d", w, tt, got, held)
			}
		}
		if c.Held(0) != 0 || c.Window() != 1 {
			t.Fatalf("cleared: Held(0) = %d, Window = %d", c.Held(0), c.Window())
		}
	}
}

// TestWindowBaselinesCycle checks the worst and mean rates and the recall
// curves against their definitions over one steady cycle.
func TestWindowBaselinesCycle(t *testing.T) {
	t.Parallel()
	a, err := AlternatingWindowSize(200, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if w := a.WorstFPR(); w > 0.01 {
		t.Errorf("alternating sized for 1%%: worst rate %g", w)
	}
	var worst, sum float64
	for tt := 4 * a.Half; tt < 5*a.Half; tt++ {
		f := a.FPR(tt)
		worst = max(worst, f)
		sum += f
	}
	if worst != a.WorstFPR() || !nearRel(sum/float64(a.Half), a.MeanFPR(), 1e-12) {
		t.Errorf("alternating: worst %g mean %g over the cycle, WorstFPR %g MeanFPR %g", worst, sum/float64(a.Half), a.WorstFPR(), a.MeanFPR())
	}
	if r := a.MeanRecall(a.Half - 1); r != 1 {
		t.Errorf("alternating: MeanRecall at age half-1 = %g, want 1", r)
	}
	// At age a between h and 2h - 1 the item is held at the 2h - a - 1
	// positions h + c > a of the h, and tests present with the rate at
	// the other a - h + 1.
	age := a.Half + a.Half/2
	h := float64(a.Half)
	if r, want := a.MeanRecall(age), float64(2*a.Half-age-1)/h+float64(age-a.Half+1)/h*meanOver(a, age); !nearRel(r, want, 1e-12) {
		t.Errorf("alternating: MeanRecall at age 1.5 half = %g, want %g", r, want)
	}
	if r := a.MeanRecall(2*a.Half - 1); !nearRel(r, a.MeanFPR(), 1e-12) {
		t.Errorf("alternating: MeanRecall at age 2 half - 1 = %g, want the mean rate %g", r, a.MeanFPR())
	}
	if r := a.Recall(a.Half, 3*a.Half); r != a.FPR(3*a.Half) {
		t.Errorf("alternating: an item of age half just after a swap tests present with %g, want the rate %g", r, a.FPR(3*a.Half))
	}

	c, err := ClearedWindowSize(300, 0.001)
	if err != nil {
		t.Fatal(err)
	}
	if w := c.WorstFPR(); w > 0.001 {
		t.Errorf("cleared sized for 0.1%%: worst rate %g", w)
	}
	if r := c.MeanRecall(0); r != 1 {
		t.Errorf("cleared: the newest item's mean recall %g, want 1", r)
	}
	if r := c.Recall(1, c.Capacity+1); r != c.FPR(c.Capacity+1) {
		t.Errorf("cleared: just after a clear the previous item tests present with %g, want the rate", r)
	}
	if r := c.MeanRecall(c.Capacity); !nearRel(r, c.MeanFPR(), 1e-12) {
		t.Errorf("cleared: MeanRecall beyond the capacity %g, want the mean rate %g", r, c.MeanFPR())
	}
}

// meanOver is the mean rate of the alternating pair over the steady
// positions at which an item of age age is no longer held.
func meanOver(a AlternatingWindow, age uint64) float64 {
	var s float64
	var n int
	for c := range a.Half {
		if a.Half+c <= age {
			s += ExactFPR(a.Bits, a.Half+c, a.Hashes)
			n++
		}
	}
	return s / float64(n)
}

func nearRel(a, b, tol float64) bool { return a == b || math.Abs(a-b) <= tol*math.Abs(b) }

func TestWindowBaselinesInvalid(t *testing.T) {
	t.Parallel()
	for _, err := range []error{
		func() error { _, err := AlternatingWindowSize(0, 0.01); return err }(),
		func() error { _, err := AlternatingWindowSize(10, 1); return err }(),
		func() error { _, err := ClearedWindowSize(0, 0.01); return err }(),
		func() error { _, err := ClearedWindowSize(10, 0); return err }(),
		AlternatingWindow{Half: 0, Bits: 10, Hashes: 1}.Validate(),
		AlternatingWindow{Half: 1, Bits: 0, Hashes: 1}.Validate(),
		ClearedWindow{Capacity: 0, Bits: 10, Hashes: 1}.Validate(),
		ClearedWindow{Capacity: 1, Bits: 10, Hashes: 0}.Validate(),
	} {
		if !errors.Is(err, ErrInvalidParams) {
			t.Errorf("got %v, want an error wrapping ErrInvalidParams", err)
		}
	}
}
