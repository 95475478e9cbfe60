package main

import (
	"encoding/json"
	"html"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// TestRunPartitioned checks -variant partitioned against analysis: the
// standard filter's geometry in k slices of ceil(m/k) bits, and the
// partitioned filter's exact rate.
func TestRunPartitioned(t *testing.T) {
	out, _, err := runArgs("-json", "-variant", "partitioned", "-n", "1e5", "-m", "1MiB", "-k", "5")
	if err != nil {
		t.Fatal(err)
	}
	var r partitionedResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// 1 MiB = 8388608 bits in 5 slices of 1677722 bits = 8388610 bits.
	if r.Variant != partitioned || r.K != 5 || r.SliceBits != 1677722 || r.M != 8388610 {
		t.Errorf("JSON = %+v", r)
	}
	if r.ExactFPR != analysis.PartitionedFPR(8388610, 1e5, 5) || r.StandardExactFPR != analysis.ExactFPR(8388610, 1e5, 5) ||
		r.ClassicFPR != analysis.ClassicFPR(8388610, 1e5, 5) {
		t.Errorf("rates = %+v", r)
	}
	text, _, err := runArgs("-variant", "partitioned", "-n", "1e5", "-m", "1MiB", "-k", "5")
	if err != nil || !strings.Contains(text, "partitioned, 5 slices of 1,677,722 bits") {
		t.Errorf("text: %v\n%s", err, text)
	}
}

// TestRunCounting checks -variant counting: the standard geometry, the
// memory of the counters and the overflow probabilities of analysis.
func TestRunCounting(t *testing.T) {
	for _, width := range []int{2, 4, 8, 16} {
		args := []string{"-json", "-variant", "counting", "-n", "1M", "-p", "1e-3"}
		if width != 4 {
			args = append(args, "-width", strconv.Itoa(width))
		}
		out, _, err := runArgs(args...)
		if err != nil {
			t.Fatal(err)
		}
		var r countingResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		s, _ := analysis.Solve(analysis.Sizing{N: 1e6, P: 1e-3})
		if r.M != s.M || r.K != s.K || r.Width != width || r.MemoryBits != s.M*uint64(width) {
			t.Errorf("width %d: JSON = %+v, want m %d k %d", width, r, s.M, s.K)
		}
		if r.SaturationProbability != analysis.SaturationProbability(s.M, 1e6, s.K, width) {
			t.Errorf("width %d: saturation %v", width, r.SaturationProbability)
		}
		// The bound is given only where it is a probability; at 2-bit
		// counters it is 7.2e5 here, and a note says it bounds nothing.
		fan := analysis.FanOverflowBound(s.M, 1e6, s.K, width)
		if fan < 1 && (r.FanOverflowBound == nil || *r.FanOverflowBound != fan || r.FanOverflowNote != "") {
			t.Errorf("width %d: Fan bound %v (note %q), want %v", width, r.FanOverflowBound, r.FanOverflowNote, fan)
		}
		if fan >= 1 && (r.FanOverflowBound != nil || !strings.HasPrefix(r.FanOverflowNote, "vacuous")) {
			t.Errorf("width %d: Fan bound %v (note %q), want none and a note that %v is vacuous", width, r.FanOverflowBound, r.FanOverflowNote, fan)
		}
	}
}

// TestRunScalable checks -variant scalable against analysis.Scalable: the
// stages, the items in each, and the compound rate.
func TestRunScalable(t *testing.T) {
	out, _, err := runArgs("-json", "-variant", "scalable", "-n", "1e5", "-p", "0.01", "-r", "0.5", "-s", "4", "-n0", "100")
	if err != nil {
		t.Fatal(err)
	}
	var r scalableResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	sc := analysis.Scalable{P: 0.01, R: 0.5, S: 4, N0: 100}
	stages, _ := sc.Stages(1e5)
	fpr, _ := sc.FPR(1e5)
	if len(r.Stages) != len(stages) || r.ExactFPR != fpr || r.Bound != sc.Bound() || r.BlockBits != 0 {
		t.Fatalf("JSON = %+v, want %d stages, rate %v", r, len(stages), fpr)
	}
	var bits, items uint64
	for i, st := range r.Stages {
		if st.Bits != stages[i].Bits || st.Hashes != stages[i].Hashes || st.Capacity != stages[i].Capacity {
			t.Errorf("stage %d = %+v, want %+v", i, st, stages[i])
		}
		bits += st.Bits
		items += st.Items
	}
	if bits != r.M || items != 1e5 {
		t.Errorf("stages hold %d bits and %d items, want %d and 100000", bits, items, r.M)
	}
	// Blocked stages with -block.
	out, _, err = runArgs("-json", "-variant", "scalable", "-n", "1e4", "-p", "0.01", "-block", "512")
	if err != nil {
		t.Fatal(err)
	}
	r = scalableResult{}
	json.Unmarshal([]byte(out), &r)
	sc = analysis.Scalable{P: 0.01, R: 0.9, S: 2, N0: 1000, BlockBits: 512}
	if fpr, _ := sc.FPR(1e4); r.BlockBits != 512 || r.ExactFPR != fpr {
		t.Errorf("blocked stages: %+v, want rate %v", r, fpr)
	}
	text, _, err := runArgs("-variant", "scalable", "-n", "1e4", "-p", "0.01")
	if err != nil || !strings.Contains(text, "stage     capacity") || !strings.Contains(text, "partitioned stages, r = 0.9, s = 2, n0 = 1,000") {
		t.Errorf("text: %v\n%s", err, text)
	}
}

// TestRunMoreUsageErrors checks the refusals of the new flags and
// variants, each a usage error naming the flag.
func TestRunMoreUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-width", "2", "-n", "1e6", "-p", "0.01"}, "-width: only -variant counting takes a counter width"},
		{[]string{"-variant", "counting", "-width", "3", "-n", "1e6", "-p", "0.01"}, "-width: 3-bit counters, want 2, 4, 8 or 16"},
		{[]string{"-variant", "blocked", "-r", "0.5", "-n", "1e6", "-p", "0.01"}, "-r: only -variant scalable takes -r"},
		{[]string{"-n0", "10", "-n", "1e6", "-p", "0.01"}, "-n0: only -variant scalable takes -n0"},
		{[]string{"-variant", "scalable", "-n", "1e6", "-p", "0.01", "-k", "3"}, "-k: a scalable filter sizes its own stages"},
		{[]string{"-variant", "scalable", "-n", "1e6"}, "not enough to size a scalable filter"},
		{[]string{"-variant", "scalable", "-n", "1e6", "-p", "0.01", "-r", "1"}, "tightening ratio r = 1"},
		{[]string{"-variant", "scalable", "-n", "1e6", "-p", "0.01", "-s", "x"}, `-s: "x" is not a number`},
		{[]string{"-variant", "scalable", "-n", "1e6", "-p", "0.01", "-n0", "-1"}, "-n0:"},
		{[]string{"-variant", "scalable", "-n", "1e15", "-p", "0.01", "-s", "1"}, "more than 256 stages"},
		{[]string{"-variant", "partitioned", "-n", "1e6"}, "not enough to size a filter"},
	} {
		checkMistake(t, c.args, c.want)
	}
}

