package variants

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"gonum.org/v1/gonum/stat/distuv"
)

// streamKey writes into buf the i-th key of a stream tagged by seed and
// set: streams with different (seed, set) never share a key. It lets the
// growth tests use millions of keys without holding them.
func streamKey(buf *[16]byte, seed uint64, set byte, i uint64) []byte {
	binary.LittleEndian.PutUint64(buf[:8], i)
	binary.LittleEndian.PutUint64(buf[8:], seed<<8|uint64(set))
	return buf[:]
}

// expectedStages returns the number of stages a filter with parameters g
// has after inserting items keys, from the stage geometry: stage j starts
// when stages 0 .. j-1, of total capacity C_(j-1), are full and one more key
// arrives, so the count is the least j+1 with C_j >= items.
func expectedStages(t *testing.T, g analysis.Scalable, items uint64) int {
	t.Helper()
	var total uint64
	for j := 0; ; j++ {
		st, err := g.Stage(j)
		if err != nil {
			t.Error(err) // Error, not Fatal: callers may run in other goroutines
			return -1
		}
		total += st.Capacity
		if total >= items {
			return j + 1
		}
	}
}

// TestScalableGrowthRate grows F seeded filters (different hash seeds) from
// n0 = 1000 to 1,000,000 items, 1000 times the initial capacity, at
// P = 0.001. At every tenfold checkpoint each filter answers Q queries of
// keys never added; the mean of the per-filter rates and its one-sided 99%
// Student-t upper bound must both lie below P. The mean must also agree,
// within 4 standard errors, with the mean of the filters' own estimates
// (Stats.EstimatedFPR, the compound rate at the current fill), which holds
// only if the stages' false positives are independent. Checks the stage
// count against the geometry and the absence of false negatives on a sample.
func TestScalableGrowthRate(t *testing.T) {
	t.Parallel()
	const (
		P  = 0.001
		n0 = 1000
		F  = 20
	)
	final, q := uint64(1_000_000), 50_000
	if testing.Short() {
		final, q = 100_000, 20_000
	}
	var checkpoints []uint64
	for c := uint64(n0); c <= final; c *= 10 {
		checkpoints = append(checkpoints, c)
	}
	// rates[c][j] and estimates[c][j] are filter j's measured and estimated
	// rates at checkpoint c. The filters are independent, so they are
	// grown concurrently, one per processor.
	rates := make([][]float64, len(checkpoints))
	estimates := make([][]float64, len(checkpoints))
	for c := range checkpoints {
		rates[c] = make([]float64, F)
		estimates[c] = make([]float64, F)
	}
	g := analysis.Scalable{P: P, R: DefaultTighteningRatio, S: DefaultGrowth, N0: n0}
	grow := func(fi int) {
		seed := uint64(1000 + fi)
		f, err := NewScalable(ScalableParams{P: P, N0: n0, Hashing: Hashing{Seed: seed}})
		if err != nil {
			t.Error(err)
			return
		}
		var buf [16]byte
		var offered uint64
		for ci, c := range checkpoints {
			for ; offered < c; offered++ {
				f.Add(streamKey(&buf, seed, 1, offered))
			}
			for i := uint64(0); i < offered; i += 997 {
				if !f.Contains(streamKey(&buf, seed, 1, i)) {
					t.Errorf("filter %d at %d keys: false negative for key %d", fi, c, i)
					return
				}
			}
			fp := 0
			for i := range uint64(q) {
				if f.Contains(streamKey(&buf, seed, byte(2+ci), i)) {
					fp++
				}
			}
			st := f.Stats()
			rates[ci][fi] = float64(fp) / float64(q)
			estimates[ci][fi] = st.EstimatedFPR
			if want := expectedStages(t, g, st.Items); len(st.Stages) != want || f.Stages() != want {
				t.Errorf("filter %d at %d keys (%d items): %d stages, want %d from the geometry", fi, c, st.Items, len(st.Stages), want)
			}
			if st.Items > offered || offered-st.Items > offered/100 {
				t.Errorf("filter %d: %d items of %d distinct keys offered; skips should be rare", fi, st.Items, offered)
			}
			if st.EstimatedFPR >= P {
				t.Errorf("filter %d at %d keys: estimated rate %v, target %v", fi, c, st.EstimatedFPR, P)
			}
		}
	}
	next := make(chan int, F)
	for fi := range F {
		next <- fi
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), F) {
		wg.Go(func() {
			for fi := range next {
				grow(fi)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: F - 1}.Quantile(0.99)
	for ci, c := range checkpoints {
		mean, sd := meanSD(rates[ci])
		upper := mean + tq*sd/math.Sqrt(F)
		est, _ := meanSD(estimates[ci])
		// Given its fill, filter j's count of false positives is binomial
		// with rate estimates[ci][j]; the standard error of the mean rate
		// follows.
		var v float64
		for _, e := range estimates[ci] {
			v += e * (1 - e) / float64(q)
		}
		se := math.Sqrt(v) / F
		t.Logf("%8d keys: mean rate %.3e, 99%% upper bound %.3e, mean estimate %.3e (target %g)", c, mean, upper, est, P)
		if mean >= P || upper >= P {
			t.Errorf("at %d keys: mean rate %.3e, upper bound %.3e; want both below P = %g", c, mean, upper, P)
		}
		if math.Abs(mean-est) > 4*se {
			t.Errorf("at %d keys: mean rate %.3e differs from the mean estimate %.3e by %.1f standard errors", c, mean, est, (mean-est)/se)
		}
	}
}

func meanSD(x []float64) (mean, sd float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		sd += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(sd / float64(len(x)-1))
}

// TestScalableFromOne grows filters whose first stage holds one item to a
// million items: the stage count is the geometry's (about log2(10^6) + 1),
// no sampled key is lost, and the estimated rate stays below P. The
// measured rate must stay below P with triple hashing; with the default
// enhanced double hashing the tiny first stages exceed their design error
// (see the Scalable documentation), so there it is only logged.
func TestScalableFromOne(t *testing.T) {
	t.Parallel()
	const P = 0.001
	n := uint64(1_000_000)
	if testing.Short() {
		n = 100_000
	}
	for _, h := range []Hashing{{}, {Derivation: Double}, {Derivation: Triple}} {
		t.Run(h.Derivation.String(), func(t *testing.T) {
			f, err := NewScalable(ScalableParams{P: P, N0: 1, Hashing: h})
			if err != nil {
				t.Fatal(err)
			}
			var buf [16]byte
			for i := range n {
				f.Add(streamKey(&buf, 7, 1, i))
			}
			st := f.Stats()
			want := expectedStages(t, analysis.Scalable{P: P, R: DefaultTighteningRatio, S: 2, N0: 1}, st.Items)
			if log := math.Log2(float64(n)) + 1; len(st.Stages) != want || math.Abs(float64(want)-log) > 1 {
				t.Errorf("%d stages for %d items, want %d (log2(n) + 1 = %.1f)", len(st.Stages), st.Items, want, log)
			}
			if f.Err() != nil {
				t.Errorf("Err() = %v", f.Err())
			}
			for i := uint64(0); i < n; i += 7 {
				if !f.Contains(streamKey(&buf, 7, 1, i)) {
					t.Fatalf("false negative for key %d", i)
				}
			}
			const q = 100_000
			fp := 0
			for i := range uint64(q) {
				if f.Contains(streamKey(&buf, 7, 2, i)) {
					fp++
				}
			}
			rate := float64(fp) / q
			t.Logf("%d items in %d stages, %.1f bits per key, rate %.2e, estimate %.2e", st.Items, len(st.Stages), float64(st.Bits)/float64(st.Items), rate, st.EstimatedFPR)
			if st.EstimatedFPR >= P {
				t.Errorf("estimated rate %v, want below %v", st.EstimatedFPR, P)
			}
			if rate >= P {
				t.Errorf("measured rate %v, want below %v", rate, P)
			}
		})
	}
}

// streamReference sets in p the bits that stage i of the stream
// derivation sets for digest d, written out from the definition in the
// Scalable doc comment rather than with the filter's loops. With the seed
// s = H1 xor (H2 rotated left by 32) and the wyrand outputs
// v_t = hi xor lo of x (x xor 0xe7037ed1a0b428db), x = s + t 0xa0761d6478bd642f,
// slice j of stage i gets bit floor(h b / 2^32) of the half h (low for
// even j, high for odd j) of output t = 4096 i + j/2 + 1, or, for slices
// of more than 2^24 bits, bit floor(v b / 2^64) of output 4096 i + j + 1.
func streamReference(p *Partitioned, i int, d Digest) {
	s := d.H1 ^ (d.H2<<32 | d.H2>>32)
	out := func(t uint64) uint64 {
		x := s + t*0xa0761d6478bd642f
		hi, lo := bits.Mul64(x, x^0xe7037ed1a0b428db)
		return hi ^ lo
	}
	b := p.sliceBits
	for j := range uint64(p.k) {
		var idx uint64
		if b > 1<<24 {
			idx, _ = bits.Mul64(out(uint64(i)*4096+j+1), b)
		} else {
			h := out(uint64(i)*4096 + j/2 + 1)
			if j%2 == 1 {
				h >>= 32
			}
			idx = (h & 0xffffffff) * b >> 32
		}
		p.words[j*p.sliceWords+idx/64] |= 1 << (idx % 64)
	}
	p.items++
}

// TestScalableStages checks the stages against analysis.Scalable.Stage, the
// sums in Stats, and that stage i holds exactly the bits of the keys it
// received: those of the stream derivation (streamReference) by default,
// and those of a partitioned filter fed the digests d.remix(i) for the
// other derivations.
func TestScalableStages(t *testing.T) {
	for _, p := range []ScalableParams{
		{P: 0.01, N0: 100},
		{P: 0.001, R: 0.8, S: 4, N0: 50, Hashing: Hashing{Kind: Metro, Seed: 3}},
		{P: 0.05, R: 0.5, S: 1.25, N0: 300, Hashing: Hashing{Derivation: Independent}},
		{P: 0.001, R: 0.85, S: 1.5, N0: 7, Hashing: Hashing{Derivation: Triple, Seed: 9}},
	} {
		t.Run(fmt.Sprintf("%+v", p), func(t *testing.T) {
			f, err := NewScalable(p)
			if err != nil {
				t.Fatal(err)
			}
			g := f.Params()
			geom := analysis.Scalable{P: g.P, R: g.R, S: g.S, N0: g.N0}
			keys := testKeys(51, 1, 20*int(p.N0))
			var perStage [][]Digest
			for _, k := range keys {
				before := f.Stages()
				if f.TestAndAdd(k) {
					continue
				}
				if f.Stages() > before && f.Stages() != before+1 {
					t.Fatalf("grew from %d to %d stages in one add", before, f.Stages())
				}
				for len(perStage) < f.Stages() {
					perStage = append(perStage, nil)
				}
				i := f.Stages() - 1
				perStage[i] = append(perStage[i], g.Hashing.Digest(k))
			}
			st := f.Stats()
			var cells, capacity, items uint64
			logPass := 0.0
			for i, s := range st.Stages {
				want, err := geom.Stage(i)
				if err != nil {
					t.Fatal(err)
				}
				if s.Capacity != want.Capacity || s.Hashes != want.Hashes || s.Bits != want.Bits || s.Error != want.Error {
					t.Errorf("stage %d: %+v, geometry %+v", i, s, want)
				}
				if s.Items != uint64(len(perStage[i])) || s.Items > s.Capacity {
					t.Errorf("stage %d: %d items, %d digests sent, capacity %d", i, s.Items, len(perStage[i]), s.Capacity)
				}
				ref, err := NewPartitioned(Geometry{Bits: want.Bits, Hashes: want.Hashes}, g.Hashing)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range perStage[i] {
					if f.stream {
						streamReference(ref, i, d)
					} else {
						ref.AddDigest(d.remix(i))
					}
				}
				if !slices.Equal(ref.words, f.stages[i].f.words) {
					t.Errorf("stage %d: bits differ from the reference (stream %v)", i, f.stream)
				}
				if rs := ref.Stats(); rs.FillRatio != s.FillRatio || rs.EstimatedFPR != s.EstimatedFPR {
					t.Errorf("stage %d: fill %v estimate %v, reference %v %v", i, s.FillRatio, s.EstimatedFPR, rs.FillRatio, rs.EstimatedFPR)
				}
				cells += s.Bits
				capacity += s.Capacity
				items += s.Items
				logPass += math.Log1p(-s.EstimatedFPR)
			}
			last := st.Stages[len(st.Stages)-1]
			if st.Variant != "scalable" || st.Cells != cells || st.Bits != cells || st.CellBits != 1 || st.Capacity != capacity ||
				st.Items != items || st.Hashes != last.Hashes {
				t.Errorf("Stats %+v inconsistent with its stages", st)
			}
			if want := -math.Expm1(logPass); math.Abs(st.EstimatedFPR-want) > 1e-15 {
				t.Errorf("EstimatedFPR %v, want 1 - prod(1 - f_i) = %v", st.EstimatedFPR, want)
			}
			if len(st.Stages) < 3 {
				t.Errorf("only %d stages; the test should grow several", len(st.Stages))
			}
		})
	}
}

// TestScalableSkipsPresent: keys that test present, repeats in particular,
// are not inserted again, so they do not fill stages.
func TestScalableSkipsPresent(t *testing.T) {
	f, err := NewScalable(ScalableParams{P: 0.01, N0: 100})
	if err != nil {
		t.Fatal(err)
	}
	keys := testKeys(61, 1, 1000)
	for _, k := range keys {
		f.Add(k)
	}
	st := f.Stats()
	for range 3 {
		for _, k := range keys {
			if !f.TestAndAdd(k) {
				t.Fatalf("TestAndAdd of a repeat reported absent")
			}
			f.Add(k)
			f.AddDigest(f.Hashing().Digest(k))
		}
	}
	if again := f.Stats(); again.Items != st.Items || len(again.Stages) != len(st.Stages) {
		t.Errorf("repeats changed the filter: %d items in %d stages, then %d in %d", st.Items, len(st.Stages), again.Items, len(again.Stages))
	}
}

// TestScalableCannotGrow: a filter whose stage rules allow no further
// stage (here blocks of 64 bits, which cannot serve the stage errors of
// r = 0.5 beyond a few stages: MaxBlockedStageCost) refuses keys from
// TryAdd with ErrStageLimit and stays unchanged; Add keeps adding to its
// newest stage, loses no key, reports the error through Err and shows the
// overflow in Stats; Reset clears it.
func TestScalableCannotGrow(t *testing.T) {
	f, err := NewScalable(ScalableParams{P: 0.01, R: 0.5, S: 2, N0: 2, BlockBits: 64})
	if err != nil {
		t.Fatal(err)
	}
	keys := testKeys(71, 1, 2000)
	var refused error
	for _, k := range keys {
		if refused = f.TryAdd(k); refused != nil {
			break
		}
	}
	if !errors.Is(refused, ErrStageLimit) || !strings.HasPrefix(refused.Error(), "variants: ") || !strings.Contains(refused.Error(), "BlockBits = 64") {
		t.Fatalf("TryAdd = %v, want ErrStageLimit naming BlockBits", refused)
	}
	if f.Err() != nil {
		t.Errorf("Err() = %v after a refused TryAdd, want nil", f.Err())
	}
	before := f.Stats()
	last := before.Stages[len(before.Stages)-1]
	if last.Items != last.Capacity || before.Bits/8 > 1<<20 {
		t.Errorf("after TryAdd refused: newest stage %d of %d items, %d bytes", last.Items, last.Capacity, before.Bits/8)
	}
	t.Logf("stops at %d stages, %d items, %d bytes: %v", len(before.Stages), before.Items, before.Bits/8, refused)
	for _, k := range keys {
		f.Add(k)
	}
	err = f.Err()
	if !errors.Is(err, ErrStageLimit) || !strings.Contains(err.Error(), fmt.Sprintf("stage %d", len(before.Stages))) {
		t.Errorf("Err() = %v", err)
	}
	for _, k := range keys {
		if !f.Contains(k) {
			t.Fatalf("false negative for %x after the filter stopped growing", k)
		}
	}
	st := f.Stats()
	last = st.Stages[len(st.Stages)-1]
	if len(st.Stages) != len(before.Stages) || last.Items <= last.Capacity {
		t.Errorf("%d stages, last holds %d of capacity %d; want %d stages and the overflow visible", len(st.Stages), last.Items, last.Capacity, len(before.Stages))
	}
	f.Reset()
	if f.Err() != nil || f.Stages() != 1 || f.Stats().Items != 0 {
		t.Errorf("after Reset: Err %v, %d stages, %d items", f.Err(), f.Stages(), f.Stats().Items)
	}
}

// TestScalableResetReuses: after Reset the filter starts again from one
// empty stage, and growing again reuses (and clears) the kept stages
// without allocating.
func TestScalableResetReuses(t *testing.T) {
	f, err := NewScalable(ScalableParams{P: 0.01, N0: 64})
	if err != nil {
		t.Fatal(err)
	}
	a, b := testKeys(81, 1, 2000), testKeys(81, 2, 2000)
	for _, k := range a {
		f.Add(k)
	}
	stages := f.Stages()
	f.Reset()
	if st := f.Stats(); len(st.Stages) != 1 || st.FillRatio != 0 || st.Items != 0 {
		t.Fatalf("after Reset: %+v", st)
	}
	i := 0
	allocs := testing.AllocsPerRun(len(b)-1, func() {
		f.Add(b[i])
		i++
	})
	if allocs != 0 {
		t.Errorf("growing again after Reset: %v allocations per add", allocs)
	}
	if f.Stages() < stages-1 {
		t.Errorf("%d stages after refilling, %d before Reset", f.Stages(), stages)
	}
	fp := 0
	for _, k := range a {
		if f.Contains(k) {
			fp++
		}
	}
	if fp > len(a)/20 {
		t.Errorf("%d of %d keys added before Reset test present: reused stages not cleared", fp, len(a))
	}
}

// TestScalableParams checks defaults and that every invalid parameter
// gives an error wrapping ErrInvalidParams that names it.
func TestScalableParams(t *testing.T) {
	f, err := NewScalable(ScalableParams{P: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Params(), (ScalableParams{P: 0.01, R: 0.9, S: 2, N0: 1000}); got != want {
		t.Errorf("defaults: %+v, want %+v", got, want)
	}
	if st := f.Stats(); len(st.Stages) != 1 || st.Capacity != 1000 {
		t.Errorf("new filter: %+v", st)
	}
	tests := []struct {
		p    ScalableParams
		want string
	}{
		{ScalableParams{}, "P = 0"},
		{ScalableParams{P: -0.1}, "P = -0.1"},
		{ScalableParams{P: 1}, "P = 1"},
		{ScalableParams{P: math.NaN()}, "P = NaN"},
		{ScalableParams{P: 0.01, R: 1}, "tightening ratio r = 1"},
		{ScalableParams{P: 0.01, R: -0.5}, "tightening ratio r = -0.5"},
		{ScalableParams{P: 0.01, R: math.NaN()}, "tightening ratio r = NaN"},
		{ScalableParams{P: 0.01, S: 0.5}, "growth factor s = 0.5"},
		{ScalableParams{P: 0.01, S: math.Inf(1)}, "growth factor s = +Inf"},
		{ScalableParams{P: 0.01, S: math.NaN()}, "growth factor s = NaN"},
		{ScalableParams{P: 0.01, N0: MaxBits + 1}, "initial capacity n0"},
		{ScalableParams{P: 0.01, N0: 1 << 40}, "memory"},
		{ScalableParams{P: 0.01, Hashing: Hashing{Kind: 9}}, "hash kind 9"},
		{ScalableParams{P: 0.01, Hashing: Hashing{Derivation: 9}}, "derivation 9"},
	}
	for _, tt := range tests {
		f, err := NewScalable(tt.p)
		if err == nil {
			t.Errorf("%+v: no error; got %+v", tt.p, f.Stats())
			continue
		}
		if f != nil {
			t.Errorf("%+v: non-nil filter returned with an error", tt.p)
		}
		if !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v: error %q does not wrap ErrInvalidParams", tt.p, err)
		}
		if !strings.HasPrefix(err.Error(), "variants: ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %q, want it to start with %q and mention %q", tt.p, err, "variants: ", tt.want)
		}
	}
}

// TestScalableAddNoAllocs: inserting fresh keys, not only repeats, does not
// allocate while no stage is added.
func TestScalableAddNoAllocs(t *testing.T) {
	f, err := NewScalable(ScalableParams{P: 0.001, N0: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	keys := testKeys(91, 1, 10_000)
	i := 0
	allocs := testing.AllocsPerRun(len(keys)-1, func() {
		f.Add(keys[i])
		f.Contains(keys[i])
		i++
	})
	if allocs != 0 {
		t.Errorf("%v allocations per add", allocs)
	}
}
