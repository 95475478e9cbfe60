package plots

import (
	"fmt"
	"image/color"
	"strings"
	"testing"
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
		for _, tk := range (Plain{}).Ticks(c.min, c.max) {
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
