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
	p := experiments.Params{N: 1000, Filters: 300}
	if testing.Short() {
		p = experiments.Params{N: 300, Filters: 100}
	}
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
