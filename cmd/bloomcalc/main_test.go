package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/internal/units"
)

func runArgs(args ...string) (stdout, stderr string, err error) {
	var o, e bytes.Buffer
	err = run(context.Background(), args, &o, &e)
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
	for _, want := range []string{"10,000,000 items", "191,701,168 (22.85 MiB)", "hashes (k)            13",
		"bits per key          19.170", "13.288", "1.443", "classic 0.000100135, exact 0.000100135"} {
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
	if r.N != 1000 || r.M != 9600 || r.K != 5 || r.Bytes != 1200 || r.Memory != "1.17 KiB" {
		t.Errorf("JSON = %+v", r)
	}
	if r.ClassicFPR != analysis.ClassicFPR(9600, 1000, 5) || r.ExactFPR != analysis.ExactFPR(9600, 1000, 5) || r.P != r.ClassicFPR {
		t.Errorf("rates in JSON = %+v", r)
	}
	var raw map[string]any
	json.Unmarshal([]byte(out), &raw)
	for _, key := range []string{"n", "m", "k", "p", "bytes", "bits_per_key", "information_minimum_bits_per_key", "overhead", "fpr_classic", "fpr_exact"} {
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
	if err != nil || !strings.Contains(out, "usage: bloomcalc") || !strings.Contains(out, "-variant v") || !strings.Contains(out, "-block B") {
		t.Errorf("-h: %v, %q", err, out)
	}
}

// checkMistake checks the answer to a mistaken command line: exit status
// 2, nothing on stdout, and on stderr two lines: the message, prefixed
// once, naming mention and fitting two 80-column lines, then the hint.
func checkMistake(t *testing.T, args []string, mention string) {
	t.Helper()
	out, errOut, err := runArgs(args...)
	var ue *usageError
	if !errors.As(err, &ue) {
		t.Errorf("run(%q) = %v, want a usage error (exit status 2)", args, err)
		return
	}
	if out != "" {
		t.Errorf("run(%q) wrote to stdout: %q", args, out)
	}
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if len(lines) != 2 || lines[0] != "bloomcalc: "+err.Error() || lines[1] != hint {
		t.Errorf("run(%q): stderr is not the message and the hint:\n%s", args, errOut)
		return
	}
	msg := lines[0]
	if !strings.Contains(msg, mention) {
		t.Errorf("run(%q): %q does not name %q", args, msg, mention)
	}
	if len(msg) > 160 {
		t.Errorf("run(%q): message of %d characters, more than two lines: %q", args, len(msg), msg)
	}
	for _, w := range []string{"analysis:", "variants:", "invalid parameters", "flag provided", "usage:", "%!"} {
		if strings.Contains(msg, w) {
			t.Errorf("run(%q): message %q says %q", args, msg, w)
		}
	}
	if strings.Count(msg, "bloomcalc:") != 1 {
		t.Errorf("run(%q): message %q repeats its prefix", args, msg)
	}
}

// TestMistakes runs mistaken command lines: each gets a two-line answer
// naming the flag or value at fault.
func TestMistakes(t *testing.T) {
	for _, c := range []struct {
		args    []string
		mention string
	}{
		{[]string{"-n", "10M"}, "only -n given; give -m or -p"},
		{[]string{"-m", "1MB", "-k", "3"}, "give -n or -p"},
		{[]string{"-p", "0.01"}, "give -n or -m"},
		{[]string{"-k", "7"}, "give two of -n, -m and -p"},
		{[]string{"-json"}, "give two of -n, -m and -p"},
		{[]string{"-n", "10x", "-p", "0.01"}, "-n: count \"10x\""},
		{[]string{"-n", "0", "-p", "0.01"}, "-n: 0 items"},
		{[]string{"-n", "-5", "-p", "0.01"}, "-n"},
		{[]string{"-n", "10", "-p", "2"}, "-p: probability \"2\""},
		{[]string{"-n", "10", "-p", "0"}, "-p: probability \"0\""},
		{[]string{"-n", "10", "-p", "abc"}, "-p"},
		{[]string{"-n", "10", "-m", "1.5b"}, "-m"},
		{[]string{"-n", "10", "-m", "0"}, "-m: 0 bits"},
		{[]string{"-n", "10", "-p", "0.1", "-k", "-3"}, "-k: -3 hash functions"},
		{[]string{"-n", "10", "-p", "0.1", "-k", "0"}, "-k: 0 hash functions, want 1 to"},
		{[]string{"-n", "10", "-p", "0.1", "-k", "5000"}, "-k: 5000 hash functions"},
		{[]string{"-n", "10", "-p", "0.1", "-k", "x"}, "-k: \"x\""},
		{[]string{"-n", "10", "-p", "0.1", "-k"}, "-k: needs a value"},
		{[]string{"-x"}, "-x: no such flag"},
		{[]string{"-n", "10", "-p", "0.1", "extra"}, "unexpected argument \"extra\""},
		{[]string{"-m", "10", "-p", "1e-9"}, "cannot hold"},
		{[]string{"-n", "1M", "-m", "1KB"}, "-n, -m: 8000 bits for 1000000 items"},
		{[]string{"-n", "1000", "-m", "999"}, "0.999 bits per key"},
		{[]string{"-n", "1000", "-m", "2000", "-k", "64"}, "k = 64"},
		{[]string{"-variant", "bogus", "-n", "1", "-p", "0.1"}, "-variant: unknown variant \"bogus\""},
		{[]string{"-block", "64", "-n", "1", "-p", "0.1"}, "-block: only -variant blocked"},
		{[]string{"-json=maybe", "-n", "1", "-p", "0.1"}, "-json"},
	} {
		checkMistake(t, c.args, c.mention)
	}
}

// TestBareInvocation: bloomcalc without flags prints its usage, and exits
// with status 2.
func TestBareInvocation(t *testing.T) {
	out, errOut, err := runArgs()
	var ue *usageError
	if !errors.As(err, &ue) || out != "" || !strings.HasPrefix(errOut, "usage: bloomcalc") {
		t.Errorf("bare invocation: %v, stdout %q, stderr starts %.40q", err, out, errOut)
	}
}

// runVariantJSON runs bloomcalc with -json and decodes a blocked or split-block
// result.
func runVariantJSON(t *testing.T, args ...string) variantResult {
	t.Helper()
	out, errOut, err := runArgs(append([]string{"-json"}, args...)...)
	if err != nil || errOut != "" {
		t.Fatalf("run(%q): %v, stderr %q", args, err, errOut)
	}
	var r variantResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("run(%q): output is not JSON: %v\n%s", args, err, out)
	}
	return r
}

// checkStandard checks the comparison with a standard filter for the same
// n and p.
func checkStandard(t *testing.T, r variantResult) {
	t.Helper()
	sd, err := analysis.StandardSize(r.N, r.P)
	if err != nil {
		t.Fatal(err)
	}
	std := sd.Bits
	// A standard filter holds its bits in whole 64-bit words.
	stdBytes := (std + 63) / 64 * 8
	want := standardSize{M: std, Bytes: stdBytes, Memory: units.FormatBytes(stdBytes * 8), BitsPerKey: analysis.BitsPerKey(std, r.N),
		PenaltyPercent: 100 * (float64(r.M)/float64(std) - 1)}
	if r.Standard == nil || *r.Standard != want {
		t.Errorf("standard filter = %+v, want %+v", r.Standard, want)
	}
	// Whole blocks of at least 64 bits are whole words: m/8 bytes.
	if r.Bytes != r.M/8 || r.Memory != units.FormatBytes(r.M) || r.BitsPerKey != analysis.BitsPerKey(r.M, r.N) {
		t.Errorf("memory %d B, %v bits per key for m = %d, n = %d", r.Bytes, r.BitsPerKey, r.M, r.N)
	}
}

func TestRunBlockedSizing(t *testing.T) {
	for _, c := range []struct {
		args      []string
		n         uint64
		p         float64
		blockBits uint64
	}{
		{[]string{"-variant", "blocked", "-n", "1e6", "-p", "0.01"}, 1e6, 0.01, 512},
		{[]string{"-variant", "blocked", "-block", "64", "-n", "1e6", "-p", "1e-4"}, 1e6, 1e-4, 64},
		{[]string{"-variant", "blocked", "-block", "4096", "-n", "10M", "-p", "1 in 1000"}, 10e6, 1e-3, 4096},
	} {
		// The values are analysis's at the same n, p and B.
		bl, err := analysis.BlockedSize(c.n, c.p, c.blockBits)
		if err != nil {
			t.Fatal(err)
		}
		m, k := bl.Bits, bl.Hashes
		exact, putze := analysis.BlockedFPR(m, c.n, k, c.blockBits), analysis.BlockedClassicFPR(m, c.n, k, c.blockBits)
		r := runVariantJSON(t, c.args...)
		if r.Variant != "blocked" || r.BlockBits != c.blockBits || r.Blocks != m/c.blockBits || r.N != c.n || r.M != m || r.K != k || r.P != c.p {
			t.Errorf("run(%q) = %+v, want m = %d, k = %d", c.args, r, m, k)
		}
		if r.ExactFPR != exact || r.PutzeFPR == nil || *r.PutzeFPR != putze || exact > c.p {
			t.Errorf("run(%q): rates %v, %v, want %v, %v (at most %v)", c.args, r.ExactFPR, r.PutzeFPR, exact, putze, c.p)
		}
		checkStandard(t, r)
		if r.Standard != nil && r.Standard.PenaltyPercent <= 0 {
			t.Errorf("run(%q): penalty %v%%, want above 0", c.args, r.Standard.PenaltyPercent)
		}

		out, _, err := runArgs(c.args...)
		if err != nil {
			t.Fatal(err)
		}
		sd, _ := analysis.StandardSize(c.n, c.p)
		std := sd.Bits
		for _, want := range []string{
			fmt.Sprintf("variant               blocked, %d-bit blocks\n", c.blockBits),
			fmt.Sprintf("target rate (p)       %.4g", c.p),
			fmt.Sprintf("bits (m)              %s (%s), %s blocks\n", groupUint(m), units.FormatBytes(m), groupUint(m/c.blockBits)),
			fmt.Sprintf("hashes (k)            %d\n", k),
			fmt.Sprintf("bits per key          %.3f\n", analysis.BitsPerKey(m, c.n)),
			fmt.Sprintf("standard filter       %s bits (%s), %.3f bits per key", groupUint(std), units.FormatBytes(std), analysis.BitsPerKey(std, c.n)),
			fmt.Sprintf("block penalty         %+.2f%% bits", 100*(float64(m)/float64(std)-1)),
			fmt.Sprintf("FPR at (m, n, k)      exact %.6g, Putze et al. approximation %.6g\n", exact, putze),
		} {
			if !strings.Contains(out, want) {
				t.Errorf("run(%q) output lacks %q:\n%s", c.args, want, out)
			}
		}
	}
}

func TestRunSplitBlockSizing(t *testing.T) {
	for _, args := range [][]string{
		{"-variant", "split-block", "-n", "1e6", "-p", "0.001"},
		{"-variant", "split-block", "-n", "1e6", "-p", "0.001", "-k", "8"},
	} {
		sb, err := analysis.SplitBlockSize(1e6, 0.001)
		if err != nil {
			t.Fatal(err)
		}
		m := sb.Bits
		exact := analysis.SplitBlockFPR(m, 1e6)
		r := runVariantJSON(t, args...)
		if r.Variant != "split-block" || r.BlockBits != 256 || r.Blocks != m/256 || r.M != m || r.K != 8 || r.P != 0.001 ||
			r.ExactFPR != exact || r.PutzeFPR != nil || exact > 0.001 {
			t.Errorf("run(%q) = %+v, want m = %d, rate %v", args, r, m, exact)
		}
		checkStandard(t, r)

		out, _, err := runArgs(args...)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"variant               split-block, 256-bit blocks",
			fmt.Sprintf("bits (m)              %s (%s), %s blocks\n", groupUint(m), units.FormatBytes(m), groupUint(m/256)),
			"hashes (k)            8 (one bit in each word)\n",
			fmt.Sprintf("FPR at (m, n, k)      exact %.6g\n", exact),
			"standard filter", "block penalty",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("run(%q) output lacks %q:\n%s", args, want, out)
			}
		}
	}
}

