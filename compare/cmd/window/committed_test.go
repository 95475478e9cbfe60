package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestCommittedNumbers checks that the numbers compare/README.md and
// paper-notes §14 quote from the committed run of this command
// (compare/figures/window.md) are those of that run.
func TestCommittedNumbers(t *testing.T) {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(string(b)), " ") // prose wraps anywhere
	}
	readme, notes := read("../../README.md"), read("../../../paper-notes.md")
	cells := func(line string) []string {
		var c []string
		for _, f := range strings.Split(strings.Trim(line, "| "), " | ") {
			c = append(c, strings.TrimSpace(f))
		}
		return c
	}
	var decredPooled, bloomBits, decredBits, small, smallRatio []string
	b, err := os.ReadFile("../../figures/window.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		c := cells(line)
		switch {
		case len(c) == 13 && strings.HasPrefix(c[1], "decred k="):
			decredPooled = append(decredPooled, c[9])
		case len(c) == 10 && c[0] != "target" && !strings.HasPrefix(c[0], "-"):
			// The geometry table: bits per key of decred's guaranteed
			// window, decred's and bloomlab's (allocated in brackets).
			decredBits = append(decredBits, c[4])
			bloomBits = append(bloomBits, strings.Fields(c[8])[0])
		case len(c) == 5 && c[2] == "decred" && c[0] != "target":
			small = append(small, fmt.Sprintf("%s at %s", c[3], c[1]))
			smallRatio = append(smallRatio, strings.Fields(c[3])[0])
		}
	}
	if len(decredPooled) != 3 || len(small) != 4 {
		t.Fatalf("committed run: %d rate rows of decred, %d small-slice rows", len(decredPooled), len(small))
	}
	lohi := regexp.MustCompile(`^([0-9.e-]+) \[([0-9.e-]+), ([0-9.e-]+)\]$`)
	var ratios, intervals []string
	for _, p := range decredPooled {
		m := lohi.FindStringSubmatch(p)
		if m == nil {
			t.Fatalf("pooled cell %q", p)
		}
		ratios = append(ratios, m[1])
		intervals = append(intervals, m[2]+" to "+m[3])
	}
	join := func(s []string) string { return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1] }
	for _, w := range []string{
		"first add to ten capacities are " + join(ratios) + " times the theory",
		"(95% intervals " + strings.Join(intervals, ", ") + ")",
		"bloomlab's filter takes " + join(bloomBits) + " bits per guaranteed item against decred's " + join(decredBits),
		smallRatio[0] + " times at 116-bit slices and " + smallRatio[1] + " times at 462",
	} {
		if !strings.Contains(readme, w) {
			t.Errorf("the README does not say %q, which the committed run gives", w)
		}
	}
	for _, w := range []string{
		small[0] + "-bit slices",
		"needs " + join(bloomBits),
		"with " + join(decredBits) + " bits per guaranteed item",
	} {
		if !strings.Contains(notes, w) {
			t.Errorf("paper-notes do not say %q, which the committed run gives", w)
		}
	}
}
