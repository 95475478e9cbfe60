package plots

import (
	"fmt"
	"image/color"
	"io"
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

// dpi is the resolution of PNG figures.
const dpi = 144

// Render draws f in format "png" or "svg" to w.
func (f *Figure) Render(w io.Writer, format string) error {
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(f.Width, f.Height), vgimg.UseDPI(dpi))}
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

// The line styles of the figures: the dash patterns and widths that tell
// a theory from a measurement and a bound from a curve.
var (
	// Dashed marks a second theory, such as the classic formula.
	Dashed = []vg.Length{vg.Points(6), vg.Points(4)}
	// Dotted marks a boundary, such as where a stage fills.
	Dotted = []vg.Length{vg.Points(2), vg.Points(3)}
	// DashDot marks a target or a bound.
	DashDot = []vg.Length{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}
)

const (
	// LineWidth is the width of a curve.
	LineWidth = vg.Length(1.5)
	// ThinWidth is the width of an interval bar and of a mark.
	ThinWidth = vg.Length(0.8)
	// GlyphRadius is the radius of a point's marker.
	GlyphRadius = vg.Length(2.8)
)

var fontSize = vg.Points(11)

// Panel returns a plot with a title, axis labels, a grid, and [plain]
// ticks on both axes, in the figures' fonts: the panel that [LogX] and
// [LogY] adjust and that a [Figure] lays out.
func Panel(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.X.Label.TextStyle.Font.Size = fontSize
	p.Y.Label.TextStyle.Font.Size = fontSize
	p.Legend.TextStyle.Font.Size = vg.Points(9.5)
	p.Legend.ThumbnailWidth = vg.Points(22)
	p.X.Tick.Marker = plain{}
	p.Y.Tick.Marker = plain{}
	p.Add(plotter.NewGrid())
	return p
}

// LogScale is the logarithmic scale of the figures' axes: plot.LogScale,
// except that it maps the arithmetic midpoint of the axis' range, (min +
// max)/2, to 0.5, the centre. gonum/plot places the box of an axis label
// centred on the axis at the normalised midpoint of the range; on a
// logarithmic axis that is near the far end, and the box of a label
// longer than half the axis then seems to stick out, so that the data
// area shrinks by 40 to 50 points for nothing (a wide gap under a
// panel's legend). The label itself is drawn at the centre either way.
// It does so only on a range of a decade or more, where the box would
// stand far off the centre and where neither a tick (at 1, 2 or 5 times a
// power of ten on a range of whole decades) nor, but by accident, a data
// point falls exactly on the midpoint.
type LogScale struct{}

// Normalize implements plot.Normalizer.
func (LogScale) Normalize(min, max, x float64) float64 {
	if x == 0.5*(min+max) && max >= 10*min {
		return 0.5
	}
	return plot.LogScale{}.Normalize(min, max, x)
}

// LogY makes p's y axis logarithmic over [lo, hi], marked by [Decades].
func LogY(p *plot.Plot, lo, hi float64) {
	p.Y.Scale = LogScale{}
	p.Y.Tick.Marker = Decades{}
	p.Y.Min, p.Y.Max = lo, hi
}

// LogX makes p's x axis logarithmic, marked by [Decades]; its range stays
// that of the data added, unless the caller sets it.
func LogX(p *plot.Plot) {
	p.X.Scale = LogScale{}
	p.X.Tick.Marker = Decades{}
}

// AddPoints draws pts as measured points: markers of colour c and the
// [Marker] of series shape, with their intervals as bars, and a legend
// entry label unless it is empty. An interval that [Points.ClampLow] cut
// is drawn as an arrow pointing down from its point; the legend says how
// many, and how many zero rates [Rates] left out.
func AddPoints(p *plot.Plot, pts Points, c color.Color, shape int, label string) error {
	var notes []string
	if pts.Dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d zero %s not drawn", pts.Dropped, plural(pts.Dropped, "rate", "rates")))
	}
	if len(pts.open) > 0 {
		notes = append(notes, fmt.Sprintf("arrows: %d %s down to 0", len(pts.open), plural(len(pts.open), "interval reaches", "intervals reach")))
	}
	// Each note goes on a line of its own under the label, so that the
	// legend stays narrow.
	addNotes := func() {
		if label != "" {
			for _, n := range notes {
				p.Legend.Add("   (" + n + ")")
			}
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
	s.GlyphStyle.Radius = GlyphRadius
	s.GlyphStyle.Shape = Marker(shape)
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	eb.LineStyle.Color = c
	eb.LineStyle.Width = ThinWidth
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
		a.GlyphStyle = draw.GlyphStyle{Color: c, Radius: GlyphRadius, Shape: downArrow{}}
		p.Add(a)
	}
	if label != "" {
		p.Legend.Add(label, s)
		addNotes()
	}
	return nil
}

// AddLine draws xys as a line of colour c, dash pattern dashes (nil for a
// solid line) and width, with a legend entry label unless it is empty.
// An empty xys draws nothing.
func AddLine(p *plot.Plot, xys plotter.XYs, c color.Color, dashes []vg.Length, width vg.Length, label string) error {
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

// AddPolyline draws xys as a line of colour c and dash pattern dashes with
// the [Marker] of series shape at every point, and a legend entry label
// unless it is empty.
func AddPolyline(p *plot.Plot, xys plotter.XYs, c color.Color, shape int, dashes []vg.Length, label string) error {
	if len(xys) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	l.LineStyle.Color = c
	l.LineStyle.Width = LineWidth
	l.LineStyle.Dashes = dashes
	s.GlyphStyle.Color = c
	s.GlyphStyle.Radius = GlyphRadius
	s.GlyphStyle.Shape = Marker(shape)
	p.Add(l, s)
	if label != "" {
		p.Legend.Add(label, l, s)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func items(r *experiments.Row) float64  { return float64(r.Items) }
func theory(r *experiments.Row) float64 { return r.Theory }

// RateLabel is the label of a false-positive rate axis.
const RateLabel = "false-positive rate"

// TheoryLabel returns the legend text of a theory column named model
// ([experiments.Row].Model): "exact theory at the built m, k" for "exact",
// and so on; a model it does not know is returned as it is.
func TheoryLabel(model string) string {
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
	if b, ok := strings.CutPrefix(model, "blocked/"); ok {
		return fmt.Sprintf("exact blocked theory (B = %s)", b)
	}
	return model
}
