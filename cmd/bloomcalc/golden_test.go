package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/internal/golden"
	"github.com/bloomlab/bloomlab/variants"
)

// testMemoryLimit is the memory limit for one filter under test, in place
// of the machine's (half of its memory), so that the outputs are the same
// on every machine.
const testMemoryLimit = 8 << 30

// TestMain sets the memory limit for one filter to testMemoryLimit.
func TestMain(m *testing.M) {
	variants.SetMemoryLimit(testMemoryLimit)
	os.Exit(m.Run())
}

var update = flag.Bool("update", false, "rewrite the golden files testdata/*.stdout and testdata/*.stderr")

// goldenCase is one command line whose output is kept in testdata: what
// run writes to stdout in NAME.stdout and to stderr in NAME.stderr. A
// file is written only for a stream that is not empty; a missing file
// stands for an empty stream.
//
// Nothing in bloomcalc's output depends on the Go release or the time (it
// computes, it does not measure, and writes no file), and the one number
// of the machine, the memory limit for one filter (variants.MemoryLimit),
// is set by TestMain, so the output is compared as run writes it, without
// normalisation.
type goldenCase struct {
	name string   // the files' base name in testdata
	args []string // the command line, without the program name
	code int      // the exit status main gives for run's error
}

var goldenCases = []goldenCase{
	// The sizing of the package comment's first example, with the exact
	// sizing that -n and -p alone add.
	{name: "sizing", args: []string{"-n", "10M", "-p", "1e-4"}},
	// The solver: the rate and best k from -n and -m; the capacity from
	// -m, -p and -k; check mode: n, m, k and p judged against each other.
	{name: "rate", args: []string{"-n", "1e6", "-m", "1MiB"}},
	{name: "capacity", args: []string{"-m", "64Kb", "-p", "1 in 1000", "-k", "7"}},
	{name: "check", args: []string{"-n", "1000", "-m", "9586", "-k", "7", "-p", "0.01"}},
	{name: "json", args: []string{"-json", "-n", "1000", "-m", "1.2KB", "-k", "5"}},
	// The other variants.
	{name: "blocked", args: []string{"-variant", "blocked", "-n", "1M", "-p", "1%"}},
	{name: "blocked-rate", args: []string{"-variant", "blocked", "-block", "64", "-n", "1e6", "-m", "2MiB"}},
	{name: "split-block", args: []string{"-variant", "split-block", "-n", "1e6", "-p", "0.001"}},
	{name: "partitioned", args: []string{"-variant", "partitioned", "-n", "1M", "-p", "1%"}},
	{name: "counting", args: []string{"-variant", "counting", "-width", "4", "-n", "1M", "-p", "1%"}},
	{name: "scalable", args: []string{"-variant", "scalable", "-n", "1M", "-p", "1e-3"}},
	// Boost.Bloom's layouts: one bit in each of k 64-bit words, a block at
	// every byte; k bits in one 512-bit line, rated in 1 MiB.
	{name: "multiblock", args: []string{"-variant", "multiblock", "-multi", "-stride", "1", "-n", "1M", "-p", "1%", "-k", "5"}},
	{name: "multiblock-rate", args: []string{"-variant", "multiblock", "-word", "512", "-n", "1M", "-m", "1MiB"}},
	// The sliding window, with a memory budget; a filter over the memory
	// limit.
	{name: "age-partitioned", args: []string{"-variant", "age-partitioned", "-n", "100k", "-p", "1%", "-mem", "256KiB"}},
	{name: "over-limit", args: []string{"-n", "10G", "-p", "1e-6"}},
	// An overlapping multiblock beyond analysis's work bound: one line.
	{name: "multiblock-heavy", args: []string{"-variant", "multiblock", "-multi", "-stride", "1", "-n", "1M", "-p", "1%", "-k", "15"}, code: 2},
	// The usage text: on stdout for -h, on stderr (status 2) without flags.
	{name: "help", args: []string{"-h"}},
	{name: "bare", args: nil, code: 2},
	// Mistakes: the message and the hint on stderr, status 2.
	{name: "bad-value", args: []string{"-n", "10x", "-p", "0.01"}, code: 2},
	{name: "bad-flag", args: []string{"-x"}, code: 2},
	{name: "not-enough", args: []string{"-n", "10M"}, code: 2},
}

// exitCode is the exit status main gives for run's error.
func exitCode(err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		return 2
	}
	return 1
}

// TestGolden runs the command's main invocations through run and compares
// stdout and stderr byte for byte with testdata/NAME.stdout and
// testdata/NAME.stderr, and the exit status with the case's. With -update
// it rewrites the files instead:
//
//	go test ./cmd/bloomcalc -run TestGolden -update
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), slices.Clone(c.args), &stdout, &stderr)
			if code := exitCode(err); code != c.code {
				t.Errorf("exit status %d (%v), want %d", code, err, c.code)
			}
			golden.Compare(t, filepath.Join("testdata", c.name+".stdout"), stdout.String(), *update)
			golden.Compare(t, filepath.Join("testdata", c.name+".stderr"), stderr.String(), *update)
		})
	}
	names := make([]string, len(goldenCases))
	for i, c := range goldenCases {
		names[i] = c.name
	}
	golden.CheckLeftovers(t, "testdata", names)
}
