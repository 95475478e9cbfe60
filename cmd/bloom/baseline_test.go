package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/internal/units"
	"github.com/bloomlab/bloomlab/variants"
)

// TestBaseline times the plain Go loop that bloom build is measured
// against (docs/bloom.md): read the key file with a bufio.Scanner, add
// every line to a standard filter sized for the file's lines at 1%, then
// save it with WriteTo and sync it, as bloom build does. It runs only when BLOOM_BASELINE_KEYS names a key
// file (BLOOM_BASELINE_N its number of lines, default 10M;
// BLOOM_BASELINE_RUNS the runs, default 1):
//
//	BLOOM_BASELINE_KEYS=/tmp/keys10M.txt go test -run TestBaseline -v ./cmd/bloom
func TestBaseline(t *testing.T) {
	path := os.Getenv("BLOOM_BASELINE_KEYS")
	if path == "" {
		t.Skip("set BLOOM_BASELINE_KEYS to a key file to time the baseline")
	}
	n := uint64(10_000_000)
	if s := os.Getenv("BLOOM_BASELINE_N"); s != "" {
		var err error
		if n, err = units.ParseCount(s); err != nil {
			t.Fatal(err)
		}
	}
	runs := 1
	if s := os.Getenv("BLOOM_BASELINE_RUNS"); s != "" {
		var err error
		if runs, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	for run := range runs {
		start := time.Now()
		f, err := variants.NewStandardFor(n, 0.01, variants.Hashing{})
		if err != nil {
			t.Fatal(err)
		}
		in, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(in)
		lines := 0
		for sc.Scan() {
			f.Add(sc.Bytes())
			lines++
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		in.Close()
		added := time.Since(start)
		out, err := os.Create(filepath.Join(t.TempDir(), "baseline.bloom"))
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(out)
		if _, err := f.WriteTo(w); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := out.Sync(); err != nil { // bloom build syncs before its rename
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("run %d: %s lines: read and added in %v, with the save %v (filter %s)",
			run, strconv.Itoa(lines), added.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), units.FormatBytes(f.Stats().Bits))
	}
}
