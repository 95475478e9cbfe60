package catalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
)

// TestGrowthBitsAtDefaults checks the bits per key of each design of the
// growth experiment at its defaults (n0 = 1000, p = 0.01), after a
// thousandfold growth, as its geometry gives them. The horizon designs'
// are analysis.Horizon's (paper-notes §13j's table: 12.57, 15.87, 31.58
// and, with Spread 10, 14.81).
func TestGrowthBitsAtDefaults(t *testing.T) {
	var got []string
	for _, d := range growthDesigns {
		b, err := growthBits(d, experiments.Params{}, []uint64{1_000_000})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%-28s %5.2f", d, b[0]))
	}
	want := []string{
		"almeida partitioned          17.53",
		"almeida blocked              18.22",
		"redisbloom                   23.10",
		"redisbloom power-of-two      22.36",
		"dynamic                       9.59",
		"standard sized in advance     9.59",
		"taffy                        28.38",
		"horizon, estimate exact      12.57",
		"horizon, estimate 2x low     15.87",
		"horizon, estimate 10x low    31.58",
		"horizon, 10x low, spread 10  14.81",
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("bits per key:\n%s\nwant\n%s", g, w)
	}
}
