package catalog

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"github.com/bloomlab/bloomlab/variants"
	"gonum.org/v1/plot/vg"
)

// figuresDir holds the committed figures of the README and the figure
// gallery, and in its data folder the results they are drawn from.
const figuresDir = "../../plots/figures"

// updating reports whether the tests run with -update (declared in
// golden_test.go): TestCommittedFigures then moves results written into
// plots/figures to plots/figures/data and redraws plots/figures/*.png
// from plots/figures/data.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestRenderEveryFigure draws every experiment's figure from tiny results,
// checks the figure standard on its plot data, renders it as PNG and SVG
// and checks the output is an image of that format.
func TestRenderEveryFigure(t *testing.T) {
	for _, e := range List() {
		vs := []string{"all"}
		if e.PerVariant {
			vs = e.Variants
		}
		for _, v := range vs {
			t.Run(e.Name+"/"+v, func(t *testing.T) {
				r, err := Run(context.Background(), e.Name, v, tiny(e.Name), experiments.Options{Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				f, err := Figure(r)
				if err != nil {
					t.Fatal(err)
				}
				if len(f.Panels) == 0 || f.Width <= 0 || f.Height <= 0 {
					t.Fatalf("empty figure %+v", f)
				}
				if err := f.Check(); err != nil {
					t.Errorf("%s-%s: %v", e.Name, v, err)
				}
				var png, svg bytes.Buffer
				if err := f.Render(&png, "png"); err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG\r\n\x1a\n")) || png.Len() < 10_000 {
					t.Errorf("PNG of %d bytes starting %q", png.Len(), png.Bytes()[:min(8, png.Len())])
				}
				if err := f.Render(&svg, "svg"); err != nil {
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
	r, err := Run(context.Background(), "fill", "standard", tiny("fill"), experiments.Options{Seed: 1, Shard: experiments.Shard{Index: 0, Count: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Figure(r); err == nil || !strings.HasPrefix(err.Error(), "catalog: ") {
		t.Errorf("figure of a shard: %v", err)
	}
	if _, err := Figure(&experiments.Results{Experiment: "nope", Rows: []experiments.Row{{}}}); err == nil {
		t.Error("figure of an unknown experiment")
	}
	if _, err := Figure(&experiments.Results{Experiment: "fill"}); err == nil {
		t.Error("figure of no rows")
	}
	r.Shard = nil
	f, err := Figure(r)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Render(&b, "gif"); err == nil {
		t.Error("gif accepted")
	}
}

// TestCardinalityFigureParts draws the cardinality figure of each variant
// alone, whose results lack some of the panels' series (a scalable run has
// no set estimates, only a standard one the rows near saturation), and of
// runs of one and two filters, whose intervals are empty or degenerate.
func TestCardinalityFigureParts(t *testing.T) {
	for _, v := range []string{"standard", "partitioned", "counting", "scalable"} {
		for _, filters := range []int{1, 2} {
			p := experiments.Params{N: 30, Filters: filters}
			r, err := Run(context.Background(), "cardinality", v, p, experiments.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			f, err := Figure(r)
			if err != nil {
				t.Fatalf("%s, %d filters: %v", v, filters, err)
			}
			want := 2
			switch v {
			case "standard":
				want = 3
			case "scalable":
				want = 1
			}
			if len(f.Panels) != want {
				t.Errorf("%s: %d rows of panels, want %d", v, len(f.Panels), want)
			}
			// Rendering is what once hung on an empty panel; two
			// renders cover the shapes (drawing costs about half a
			// second each).
			if v == "scalable" && filters == 1 || v == "standard" && filters == 2 {
				var png bytes.Buffer
				if err := f.Render(&png, "png"); err != nil || png.Len() < 10_000 {
					t.Errorf("%s, %d filters: %d bytes of PNG, %v", v, filters, png.Len(), err)
				}
			}
		}
	}
}

// committed returns the results of the committed figures' run, by figure
// name.
func committed(t *testing.T) map[string]*experiments.Results {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(figuresDir, "data", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no committed results in plots/figures/data")
	}
	out := map[string]*experiments.Results{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := experiments.ReadJSON(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[strings.TrimSuffix(filepath.Base(path), ".json")] = r
	}
	return out
}

// TestCommittedFigures checks the figure standard on every committed
// figure, drawn from the committed results of its run; with -update it
// redraws the PNGs from them.
func TestCommittedFigures(t *testing.T) {
	if updating() {
		importResults(t)
	}
	for name, r := range committed(t) {
		f, err := Figure(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := f.Check(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		// Legible at a README's width: at most about 1,400 pixels
		// (DESIGN.md), 1440 the widest allowed.
		if w := int(float64(f.Width/vg.Inch)*144 + 0.5); w > 1440 {
			t.Errorf("%s: %d pixels wide, want at most about 1400", name, w)
		}
		if _, err := os.Stat(filepath.Join(figuresDir, name+".png")); err != nil {
			t.Errorf("%s: results committed without their figure: %v", name, err)
		}
		if updating() {
			out, err := os.CreateTemp(figuresDir, ".update-*")
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Render(out, "png"); err != nil {
				t.Fatal(err)
			}
			if err := out.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(out.Name(), filepath.Join(figuresDir, name+".png")); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// importResults moves the results a run of cmd/experiment wrote into
// figures (-format png,json) to figures/data, without their per-filter
// counts, which no figure draws.
func importResults(t *testing.T) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(figuresDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := experiments.ReadJSON(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i := range r.Rows {
			r.Rows[i].Trials = nil
		}
		out, err := os.CreateTemp(filepath.Join(figuresDir, "data"), ".import-*")
		if err != nil {
			t.Fatal(err)
		}
		if err := experiments.WriteJSON(out, r); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(out.Name(), filepath.Join(figuresDir, "data", filepath.Base(path))); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
}

// The data of the cardinality figure for one series, in percent: the mean
// relative errors with their intervals, the spreads, and the predicted
// standard errors, against the load.
func TestCardinalityPoints(t *testing.T) {
	r, err := Run(context.Background(), "cardinality", "partitioned",
		experiments.Params{N: 1000, Filters: 100, Span: 1}, experiments.Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	rows := plots.Rows(r, "partitioned", nil)
	items := func(row *experiments.Row) float64 { return float64(row.Items) }
	mean := errorPoints(rows, items, 100)
	spread := spreadPoints(rows, items, 100)
	pred := predicted(rows, items, func(row *experiments.Row) float64 { return row.StdError }, 100)
	var got []string
	for i, xy := range mean.XYs {
		lo, hi := mean.YError(i)
		got = append(got, fmt.Sprintf("%.0f items: mean %+.2f%% (-%.2f, +%.2f), spread %.2f%%, predicted %.2f%%",
			xy.X, xy.Y, lo, hi, spread.XYs[i].Y, pred[i].Y))
	}
	want := []string{
		"10 items: mean +0.06% (-0.13, +0.13), spread 0.67%, predicted 0.69%",
		"20 items: mean +0.05% (-0.14, +0.14), spread 0.69%, predicted 0.71%",
		"50 items: mean -0.02% (-0.15, +0.15), spread 0.73%, predicted 0.72%",
		"100 items: mean -0.03% (-0.14, +0.14), spread 0.72%, predicted 0.73%",
		"200 items: mean +0.01% (-0.17, +0.17), spread 0.84%, predicted 0.74%",
		"300 items: mean +0.11% (-0.16, +0.16), spread 0.79%, predicted 0.75%",
		"500 items: mean +0.12% (-0.16, +0.16), spread 0.81%, predicted 0.77%",
		"750 items: mean +0.15% (-0.17, +0.17), spread 0.84%, predicted 0.79%",
		"1000 items: mean +0.18% (-0.17, +0.17), spread 0.86%, predicted 0.82%",
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("got\n%s\nwant\n%s", g, w)
	}
}

// TestFigureOfTime checks that Figure draws the results of
// experiments.Time, as it does those of experiments.Measure.
func TestFigureOfTime(t *testing.T) {
	r, err := experiments.Time(context.Background(), []experiments.TimeSpec{{Name: "standard", New: func(n, seed uint64) (experiments.Filter, error) {
		return variants.NewStandardFor(n, 0.01, variants.Hashing{Seed: seed})
	}}}, experiments.Params{Keys: []uint64{100, 1000}, Queries: 1000, Passes: 1}, experiments.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Figure(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Check(); err != nil {
		t.Error(err)
	}
}
