package catalog

import (
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
)

// TestCardinalityBlocked runs the blocked variant of the cardinality
// experiment (pooled estimates of blocked, split-block and multiblock
// filters) at a small size, checks every row against analysis.Multiblock's
// prediction as TestCardinalityAgainstTheory does, and draws its figure
// to the figure standard.
func TestCardinalityBlocked(t *testing.T) {
	// The same size under -short (2 s): at 300 items and 100 filters the
	// smallest counts (15 items) give a lumpy error distribution whose
	// sample variance strays past 4.5 of its standard errors (seed 14).
	p := experiments.Params{N: 1000, Filters: 300}
	r := mustRun(t, "cardinality", cardinalityBlocks, p, experiments.Options{Seed: 14})
	if want := len(blockLayouts) * (2 * len(cardinalityBlockOverlaps)); len(r.Rows) < want {
		t.Fatalf("%d rows, want at least %d set rows", len(r.Rows), want)
	}
	checkCardinalityRows(t, r, p)
	f, err := Figure(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Check(); err != nil {
		t.Error(err)
	}
}
