package variants

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// probeMeasure fills filters seeded RedisBloom filters of params p (Seed
// 100 + i) with items keys each, queries each with queries keys never
// added, and returns the mean of the filters' rates, its standard error
// from the between-filter spread, and the mean Stats().Items. Keys are
// 16 bytes, streamed from a PCG generator per filter: 8 random bytes, the
// key's number, and the set (1 added, 2 queried) in the last byte.
func probeMeasure(t *testing.T, p RedisBloomParams, filters, items, queries int) (mean, se, added float64) {
	t.Helper()
	key := make([]byte, 16)
	next := func(r *rand.Rand, j int, set byte) []byte {
		binary.LittleEndian.PutUint64(key, r.Uint64())
		binary.LittleEndian.PutUint64(key[8:], uint64(j))
		key[15] = set
		return key
	}
	var sum, sum2 float64
	for i := range filters {
		p.Seed = uint64(100 + i)
		f, err := NewRedisBloom(p)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(7000+i), 1))
		for j := range items {
			f.Add(next(r, j, 1))
		}
		r = rand.New(rand.NewPCG(uint64(7000+i), 2))
		fp := 0
		for j := range queries {
			if f.Contains(next(r, j, 2)) {
				fp++
			}
		}
		rate := float64(fp) / float64(queries)
		sum += rate
		sum2 += rate * rate
		added += float64(f.Stats().Items)
	}
	n := float64(filters)
	mean = sum / n
	return mean, math.Sqrt((sum2/n - mean*mean) / (n - 1)), added / n
}

// probeCheck measures p and compares the mean rate with the probe
// theory (analysis.RedisBloom.ProbeTheory) and with independent probes
// (FPR), both at the mean items inserted: it logs both z scores and fails
// if the probe theory is more than 4 standard errors away.
func probeCheck(t *testing.T, name string, p RedisBloomParams, filters, items, queries int) {
	t.Helper()
	mean, se, added := probeMeasure(t, p, filters, items, queries)
	geom := analysis.RedisBloom{ErrorRate: p.ErrorRate, Capacity: p.Capacity, Expansion: DefaultRedisExpansion, PowerOfTwo: p.PowerOfTwo}
	n := uint64(math.Round(added))
	probe, err := geom.ProbeFPR(n)
	if err != nil {
		t.Fatal(err)
	}
	old, err := geom.FPR(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d filters, %d items offered (%.0f inserted), %d queries each: measured %.6g ± %.3g (SE); probe theory %.6g (z %+.2f); independent probes %.6g (z %+.2f)",
		name, filters, items, added, queries, mean, se, probe, (mean-probe)/se, old, (mean-old)/se)
	if math.Abs(mean-probe) > 4*se {
		t.Errorf("%s: measured %.6g, probe theory %.6g, more than 4 standard errors (%.3g) apart", name, mean, probe, se)
	}
}

// TestRedisBloomProbeRate: chains of BF.RESERVE 0.01 and 0.001, capacity
// 1000, expansion 2, NOROUND and power-of-two tables, grown to 7000 keys
// (three links), against the probe theory; and link 0 of the NOROUND
// chain at 0.001 (15872 bits, 11 hashes) at its capacity, where the
// probe sequence raises the rate about 6% above independent probes
// (paper-notes.md §13h), with enough queries to tell the two apart.
func TestRedisBloomProbeRate(t *testing.T) {
	t.Parallel()
	for _, rate := range []float64{0.01, 0.001} {
		for _, pow2 := range []bool{false, true} {
			name := "noround"
			if pow2 {
				name = "power-of-two"
			}
			probeCheck(t, name+" "+formatRate(rate)+" 7000 keys", RedisBloomParams{ErrorRate: rate, Capacity: 1000, PowerOfTwo: pow2}, 24, 7000, 20000)
		}
	}
	queries := 100000
	if testing.Short() {
		queries = 10000
	}
	probeCheck(t, "noround 0.001 link 0 at capacity", RedisBloomParams{ErrorRate: 0.001, Capacity: 1000}, 100, 1000, queries)
}

// TestRedisBloomProbeRateMillion is the measurement of paper-notes.md
// §13h: 20 filters of 10^6 keys, 2*10^6 queries each, at error rates 0.01
// and 0.001, NOROUND and power-of-two tables. It takes a few minutes, so
// it runs only with BLOOMLAB_LONG=1 and without -short:
//
//	BLOOMLAB_LONG=1 go test ./variants -run RedisBloomProbeRateMillion -v -timeout 30m
func TestRedisBloomProbeRateMillion(t *testing.T) {
	if testing.Short() || os.Getenv("BLOOMLAB_LONG") == "" {
		t.Skip("set BLOOMLAB_LONG=1 (and no -short) for the 10^6-key measurement")
	}
	for _, rate := range []float64{0.01, 0.001} {
		for _, pow2 := range []bool{false, true} {
			name := "noround"
			if pow2 {
				name = "power-of-two"
			}
			t.Run(name+"-"+formatRate(rate), func(t *testing.T) {
				t.Parallel()
				probeCheck(t, name+" "+formatRate(rate)+" 10^6 keys", RedisBloomParams{ErrorRate: rate, Capacity: 1000, PowerOfTwo: pow2}, 20, 1_000_000, 2_000_000)
			})
		}
	}
}

func formatRate(r float64) string {
	if r == 0.01 {
		return "0.01"
	}
	return "0.001"
}
