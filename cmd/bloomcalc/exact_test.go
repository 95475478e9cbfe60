package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
)

// TestRunExactSizing checks that -n and -p print both geometries: the
// issue's case, n = 1e6 at p = 1%, whose classic geometry (m = 9,585,059,
// k = 7) has exact rate 1.0039%, 0.39% above p, and the exact sizing of
// analysis.ExactStandardSize; the JSON form carries the same; with -m there is no
// sizing to compare and nothing is added.
func TestRunExactSizing(t *testing.T) {
	out, _, err := runArgs("-n", "1M", "-p", "1%")
	if err != nil {
		t.Fatal(err)
	}
	sd, _ := analysis.ExactStandardSize(1e6, 0.01)
	m, k := sd.Bits, sd.Hashes
	for _, want := range []string{
		"9,585,059", "the classic geometry's exact rate is 0.392% above p",
		"exact sizing          m = " + groupUint(m) + " ", "k = " + itoa(uint64(k)) + ": exact rate",
		"+" + groupUint(m-9585059) + " bits",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	js, _, err := runArgs("-json", "-n", "1M", "-p", "1%")
	if err != nil {
		t.Fatal(err)
	}
	var r result
	if err := json.Unmarshal([]byte(js), &r); err != nil || r.Exact == nil || r.Exact.M != m || r.Exact.K != k || r.Exact.FPR > 0.01 || r.Exact.ClassicMiss < 0.0039 || r.Exact.ClassicMiss > 0.004 {
		t.Errorf("JSON %s: %+v, %v", js, r.Exact, err)
	}
	// p = 0.5 with 100 items: the classic geometry keeps p.
	out, _, _ = runArgs("-n", "100", "-p", "0.5")
	if !strings.Contains(out, "the classic geometry keeps p") {
		t.Errorf("output:\n%s", out)
	}
	for _, args := range [][]string{{"-n", "1M", "-m", "1MiB"}, {"-n", "1M", "-p", "1%", "-k", "5"}} {
		out, _, err := runArgs(args...)
		if err != nil || strings.Contains(out, "exact sizing") {
			t.Errorf("%v: %v\n%s", args, err, out)
		}
	}
}

func itoa(x uint64) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// TestRunExactSizingLimit checks the red-team report's slowest input,
// n = 1 at p = 1e-300 (226 s before analysis.ExactStandardSize had a work
// limit): bloomcalc prints the classic sizing and, in place of the exact
// one, a note naming the limit, as text and as JSON (exact_note), in well
// under the 10 s allowed here.
func TestRunExactSizingLimit(t *testing.T) {
	start := time.Now()
	out, _, err := runArgs("-n", "1", "-p", "1e-300")
	if err != nil || !strings.Contains(out, "bits (m)") ||
		!strings.Contains(out, "exact sizing          not computed: exact sizing of n = 1 at p = 1e-300 needs more than 1e+07 operations, its limit") {
		t.Errorf("-n 1 -p 1e-300: %v\n%s", err, out)
	}
	js, _, err := runArgs("-json", "-n", "1", "-p", "1e-300")
	var r result
	if err != nil || json.Unmarshal([]byte(js), &r) != nil || r.Exact != nil || !strings.Contains(r.ExactNote, "use the classic sizing") || r.M == 0 {
		t.Errorf("-json -n 1 -p 1e-300: %v %+v", err, r)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v", took)
	}
}

// TestRunCancelled checks that run stops with the context's error when
// its context is done (an interrupt, or the page's limit).
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	for _, args := range [][]string{{"-n", "1", "-p", "1e-300"}, {"-variant", "blocked", "-n", "1M", "-p", "1e-4"}} {
		if err := run(ctx, args, &out, io.Discard); !errors.Is(err, context.Canceled) {
			t.Errorf("run(%q) with a cancelled context = %v", args, err)
		}
	}
	in := figInput{variant: standard, N: 1000, M: 479326, K: 332, P: 1e-100}
	start := time.Now()
	if _, err := figures(ctx, in); !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
		t.Errorf("figures with a cancelled context: %v after %v", err, time.Since(start))
	}
}
