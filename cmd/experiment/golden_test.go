package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files testdata/*.stdout and testdata/*.stderr")

// goldenCase is one command line whose output is kept in testdata: what
// run writes to stdout in NAME.stdout and to stderr in NAME.stderr. A
// file is written only for a stream that is not empty; a missing file
// stands for an empty stream.
type goldenCase struct {
	name string   // the files' base name in testdata
	args []string // "{out}" stands for a fresh t.TempDir()
	code int      // the exit status main gives for run's error
	slow bool     // skipped with -short (and so in the race run)
}

var goldenCases = []goldenCase{
	// The main job, as the package comment gives it, with the output
	// directory moved out of the source tree. It measures 20 filters
	// grown to a million items: about 3 s, hence slow.
	{name: "scalable", args: []string{"-variant", "scalable", "-out", "{out}"}, slow: true},
	// A named experiment at a tiny size, on every variant it measures.
	{name: "hashes-small", args: []string{"-exp", "hashes", "-n", "300", "-filters", "3", "-queries", "1k", "-format", "csv,json", "-out", "{out}"}},
	{name: "list", args: []string{"-list"}},
	{name: "help", args: []string{"-h"}},
	{name: "bad-flag", args: []string{"-out", "{out}", "-bogus"}, code: 2},
	{name: "bad-variant", args: []string{"-out", "{out}", "-variant", "bogus"}, code: 2},
}

// exitCode is the exit status main gives for run's error.
func exitCode(err error) int {
	var u *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u):
		return 2
	}
	return 1
}

var (
	// header is the start of a run's first line, "fill scalable (seed 1,
	// go1.26.8, measured in 2.805s)", up to the Go version.
	header = regexp.MustCompile(`\(seed ([0-9]+), ` + regexp.QuoteMeta(runtime.Version()) + `, `)
	// elapsed is a time.Duration rounded to the millisecond after
	// "measured in": 45ms, 2.805s, 1m2.805s, 1h0m0s.
	elapsed = regexp.MustCompile(`measured in [0-9.]+(?:h[0-9.]+)?(?:m[0-9.]+)?(?:ns|µs|ms|s)`)
)

// normalise replaces in the output of run what depends on the machine,
// the Go release or the test run, each with a fixed token, and nothing
// else:
//
//   - the output directory, a t.TempDir() path, where the files written
//     are named ("wrote DIR/fill-scalable.csv, ..."): <out>/, with the
//     separator of the platform written as /;
//   - the Go version of the run's first line (runtime.Version(), which
//     the results record): <go-version>;
//   - the wall-clock time of the measurement on the same line ("measured
//     in 2.805s"): "measured in <elapsed>".
//
// The rates, intervals and notes depend only on the seed (and not on
// the number of workers: TestWorkersIdenticalCSV), so they are compared
// as printed.
func normalise(s, dir string) string {
	if dir != "" {
		s = strings.ReplaceAll(s, dir+string(filepath.Separator), "<out>/")
	}
	s = header.ReplaceAllString(s, "(seed $1, <go-version>, ")
	return elapsed.ReplaceAllString(s, "measured in <elapsed>")
}

// checkNormalised fails if a value normalise is there to replace is left
// in s, so that no golden file records this machine's.
func checkNormalised(t *testing.T, stream, s, dir string) {
	t.Helper()
	if dir != "" && strings.Contains(s, dir) {
		t.Errorf("%s still holds the output directory %s:\n%s", stream, dir, s)
	}
	if strings.Contains(s, runtime.Version()) {
		t.Errorf("%s still holds the Go version %s:\n%s", stream, runtime.Version(), s)
	}
	if strings.Count(s, "measured in ") != strings.Count(s, "measured in <elapsed>") {
		t.Errorf("%s still holds an elapsed time:\n%s", stream, s)
	}
}

// TestGolden runs the command's main invocations through run and compares
// stdout and stderr, normalised, byte for byte with testdata/NAME.stdout
// and testdata/NAME.stderr, and the exit status with the case's. With
// -update it rewrites the files instead:
//
//	go test ./cmd/experiment -run TestGolden -update
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			if c.slow && testing.Short() {
				t.Skip("the main job takes seconds; skipped with -short")
			}
			var dir string
			args := slices.Clone(c.args)
			for i, a := range args {
				if a == "{out}" {
					if dir == "" {
						dir = t.TempDir()
					}
					args[i] = dir
				}
			}
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), args, &stdout, &stderr)
			if code := exitCode(err); code != c.code {
				t.Errorf("exit status %d (%v), want %d", code, err, c.code)
			}
			for _, s := range []struct{ ext, got string }{{".stdout", stdout.String()}, {".stderr", stderr.String()}} {
				got := normalise(s.got, dir)
				checkNormalised(t, s.ext[1:], got, dir)
				golden.Compare(t, filepath.Join("testdata", c.name+s.ext), got, *update)
			}
		})
	}
	names := make([]string, len(goldenCases))
	for i, c := range goldenCases {
		names[i] = c.name
	}
	golden.CheckLeftovers(t, "testdata", names)
}