func TestRunVariantRate(t *testing.T) {
	const n, m = 1000000, 1 << 23 // 1MiB, 8.39 bits per key
	// blocked, n and m: the k with the lowest rate, found here by trying
	// every k from 1 to 20.
	best := 1
	for k := 2; k <= 20; k++ {
		if analysis.BlockedFPR(m, n, k, 512) < analysis.BlockedFPR(m, n, best, 512) {
			best = k
		}
	}
	for _, c := range []struct {
		args      []string
		k         int
		blockBits uint64
	}{
		{[]string{"-variant", "blocked", "-n", "1e6", "-m", "1MiB"}, best, 512},
		{[]string{"-variant", "blocked", "-n", "1e6", "-m", "1MiB", "-k", "9"}, 9, 512},
		{[]string{"-variant", "blocked", "-block", "128", "-n", "1e6", "-m", "1MiB", "-k", "3"}, 3, 128},
	} {
		exact := analysis.BlockedFPR(m, n, c.k, c.blockBits)
		r := runVariantJSON(t, c.args...)
		if r.M != m || r.N != n || r.K != c.k || r.BlockBits != c.blockBits || r.P != exact || r.ExactFPR != exact ||
			r.PutzeFPR == nil || *r.PutzeFPR != analysis.BlockedClassicFPR(m, n, c.k, c.blockBits) {
			t.Errorf("run(%q) = %+v, want k = %d, p = %v", c.args, r, c.k, exact)
		}
		checkStandard(t, r)
	}

	for _, args := range [][]string{
		{"-variant", "split-block", "-n", "1e6", "-m", "1MiB"},
		{"-variant", "split-block", "-n", "1e6", "-m", "1MiB", "-k", "8"},
	} {
		exact := analysis.SplitBlockFPR(m, n)
		r := runVariantJSON(t, args...)
		if r.M != m || r.K != 8 || r.Blocks != m/256 || r.P != exact || r.ExactFPR != exact {
			t.Errorf("run(%q) = %+v, want p = %v", args, r, exact)
		}
		checkStandard(t, r)
	}

	out, _, err := runArgs("-variant", "blocked", "-n", "1e6", "-m", "1MiB")
	if err != nil || !strings.Contains(out, fmt.Sprintf("rate (p)              %.4g", analysis.BlockedFPR(m, n, best, 512))) {
		t.Errorf("run: %v\n%s", err, out)
	}
}

