package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

func runArgs(args ...string) (stdout, stderr string, err error) {
	var o, e bytes.Buffer
	err = run(args, &o, &e)
	return o.String(), e.String(), err
}

func TestRunSizing(t *testing.T) {
	// The seeds' example: 10M items at 1e-4 need 191,701,168 bits =
	// 22.85 MiB and 13 hashes (hand-evaluated in analysis's
	// TestSizingExample10M).
	out, errOut, err := runArgs("-n", "10M", "-p", "1e-4")
	if err != nil || errOut != "" {
		t.Fatalf("run: %v, stderr %q", err, errOut)
	}
	for _, want := range []string{"10000000 items", "191701168 (22.85 MiB)", "hashes (k)            13",
		"bits per item         19.170", "13.288", "1.443", "classic 0.000100135, exact 0.000100135"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRunJSON(t *testing.T) {
	out, _, err := runArgs("-json", "-n", "1000", "-m", "1.2KB", "-k", "5")
	if err != nil {
		t.Fatal(err)
	}
	var r result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	// 1.2 KB = 9600 bits; the rates are those of analysis at (9600, 1000, 5).
	if r.N != 1000 || r.M != 9600 || r.K != 5 || r.Bytes != "1.17 KiB" {
		t.Errorf("JSON = %+v", r)
	}
	if r.ClassicFPR != analysis.ClassicFPR(9600, 1000, 5) || r.ExactFPR != analysis.ExactFPR(9600, 1000, 5) || r.P != r.ClassicFPR {
		t.Errorf("rates in JSON = %+v", r)
	}
	var raw map[string]any
	json.Unmarshal([]byte(out), &raw)
	for _, key := range []string{"n", "m", "k", "p", "bytes", "bits_per_item", "information_minimum_bits_per_item", "overhead", "fpr_classic", "fpr_exact"} {
		if _, ok := raw[key]; !ok {
			t.Errorf("JSON lacks %q", key)
		}
	}
}

func TestRunOtherForms(t *testing.T) {
	for _, args := range [][]string{
		{"-m", "64Kb", "-p", "1 in 1000", "-k", "7"},
		{"-m", "1MiB", "-p", "1%"},
		{"-n", "1e6", "-m", "1MiB"},
		{"-n", "2.5k", "-p", "1/100", "-k", "4"},
		{"-n", "1000", "-m", "9586", "-k", "7", "-p", "0.01"},
	} {
		if out, errOut, err := runArgs(args...); err != nil || !strings.Contains(out, "FPR at (m, n, k)") {
			t.Errorf("run(%q): %v\n%s%s", args, err, out, errOut)
		}
	}
	out, _, err := runArgs("-h")
	if err != nil || !strings.Contains(out, "usage: bloomcalc") {
		t.Errorf("-h: %v, %q", err, out)
	}
}

func TestRunUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args    []string
		mention string
	}{
		{nil, "give two of -n, -m and -p"},
		{[]string{"-n", "10M"}, "only -n given; give -m or -p"},
		{[]string{"-m", "1MB", "-k", "3"}, "give -n or -p"},
		{[]string{"-p", "0.01"}, "give -n or -m"},
		{[]string{"-n", "10x", "-p", "0.01"}, "flag -n"},
		{[]string{"-n", "0", "-p", "0.01"}, "flag -n"},
		{[]string{"-n", "10", "-p", "2"}, "flag -p"},
		{[]string{"-n", "10", "-m", "1.5b"}, "flag -m"},
		{[]string{"-n", "10", "-m", "0"}, "flag -m"},
		{[]string{"-n", "10", "-p", "0.1", "-k", "-3"}, "flag -k"},
		{[]string{"-n", "10", "-p", "0.1", "-k", "x"}, "-k"},
		{[]string{"-n", "1000", "-m", "20000", "-k", "7", "-p", "0.01"}, "contradictory"},
		{[]string{"-x"}, "not defined: -x"},
		{[]string{"-n", "10", "-p", "0.1", "extra"}, "unexpected argument"},
		{[]string{"-m", "10", "-p", "1e-9"}, "cannot hold"},
	} {
		out, errOut, err := runArgs(c.args...)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("run(%q) = %v, want a usage error (exit status 2)", c.args, err)
			continue
		}
		if out != "" {
			t.Errorf("run(%q) wrote to stdout: %q", c.args, out)
		}
		if !strings.Contains(errOut, c.mention) || !strings.Contains(errOut, "usage: bloomcalc") {
			t.Errorf("run(%q) stderr does not mention %q and the usage:\n%s", c.args, c.mention, errOut)
		}
	}
}
