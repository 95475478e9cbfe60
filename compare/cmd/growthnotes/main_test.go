package main

import (
	"context"
	"errors"
	"io"
	"testing"
)

// TestUsage checks that every bad command line is a usage error, before
// any measurement starts.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-run", "R50"},
		{"-out", t.TempDir()},
		{"-run", "R9", "-out", t.TempDir()},
		{"-run", "R50", "-out", t.TempDir(), "extra"},
		{"-bogus"},
	} {
		if err := run(context.Background(), args, io.Discard, io.Discard); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) = %v, want a usage error", args, err)
		}
	}
}
