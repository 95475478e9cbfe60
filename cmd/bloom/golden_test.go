package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files testdata/*.stdout and testdata/*.stderr")

// goldenCase is one command line whose output is kept in testdata: what
// run writes to stdout in NAME.stdout and to stderr in NAME.stderr (a
// missing file stands for an empty stream).
type goldenCase struct {
	name string
	// args is the command line; "{dir}/NAME.bloom" stands for the golden
	// filter NAME of package variants, decoded into a temporary directory,
	// which the output shows as <dir>.
	args []string
	code int // the exit status
}

var goldenCases = []goldenCase{
	{name: "info-standard", args: []string{"info", "{dir}/standard-v1.bloom"}},
	{name: "info-scalable", args: []string{"info", "{dir}/scalable-stream-v1.bloom"}},
	{name: "info-scalable-json", args: []string{"info", "-json", "{dir}/scalable-stream-v1.bloom"}},
	{name: "help", args: []string{"-h"}},
	{name: "build-help", args: []string{"build", "-h"}},
	{name: "bad-flag", args: []string{"build", "-variant", "standard", "-n", "1M", "-p", "2%", "-m", "1Mb", "-out", "x.bloom"}, code: 2},
}

// TestGolden runs each case through run and compares stdout and stderr,
// with the temporary directory replaced by <dir>, byte for byte with the
// files in testdata; with -update it rewrites them:
//
//	go test ./cmd/bloom -run TestGolden -update
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := make([]string, len(c.args))
			for i, a := range c.args {
				if name, ok := strings.CutPrefix(a, "{dir}/"); ok {
					data := readGolden(t, filepath.Join("..", "..", "variants", "testdata", strings.TrimSuffix(name, ".bloom")+".golden"))
					a = filepath.Join(dir, name)
					if err := os.WriteFile(a, data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				args[i] = a
			}
			stdout, stderr, code := bloom(t, args...)
			if code != c.code {
				t.Errorf("exit status %d, want %d (stderr %q)", code, c.code, stderr)
			}
			for _, s := range []struct{ ext, got string }{{".stdout", stdout}, {".stderr", stderr}} {
				got := strings.ReplaceAll(s.got, dir, "<dir>")
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
