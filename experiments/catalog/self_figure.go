package catalog

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
)

// selfFigure draws the self experiment: (a) each path's ratio of assembly
// to pure-Go time, with the marks at 1 (no gain) and selfWarn, and (b)
// the time per probe of each form, path i at height i in both panels.
// Without assembly times it draws (b) alone.
func selfFigure(r *experiments.Results) (*plots.Figure, error) {
	n := len(r.Rows)
	y := func(i int) float64 { return float64(i + 1) }
	var names, numbers []plot.Tick
	for i, row := range r.Rows {
		name, _, _ := strings.Cut(row.Series, " (") // the entry point and its setting
		names = append(names, plot.Tick{Value: y(i), Label: fmt.Sprintf("%d  %s", i+1, name)})
		numbers = append(numbers, plot.Tick{Value: y(i), Label: strconv.Itoa(i + 1)})
	}
	rows := func(p *plot.Plot, ticks []plot.Tick) {
		p.Y.Tick.Marker = plot.ConstantTicks(ticks)
		p.Y.Min, p.Y.Max = 0.5, float64(n)+0.5
	}

	b := plots.Panel("(b) time per probe", "nanoseconds per probe (one key)", "path")
	rows(b, numbers)
	var asm, pure plotter.XYs
	var all []float64
	for i, row := range r.Rows {
		if row.NsAssembly > 0 {
			asm = append(asm, plotter.XY{X: row.NsAssembly, Y: y(i)})
			all = append(all, row.NsAssembly)
		}
		if row.NsPureGo > 0 {
			pure = append(pure, plotter.XY{X: row.NsPureGo, Y: y(i)})
			all = append(all, row.NsPureGo)
		}
	}
	lo, hi := plots.LogRange(all...)
	b.X.Scale = plots.LogScale{}
	b.X.Tick.Marker = plots.Decades{}
	b.X.Min, b.X.Max = lo, hi
	if err := addScatter(b, pure, grey, 1, "pure Go"); err != nil {
		return nil, err
	}
	if err := addScatter(b, asm, black, 0, "assembly"); err != nil {
		return nil, err
	}
	height := vg.Length(math.Max(5.5, 1.5+0.32*float64(n))) * vg.Inch
	b.Legend.Add(machineText(r))
	b.Legend.Add("caches " + cachesText(r.Caches))
	if len(asm) == 0 {
		b.Legend.Add("no assembly in this build or on this processor")
		return &plots.Figure{Panels: [][]*plot.Plot{{b}}, Width: readmeWidth, Height: height}, nil
	}

	a := plots.Panel("(a) assembly time / pure-Go time", "ratio of times per probe (below 1: the assembly pays)", "")
	rows(a, names)
	var ratios plotter.XYs
	top := 1.2
	for i, row := range r.Rows {
		if row.AsmRatio > 0 {
			ratios = append(ratios, plotter.XY{X: row.AsmRatio, Y: y(i)})
			top = math.Max(top, row.AsmRatio*1.08)
		}
	}
	a.X.Min, a.X.Max = 0, top
	if err := vline(a, 1, 0.5, float64(n)+0.5, red, nil, plots.LineWidth, "1: no gain (right of it: slower, a bug)"); err != nil {
		return nil, err
	}
	if err := vline(a, selfWarn, 0.5, float64(n)+0.5, grey, plots.Dashed, plots.LineWidth, fmt.Sprintf("%g: the target for k >= 2", selfWarn)); err != nil {
		return nil, err
	}
	if err := addScatter(a, ratios, black, 0, "median ratio of the rounds"); err != nil {
		return nil, err
	}
	// One panel a row: the probe names label both, and two side by side
	// would not fit readmeWidth with them.
	return oneAbove(height, a, b), nil
}

// addScatter draws xys as points of colour c and the marker of series
// shape, with a legend entry label.
func addScatter(p *plot.Plot, xys plotter.XYs, c color.Color, shape int, label string) error {
	if len(xys) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	s.GlyphStyle.Color = c
	s.GlyphStyle.Radius = plots.GlyphRadius
	s.GlyphStyle.Shape = plots.Marker(shape)
	p.Add(s)
	p.Legend.Add(label, s)
	return nil
}

// machineText names the machine of the results in one line.
func machineText(r *experiments.Results) string {
	if r.Machine == nil {
		return "machine not recorded"
	}
	return r.Machine.String()
}
