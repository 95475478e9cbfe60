package analysis

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// horizonGrid returns the counts from 1 to last on a log grid of about
// perDecade points per decade, with every stage boundary of stages, one
// below and one above it.
func horizonGrid(stages []Stage, last uint64, perDecade int) []uint64 {
	seen := map[uint64]bool{}
	var out []uint64
	add := func(x uint64) {
		if x >= 1 && x <= last && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	step := math.Pow(10, 1/float64(perDecade))
	for x := 1.0; x <= float64(last); x *= step {
		add(uint64(x))
	}
	add(last)
	var held uint64
	for _, st := range stages {
		held += st.Capacity
		add(held - 1)
		add(held)
		add(held + 1)
	}
	return out
}

// TestHorizonFPRAtMostP checks the compound rate at every count of a
// fine grid from 1 to 100 times the estimate, and every stage boundary,
// for several P, estimates, growth factors and both kinds of stage.
func TestHorizonFPRAtMostP(t *testing.T) {
	t.Parallel()
	cases := []Horizon{
		{P: 0.01, Estimate: 1000000, N0: 1000, S: 2},
		{P: 0.001, Estimate: 1000000, N0: 1000, S: 2},
		{P: 0.01, Estimate: 100000, N0: 1000, S: 2},
		{P: 0.1, Estimate: 12345, N0: 10, S: 1.5, Tail: 0.2, R: 0.5},
		{P: 1e-6, Estimate: 50000, N0: 100, S: 4},
		{P: 0.01, Estimate: 1, N0: 1, S: 2},
		{P: 0.01, Estimate: 7, N0: 1, S: 1.3},
		{P: 0.5, Estimate: 3000, N0: 3000, S: 2},
		{P: 0.01, Estimate: 100000, N0: 1000, S: 2, Spread: 10},
		{P: 0.001, Estimate: 3333, N0: 10, S: 3, Spread: 2.5, Tail: 0.01, R: 0.9},
		{P: 0.01, Estimate: 20000, N0: 100, S: 2, BlockBits: 512},
		{P: 0.001, Estimate: 5000, N0: 200, S: 2, BlockBits: 256},
	}
	for _, h := range cases {
		perDecade := 200
		if h.BlockBits != 0 {
			perDecade = 20 // BlockedFPR of a partly filled stage is dearer
		}
		last := 100 * h.Estimate
		stages, err := h.Stages(last)
		if err != nil {
			t.Fatalf("%+v: Stages(%d): %v", h, last, err)
		}
		items := horizonGrid(stages, last, perDecade)
		c, err := h.Curve(items)
		if err != nil {
			t.Fatalf("%+v: Curve: %v", h, err)
		}
		worst, at := 0.0, uint64(0)
		for j, f := range c.FPR {
			if !(f >= 0 && f <= h.P) {
				t.Errorf("%+v: FPR(%d) = %g, want in [0, P = %g]", h, items[j], f, h.P)
			}
			if f > worst {
				worst, at = f, items[j]
			}
		}
		// Spot-check Curve against FPR and BitsPerKey.
		for _, j := range []int{0, len(items) / 3, len(items) - 1} {
			f, err := h.FPR(items[j])
			b, err2 := h.BitsPerKey(items[j])
			if err != nil || err2 != nil || f != c.FPR[j] || b != c.BitsPerKey[j] {
				t.Errorf("%+v: at %d: FPR %v, %v and BitsPerKey %v, %v; Curve %v and %v", h, items[j], f, err, b, err2, c.FPR[j], c.BitsPerKey[j])
			}
		}
		t.Logf("%+v: %d stages, %d counts, highest rate %.4g (%.3f P) at %d", h, len(stages), len(items), worst, worst/h.P, at)
	}
}

// TestHorizonAllocation checks the allocation: the horizon stages spend
// exactly their share of the budget, their odds are in proportion to
// their weighted capacities c_i w_i, the tail spends at most its share, every stage's full
// rate is at most its design error, and moving budget between two horizon
// stages does not lower the objective (the Lagrange condition).
func TestHorizonAllocation(t *testing.T) {
	t.Parallel()
	for _, h := range []Horizon{
		{P: 0.01, Estimate: 1000000, N0: 1000, S: 2},
		{P: 0.001, Estimate: 777777, N0: 50, S: 3, Tail: 0.1, R: 0.6},
		{P: 0.3, Estimate: 1000, N0: 1, S: 1.2},
		{P: 0.01, Estimate: 100000, N0: 1000, S: 2, Spread: 10},
	} {
		hd := h.withDefaults()
		pl := hd.plan()
		q := -math.Log1p(-h.P)
		var x, held float64
		for i, c := range pl.caps {
			e := pl.errs[i]
			x += -math.Log1p(-e)
			held += float64(c)
			odds := e / (1 - e) * pl.mu / (float64(c) * pl.weights[i])
			if math.Abs(odds-1) > 1e-9 {
				t.Errorf("%+v: stage %d odds/capacity off by %g", h, i, odds-1)
			}
		}
		if held != float64(pl.top) || hd.Spread == 1 && pl.top != h.Estimate {
			t.Errorf("%+v: horizon capacities sum to %v", h, held)
		}
		if want := (1 - hd.Tail) * q; x > want*(1+1e-12) || x < want*(1-1e-9) {
			t.Errorf("%+v: horizon spends %v of its share %v", h, x, want)
		}
		stages, err := h.Stages(1000 * h.Estimate)
		if err != nil {
			t.Fatal(err)
		}
		var tail float64
		for i, st := range stages {
			if f := h.StageFPR(st, st.Capacity); f > st.Error {
				t.Errorf("%+v: stage %d full rate %g above its error %g", h, i, f, st.Error)
			}
			if i >= len(pl.caps) {
				tail += -math.Log1p(-st.Error)
			}
		}
		if tail > hd.Tail*q*(1+1e-12) {
			t.Errorf("%+v: tail spends %v, more than its share %v", h, tail, hd.Tail*q)
		}
		// The objective with errors e: the classic bits, each stage's
		// weighted by w_i (the sum of 1/B over the boundaries B it is
		// part of; with Spread 1 all 1/N̂, the bits per key at N̂).
		bits := func(e []float64) float64 {
			var b float64
			for i, c := range pl.caps {
				b += float64(c) * pl.weights[i] * -math.Log2(e[i]) / math.Ln2
			}
			return b
		}
		base := bits(pl.errs)
		for _, d := range []float64{1e-3, -1e-3} {
			for i := 0; i+1 < len(pl.caps); i++ {
				// Move d of stage i's x to stage i+1.
				e := append([]float64(nil), pl.errs...)
				xi, xj := -math.Log1p(-e[i]), -math.Log1p(-e[i+1])
				e[i], e[i+1] = -math.Expm1(-xi*(1-d)), -math.Expm1(-(xj + xi*d))
				if b := bits(e); b < base*(1-1e-12) {
					t.Errorf("%+v: moving %g of stage %d's budget to %d lowers the bits from %v to %v", h, d, i, i+1, base, b)
				}
			}
		}
	}
}

// TestHorizonTargets asserts the targets of issue 35 at the estimate: at
// 1e6 keys with the estimate exact, at most 12.6 bits per key at 1% and
// 17.4 at 0.1%.
func TestHorizonTargets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ p, most float64 }{{0.01, 12.6}, {0.001, 17.4}} {
		h := Horizon{P: c.p, Estimate: 1000000, N0: 1000, S: 2}
		b, err := h.BitsPerKey(1000000)
		if err != nil {
			t.Fatal(err)
		}
		if b > c.most {
			t.Errorf("P = %g: %.3f bits per key at the estimate, want at most %v", c.p, b, c.most)
		}
		f, _ := h.FPR(1000000)
		t.Logf("P = %g: %.3f bits per key, rate %.5g at the estimate", c.p, b, f)
	}
}

