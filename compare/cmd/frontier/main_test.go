package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadFlags checks that every bad flag is refused with a usage error
// before anything is measured or written.
func TestBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-filters", "1"}, {"-queries", "10"}, {"-queries", "lots"}, {"-time-queries", "0"},
		{"-rates", "5"}, {"-rates", "1e4,x"}, {"-speed", "1e9"}, {"-speed", ""},
		{"-p", "0"}, {"-p", "1"}, {"-p", "0.01,"}, {"-passes", "0"}, {"-passes", "22"},
		{"-workers", "-1"}, {"-min-inserts", "0"}, {"-bogus"}, {"extra"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), append(args, "-out", filepath.Join(dir, "x")), &out, io.Discard)
		if !errors.Is(err, errUsage) || out.Len() != 0 {
			t.Errorf("run(%q) = %v with %d bytes of output, want a usage error and none", args, err, out.Len())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); !os.IsNotExist(err) {
		t.Errorf("a refused run created the output directory: %v", err)
	}
}

// TestRun runs the command at small sizes and checks its report and files.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	args := []string{"-filters", "2", "-queries", "1000", "-rates", "2000", "-speed", "1000", "-p", "0.01", "-time-queries", "1000", "-min-inserts", "1000", "-passes", "1", "-out", dir}
	if err := run(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"`go run ./cmd/frontier -seed 1 -filters 2 -queries 1e3 -rates 2e3 -speed 1e3 -p 0.01 -time-queries 1e3 -min-inserts 1e3 -passes 1`",
		"| bloomlab standard | 0.01 | 2e3 |", "| binary fuse16 | - | 2e3 |", "| xor8 | - | 1e3 |",
		"| parquet-go split-block | 0.01 | 1e3 |", "| bbloom | 0.01 | 2e3 |",
		"bloomlab standard against bits-and-blooms", "| 1e3 | 0.01 |", "| split-block | 2e3 | 0.01 | 8 |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	for _, name := range []string{"frontier.png", "frontier-rates-2e3.csv", "frontier-rates-2e3.json", "frontier-speed.csv", "frontier-speed.json", "frontier.md"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "frontier.md"))
	if err != nil || !bytes.Equal(md, out.Bytes()) {
		t.Errorf("frontier.md differs from the output (%v)", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestCountName checks the names of key counts.
func TestCountName(t *testing.T) {
	for n, want := range map[uint64]string{10_000: "1e4", 30_000_000: "3e7", 1_000_000: "1e6", 2000: "2e3", 1500: "1500", 123: "123", 100: "100"} {
		if got := countName(n); got != want {
			t.Errorf("countName(%d) = %q, want %q", n, got, want)
		}
	}
}
