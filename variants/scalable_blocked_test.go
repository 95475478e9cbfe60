package variants

import (
	"math"
	"reflect"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// TestScalableBlockedRate measures scalable filters with blocked stages
// (B = 64 and 512) over 30 seeded filters each at four sizes and checks
// the mean rate against the compound theory of analysis.Scalable with
// BlockBits, at the stage loads actually reached, within 4 standard
// errors of the mean; the rate also stays below P. The item estimates
// (Stats.EstimatedItems) are checked the same way against the bias and
// spread analysis.Scalable.EstimateError predicts for blocked stages.
func TestScalableBlockedRate(t *testing.T) {
	t.Parallel()
	const (
		P  = 0.01
		n0 = 100
		F  = 30
		q  = 20_000
	)
	checkpoints := []uint64{100, 1000, 5000, 20_000}
	for _, b := range []int{64, 512} {
		g := analysis.Scalable{P: P, R: DefaultTighteningRatio, S: DefaultGrowth, N0: n0, BlockBits: uint64(b)}
		rates := make([][]float64, len(checkpoints))
		theory := make([]float64, len(checkpoints))
		memo := map[uint64]float64{}                   // the theory at an item count
		estErr := make([][]float64, len(checkpoints))  // estimate minus items, per filter
		predBias := make([]float64, len(checkpoints))  // mean predicted bias
		predVar := make([]float64, len(checkpoints))   // mean predicted variance
		memoEst := map[uint64]analysis.EstimateError{} // the predicted error at an item count
		for fi := range F {
			seed := uint64(500 + fi)
			f, err := NewScalable(ScalableParams{P: P, N0: n0, BlockBits: b, Hashing: Hashing{Seed: seed}})
			if err != nil {
				t.Fatal(err)
			}
			var buf [16]byte
			var offered uint64
			for ci, c := range checkpoints {
				for ; offered < c; offered++ {
					f.Add(streamKey(&buf, seed, 1, offered))
				}
				fp := 0
				for i := range uint64(q) {
					if f.Contains(streamKey(&buf, seed, byte(2+ci), i)) {
						fp++
					}
				}
				rates[ci] = append(rates[ci], float64(fp)/q)
				stats := f.Stats()
				items := stats.Items
				pe, ok := memoEst[items]
				if !ok {
					if pe, err = g.EstimateError(items); err != nil {
						t.Fatal(err)
					}
					memoEst[items] = pe
				}
				estErr[ci] = append(estErr[ci], stats.EstimatedItems-float64(items))
				predBias[ci] += pe.Bias / F
				predVar[ci] += pe.StdDev * pe.StdDev / F
				th, ok := memo[items]
				if !ok {
					if th, err = g.FPR(items); err != nil {
						t.Fatal(err)
					}
					memo[items] = th
				}
				theory[ci] += th / F
			}
		}
		for ci, c := range checkpoints {
			mean, sd := meanSD(rates[ci])
			se := sd / math.Sqrt(F)
			t.Logf("B = %d, %6d keys: mean rate %.4e ± %.1e, theory %.4e (%.2f SE)", b, c, mean, se, theory[ci], (mean-theory[ci])/se)
			if math.Abs(mean-theory[ci]) > 4*se {
				t.Errorf("B = %d at %d keys: mean rate %.4e is %.1f standard errors from the theory %.4e", b, c, mean, (mean-theory[ci])/se, theory[ci])
			}
			if mean >= P {
				t.Errorf("B = %d at %d keys: mean rate %.4e, target %g", b, c, mean, P)
			}
			em, esd := meanSD(estErr[ci])
			ese := math.Sqrt(predVar[ci] / F)
			t.Logf("B = %d, %6d keys: estimate error %.2f (sd %.2f), predicted bias %.2f (sd %.2f)", b, c, em, esd, predBias[ci], math.Sqrt(predVar[ci]))
			if math.Abs(em-predBias[ci]) > 4*ese {
				t.Errorf("B = %d at %d keys: mean estimate error %.2f is %.1f predicted standard errors from the predicted bias %.2f", b, c, em, (em-predBias[ci])/ese, predBias[ci])
			}
		}
	}
}

// TestScalableBlockedParams: bad block sizes and derivations are errors
// that name the problem, and Params round-trips the block size.
func TestScalableBlockedParams(t *testing.T) {
	for _, p := range []ScalableParams{
		{P: 0.01, BlockBits: 100},
		{P: 0.01, BlockBits: 32},
		{P: 0.01, BlockBits: 8192},
		{P: 0.01, BlockBits: 512, Hashing: Hashing{Derivation: Double}},
	} {
		if _, err := NewScalable(p); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
	f, err := NewScalable(ScalableParams{P: 0.01, BlockBits: 256})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Params().BlockBits; got != 256 {
		t.Errorf("Params().BlockBits = %d, want 256", got)
	}
}

// TestScalableBlockedRoundTrip: a scalable filter with blocked stages
// encodes, decodes to an equal filter that answers alike and grows alike,
// and is refused by a partitioned-stage decoder of another variant type.
func TestScalableBlockedRoundTrip(t *testing.T) {
	f, err := NewScalable(ScalableParams{P: 0.01, N0: 50, BlockBits: 128, Hashing: Hashing{Seed: 5}})
	if err != nil {
		t.Fatal(err)
	}
	keys := testKeys(41, 1, 1000)
	for _, k := range keys[:600] {
		f.Add(k)
	}
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var g Scalable
	if err := g.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !f.Equal(&g) {
		t.Fatal("decoded filter differs")
	}
	for _, k := range keys[600:] {
		f.Add(k)
		g.Add(k)
	}
	if !f.Equal(&g) || f.Stages() < 4 {
		t.Fatalf("the decoded filter grew differently (%d stages)", f.Stages())
	}
	if _, err := Unmarshal(data); err != nil {
		t.Errorf("Unmarshal: %v", err)
	}
	var b Blocked
	if err := b.UnmarshalBinary(data); err == nil {
		t.Error("a blocked filter decoded a scalable one")
	}
}

// TestStageCache: a scalable filter with blocked stages has the stages of
// analysis.Scalable.Stage whether it sizes them itself or finds them in
// stageCache, sized by an earlier filter with the same parameters.
func TestStageCache(t *testing.T) {
	p := ScalableParams{P: 0.02, N0: 50, BlockBits: 256}
	geom := func(f *Scalable) []StageStats {
		var out []StageStats
		for _, s := range f.Stats().Stages {
			out = append(out, StageStats{Capacity: s.Capacity, Hashes: s.Hashes, Bits: s.Bits, Error: s.Error})
		}
		return out
	}
	build := func() *Scalable {
		f, err := NewScalable(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3000 {
			f.Add([]byte{byte(i), byte(i >> 8), 7})
		}
		return f
	}
	clearStageCache()
	cold := build()
	if _, ok := cachedStage(cold.geom, 3); !ok {
		t.Fatal("stage 3 not cached after a filter sized it")
	}
	warm := build()
	a, b := geom(cold), geom(warm)
	if len(a) < 5 || !reflect.DeepEqual(a, b) {
		t.Fatalf("stages sized %v, from the cache %v", a, b)
	}
	for i, s := range a {
		want, err := cold.geom.Stage(i)
		if err != nil {
			t.Fatal(err)
		}
		if s.Capacity != want.Capacity || s.Hashes != want.Hashes || s.Bits != want.Bits {
			t.Errorf("stage %d: %+v, analysis %+v", i, s, want)
		}
	}
}

// cachedStage returns the cached geometry of stage i of geom, if any.
func cachedStage(geom ScalableModel, i int) (analysis.Stage, bool) {
	stageCache.Lock()
	defer stageCache.Unlock()
	st, ok := stageCache.m[stageKey{geom, i}]
	return st, ok
}