// TestHorizonTable prints the bits per key at 1e6 keys of the horizon
// filter (N0 = 1000, S = 2, default Tail and R) with the estimate exact,
// 2x low, 10x low and 2x high, trusted (Spread 1) or declared uncertain by
// a factor 10, beside Almeida's r = 0.9 (S = 2, N0 = 1000), RedisBloom's
// chain (capacity 1000, expansion 2), a static filter sized for 1e6 and
// the lower bounds; the table of paper-notes. Run it with
//
//	go test ./analysis -run TestHorizonTable -v
//
// It checks the rate at 1e6 against P, that a declared spread of 10 meets
// issue 35's target with the estimate 10x low (no worse than Almeida's
// r = 0.9), and that the trusted estimate 10x low stays at its recorded
// figure: it misses that target (31.58 bits per key at 1%, against
// 17.53), see paper-notes.
func TestHorizonTable(t *testing.T) {
	t.Parallel()
	const n = 1000000
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n| P | spread | exact | 2x low | 10x low | 2x high | Almeida r=0.9 | RedisBloom | static (classic) | static (exact partitioned) | log2(1/p) | log2(1/p) + log2 log2 n |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range []float64{0.01, 0.001} {
		a, err := Scalable{P: p, R: 0.9, S: 2, N0: 1000}.BitsPerKey(n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := RedisBloom{ErrorRate: p, Capacity: 1000, Expansion: 2}.BitsPerKey(n)
		if err != nil {
			t.Fatal(err)
		}
		std, _ := StandardSize(n, p)
		ex, _ := ExactPartitionedSize(n, p)
		l := math.Log2(1 / p)
		for _, spread := range []float64{1, 10} {
			row := fmt.Sprintf("| %g | %g |", p, spread)
			for _, est := range []uint64{n, n / 2, n / 10, 2 * n} {
				h := Horizon{P: p, Estimate: est, N0: 1000, S: 2, Spread: spread}
				b, err := h.BitsPerKey(n)
				if err != nil {
					t.Fatal(err)
				}
				f, _ := h.FPR(n)
				if f > p {
					t.Errorf("P = %g, estimate %d, spread %g: rate %g at %d", p, est, spread, f, n)
				}
				row += fmt.Sprintf(" %.2f |", b)
				if est == n/10 && spread == 10 && b > a {
					t.Errorf("P = %g, spread 10, 10x low: %.2f bits per key, more than Almeida's %.2f", p, b, a)
				}
				if est == n/10 && spread == 1 && p == 0.01 && b > 31.6 {
					t.Errorf("10x low at 1%%: %.2f bits per key, more than the recorded 31.6", b)
				}
			}
			row += fmt.Sprintf(" %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", a, r, float64(std.Bits)/n, float64(ex.Bits)/n, l, l+math.Log2(math.Log2(n)))
			sb.WriteString(row)
		}
	}
	t.Log(sb.String())
}

func TestHorizonValidate(t *testing.T) {
	t.Parallel()
	good := Horizon{P: 0.01, Estimate: 1000, N0: 10, S: 2}
	if err := good.Validate(); err != nil {
		t.Fatalf("%+v: %v", good, err)
	}
	for _, c := range []struct {
		name string
		mod  func(*Horizon)
	}{
		{"P = 0", func(h *Horizon) { h.P = 0 }},
		{"P = 1", func(h *Horizon) { h.P = 1 }},
		{"P NaN", func(h *Horizon) { h.P = math.NaN() }},
		{"estimate 0", func(h *Horizon) { h.Estimate = 0 }},
		{"estimate above MaxBits", func(h *Horizon) { h.Estimate = MaxBits + 1 }},
		{"n0 0", func(h *Horizon) { h.N0 = 0 }},
		{"s = 1", func(h *Horizon) { h.S = 1 }},
		{"s < 1", func(h *Horizon) { h.S = 0.5 }},
		{"s inf", func(h *Horizon) { h.S = math.Inf(1) }},
		{"tail 1", func(h *Horizon) { h.Tail = 1 }},
		{"tail negative", func(h *Horizon) { h.Tail = -0.1 }},
		{"r 1", func(h *Horizon) { h.R = 1 }},
		{"spread below 1", func(h *Horizon) { h.Spread = 0.5 }},
		{"spread inf", func(h *Horizon) { h.Spread = math.Inf(1) }},
		{"spread past MaxBits", func(h *Horizon) { h.Estimate, h.Spread = MaxBits/2, 4 }},
		{"block 100", func(h *Horizon) { h.BlockBits = 100 }},
		{"too many stages", func(h *Horizon) { h.Estimate, h.N0, h.S = MaxBits, 1, 1.01 }},
	} {
		h := good
		c.mod(&h)
		err := h.Validate()
		if !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%s: Validate = %v, want ErrInvalidParams", c.name, err)
		}
		if _, err2 := h.Stages(10); !errors.Is(err2, ErrInvalidParams) {
			t.Errorf("%s: Stages = %v, want ErrInvalidParams", c.name, err2)
		}
	}
	// The most horizon stages allowed are served quickly, and one more
	// is refused.
	h := Horizon{P: 0.01, Estimate: 1 << 40, N0: 1000, S: math.Pow(float64(1<<40)/1000, 1/(MaxHorizonStages-0.5))}
	if n, err := h.HorizonStages(); err != nil || n != MaxHorizonStages {
		t.Errorf("%+v: HorizonStages = %d, %v; want %d", h, n, err, MaxHorizonStages)
	}
	over := h
	over.S = math.Pow(float64(1<<40)/1000, 1/(MaxHorizonStages+0.5))
	if err := over.Validate(); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("%+v: Validate = %v, want ErrInvalidParams", over, err)
	}
	if _, err := h.BitsPerKey(1 << 20); err != nil {
		t.Errorf("%+v: %v", h, err)
	}
	if _, err := h.FPR(0); err != nil {
		t.Errorf("FPR(0): %v", err)
	}
	if _, err := h.BitsPerKey(0); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("BitsPerKey(0) = %v", err)
	}
	if _, err := (Horizon{P: 0.01, Estimate: 1000, N0: 10, S: 2}).Stages(1 << 60); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("Stages(2^60) = %v, want ErrInvalidParams", err)
	}
}

