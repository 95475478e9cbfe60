package compare

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gonum.org/v1/plot"

	"github.com/bloomlab/bloomlab/experiments"
)

var update = flag.Bool("update", false, "redraw figures/frontier.png from the committed results")

// committedFrontier draws the frontier figure from the committed results
// of the run in figures/, with the sizes and targets of that run.
func committedFrontier(t *testing.T) (*experiments.Results, []Timing, [][]*plot.Plot) {
	t.Helper()
	f, err := os.Open(filepath.Join("figures", "frontier-rates-1e6.json"))
	if err != nil {
		t.Fatal(err)
	}
	rates, err := experiments.ReadJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("figures", "frontier-speed.json"))
	if err != nil {
		t.Fatal(err)
	}
	var speed []Timing
	if err := json.Unmarshal(b, &speed); err != nil {
		t.Fatal(err)
	}
	configs, err := FrontierConfigs(1e6, []float64{0.01, 0.001})
	if err != nil {
		t.Fatal(err)
	}
	curves, err := FrontierCurves(1e6, 1, 27, 105)
	if err != nil {
		t.Fatal(err)
	}
	fig, err := FrontierFigure(rates, configs, curves, 1e6, speed, 3e7)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		out, err := os.CreateTemp("figures", ".update-*")
		if err != nil {
			t.Fatal(err)
		}
		if err := fig.Render(out, "png"); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(out.Name(), filepath.Join("figures", "frontier.png")); err != nil {
			t.Fatal(err)
		}
	}
	// Every measured row is drawn or counted: the configs are the run's.
	n := 0
	for _, p := range RatePoints(rates, configs) {
		n += p.Len() + p.Dropped
	}
	if n != len(rates.Rows) {
		t.Errorf("%d of %d rows drawn: the configs do not match the run's", n, len(rates.Rows))
	}
	return rates, speed, fig.Panels
}

// TestFrontierFigure checks the committed frontier figure's plot data: axes
// from the data (no time axis far above its points), tick labels where they
// say, distinct colours, bloomlab drawn over the libraries with the same
// geometry.
func TestFrontierFigure(t *testing.T) {
	_, speed, panels := committedFrontier(t)
	b := panels[0][1]
	var most float64
	for _, s := range speed {
		if s.Items == 3e7 {
			most = math.Max(most, math.Max(s.NsPerAbsent, s.NsPerPresent))
		}
	}
	if b.Y.Max > 1.31*most || b.Y.Max < most {
		t.Errorf("query-time axis up to %g for data up to %g", b.Y.Max, most)
	}
	for _, p := range panels[0] {
		for _, ax := range []*plot.Axis{&p.X, &p.Y} {
			labelled := 0
			for _, tk := range ax.Tick.Marker.Ticks(ax.Min, ax.Max) {
				if tk.Label == "" {
					continue
				}
				labelled++
				v, err := strconv.ParseFloat(tk.Label, 64)
				if err != nil || math.Abs(v-tk.Value) > 1e-9*math.Abs(tk.Value) {
					t.Errorf("%s: tick %q at %g", p.Title.Text, tk.Label, tk.Value)
				}
				if len(tk.Label) > 6 {
					t.Errorf("%s: tick label %q", p.Title.Text, tk.Label)
				}
			}
			if labelled < 3 {
				t.Errorf("%s: %d labelled ticks", p.Title.Text, labelled)
			}
		}
	}
	for i := range palette {
		for j := range i {
			if palette[i] == palette[j] {
				t.Errorf("structures %s and %s share a colour", Structures[i], Structures[j])
			}
		}
	}
	order := drawOrder()
	if len(order) != len(Structures) || order[len(order)-1] != 3 || order[len(order)-4] != 0 {
		t.Errorf("draw order %v: bloomlab's variants (0 to 3) are not last", order)
	}
}
