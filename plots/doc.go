// Package plots is the figure toolkit of bloomlab over gonum/plot.
//
// # Contents
//
// One style for every figure the repository draws: the figures of
// [github.com/bloomlab/bloomlab/experiments.Measure] results ([Measure])
// and of [github.com/bloomlab/bloomlab/experiments.Time] results
// ([Time]), and the
// pieces from which the named experiments of
// [github.com/bloomlab/bloomlab/experiments/catalog], the bloomcalc page
// and the comparison module build theirs.
//
// Data and drawing are separate: pure functions ([Rates], [Values],
// [Ratio], [Excess], [Rows], [SeriesNames]) turn experiments.Results into
// plotter data; [Panel], [LogX], [LogY], [AddPoints], [AddLine] and
// [AddPolyline] draw it in the figures' style ([Color], [Marker], the dash
// patterns and widths, the [plain] and [Decades] tickers); a [Figure]
// lays out a grid of panels with their legends beside the data and
// [Figure.Render] writes it as PNG or SVG. Rates of zero cannot be drawn
// on a logarithmic axis; [Rates] leaves them out and the legend says how
// many, and an interval reaching down to zero is drawn as an arrow from
// its point ([Points.ClampLow]).
//
// Every figure follows one standard (see standard.go), which
// [Figure.Check] checks on the plot data, not on pixels: tick labels with
// the digits their spacing needs, each exactly at its value, and zero
// labelled on a linear axis that straddles it; legends beside the data,
// never over it; no legend entry for a series hidden under another; axis
// ranges holding every point and interval; a colour-blind-safe palette
// with a distinct marker per series.
//
// The package reads results and draws; it measures nothing and chooses no
// file names. The committed figures of the README are in plots/figures,
// measured and drawn by
//
//	go run ./cmd/experiment -exp all -out plots/figures -format png,json
//
// and the results they were drawn from, without the per-filter counts, are
// in plots/figures/data: the catalogue's tests check every committed
// figure and the captions' numbers against them, and
//
//	go test ./experiments/catalog -run TestCommittedFigures -update
//
// redraws the PNGs from them without measuring again.
package plots
