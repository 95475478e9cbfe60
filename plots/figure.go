package plots

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/bloomlab/bloomlab/experiments"
)

// Figure is a drawing of one experiment's results: a grid of panels, each
// a gonum/plot Plot, rendered together at Width by Height.
type Figure struct {
	Panels        [][]*plot.Plot
	Width, Height vg.Length
}

// DPI is the resolution of PNG figures.
const DPI = 144

// New returns the figure of r: that of its named experiment, or, for the
// results of experiments.Measure, every spec's measured rate against the
// items inserted beside its theory. It reports an error if r's experiment
// has no figure or r holds nothing to draw.
func New(r *experiments.Results) (*Figure, error) {
	if r.Shard != nil {
		return nil, fmt.Errorf("plots: results of shard %d/%d are partial; merge the shards first", r.Shard.Index, r.Shard.Count)
	}
	if len(r.Rows) == 0 {
		return nil, fmt.Errorf("plots: results of %s hold no rows", r.Experiment)
	}
	if r.Experiment == experiments.Measured {
		f, err := measureFigure(r)
		if err != nil {
			return nil, fmt.Errorf("plots: %s: %w", r.Experiment, err)
		}
		return f, nil
	}
	var f *Figure
	var err error
	switch r.Experiment {
	case "fill":
		if r.Variant == "scalable" {
			f, err = scalableFillFigure(r)
		} else {
			f, err = fillFigure(r)
		}
	case "bits":
		f, err = bitsFigure(r)
	case "hashes":
		f, err = hashesFigure(r)
	case "small-m":
		f, err = smallMFigure(r)
	case "hashing":
		f, err = hashingFigure(r)
	case "counting":
		f, err = countingFigure(r)
	case "scalable":
		f, err = scalableFigure(r)
	case "memory":
		f, err = memoryFigure(r)
	case "speed":
		f, err = speedFigure(r)
	case "blocking":
		f, err = blockingFigure(r)
	case "cardinality":
		f, err = cardinalityFigure(r)
	case "adversary":
		f, err = adversaryFigure(r)
	case "growth":
		f, err = growthFigure(r)
	case "window":
		f, err = windowFigure(r)
	default:
		return nil, fmt.Errorf("plots: no figure for experiment %q", r.Experiment)
	}
	if err != nil {
		return nil, fmt.Errorf("plots: %s: %w", r.Experiment, err)
	}
	return f, nil
}

// Render draws f in format "png" or "svg" to w.
func (f *Figure) Render(w io.Writer, format string) error {
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(f.Width, f.Height), vgimg.UseDPI(DPI))}
	case "svg":
		var err error
		c, err = draw.NewFormattedCanvas(f.Width, f.Height, format)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
	default:
		return fmt.Errorf("plots: unsupported format %q, want png or svg", format)
	}
	dc := draw.New(c)
	for i, row := range f.layout(dc) {
		for j, l := range row {
			if p := f.Panels[i][j]; p != nil {
				drawPanel(p, l)
			}
		}
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("plots: writing %s: %w", format, err)
	}
	return nil
}

// Render draws the figure of r in format "png" or "svg" to w.
func Render(w io.Writer, r *experiments.Results, format string) error {
	f, err := New(r)
	if err != nil {
		return err
	}
	return f.Render(w, format)
}

func single(p *plot.Plot) *Figure {
	return &Figure{Panels: [][]*plot.Plot{{p}}, Width: 11 * vg.Inch, Height: 5.5 * vg.Inch}
}

// Styles.
var (
	black    = color.Gray{Y: 0}
	grey     = color.Gray{Y: 150}
	red      = color.RGBA{R: 200, G: 30, B: 30, A: 255}
	dashed   = []vg.Length{vg.Points(6), vg.Points(4)}
	dotted   = []vg.Length{vg.Points(2), vg.Points(3)}
	dashDot  = []vg.Length{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}
	lineW    = vg.Points(1.5)
	thinW    = vg.Points(0.8)
	glyphR   = vg.Points(2.8)
	fontSize = vg.Points(11)
)

// newPlot returns a plot with a title, axis labels and a white background.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.X.Label.TextStyle.Font.Size = fontSize
	p.Y.Label.TextStyle.Font.Size = fontSize
	p.Legend.TextStyle.Font.Size = vg.Points(9.5)
	p.Legend.ThumbnailWidth = vg.Points(22)
	p.X.Tick.Marker = linearTicks{}
	p.Y.Tick.Marker = linearTicks{}
	p.Add(plotter.NewGrid())
	return p
}