// TestHorizonStagesGrid checks the capacities: the horizon stages end
// at the estimate on the grid floor(N̂ S^j), the first holds at least N0
// (unless N0 >= N̂), and the tail continues the grid.
func TestHorizonStagesGrid(t *testing.T) {
	t.Parallel()
	h := Horizon{P: 0.01, Estimate: 1000000, N0: 1000, S: 2}
	l, err := h.HorizonStages()
	if err != nil || l != 10 {
		t.Fatalf("HorizonStages = %d, %v; want 10 (first stage 1953)", l, err)
	}
	stages, err := h.Stages(8000000)
	if err != nil {
		t.Fatal(err)
	}
	var held uint64
	for i, st := range stages {
		held += st.Capacity
		want := uint64(math.Floor(1e6 * math.Pow(2, float64(i-l+1))))
		if held != want {
			t.Errorf("stage %d ends at %d, want %d", i, held, want)
		}
		if st.Index != i || st.Bits != st.SliceBits*uint64(st.Hashes) {
			t.Errorf("stage %d: %+v", i, st)
		}
	}
	if held != 8000000 || stages[0].Capacity < h.N0 {
		t.Errorf("held %d, first stage %d", held, stages[0].Capacity)
	}
	// With a spread, the estimate and the top of the range are both
	// boundaries, and the tail continues from the top.
	h = Horizon{P: 0.01, Estimate: 100000, N0: 1000, S: 2, Spread: 10}
	stages, err = h.Stages(4000000)
	if err != nil {
		t.Fatal(err)
	}
	var ends []uint64
	held = 0
	for _, st := range stages {
		held += st.Capacity
		ends = append(ends, held)
	}
	want := []uint64{1562, 3125, 6250, 12500, 25000, 50000, 100000, 200000, 400000, 800000, 1000000, 2000000, 4000000}
	if fmt.Sprint(ends) != fmt.Sprint(want) {
		t.Errorf("spread 10: boundaries %v, want %v", ends, want)
	}
	one, err := Horizon{P: 0.01, Estimate: 500, N0: 1000, S: 2}.Stages(500)
	if err != nil || len(one) != 1 || one[0].Capacity != 500 {
		t.Errorf("N0 above the estimate: %+v, %v; want one stage of 500", one, err)
	}
}

