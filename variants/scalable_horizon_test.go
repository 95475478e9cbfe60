package variants

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// TestHorizonParams checks the parameters of a horizon-aware scalable
// filter: the defaults filled in (Params and Model agree with
// analysis.Horizon's), and the refusals, each wrapping ErrInvalidParams
// and naming the field at fault.
func TestHorizonParams(t *testing.T) {
	f, err := NewScalable(ScalableParams{P: 0.01, Estimate: 5000})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Params()
	want := ScalableParams{P: 0.01, R: analysis.DefaultHorizonRatio, S: DefaultGrowth, N0: DefaultInitialCapacity,
		Estimate: 5000, Spread: 1, Tail: analysis.DefaultHorizonTail}
	if p != want {
		t.Errorf("Params() = %+v, want %+v", p, want)
	}
	m, ok := f.Model().(analysis.Horizon)
	if h := (analysis.Horizon{P: 0.01, Estimate: 5000, N0: 1000, S: 2, Tail: 0.05, R: 0.8, Spread: 1}); !ok || m != h {
		t.Errorf("Model() = %#v, want %+v", f.Model(), h)
	}
	// Without an Estimate the model stays Almeida's.
	g, err := NewScalable(ScalableParams{P: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := g.Model().(analysis.Scalable); !ok || g.Params().Spread != 0 || g.Params().Tail != 0 || g.Params().R != DefaultTighteningRatio {
		t.Errorf("without an Estimate: Model() %#v, Params() %+v", g.Model(), g.Params())
	}

	for _, c := range []struct {
		p     ScalableParams
		field string
	}{
		{ScalableParams{P: 0.01, Estimate: 1000, Spread: 0.5}, "Spread = 0.5"},
		{ScalableParams{P: 0.01, Estimate: 1000, Spread: -1}, "Spread = -1"},
		{ScalableParams{P: 0.01, Estimate: 1000, Spread: math.NaN()}, "Spread = NaN"},
		{ScalableParams{P: 0.01, Estimate: 1000, Spread: math.Inf(1)}, "Spread = +Inf"},
		{ScalableParams{P: 0.01, Estimate: 1000, Tail: 1}, "Tail = 1"},
		{ScalableParams{P: 0.01, Estimate: 1000, Tail: -0.1}, "Tail = -0.1"},
		{ScalableParams{P: 0.01, Estimate: 1000, Tail: math.NaN()}, "Tail = NaN"},
		{ScalableParams{P: 0.01, Estimate: 1000, R: 1}, "R = 1"},
		{ScalableParams{P: 0.01, Spread: 10}, "Spread = 10 without an Estimate"},
		{ScalableParams{P: 0.01, Tail: 0.1}, "Tail = 0.1 without an Estimate"},
		{ScalableParams{P: 0, Estimate: 1000}, "P"},
		{ScalableParams{P: 0.01, Estimate: 1000, S: 1}, "growth factor s = 1"},
		{ScalableParams{P: 0.01, Estimate: 1 << 49}, "estimate"},
		// 128 horizon stages at most (analysis.MaxHorizonStages).
		{ScalableParams{P: 0.01, Estimate: 1 << 40, N0: 1, S: 1.1}, "more than 128"},
		// Few horizon stages, and a tail of 255 stages of growth 1.05
		// reaches 2.6e11 items: the stage cap would stop the filter.
		{ScalableParams{P: 0.01, Estimate: 1_000_000, N0: 1_000_000, S: 1.05}, "MinScalableReach"},
		{ScalableParams{P: 0.01, Estimate: 1000, BlockBits: 512, Hashing: Hashing{Derivation: Triple}}, "derivation triple"},
		{ScalableParams{P: 0.01, Estimate: 1000, BlockBits: 100}, "block bits B = 100"},
	} {
		_, err := NewScalable(c.p)
		if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%+v: %v, want ErrInvalidParams naming %q", c.p, err, c.field)
		}
	}
}

// horizonCases are the horizon-aware configurations the tests build.
var horizonCases = []struct {
	name string
	p    ScalableParams
}{
	{"exact", ScalableParams{P: 0.01, N0: 100, Estimate: 10_000}},
	{"spread-10", ScalableParams{P: 0.01, N0: 100, Estimate: 10_000, Spread: 10}},
	{"blocked", ScalableParams{P: 0.01, N0: 100, Estimate: 10_000, Spread: 4, BlockBits: 512}},
	{"triple", ScalableParams{P: 0.01, N0: 100, Estimate: 10_000, Tail: 0.2, R: 0.5, S: 1.5, Hashing: Hashing{Derivation: Triple}}},
}

// TestHorizonStagesMatchTheory: at checkpoints below, at and past the
// estimate the filter's stages are the model's (capacity, bits, hashes
// and design error of each), so its bits per key, Stats().Bits/items,
// equal analysis.Horizon.BitsPerKey at the items it holds, bit for bit.
// Reset then reuses the stages, and the filter grows through them again
// to the same geometry.
func TestHorizonStagesMatchTheory(t *testing.T) {
	t.Parallel()
	for _, c := range horizonCases {
		f, err := NewScalable(c.p)
		if err != nil {
			t.Fatal(err)
		}
		m := f.Model()
		check := func(round int, items uint64) {
			st := f.Stats()
			if st.Items != items {
				t.Fatalf("%s: %d items, want %d", c.name, st.Items, items)
			}
			want, err := m.Stages(items)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Stages) != len(want) {
				t.Fatalf("%s, round %d, %d items: %d stages, the model %d", c.name, round, items, len(st.Stages), len(want))
			}
			for i, s := range st.Stages {
				w := want[i]
				if s.Capacity != w.Capacity || s.Bits != w.Bits || s.Hashes != w.Hashes || s.Error != w.Error {
					t.Fatalf("%s, %d items: stage %d %+v, the model %+v", c.name, items, i, s, w)
				}
			}
			bpk, err := m.BitsPerKey(items)
			if err != nil {
				t.Fatal(err)
			}
			if got := float64(st.Bits) / float64(items); got != bpk {
				t.Errorf("%s, %d items: %v bits per key, the model %v", c.name, items, got, bpk)
			}
		}
		var buf [16]byte
		for round := range 2 {
			var n uint64
			for i := uint64(0); n < 35_000; i++ {
				if !f.TestAndAdd(streamKey(&buf, 31, byte(round), i)) {
					n++
				}
				switch n {
				case 1_000, 9_999, 10_000, 10_001, 35_000:
					if f.Stats().Items == n {
						check(round, n)
					}
				}
			}
			if f.Err() != nil {
				t.Fatal(f.Err())
			}
			f.Reset()
		}
	}
}

