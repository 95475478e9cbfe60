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
		{"-filters", "1"}, {"-queries", "10"}, {"-n", "5"}, {"-workers", "-1"}, {"-bogus"}, {"extra"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), args, &out)
		if !errors.Is(err, errUsage) || out.Len() != 0 {
			t.Errorf("run(%q) = %v with %d bytes of output, want a usage error and none", args, err, out.Len())
		}
	}
}

// TestRun runs the whole command at its smallest sizes and checks that
// every section and every library is in its output and its files.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-filters", "2", "-queries", "1000", "-n", "1000", "-out", dir}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"**Fixed-size filters**", "**Scalable filters**", "**Counting filters**",
		"| bloomlab standard | 1000 |", "| bits-and-blooms | 2000 |", "| boomfilters classic | 500 |",
		"| boomfilters partitioned |", "| boomfilters scalable | 1000000 |", "| bloomlab scalable | 10000 |",
		"| boomfilters counting |", "| bloomlab counting | 0 [0, 0] | 0 to 0 |", ", pooled over its 3 points",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	for _, name := range []string{"peers-fixed.csv", "peers-fixed.json", "peers-fixed.png", "peers-scalable.csv", "peers-scalable.json", "peers-scalable.png"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}
