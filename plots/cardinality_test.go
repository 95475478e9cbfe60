package plots

import (
	"bytes"
	"context"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/experiments/catalog"
)

// TestCardinalityFigureParts draws the cardinality figure of each variant
// alone, whose results lack some of the panels' series (a scalable run has
// no set estimates, only a standard one the rows near saturation), and of
// runs of one and two filters, whose intervals are empty or degenerate.
func TestCardinalityFigureParts(t *testing.T) {
	for _, v := range []string{"standard", "partitioned", "counting", "scalable"} {
		for _, filters := range []int{1, 2} {
			p := experiments.Params{N: 30, Filters: filters}
			r, err := catalog.Run(context.Background(), "cardinality", v, p, experiments.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			f, err := New(r)
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
