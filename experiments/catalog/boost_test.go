package catalog

import (
	"context"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
)

// TestBoost runs the boost experiment small (10^4 keys, two columns of
// Boost's table) and checks that its rows carry the layouts of Boost's
// table in order, every one built, with Boost's K and geometry, our theory
// (which analysis computes for every cell), and a note per cell and a
// summary.
func TestBoost(t *testing.T) {
	const n = 10_000
	p := experiments.Params{N: n, Filters: 3, Queries: 2000, BitsPerKey: []float64{8, 16}}
	r := mustRun(t, "boost", "all", p, experiments.Options{Seed: 1})
	next := 0
	for _, l := range boostLayouts {
		for _, cell := range []boostCell{l.cells[0], l.cells[2]} {
			if why := (boostPoint{l, cell}).unbuilt(); why != "" {
				t.Errorf("%s c=%d K=%d not built: %s", l.name, cell.c, cell.k, why)
				continue
			}
			if next >= len(r.Rows) {
				t.Fatalf("%d rows, too few", len(r.Rows))
			}
			row := r.Rows[next]
			next++
			if row.Series != l.name || row.Hashes != cell.k || row.Items != n || row.Filters != 3 {
				t.Errorf("row %d: %s K=%d n=%d filters %d, want %s K=%d", next-1, row.Series, row.Hashes, row.Items, row.Filters, l.name, cell.k)
			}
			want := (cell.c*n + 7) / 8 * 8
			if !l.classic {
				want = analysis.BoostMultiblock(cell.c*n, cell.k, l.wordBits, l.multi, l.stride).Bits
			}
			if row.Bits != want {
				t.Errorf("%s c=%d: %d bits, Boost's geometry %d", l.name, cell.c, row.Bits, want)
			}
			if (row.Variant == "standard") != l.classic {
				t.Errorf("%s: variant %s", l.name, row.Variant)
			}
			if row.Model == "" || row.Theory <= 0 || row.Inside == "" {
				t.Errorf("%s c=%d: model %q, theory %g, inside %q", l.name, cell.c, row.Model, row.Theory, row.Inside)
			}
		}
	}
	if next != len(r.Rows) || next != 2*len(boostLayouts) {
		t.Errorf("%d rows, %d matched, want %d", len(r.Rows), next, 2*len(boostLayouts))
	}
	var cells, summary int
	for _, note := range r.Notes {
		if strings.HasPrefix(note, "boost summary: ") {
			summary++
		} else if strings.HasPrefix(note, "boost ") {
			cells++
		}
	}
	if cells != 2*len(boostLayouts) || summary != 1 {
		t.Errorf("%d cell notes and %d summaries, want %d and 1", cells, summary, 2*len(boostLayouts))
	}
	if _, err := Figure(r); err != nil {
		t.Error(err)
	}
}

// TestBoostQuick checks that -quick measures the handful of layouts marked
// quick at c = 8 on 10^6 keys.
func TestBoostQuick(t *testing.T) {
	e, _ := Lookup("boost")
	p := e.Defaults("all", true)
	pts, err := boostPoints(p)
	if err != nil {
		t.Fatal(err)
	}
	if p.N != 1_000_000 || len(pts) != 5 {
		t.Errorf("quick: n = %d, %d cells", p.N, len(pts))
	}
	full, err := boostPoints(e.Defaults("all", false))
	if err != nil || len(full) != 48 {
		t.Errorf("full: %d cells, %v", len(full), err)
	}
	if err := Check(context.Background(), "boost", "all", experiments.Params{BitsPerKey: []float64{10}}, experiments.Options{}); err == nil {
		t.Error("c = 10 accepted")
	}
}
