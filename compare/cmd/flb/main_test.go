package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/compare/internal/sidebyside"
)

// TestRunGoOnly runs the Go side at a small size, with no FLB program (no C
// toolchain needed), and checks the report's tables and checks.
func TestRunGoOnly(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run([]string{"-n", "1000", "-count", "2000", "-rounds", "2"}, &out, &errb); err != nil {
		t.Fatalf("run: %v (%s)", err, errb.String())
	}
	s := out.String()
	for _, want := range []string{
		"| 1e3 | absent, hash given | - |",
		"| 1e3 | absent-hash |",
		"every present key matched",
		"- 1e3 absent-hash blocked: ",
		"| 1e3 | absent-key | - | ",
		"- 1e3 absent-key split-block-xxh3-64: ",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "missed") {
		t.Errorf("a filter missed present keys:\n%s", s)
	}
}

// TestParseFLB checks the reading of the C++ program's lines and the
// ratios computed from them.
func TestParseFLB(t *testing.T) {
	tm, res := times{}, map[key]float64{}
	in := "flb 10000 absent-hash 2.000 2.5 0.009000\nflb 10000 absent-hash 4.000 4.5 0.009000\nflb 10000 absent-hash 3.000 3.5 0.009000\n"
	if err := parseFLB(strings.NewReader(in), tm, res); err != nil {
		t.Fatal(err)
	}
	k := key{"flb", 10000, "absent-hash"}
	if got := sidebyside.Median(pick(tm[k], func(s sample) float64 { return s.CPU })); got != 3 {
		t.Errorf("median = %v, want 3", got)
	}
	if res[k] != 0.009 {
		t.Errorf("result = %v, want 0.009", res[k])
	}
	tm[key{"blocked", 10000, "absent-hash"}] = []sample{{CPU: 6, Wall: 7}, {CPU: 7, Wall: 7}, {CPU: 5, Wall: 7}}
	var out bytes.Buffer
	report(&out, config{ns: []int{10000}, rounds: 3, count: 32}, tm, res, "0 0 0", "0 0 0", 0)
	if want := "| 1e4 | absent, hash given | 3.00 | 2.00 | - | - | - |"; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	for _, bad := range []string{"flb x", "flb 1 op 1.0 1", "flb 1 op x 1 1"} {
		if err := parseFLB(strings.NewReader(bad), times{}, map[key]float64{}); err == nil {
			t.Errorf("parseFLB(%q) = nil, want an error", bad)
		}
	}
}

func TestRunErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "10"},
		{"-n", "x"},
		{"-count", "1"},
		{"-only", "nothing/such"},
		{"extra"},
	} {
		var out, errb bytes.Buffer
		if err := run(args, &out, &errb); err == nil {
			t.Errorf("run(%q) = nil, want an error", args)
		}
	}
}

func TestSciN(t *testing.T) {
	for n, want := range map[int]string{10000: "1e4", 1000000: "1e6", 1000: "1e3", 100: "100", 1234: "1234", 30000000: "3e7"} {
		if got := sciN(n); got != want {
			t.Errorf("sciN(%d) = %q, want %q", n, got, want)
		}
	}
}
