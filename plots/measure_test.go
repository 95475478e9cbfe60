package plots

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

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

// legendTexts returns the legend entries of every panel of f.
func legendTexts(f *Figure) [][]string {
	var out [][]string
	for _, row := range f.Panels {
		for _, p := range row {
			var texts []string
			_, es := inspect(p)
			for _, e := range es {
				texts = append(texts, e.text)
			}
			out = append(out, texts)
		}
	}
	return out
}

// pixels returns the width of f as PNG.
func pixels(l vg.Length) int { return int(float64(l/vg.Inch)*dpi + 0.5) }

// TestMeasureFigure draws results of experiments.Measure and checks the
// figure data against the figure standard: one legend entry per series
// and the meaning of lines and markers once (no "theory: theory"), each
// theory drawn as a line and never as markers, the targets as lines,
// at most MaxSeries series per panel, split panels at most 1,400 pixels
// wide, and Figure.Check's rules (legend beside the data, no hidden
// series named, every point inside the axes).
func TestMeasureFigure(t *testing.T) {
	many := func(n int, target float64) []experiments.Spec {
		var specs []experiments.Spec
		for i := range n {
			s := standardSpec(uint64(1024+64*i), 3, []uint64{50, 100, 200}, true)
			s.Target = target
			specs = append(specs, s)
		}
		return specs
	}
	noModel := standardSpec(2048, 3, []uint64{100, 200}, true)
	noModel.Model = ""
	same := standardSpec(2048, 3, []uint64{100, 200}, true)
	same.Name = "the same geometry again"
	for _, c := range []struct {
		name     string
		specs    []experiments.Spec
		panels   []int  // series per panel
		key      string // the theory key's text
		theories int    // theory lines drawn
		target   bool
	}{
		{"wide", []experiments.Spec{standardSpec(2048, 3, []uint64{20, 200, 2000}, true)}, []int{1}, "lines: exact theory at the built m, k", 1, false},
		{"narrow", []experiments.Spec{standardSpec(2048, 3, []uint64{200, 300}, true), standardSpec(4096, 2, []uint64{200, 300}, false)}, []int{2}, "lines: exact theory at the built m, k", 1, false},
		{"one size", []experiments.Spec{standardSpec(2048, 3, []uint64{300}, true), standardSpec(4096, 2, []uint64{300}, true)}, []int{2}, "lines: exact theory at the built m, k", 2, false},
		{"no model", []experiments.Spec{noModel}, []int{1}, "lines: theory", 1, false},
		{"hidden theory", []experiments.Spec{standardSpec(2048, 3, []uint64{100, 200}, true), same}, []int{2}, "lines: exact theory at the built m, k", 1, false},
		{"eight", many(8, 0.05), []int{8}, "lines: exact theory at the built m, k", 8, true},
		{"eighteen", many(18, 0.05), []int{6, 6, 6}, "lines: exact theory at the built m, k", 18, true},
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
			if err := f.Check(); err != nil {
				t.Errorf("figure standard: %v", err)
			}
			if len(f.Panels) != len(c.panels) {
				t.Fatalf("%d panels, want %d", len(f.Panels), len(c.panels))
			}
			if len(f.Panels) > 1 && pixels(f.Width) > 1400 {
				t.Errorf("%d panels %d pixels wide, want at most 1400", len(f.Panels), pixels(f.Width))
			}
			theories := 0
			for i, all := range legendTexts(f) {
				var texts []string // without the notes under an entry
				for _, s := range all {
					if !strings.HasPrefix(s, "   (") {
						texts = append(texts, s)
					}
				}
				p := f.Panels[i][0]
				if p.X.Min >= p.X.Max || p.Y.Min <= 0 || p.Y.Max > 1 {
					t.Errorf("panel %d: axes x [%g, %g], y [%g, %g]", i, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
				}
				want := c.panels[i] + 2 // the series, the theory key, the marker key
				if c.target {
					want++
				}
				if len(texts) != want {
					t.Errorf("panel %d: %d legend entries, want %d: %q", i, len(texts), want, texts)
				}
				seen := map[string]bool{}
				for _, s := range texts {
					if seen[s] {
						t.Errorf("panel %d: legend entry %q twice", i, s)
					}
					seen[s] = true
					if strings.Contains(s, "theory: theory") {
						t.Errorf("panel %d: legend entry %q", i, s)
					}
				}
				if !seen[c.key] {
					t.Errorf("panel %d: no legend entry %q in %q", i, c.key, texts)
				}
				if c.target && !seen["target p = 0.05"] {
					t.Errorf("panel %d: no target in the legend %q", i, texts)
				}
				ps, _ := inspect(p)
				scatters, targets := 0, 0
				for _, pl := range ps {
					switch v := pl.(type) {
					case *plotter.Line:
						if v.LineStyle.Dashes != nil && v.XYs[0].Y == 0.05 {
							targets++
						} else {
							theories++
						}
					case *plotter.Scatter:
						scatters++
					}
				}
				// The measured points and their arrows only: no theory
				// drawn as markers.
				if scatters < c.panels[i] || scatters > 2*c.panels[i] {
					t.Errorf("panel %d: %d scatters for %d series", i, scatters, c.panels[i])
				}
				if c.target && targets != 1 {
					t.Errorf("panel %d: %d target lines, want 1", i, targets)
				}
			}
			if theories != c.theories {
				t.Errorf("%d theory lines, want %d", theories, c.theories)
			}
			var svg bytes.Buffer
			if err := f.Render(&svg, "svg"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestTimeFigure draws results of experiments.Time: a 2 x 2 grid at most
// 1,400 pixels wide, the times of every spec in (a) to (c), the baseline
// in (b) and (c) only, the rates in (d), one legend naming each spec and
// the baseline once, and the figure standard met.
func TestTimeFigure(t *testing.T) {
	newStd := func(n, seed uint64) (experiments.Filter, error) {
		return variants.NewStandardFor(n, 0.01, variants.Hashing{Seed: seed})
	}
	newBlk := func(n, seed uint64) (experiments.Filter, error) {
		return variants.NewBlockedFor(n, 0.01, variants.Hashing{Seed: seed})
	}
	r, err := experiments.Time(context.Background(), []experiments.TimeSpec{{Name: "standard", New: newStd}, {Name: "blocked", New: newBlk}},
		experiments.Params{Keys: []uint64{1000, 4000, 20000}, Queries: 5000, Passes: 1}, experiments.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Rows {
		if row.Series != experiments.RandomLines && row.Target != 0 {
			t.Errorf("%s at %d keys: target %g, but Time sized no filter of it", row.Series, row.Items, row.Target)
		}
	}
	f, err := Time(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Check(); err != nil {
		t.Errorf("figure standard: %v", err)
	}
	if len(f.Panels) != 2 || len(f.Panels[0]) != 2 || len(f.Panels[1]) != 2 {
		t.Fatalf("panels %d x %d, want 2 x 2", len(f.Panels), len(f.Panels[0]))
	}
	if w := pixels(f.Width); w > 1400 {
		t.Errorf("%d pixels wide, want at most 1400", w)
	}
	texts := legendTexts(f)
	want := []string{"standard", "blocked", "random lines: one random 64-byte line load"}
	for i, ts := range texts {
		if i == 1 {
			if strings.Join(ts, "|") != strings.Join(want, "|") {
				t.Errorf("legend of (b): %q, want %q", ts, want)
			}
		} else if len(ts) > 0 {
			t.Errorf("panel %d has a legend %q; only (b) has one", i, ts)
		}
	}
	for i, lines := range []int{2, 3, 3, 0} {
		p := f.Panels[i/2][i%2]
		ps, _ := inspect(p)
		n := 0
		for _, pl := range ps {
			if _, ok := pl.(*plotter.Line); ok {
				n++
			}
		}
		if n != lines {
			t.Errorf("panel %q: %d lines, want %d", p.Title.Text, n, lines)
		}
	}
	var png bytes.Buffer
	if err := f.Render(&png, "png"); err != nil {
		t.Fatal(err)
	}
	// Not the results of Time.
	m, err := experiments.Measure(context.Background(), []experiments.Spec{standardSpec(2048, 3, []uint64{100}, true)}, experiments.Params{Filters: 2, Queries: 100}, experiments.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Time(m); err == nil {
		t.Error("Time drew the results of Measure")
	}
}
