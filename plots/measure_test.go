package plots

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// standardSpec measures standard filters of m bits and k hashes at items,
// with the exact theory when theory is set.
func standardSpec(m uint64, k int, items []uint64, theory bool) experiments.Spec {
	s := experiments.Spec{
		Name: fmt.Sprintf("m=%d k=%d", m, k),
		New: func(seed uint64) (experiments.Filter, error) {
			return variants.NewStandard(variants.Geometry{Bits: m, Hashes: k}, variants.Hashing{Seed: seed})
		},
		Items: items,
	}
	if theory {
		s.Theory = func(n uint64) float64 { return analysis.ExactFPR(m, n, k) }
		s.Model = "exact"
	}
	return s
}

// TestMeasureFigure draws results of experiments.Measure: one spec over a
// wide range of items (logarithmic x), several specs with and without a
// theory over a narrow range, and specs measured at one size only. Each
// figure has one panel, and its legend names every series' measurement and
// every theory.
func TestMeasureFigure(t *testing.T) {
	for _, c := range []struct {
		name     string
		specs    []experiments.Spec
		theories int
	}{
		{"wide", []experiments.Spec{standardSpec(2048, 3, []uint64{20, 200, 2000}, true)}, 1},
		{"narrow", []experiments.Spec{standardSpec(2048, 3, []uint64{200, 300}, true), standardSpec(4096, 2, []uint64{200, 300}, false)}, 1},
		{"one size", []experiments.Spec{standardSpec(2048, 3, []uint64{300}, true), standardSpec(4096, 2, []uint64{300}, true)}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := experiments.Measure(context.Background(), c.specs, experiments.Params{Filters: 4, Queries: 2000}, experiments.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			f, err := Measure(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Panels) != 1 || len(f.Panels[0]) != 1 {
				t.Fatalf("%d panel rows", len(f.Panels))
			}
			p := f.Panels[0][0]
			if p.X.Min >= p.X.Max || p.Y.Min <= 0 || p.Y.Max > 1 {
				t.Errorf("axes x [%g, %g], y [%g, %g]", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
			}
			var svg bytes.Buffer
			if err := f.Render(&svg, "svg"); err != nil {
				t.Fatal(err)
			}
			out := svg.String()
			if got := strings.Count(out, "measured: mean of 4 filters"); got != len(c.specs) {
				t.Errorf("the legend names %d measurements, want %d", got, len(c.specs))
			}
			if got := strings.Count(out, "exact theory at the built m, k"); got != c.theories {
				t.Errorf("the legend names %d theories, want %d", got, c.theories)
			}
		})
	}
}
