package plots

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

func TestPalette(t *testing.T) {
	type pair struct {
		c color.RGBA
		s string
	}
	seen := map[pair]int{}
	for i := range 3 * len(palette) {
		r, g, b, _ := Color(i).RGBA()
		k := pair{color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8)}, fmt.Sprintf("%T", Marker(i))}
		if j, ok := seen[k]; ok {
			t.Errorf("series %d and %d share colour and marker", j, i)
		}
		seen[k] = i
	}
	for i := range palette {
		for j := range i {
			if palette[i] == palette[j] {
				t.Errorf("colours %d and %d are equal", i, j)
			}
		}
	}
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     string
	}{
		{1.05, 1.17, "1.06 1.08 1.10 1.12 1.14 1.16"},
		{-3, 9, "-2 0 2 4 6 8"},
		{0, 500, "0 100 200 300 400 500"},
		{-0.4, 0.3, "-0.4 -0.3 -0.2 -0.1 0 0.1 0.2 0.3"},
	} {
		var labels []string
		for _, tk := range (plain{}).Ticks(c.min, c.max) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.want {
			t.Errorf("ticks over [%g, %g]: %q, want %q", c.min, c.max, got, c.want)
		}
	}
	var labels []string
	for _, tk := range (Decades{}).Ticks(0.01, 1) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0.01 0.02 0.05 0.1 0.2 0.5 1" {
		t.Errorf("decade labels over two decades: %q", got)
	}
}

// labels returns the labels of ticker's ticks over [min, max].
func labels(tk plot.Ticker, min, max float64) []string {
	var out []string
	for _, t := range tk.Ticks(min, max) {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

func TestTicksLongAndShort(t *testing.T) {
	for _, c := range []struct {
		tk       plot.Ticker
		min, max float64
		want     string
	}{
		{plain{}, 0, 3e6, "0 0.5M 1M 1.5M 2M 2.5M 3M"},
		{plain{}, 0, 25_000, "0 5k 10k 15k 20k 25k"},
		{plain{}, 0, 9000, "0 2000 4000 6000 8000"},
		{Decades{}, 1e-30, 1, "1e-30 1e-27 1e-24 1e-21 1e-18 1e-15 1e-12 1e-9 1e-6 0.001 1"},
		{Decades{}, 1e-6, 0.1, "1e-6 1e-5 1e-4 0.001 0.01 0.1"},
		{Decades{}, 2, 8, "2 3 4 5 6 7 8"},
	} {
		if got := strings.Join(labels(c.tk, c.min, c.max), " "); got != c.want {
			t.Errorf("%T over [%g, %g]: %q, want %q", c.tk, c.min, c.max, got, c.want)
		}
		for _, tk := range c.tk.Ticks(c.min, c.max) {
			if tk.Label == "" {
				continue
			}
			if v, err := parseLabel(tk.Label); err != nil || math.Abs(v-tk.Value) > 1e-9*math.Abs(tk.Value) {
				t.Errorf("%T over [%g, %g]: label %q at %g", c.tk, c.min, c.max, tk.Label, tk.Value)
			}
		}
	}
	// Beyond six decades only the powers of ten are marked.
	for _, tk := range (Decades{}).Ticks(1e-8, 1) {
		if e := math.Log10(tk.Value); math.Abs(e-math.Round(e)) > 1e-9 {
			t.Errorf("tick at %g over eight decades", tk.Value)
		}
	}
}