// TestHorizonRate measures the compound rate of F seeded horizon-aware
// filters (hash seeds 1 to F) at the estimate and three times past it,
// against analysis.Horizon.FPR at the items each holds: the mean of the
// per-filter rates must lie within 4 standard errors of the mean theory
// (the standard error from the spread between the filters, with a
// binomial floor), and every theory at or below P.
func TestHorizonRate(t *testing.T) {
	t.Parallel()
	const (
		F = 10
		Q = 40_000
	)
	for _, c := range horizonCases[:3] {
		for _, n := range []uint64{10_000, 30_000} {
			var rates, theory []float64
			var buf [16]byte
			for s := range uint64(F) {
				p := c.p
				p.Hashing.Seed = s + 1
				f, err := NewScalable(p)
				if err != nil {
					t.Fatal(err)
				}
				for i := range n {
					f.Add(streamKey(&buf, 41+s, 1, i))
				}
				fp := 0
				for i := range uint64(Q) {
					if f.Contains(streamKey(&buf, 41+s, 2, i)) {
						fp++
					}
				}
				th, err := f.Model().FPR(f.Stats().Items)
				if err != nil {
					t.Fatal(err)
				}
				if th > c.p.P {
					t.Errorf("%s, %d keys: theory %v above P", c.name, n, th)
				}
				rates = append(rates, float64(fp)/Q)
				theory = append(theory, th)
			}
			mean, sd := meanSD(rates)
			th, _ := meanSD(theory)
			se := max(sd/math.Sqrt(F), math.Sqrt(th*(1-th)/(F*Q)))
			if z := (mean - th) / se; math.Abs(z) > 4 {
				t.Errorf("%s, %d keys: measured %.5f, theory %.5f, z = %.2f", c.name, n, mean, th, z)
			} else {
				t.Logf("%s, %d keys: measured %.5f ± %.5f, theory %.5f, z = %+.2f", c.name, n, mean, se, th, z)
			}
		}
	}
}

// TestHorizonLimits: the memory limit holds for a horizon-aware filter as
// for Almeida's: TryAdd refuses the key that needs a stage beyond
// MaxBytes with ErrMemoryLimit and leaves the filter as it was, Add
// records the error in Err and keeps the key, and a decoder refuses the
// filter's encoding under a receiver whose MaxBytes it exceeds.
func TestHorizonLimits(t *testing.T) {
	p := ScalableParams{P: 0.01, N0: 100, Estimate: 1000, MaxBytes: 4 << 10}
	f, err := NewScalable(p)
	if err != nil {
		t.Fatal(err)
	}
	var buf [16]byte
	var refused error
	for i := range uint64(100_000) {
		if err := f.TryAdd(streamKey(&buf, 5, 1, i)); err != nil {
			refused = err
			break
		}
	}
	if !errors.Is(refused, ErrMemoryLimit) {
		t.Fatalf("TryAdd: %v, want ErrMemoryLimit", refused)
	}
	before := f.Stats()
	if before.Bits/8 > 4<<10 {
		t.Fatalf("%d bytes of bits, MaxBytes 4096", before.Bits/8)
	}
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	small := Scalable{maxBytes: 1 << 10}
	if err := small.UnmarshalBinary(data); !errors.Is(err, ErrMemoryLimit) {
		t.Errorf("decoding under MaxBytes 1024: %v, want ErrMemoryLimit", err)
	}
	for i := range uint64(2_000) {
		f.Add(streamKey(&buf, 5, 2, i))
	}
	if !errors.Is(f.Err(), ErrMemoryLimit) || f.Stages() != len(before.Stages) {
		t.Errorf("Add past the limit: Err %v, %d stages (was %d)", f.Err(), f.Stages(), len(before.Stages))
	}
}
