package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestRun runs a small comparison on two key sources and checks the
// tables, and that bad flags are usage errors.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{"-filters", "3", "-queries", "2000", "-n", "2000", "-keys", "uniform,sequential"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"| filter | uniform | sequential |", "| bloomlab standard | ", "| boomfilters partitioned | ", "Per filter, the lowest to the highest", "cells"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"-time", "1000,4000", "-keys", "sequential", "-queries", "2000", "-passes", "1"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| filter | n = 1000 | n = 4000 |", "| bits-and-blooms | ", "| random lines (one load) | "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-time output lacks %q:\n%s", want, out.String())
		}
	}
	for _, args := range [][]string{{"-filters", "1"}, {"-queries", "10"}, {"-n", "5"}, {"-keys", "gaussian"}, {"extra"},
		{"-time", "1e4,1e3"}, {"-time", "ten"}, {"-time", "1e4", "-passes", "0"}} {
		if err := run(context.Background(), args, new(bytes.Buffer)); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v", args, err)
		}
	}
}
