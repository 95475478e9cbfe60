package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadFlags checks that every bad flag is refused with a usage error
// before anything is measured.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-filters", "1"}, {"-queries", "10"}, {"-window", "5"}, {"-targets", "0.7"}, {"-targets", "x"},
		{"-small", "0"}, {"-small", "a"}, {"-phase-filters", "0"}, {"-workers", "-1"}, {"-bogus"}, {"extra"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), args, &out)
		if !errors.Is(err, errUsage) || out.Len() != 0 {
			t.Errorf("run(%q) = %v with %d bytes of output, want a usage error and none", args, err, out.Len())
		}
	}
}

// TestRun runs the command at small sizes and checks its sections, the
// broken promise of decred's Capacity() and the files.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("measures for a few seconds")
	}
	dir := t.TempDir()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-filters", "3", "-queries", "1000", "-window", "400", "-targets", "0.05", "-small", "16", "-phase-filters", "1", "-out", dir}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"**Geometry.**", "**Rate against stream position.**", "**Recall against age**", "**Window promise**", "**Small slices.**",
		"| 0.05 | decred k=5 l=", "| 0.05 | bloomlab k=", "| 0.05 | stable K=", "| 0.05 | decred: l g + 1 |"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// Every phase check of l g + 1 and of bloomlab's window misses
	// nothing; decred's Capacity() misses some.
	for _, line := range strings.Split(s, "\n") {
		f := strings.Split(line, " | ")
		switch {
		case strings.Contains(line, "decred: Capacity()"):
			if len(f) < 6 || f[5] == "0" {
				t.Errorf("decred's Capacity() held at every phase: %s", line)
			}
		case strings.Contains(line, "decred: l g + 1"), strings.Contains(line, "bloomlab: Window()"):
			if len(f) < 6 || f[5] != "0" {
				t.Errorf("a guaranteed window missed an item: %s", line)
			}
		}
	}
	for _, name := range []string{"window-peers-p0.05.csv", "window-peers-p0.05.json", "window-peers-small-16.json"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}