// logY makes p's y axis logarithmic over [lo, hi].
func logY(p *plot.Plot, lo, hi float64) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = decades{}
	p.Y.Min, p.Y.Max = lo, hi
}

// logX makes p's x axis logarithmic.
func logX(p *plot.Plot) {
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = decades{}
}

// addMeasured draws pts as glyphs with interval bars in colour c, labelled.
func addMeasured(p *plot.Plot, pts Points, c color.Color, shape int, label string) error {
	var notes []string
	if pts.Dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d zero %s not drawn", pts.Dropped, plural(pts.Dropped, "rate", "rates")))
	}
	if len(pts.open) > 0 {
		notes = append(notes, fmt.Sprintf("arrows: %d %s down to 0", len(pts.open), plural(len(pts.open), "interval reaches", "intervals reach")))
	}
	// The notes go on a line of their own under the label, so that the
	// legend stays narrow.
	addNotes := func() {
		if label != "" && len(notes) > 0 {
			p.Legend.Add("   (" + strings.Join(notes, "; ") + ")")
		}
	}
	if len(pts.XYs) == 0 {
		if label != "" {
			p.Legend.Add(label)
			addNotes()
		}
		return nil
	}
	s, err := plotter.NewScatter(pts.XYs)
	if err != nil {
		return err
	}
	s.GlyphStyle.Color = c
	s.GlyphStyle.Radius = glyphR
	s.GlyphStyle.Shape = seriesShape(shape)
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	eb.LineStyle.Color = c
	eb.LineStyle.Width = thinW
	eb.CapWidth = vg.Points(5)
	p.Add(eb, s)
	if len(pts.open) > 0 {
		// Intervals down to zero, which a logarithmic axis cannot show:
		// an arrow down from the point instead of a bar to the axis.
		var xys plotter.XYs
		for _, i := range pts.open {
			xys = append(xys, pts.XYs[i])
		}
		a, err := plotter.NewScatter(xys)
		if err != nil {
			return err
		}
		a.GlyphStyle = draw.GlyphStyle{Color: c, Radius: glyphR, Shape: downArrow{}}
		p.Add(a)
	}
	if label != "" {
		p.Legend.Add(label, s)
		addNotes()
	}
	return nil
}

// addLine draws xys as a line of colour c and dash pattern dashes.
func addLine(p *plot.Plot, xys plotter.XYs, c color.Color, dashes []vg.Length, width vg.Length, label string) error {
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.LineStyle.Color = c
	l.LineStyle.Dashes = dashes
	l.LineStyle.Width = width
	p.Add(l)
	if label != "" {
		p.Legend.Add(label, l)
	}
	return nil
}

// addPolyline draws xys as a line with glyphs at the points.
func addPolyline(p *plot.Plot, xys plotter.XYs, c color.Color, shape int, dashes []vg.Length, label string) error {
	if len(xys) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	l.LineStyle.Color = c
	l.LineStyle.Width = lineW
	l.LineStyle.Dashes = dashes
	s.GlyphStyle.Color = c
	s.GlyphStyle.Radius = glyphR
	s.GlyphStyle.Shape = seriesShape(shape)
	p.Add(l, s)
	if label != "" {
		p.Legend.Add(label, l, s)
	}
	return nil
}

// hline draws a horizontal line at y from x0 to x1.
func hline(p *plot.Plot, y, x0, x1 float64, c color.Color, dashes []vg.Length, label string) error {
	return addLine(p, plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}}, c, dashes, lineW, label)
}

// vline draws a vertical line at x from y0 to y1.
func vline(p *plot.Plot, x, y0, y1 float64, c color.Color, dashes []vg.Length, width vg.Length, label string) error {
	return addLine(p, plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}}, c, dashes, width, label)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// xRange returns the smallest and largest x of the rows.
func xRange(rows []*experiments.Row, x func(*experiments.Row) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		lo = math.Min(lo, x(r))
		hi = math.Max(hi, x(r))
	}
	return lo, hi
}

func items(r *experiments.Row) float64   { return float64(r.Items) }
func theory(r *experiments.Row) float64  { return r.Theory }
func classic(r *experiments.Row) float64 { return r.Classic }

// theoryWords names a Model for a legend.
func theoryWords(model string) string {
	switch model {
	case "exact":
		return "exact theory at the built m, k"
	case "partitioned":
		return "partitioned theory (1-(1-k/m)^n)^k"
	case "scalable":
		return "theory: compound rate of the stages"
	case "binomial":
		return "binomial prediction"
	case "split-block":
		return "exact split-block theory"
	}
	if b, ok := blockedModel(model); ok {
		return fmt.Sprintf("exact blocked theory (B = %d)", b)
	}
	return model
}
