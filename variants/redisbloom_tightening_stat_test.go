package variants

import (
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// tighteningRow is one measured row of the tightening table: chains of
// BF.RESERVE ErrorRate 1000 EXPANSION 2 with link i's error
// ErrorRate (1-r) r^i (r = 0.5 is RedisBloom's own).
type tighteningRow struct {
	rate, r        float64
	links          int
	bitsPerItem    float64 // bits of the links per item offered, as §13d counts them
	mean, se       float64 // measured rate over the filters, its standard error
	added          float64 // mean items inserted
	probe, indep   float64 // ProbeFPR and FPR at the mean items inserted
	zProbe, zIndep float64
}

// tighteningMeasure measures the chain of rate and tightening r (the
// filters of probeMeasure, Seed 100 + i) and compares it with the probe
// theory at the mean items inserted.
func tighteningMeasure(t *testing.T, rate, r float64, filters, items, queries int) tighteningRow {
	t.Helper()
	p := RedisBloomParams{ErrorRate: rate, Capacity: 1000, Tightening: r}
	mean, se, added := probeMeasure(t, p, filters, items, queries)
	geom := analysis.RedisBloom{ErrorRate: rate, Capacity: 1000, Expansion: DefaultRedisExpansion, Tightening: r}
	n := uint64(math.Round(added))
	probe, err := geom.ProbeFPR(n)
	if err != nil {
		t.Fatal(err)
	}
	indep, err := geom.FPR(n)
	if err != nil {
		t.Fatal(err)
	}
	links, err := geom.Links(n)
	if err != nil {
		t.Fatal(err)
	}
	bpk, err := geom.BitsPerKey(uint64(items))
	if err != nil {
		t.Fatal(err)
	}
	row := tighteningRow{rate: rate, r: r, links: len(links), bitsPerItem: bpk, mean: mean, se: se, added: added,
		probe: probe, indep: indep, zProbe: (mean - probe) / se, zIndep: (mean - indep) / se}
	t.Logf("error rate %v tightening %v: %d filters, %d items offered (%.0f inserted), %d queries each: %d links, %.3f bits per item; measured %.6g ± %.3g (SE); probe theory %.6g (z %+.2f); independent probes %.6g (z %+.2f)",
		rate, r, filters, items, added, queries, row.links, bpk, mean, se, probe, row.zProbe, indep, row.zIndep)
	if math.Abs(mean-probe) > 4*se {
		t.Errorf("error rate %v tightening %v: measured %.6g, probe theory %.6g, more than 4 standard errors (%.3g) apart", rate, r, mean, probe, se)
	}
	return row
}

// TestRedisBloomTighteningRate: chains of error rate 0.01 and 0.001,
// capacity 1000, expansion 2, with tightenings 0.5 (RedisBloom's), 0.7 and
// 0.9, grown to 31000 keys (five links), measured against the probe
// theory with the tightening's links (within 4 standard errors).
func TestRedisBloomTighteningRate(t *testing.T) {
	t.Parallel()
	queries := 20000
	if testing.Short() {
		queries = 5000
	}
	for _, rate := range []float64{0.01, 0.001} {
		for _, r := range []float64{0.5, 0.7, 0.9} {
			tighteningMeasure(t, rate, r, 12, 31000, queries)
		}
	}
}

// TestRedisBloomTighteningMillion is the measurement of paper-notes.md
// §13l: for error rates 0.01 and 0.001 and tightenings 0.5 to 0.9, 20
// filters of 10^6 keys offered, 10^6 absent queries each, against the
// probe theory, with the links and bits per item of each chain. It takes
// several minutes, so it runs only with BLOOMLAB_LONG=1 and without
// -short; BLOOMLAB_TIGHTENING_FILTERS sets fewer (or more) filters:
//
//	BLOOMLAB_LONG=1 go test ./variants -run RedisBloomTighteningMillion -v -timeout 60m
func TestRedisBloomTighteningMillion(t *testing.T) {
	if testing.Short() || os.Getenv("BLOOMLAB_LONG") == "" {
		t.Skip("set BLOOMLAB_LONG=1 (and no -short) for the 10^6-key measurement")
	}
	filters := 20
	if s := os.Getenv("BLOOMLAB_TIGHTENING_FILTERS"); s != "" {
		if _, err := fmt.Sscan(s, &filters); err != nil || filters < 2 {
			t.Fatalf("BLOOMLAB_TIGHTENING_FILTERS = %q, want an integer >= 2", s)
		}
	}
	rs := []float64{0.5, 0.6, 0.7, 0.8, 0.9}
	var mu sync.Mutex
	rows := map[[2]float64]tighteningRow{}
	t.Run("rates", func(t *testing.T) {
		for _, rate := range []float64{0.01, 0.001} {
			for _, r := range rs {
				t.Run(fmt.Sprintf("%v-%v", rate, r), func(t *testing.T) {
					t.Parallel()
					row := tighteningMeasure(t, rate, r, filters, 1_000_000, 1_000_000)
					mu.Lock()
					rows[[2]float64{rate, r}] = row
					mu.Unlock()
				})
			}
		}
	})
	var b strings.Builder
	b.WriteString("\n| error_rate | r | links | bits/item | saving vs r = 0.5 | items inserted | measured ± SE | ProbeFPR (z) | FPR (z) |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, rate := range []float64{0.01, 0.001} {
		base, ok := rows[[2]float64{rate, 0.5}]
		for _, r := range rs {
			row, have := rows[[2]float64{rate, r}]
			if !have || !ok {
				continue
			}
			fmt.Fprintf(&b, "| %v | %v | %d | %.2f | %.2f (%.1f%%) | %.0f | %.6g ± %.2g | %.6g (%+.2f) | %.6g (%+.2f) |\n",
				rate, r, row.links, row.bitsPerItem, base.bitsPerItem-row.bitsPerItem, 100*(base.bitsPerItem-row.bitsPerItem)/base.bitsPerItem,
				row.added, row.mean, row.se, row.probe, row.zProbe, row.indep, row.zIndep)
		}
	}
	t.Log(b.String())
}
