package plots

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/experiments/catalog"
)

// tiny returns parameters that make experiment name run in well under a
// second.
func tiny(name string) experiments.Params {
	switch name {
	case "fill":
		return experiments.Params{N: 400, Filters: 4, Queries: 2000, Checkpoints: 4}
	case "bits":
		return experiments.Params{N: 200, Filters: 3, Queries: 500, BitsPerElement: []float64{2, 8}}
	case "hashes":
		return experiments.Params{N: 200, Filters: 3, Queries: 500, Hashes: []int{1, 4, 8}}
	case "small-m":
		return experiments.Params{Filters: 20, Queries: 500, Bits: []uint64{64, 256}}
	case "hashing":
		return experiments.Params{Filters: 3, Queries: 300, Bits: []uint64{256, 1024}}
	case "counting":
		return experiments.Params{N: 300, Filters: 3, Span: 2}
	case "scalable":
		return experiments.Params{N: 100, Filters: 2, Queries: 500, Span: 20, Checkpoints: 2, R: []float64{0.5, 0.9}, S: []float64{2}}
	case "memory":
		return experiments.Params{Keys: []uint64{1000, 3000}}
	case "speed":
		return experiments.Params{Keys: []uint64{1000, 5000}, Queries: 5000}
	case "blocking":
		return experiments.Params{N: 200, Filters: 3, Queries: 500, BitsPerElement: []float64{2, 8}, Keys: []uint64{1000, 5000}}
	case "adversary":
		return experiments.Params{N: 300, Filters: 3, Queries: 2000}
	case "cardinality":
		return experiments.Params{N: 400, Filters: 4}
	case "growth":
		return experiments.Params{N: 10, Filters: 2, Queries: 300, Span: 1000, Checkpoints: 1, Passes: 1, MinAdds: 2000}
	case "window":
		return experiments.Params{N: 64, P: 0.01, Filters: 3, Queries: 500}
	}
	return experiments.Params{}
}

// TestRenderEveryFigure draws every experiment's figure from tiny results,
// checks the figure standard on its plot data, renders it as PNG and SVG
// and checks the output is an image of that format.
func TestRenderEveryFigure(t *testing.T) {
	for _, e := range catalog.List() {
		vs := []string{"all"}
		if e.PerVariant {
			vs = e.Variants
		}
		for _, v := range vs {
			t.Run(e.Name+"/"+v, func(t *testing.T) {
				r, err := catalog.Run(context.Background(), e.Name, v, tiny(e.Name), experiments.Options{Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				f, err := New(r)
				if err != nil {
					t.Fatal(err)
				}
				if len(f.Panels) == 0 || f.Width <= 0 || f.Height <= 0 {
					t.Fatalf("empty figure %+v", f)
				}
				checkFigure(t, e.Name+"-"+v, f)
				var png, svg bytes.Buffer
				if err := f.Render(&png, "png"); err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG\r\n\x1a\n")) || png.Len() < 10_000 {
					t.Errorf("PNG of %d bytes starting %q", png.Len(), png.Bytes()[:min(8, png.Len())])
				}
				if err := Render(&svg, r, "svg"); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(svg.String()[:min(200, svg.Len())], "<svg") {
					t.Errorf("SVG starts %q", svg.String()[:min(100, svg.Len())])
				}
			})
		}
	}
}

func TestRenderErrors(t *testing.T) {
	r, err := catalog.Run(context.Background(), "fill", "standard", tiny("fill"), experiments.Options{Seed: 1, Shard: experiments.Shard{Index: 0, Count: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(r); err == nil || !strings.HasPrefix(err.Error(), "plots: ") {
		t.Errorf("figure of a shard: %v", err)
	}
	if _, err := New(&experiments.Results{Experiment: "nope", Rows: []experiments.Row{{}}}); err == nil {
		t.Error("figure of an unknown experiment")
	}
	if _, err := New(&experiments.Results{Experiment: "fill"}); err == nil {
		t.Error("figure of no rows")
	}
	r.Shard = nil
	var b bytes.Buffer
	if err := Render(&b, r, "gif"); err == nil {
		t.Error("gif accepted")
	}
}

func row(items uint64, rate, lo, hi, theory float64) experiments.Row {
	return experiments.Row{Series: "s", Items: items, Queries: 100, Rate: rate, Lo: lo, Hi: hi, Theory: theory, Classic: theory / 2}
}

func ptrs(rows []experiments.Row) []*experiments.Row {
	var p []*experiments.Row
	for i := range rows {
		p = append(p, &rows[i])
	}
	return p
}

func TestRatesDropZeros(t *testing.T) {
	rows := []experiments.Row{row(1, 0, 0, 0.01, 1e-5), row(2, 0.02, 0.01, 0.03, 0.02), row(3, 0.1, 0, 0.2, 0.09)}
	p := Rates(ptrs(rows), items)
	if p.Dropped != 1 || p.Len() != 2 {
		t.Fatalf("Rates = %+v", p)
	}
	if x, y := p.XY(0); x != 2 || y != 0.02 {
		t.Errorf("point 0 = (%g, %g)", x, y)
	}
	if lo, hi := p.YError(0); math.Abs(lo-0.01) > 1e-15 || math.Abs(hi-0.01) > 1e-15 {
		t.Errorf("errors of point 0 = %g, %g", lo, hi)
	}
	// An interval reaching zero loses its lower bar and is marked for an
	// arrow; the others keep theirs.
	c := clampLow(p, 1e-3)
	if lo, _ := c.YError(1); lo != 0 || len(c.open) != 1 || c.open[0] != 1 {
		t.Errorf("clamped low error %g, open %v", lo, c.open)
	}
	if lo, _ := c.YError(0); math.Abs(lo-0.01) > 1e-15 {
		t.Errorf("low error of point 0 changed to %g", lo)
	}
	if lo, _ := p.YError(1); lo != 0.1 {
		t.Errorf("clampLow changed its argument: %g", lo)
	}
	th := Values(ptrs(rows), items, theory)
	if len(th) != 3 || th[0].Y != 1e-5 {
		t.Errorf("theory values %v", th)
	}
	ex := Excess(ptrs(rows), items)
	if len(ex.XYs) != 3 || math.Abs(ex.XYs[2].Y-100*(0.1/0.09-1)) > 1e-9 {
		t.Errorf("excess %v", ex.XYs)
	}
	ra := Ratio(ptrs(rows), items, classic)
	if math.Abs(ra.XYs[1].Y-2) > 1e-12 {
		t.Errorf("ratio %v", ra.XYs)
	}
}

func TestLogRange(t *testing.T) {
	for _, c := range []struct {
		in     []float64
		lo, hi float64
	}{
		{[]float64{0.003, 0.2}, 0.001, 1},
		{[]float64{0, 1e-5, 1e-5}, 1e-5, 1e-4},
		{nil, 1e-3, 1},
		{[]float64{0.01, 0.1}, 0.01, 0.1},
	} {
		lo, hi := logRange(c.in...)
		if math.Abs(lo/c.lo-1) > 1e-9 || math.Abs(hi/c.hi-1) > 1e-9 {
			t.Errorf("logRange(%v) = %g, %g, want %g, %g", c.in, lo, hi, c.lo, c.hi)
		}
	}
	ticks := decades{}.Ticks(1e-6, 0.1)
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "1e-6 1e-5 1e-4 0.001 0.01 0.1" {
		t.Errorf("decade labels %q", got)
	}
}