// TestHorizonTail prints the trade-off that the tail share sets, at 1%
// and 1e6 keys (N0 = 1000, S = 2, R default): bits per key with the
// estimate exact, 2x, 10x and 100x low. Run it with
//
//	go test ./analysis -run TestHorizonTail -v
func TestHorizonTail(t *testing.T) {
	t.Parallel()
	const n = 1000000
	var sb strings.Builder
	sb.WriteString("\n| tail | exact | 2x low | 10x low | 100x low |\n|---|---|---|---|---|\n")
	for _, tail := range []float64{0.02, 0.05, 0.1, 0.2, 0.4} {
		fmt.Fprintf(&sb, "| %g |", tail)
		for _, est := range []uint64{n, n / 2, n / 10, n / 100} {
			h := Horizon{P: 0.01, Estimate: est, N0: 1000, S: 2, Tail: tail}
			b, err := h.BitsPerKey(n)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sb, " %.2f |", b)
		}
		sb.WriteString("\n")
	}
	t.Log(sb.String())
}

// TestHorizonOvershoot compares the bits per key past the estimate
// averaged over where the count falls in its stage: the mean over counts
// log-uniform from 5e5 to 2e6 (a log grid of ratio 1.01) with the
// estimate 1e5 (5x to 20x low), for the trusted estimate, a declared
// Spread of 10 and Almeida's r = 0.9 (whose boundaries at 1000 (2^i - 1)
// favour 1e6: 97.7% of its capacity is used there). Run it with
//
//	go test ./analysis -run TestHorizonOvershoot -v
func TestHorizonOvershoot(t *testing.T) {
	t.Parallel()
	for _, p := range []float64{0.01, 0.001} {
		var trusted, spread, almeida float64
		k := 0
		for x := 5e5; x <= 2e6; x *= 1.01 {
			n := uint64(x)
			b, err := Horizon{P: p, Estimate: 100000, N0: 1000, S: 2}.BitsPerKey(n)
			c, err2 := Horizon{P: p, Estimate: 100000, N0: 1000, S: 2, Spread: 10}.BitsPerKey(n)
			a, err3 := Scalable{P: p, R: 0.9, S: 2, N0: 1000}.BitsPerKey(n)
			if err != nil || err2 != nil || err3 != nil {
				t.Fatal(err, err2, err3)
			}
			trusted, spread, almeida = trusted+b, spread+c, almeida+a
			k++
		}
		trusted, spread, almeida = trusted/float64(k), spread/float64(k), almeida/float64(k)
		if spread > almeida {
			t.Errorf("P = %g: Spread 10 averages %.2f bits per key, more than Almeida's %.2f", p, spread, almeida)
		}
		t.Logf("P = %g, estimate 1e5, counts 5e5 to 2e6: trusted %.2f, Spread 10 %.2f, Almeida r = 0.9 %.2f bits per key", p, trusted, spread, almeida)
	}
}
