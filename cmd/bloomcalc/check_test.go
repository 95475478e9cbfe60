package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// TestCheckMode checks the answer to "I have m bits for n keys: does it
// meet p?": a verdict with the exact rate, not a usage error, whichever
// way it goes.
func TestCheckMode(t *testing.T) {
	for _, c := range []struct {
		args  []string
		meets bool
		text  string
	}{
		// The engineer's question of the new-user review: k = 7 is the best
		// k for 10 bits per key; classic and exact rate 0.008194
		// (analysis.ExactFPR).
		{[]string{"-n", "1M", "-m", "10Mb", "-p", "1%"}, true, "meets it: 0.82% (exact rate 0.008194, 0.8194 x the target)"},
		// The classic sizing of n = 1000 at 1% is m = 9586, k = 7, whose
		// exact rate 0.0100436 misses 1% by 0.4%: the verdict shows enough
		// digits to see it.
		{[]string{"-n", "1000", "-m", "9586", "-p", "0.01"}, false, "misses it: 1.004%"},
		// A k given by the user is kept, and too few hashes miss p.
		{[]string{"-n", "1M", "-m", "9Mb", "-k", "3", "-p", "1%"}, false, "misses it: 2.3%"},
		{[]string{"-n", "1000", "-m", "20000", "-k", "7", "-p", "0.01"}, true, "meets it"},
	} {
		out, errOut, err := runArgs(c.args...)
		if err != nil || errOut != "" {
			t.Errorf("%q: %v, stderr %q", c.args, err, errOut)
			continue
		}
		if !strings.Contains(out, "check against p       "+c.text) {
			t.Errorf("%q: output lacks %q:\n%s", c.args, c.text, out)
		}
		js, _, err := runArgs(append([]string{"-json"}, c.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var r result
		if err := json.Unmarshal([]byte(js), &r); err != nil {
			t.Fatal(err)
		}
		if r.Check == nil || r.Check.Meets != c.meets || r.Check.FPR != analysis.ExactFPR(r.M, r.N, r.K) || r.Check.FPR != r.ExactFPR {
			t.Errorf("%q: check %+v, want meets %v and the exact rate %g", c.args, r.Check, c.meets, r.ExactFPR)
		}
		if rows, _, _, err := describe([]byte(js)); err != nil || !hasRow(rows, "check.verdict") {
			t.Errorf("%q: the page's rows lack the verdict (err %v)", c.args, err)
		}
	}
	// Without p there is nothing to check.
	if js, _, _ := runArgs("-json", "-n", "1M", "-m", "10Mb"); strings.Contains(js, `"check"`) {
		t.Errorf("-n -m alone printed a check:\n%s", js)
	}
}

func hasRow(rows []row, key string) bool {
	for _, r := range rows {
		if r.Key == key {
			return true
		}
	}
	return false
}

// TestCheckModeVariants checks check mode for partitioned and counting
// filters, which size as a standard one does: n, m and p judged by the
// variant's exact rate, not refused as contradictory.
func TestCheckModeVariants(t *testing.T) {
	for _, v := range []string{"partitioned", "counting"} {
		for _, c := range []struct {
			m     string
			meets bool
		}{{"10Mb", true}, {"9Mb", false}} {
			args := []string{"-json", "-variant", v, "-n", "1M", "-m", c.m, "-p", "1%"}
			out, errOut, err := runArgs(args...)
			if err != nil {
				t.Errorf("%q: %v %s", args, err, errOut)
				continue
			}
			var r struct {
				ExactFPR float64      `json:"fpr_exact"`
				Check    *checkResult `json:"check"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			if r.Check == nil || r.Check.Meets != c.meets || r.Check.FPR != r.ExactFPR || r.Check.Target != 0.01 {
				t.Errorf("%q: check %+v, want meets %v at the exact rate %g", args, r.Check, c.meets, r.ExactFPR)
			}
		}
	}
	rec := get(t, "/?variant=partitioned&n=1M&m=10Mb&p=1%25")
	if !strings.Contains(rec.Body.String(), `<div id="verdict" class="meets">`) {
		t.Errorf("the partitioned page in check mode has no verdict")
	}
}

// TestDoubleHashing checks the rate of plain double hashing modulo m
// beside the exact rate: given for power-of-two tables within the work
// bound, as analysis.DoubleHashing gives it, and absent otherwise.
func TestDoubleHashing(t *testing.T) {
	for _, c := range []struct {
		args []string
		m    uint64
		k    int
		want bool
	}{
		{[]string{"-n", "100", "-m", "1024"}, 1024, 7, true},
		{[]string{"-n", "1000", "-m", "16384", "-k", "5"}, 16384, 5, true},
		{[]string{"-n", "1000", "-m", "10000"}, 10000, 7, false},            // not a power of two
		{[]string{"-n", "5000", "-m", "65536", "-k", "9"}, 65536, 9, false}, // over the work bound
		{[]string{"-n", "1", "-m", "256", "-k", "24"}, 256, 24, false},      // over the memory bound
	} {
		out, _, err := runArgs(append([]string{"-json"}, c.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if (r.DoubleHashing != nil) != c.want || r.M != c.m || r.K != c.k {
			t.Errorf("%q: m %d, k %d, double hashing %+v; want m %d, k %d, given: %v", c.args, r.M, r.K, r.DoubleHashing, c.m, c.k, c.want)
			continue
		}
		if !c.want {
			continue
		}
		dh, err := analysis.NewDoubleHashing(r.M, r.K)
		if err != nil {
			t.Fatal(err)
		}
		if want := dh.FPR(r.N); r.DoubleHashing.FPR != want || r.DoubleHashing.ExcessPercent != 100*(want/r.ExactFPR-1) {
			t.Errorf("%q: double hashing %+v, want rate %g", c.args, r.DoubleHashing, want)
		}
	}
}

// TestDerivations checks the rates of bloomlab's own derivations beside
// the exact rate: given where analysis.DerivationFPR takes the geometry,
// equal to it, and absent beyond its hashes.
func TestDerivations(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-n", "128", "-m", "1024", "-k", "6"}, true},
		{[]string{"-n", "1M", "-p", "1%"}, true},
		{[]string{"-n", "1", "-m", "256", "-k", "24"}, true},
		{[]string{"-n", "1", "-m", "4096", "-k", "30"}, false}, // beyond MaxDerivationHashes
	} {
		out, _, err := runArgs(append([]string{"-json"}, c.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if (r.Derivations != nil) != c.want {
			t.Errorf("%q: derivations %+v, given: %v", c.args, r.Derivations, c.want)
			continue
		}
		if !c.want {
			continue
		}
		d := r.Derivations
		for _, x := range []struct {
			name        string
			fpr, excess float64
		}{
			{analysis.DerivationDouble, d.Double, d.DoubleExcess},
			{analysis.DerivationEnhancedDouble, d.EnhancedDouble, d.EnhancedDoubleExcess},
			{analysis.DerivationTriple, d.Triple, d.TripleExcess},
		} {
			want, err := analysis.DerivationFPR(r.M, r.N, r.K, x.name)
			if err != nil || x.fpr != want || x.excess != 100*(want/r.ExactFPR-1) {
				t.Errorf("%q: %s rate %g (%+g%%), want %g (%v)", c.args, x.name, x.fpr, x.excess, want, err)
			}
		}
	}
}

// TestPartitionedExact: given n and p, a partitioned filter's output has
// the exact sizing of analysis.ExactPartitionedSize and how far the
// classic geometry's exact rate lands from p (review D11), and none with
// m or k given.
func TestPartitionedExact(t *testing.T) {
	out, _, err := runArgs("-json", "-variant", "partitioned", "-n", "1M", "-p", "1%")
	if err != nil {
		t.Fatal(err)
	}
	var r partitionedResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	sd, err := analysis.ExactPartitionedSize(1e6, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if r.Exact == nil || r.Exact.M != sd.Bits || r.Exact.K != sd.Hashes || r.Exact.FPR > 0.01 || r.Exact.ClassicMiss != r.ExactFPR/0.01-1 {
		t.Fatalf("exact sizing %+v, want m = %d, k = %d", r.Exact, sd.Bits, sd.Hashes)
	}
	if !(r.Exact.ClassicMiss > 0) {
		t.Errorf("the classic geometry's exact rate %v should miss 1%% (D11)", r.ExactFPR)
	}
	out, _, err = runArgs("-json", "-variant", "partitioned", "-n", "1M", "-m", "10Mb")
	if err != nil {
		t.Fatal(err)
	}
	r = partitionedResult{}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Exact != nil {
		t.Errorf("with m given: exact %+v (%v), want none", r.Exact, err)
	}
}