// TestScalableBudget checks -mem: 1M items at P = 0.001 take 2.63 MiB in
// 10 stages of 1000 to 512,000 items; 1 MiB holds the first 8 stages
// (255,000 items), 4 MiB the first 10 (1,023,000 items).
func TestScalableBudget(t *testing.T) {
	for _, c := range []struct {
		mem          string
		fits         bool
		items        uint64
		stages       int
		verdictStart string
	}{
		{"1MiB", false, 255000, 8, "does not fit: 1,000,000 items take 2.63 MiB; 1.00 MiB holds up to 255,000 items in 8 stages"},
		{"4MiB", true, 1023000, 10, "fits: 1,000,000 items take 2.63 MiB, 66% of 4.00 MiB"},
		{"1B", false, 0, 0, "does not fit"},
	} {
		out, errOut, err := runArgs("-json", "-variant", "scalable", "-n", "1M", "-p", "0.001", "-mem", c.mem)
		if err != nil {
			t.Fatalf("-mem %s: %v %s", c.mem, err, errOut)
		}
		var r scalableResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		b := r.Budget
		if b == nil || b.Fits != c.fits || b.ItemsWithin != c.items || b.StagesWithin != c.stages || !strings.HasPrefix(b.Verdict, c.verdictStart) {
			t.Errorf("-mem %s: budget %+v, want fits %v, %d items in %d stages, %q", c.mem, b, c.fits, c.items, c.stages, c.verdictStart)
			continue
		}
		// The stages within the budget fit, one more does not.
		var used uint64
		for _, st := range r.Stages[:min(c.stages, len(r.Stages))] {
			used += (st.SliceBits + 63) / 64 * 8 * uint64(st.Hashes)
		}
		if used > b.Bytes || b.NextBytes <= b.Bytes {
			t.Errorf("-mem %s: %d bytes in the stages within, next %d, budget %d", c.mem, used, b.NextBytes, b.Bytes)
		}
	}
	if _, _, err := runArgs("-variant", "standard", "-n", "1M", "-p", "0.01", "-mem", "1MiB"); err == nil {
		t.Errorf("-mem with a standard filter: no error")
	}
	rec := get(t, "/?variant=scalable&n=1M&p=0.001&mem=1MiB")
	if body := rec.Body.String(); !strings.Contains(body, `<div id="verdict" class="misses">`) || !strings.Contains(html.UnescapeString(body), "Does a scalable filter reach n = 1,000,000 within 1.00 MiB?") {
		t.Errorf("the page of -mem 1MiB lacks the verdict")
	}
}