// TestBestBlockedHashes checks the search for the best k against trying
// every k in a window around it, from the usual bits per key to far beyond
// (where the best k of the blocked filter is far below that of a standard
// filter, the search's start). The rate is unimodal in k, so a minimum
// inside the window is the minimum.
// TestRunVariantStandard checks that -variant standard changes nothing.
func TestRunVariantStandard(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "10M", "-p", "1e-4"},
		{"-json", "-n", "1000", "-m", "1.2KB", "-k", "5"},
		{"-m", "1MiB", "-p", "1%"},
		{"-n", "1e6", "-m", "1MiB"},
		{"-n", "1000", "-m", "20000", "-k", "7", "-p", "0.01"},
		{"-n", "10M"},
	} {
		out, errOut, err := runArgs(args...)
		out2, errOut2, err2 := runArgs(append([]string{"-variant", "standard"}, args...)...)
		if out != out2 || errOut != errOut2 || (err == nil) != (err2 == nil) {
			t.Errorf("run(%q) differs with -variant standard:\n%s%s%v\n---\n%s%s%v", args, out, errOut, err, out2, errOut2, err2)
		}
	}
}

func TestRunVariantUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args    []string
		mention string // in the first line
	}{
		{[]string{"-variant", "cuckoo", "-n", "1e6", "-p", "0.01"}, "-variant: unknown variant \"cuckoo\""},
		{[]string{"-variant", "blocked", "-block", "100", "-n", "1e6", "-p", "0.01"}, "-block: 100 bits, want a power of two from 64 to 4096"},
		{[]string{"-variant", "blocked", "-block", "32", "-n", "1e6", "-p", "0.01"}, "-block: 32 bits"},
		{[]string{"-variant", "blocked", "-block", "8192", "-n", "1e6", "-p", "0.01"}, "-block: 8192 bits"},
		{[]string{"-variant", "blocked", "-block", "0", "-n", "1e6", "-p", "0.01"}, "-block: 0 bits"},
		{[]string{"-variant", "blocked", "-block", "1KB", "-n", "1e6", "-p", "0.01"}, "-block"},
		{[]string{"-block", "512", "-n", "1e6", "-p", "0.01"}, "-block: only -variant blocked and scalable take a block size, not -variant standard"},
		{[]string{"-variant", "standard", "-block", "64", "-n", "1e6", "-p", "0.01"}, "-block: only -variant blocked"},
		{[]string{"-variant", "split-block", "-block", "256", "-n", "1e6", "-p", "0.01"}, "-block: only -variant blocked and scalable take a block size, not -variant split-block"},
		{[]string{"-variant", "split-block", "-k", "7", "-n", "1e6", "-p", "0.01"}, "-k: a split-block filter always uses 8 hashes"},
		{[]string{"-variant", "blocked", "-n", "1e6", "-p", "0.01", "-k", "5000"}, "-k"},
		{[]string{"-variant", "blocked", "-n", "1e6", "-m", "1000000"}, "-m: 1000000 bits is not a whole number of 512-bit blocks; the nearest valid sizes are 999936 bits (1953 blocks) and 1000448 bits (1954 blocks)"},
		{[]string{"-variant", "blocked", "-block", "64", "-n", "1000", "-m", "10000"}, "-m: 10000 bits is not a whole number of 64-bit blocks; the nearest valid sizes are 9984 bits (156 blocks) and 10048 bits (157 blocks)"},
		{[]string{"-variant", "split-block", "-n", "1000", "-m", "10000"}, "-m: 10000 bits is not a whole number of 256-bit blocks; the nearest valid sizes are 9984 bits (39 blocks) and 10240 bits (40 blocks)"},
		{[]string{"-variant", "blocked", "-n", "1", "-m", "100"}, "-m: 100 bits is less than one 512-bit block"},
		{[]string{"-variant", "blocked", "-m", "1MiB", "-p", "0.01"}, "-m, -p: not supported for a blocked filter; give -n and -p (for m and k), or -n and -m, with or without -k"},
		{[]string{"-variant", "blocked", "-n", "1e6", "-p", "0.01", "-k", "7"}, "-n, -k, -p: not supported for a blocked filter"},
		{[]string{"-variant", "blocked", "-n", "1e6", "-m", "1MiB", "-p", "0.01"}, "-n, -m, -p: not supported"},
		{[]string{"-variant", "split-block", "-m", "1MiB", "-p", "0.01"}, "-m, -p: not supported for a split-block filter; give -n and -p (for m), or -n and -m"},
		{[]string{"-variant", "split-block", "-n", "1e6", "-m", "1MiB", "-p", "0.01", "-k", "8"}, "-n, -m, -k, -p: not supported"},
		{[]string{"-variant", "blocked", "-n", "1e6"}, "not enough to size a blocked filter: only -n given; give -n and -p"},
		{[]string{"-variant", "blocked", "-m", "1MiB", "-k", "3"}, "only -m and -k given"},
		{[]string{"-variant", "split-block"}, "not enough to size a split-block filter: no flags given"},
		{[]string{"-variant", "blocked", "-n", "1e12", "-m", "1024"}, "-n, -m: 1024 bits for 1000000000000 items is under one bit per item"},
		{[]string{"-variant", "split-block", "-n", "1e6", "-p", "0.7"}, "-p: at p = 0.7 even a standard filter has under one bit per item"},
		{[]string{"-variant", "split-block", "-n", "1e6", "-p", "1e-300"}, "-n, -p: "},
		{[]string{"-variant", "blocked", "-n", "1e6", "-p", "2"}, "-p"},
	} {
		checkMistake(t, c.args, c.mention)
	}
}

// TestTinyRates: a rate below 1e-15 prints "1 in" in scientific notation,
// not as the noise digits of a float's reciprocal.
func TestTinyRates(t *testing.T) {
	out, _, err := runArgs("-n", "1M", "-p", "1e-30")
	if err != nil || !strings.Contains(out, "1e-30 (1 in 1e+30)") {
		t.Errorf("-p 1e-30: %v\n%s", err, out)
	}
	out, _, err = runArgs("-n", "1M", "-p", "1e-6")
	if err != nil || !strings.Contains(out, "(1 in 1,000,000)") {
		t.Errorf("-p 1e-6: %v\n%s", err, out)
	}
	out, _, err = runArgs("-variant", "blocked", "-n", "1M", "-p", "1e-20")
	if err != nil || !strings.Contains(out, "(1 in 1e+20)") {
		t.Errorf("blocked -p 1e-20: %v\n%s", err, out)
	}
}
