package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// TestAgePartitioned checks the sizing of a window against analysis and
// the filter variants builds of it: the geometry, the rates through the
// cycle, and the memory as the filter holds it.
func TestAgePartitioned(t *testing.T) {
	out, errOut, err := runArgs("-json", "-variant", "age-partitioned", "-n", "5000", "-p", "1e-3", "-mem", "16KiB")
	if err != nil {
		t.Fatalf("%v %s", err, errOut)
	}
	var r ageResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	a, err := analysis.AgePartitionedSize(5000, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if r.K != a.K || r.L != a.L || r.G != a.G || r.SliceBits != a.SliceBits || r.Window != a.Window() || r.Window < 5000 ||
		r.WorstFPR != a.WorstFPR() || r.WorstFPR > 1e-3 || r.MeanFPR != a.MeanFPR() || r.LowFPR > r.MeanFPR || r.MeanFPR > r.WorstFPR {
		t.Errorf("bloomcalc %+v, analysis %+v", r, a)
	}
	f, err := variants.NewAgePartitioned(variants.AgePartitionedParams{K: a.K, L: a.L, G: a.G, SliceBits: a.SliceBits})
	if err != nil {
		t.Fatal(err)
	}
	if f.Model() != a || f.Window() != r.Window || f.Stats().Bits != r.M {
		t.Errorf("the filter built: model %+v, window %d, bits %d; bloomcalc: m %d", f.Model(), f.Window(), f.Stats().Bits, r.M)
	}
	if r.Bytes != uint64(a.Slices())*((a.SliceBits+63)/64*8) || r.Budget == nil || r.Budget.Fits != (r.Bytes <= 16<<10) {
		t.Errorf("bytes %d, budget %+v", r.Bytes, r.Budget)
	}
	for _, args := range [][]string{
		{"-variant", "age-partitioned", "-n", "1M"},
		{"-variant", "age-partitioned", "-n", "1M", "-p", "1%", "-m", "1MiB"},
		{"-variant", "age-partitioned", "-n", "1e14", "-p", "1e-300"},
		{"-variant", "age-partitioned", "-n", "1M", "-p", "1%", "-word", "64"},
	} {
		_, errOut, err := runArgs(args...)
		if exitCode(err) != 2 || strings.Count(errOut, "\n") != 2 {
			t.Errorf("bloomcalc %v: status %d, stderr %q; want one line and the hint", args, exitCode(err), errOut)
		}
	}
}

// TestAgePartitionedCancelled checks that a sizing of seconds (a window of
// 10^12 at 1e-15) returns once its context is done, not when the sizing
// ends.
func TestAgePartitionedCancelled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := run(ctx, []string{"-variant", "age-partitioned", "-n", "1e12", "-p", "1e-15"}, &strings.Builder{}, &strings.Builder{})
	if err != context.DeadlineExceeded || time.Since(start) > 500*time.Millisecond {
		t.Errorf("cancelled after 50ms: %v after %v", err, time.Since(start))
	}
}
