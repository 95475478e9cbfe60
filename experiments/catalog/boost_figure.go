package catalog

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"github.com/bloomlab/bloomlab/variants"
)

// boostShort abbreviates a layout of Boost's table for an axis label.
func boostShort(name string) string {
	r := strings.NewReplacer("fast_multiblock", "fmb", "multiblock", "mb", "<uint64_t[8],K>", "[8]", "<uint64_t,K>", "64", "<int,K>", "", "<K>", "")
	return r.Replace(name)
}

// boostFigure draws, for every cell of Boost's table that has our theory,
// Boost's published rate and our measured one as differences from our
// theory in percent, with 95% intervals (Boost's binomial one for 10^7
// queries, ours the t interval over the filters): one position per layout,
// the cells of c = 8, 12, 16, 20 from left to right within it.
func boostFigure(r *experiments.Results) (*plots.Figure, error) {
	rows := boostRows(r)
	if rows == nil {
		return nil, fmt.Errorf("rows do not match the cells of Boost's table for these parameters")
	}
	var layouts []string
	index := map[string]int{}
	for _, b := range rows {
		if _, ok := index[b.pt.layout.name]; !ok {
			index[b.pt.layout.name] = len(layouts)
			layouts = append(layouts, b.pt.layout.name)
		}
	}
	p := plots.Panel("Boost.Bloom's table: measured rates against our theory (within a layout, c = 8, 12, 16, 20 bits per key from left to right)",
		"layout (\",1\": a stride of one byte)", "difference from our theory (%)")
	var labels []string
	for _, l := range layouts {
		labels = append(labels, boostShort(l))
	}
	p.NominalX(labels...)
	var boost, ours plots.Points
	var ys []float64
	missing, unbuilt := 0, 0
	for _, b := range rows {
		if b.theory == 0 {
			missing++
			continue
		}
		ci := 0
		for i, c := range []uint64{8, 12, 16, 20} {
			if c == b.pt.cell.c {
				ci = i
			}
		}
		x := float64(index[b.pt.layout.name]) + 0.16*(float64(ci)-1.5)
		t := b.theory
		half := 1.96 * b.seB / t * 100
		boost.XYs = append(boost.XYs, plotter.XY{X: x - 0.03, Y: 100 * b.relB})
		boost.Errors = append(boost.Errors, struct{ Low, High float64 }{half, half})
		ys = append(ys, 100*b.relB+half, 100*b.relB-half)
		if b.row == nil {
			unbuilt++
			continue
		}
		y := 100 * b.rel
		lo, hi := y-100*(b.row.Lo/t-1), 100*(b.row.Hi/t-1)-y
		ours.XYs = append(ours.XYs, plotter.XY{X: x + 0.03, Y: y})
		ours.Errors = append(ours.Errors, struct{ Low, High float64 }{lo, hi})
		ys = append(ys, y+hi, y-lo)
	}
	lo, hi := minMax(append(ys, 0))
	pad := 0.05 * (hi - lo)
	p.Y.Min, p.Y.Max = math.Min(lo-pad, -1), math.Max(hi+pad, 1)
	p.X.Min, p.X.Max = -0.6, float64(len(layouts))-0.4
	if err := hline(p, 0, p.X.Min, p.X.Max, black, plots.Dashed, "our exact theory (analysis.Multiblock; ExactFPR for filter<int,K>)"); err != nil {
		return nil, err
	}
	f := 0
	for _, b := range rows {
		if b.row != nil {
			f = b.row.Filters
			break
		}
	}
	if err := plots.AddPoints(p, boost, plots.Color(0), 0, "Boost's published rate (GCC 14, 10^7 keys), 95% binomial interval for its 10^7 queries"); err != nil {
		return nil, err
	}
	if err := plots.AddPoints(p, ours, plots.Color(1), 1, fmt.Sprintf("our filter of the same layout measured: mean of %d filters, %g%% t interval", f, 100*r.Params.Conf)); err != nil {
		return nil, err
	}
	if unbuilt > 0 {
		p.Legend.Add(fmt.Sprintf("%d of the cells are beyond our filter's %d-bit block: Boost's rate only", unbuilt, variants.MaxMultiblockBlockBits))
	}
	if missing > 0 {
		p.Legend.Add(fmt.Sprintf("%d of the cells without our theory (beyond the exact sum's work limit) not drawn", missing))
	}
	return single(p), nil
}
