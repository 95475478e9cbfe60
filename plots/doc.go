// Package plots draws experiment results as figures with gonum/plot: the
// measured rates with their confidence intervals as points and bars, the
// theory (exact, partitioned, scalable compound, binomial) as solid lines
// and the classic formula as dashed ones, on logarithmic rate axes; the
// stage boundaries and the target of a scalable filter; the counter
// histogram of a counting filter beside its prediction; memory as bars and
// speed as curves; the mean and spread of count estimates' errors beside
// their predicted bias and standard error, on linear axes. The results of
// experiments.Measure, a filter measured from outside the named
// experiments, get a figure of their own: each filter's rate against the
// items inserted, beside its theory.
//
// Data and drawing are separate: pure functions (Rates, Values, Ratio,
// Excess, FillTheory, ScalableTheory, ErrorPoints, SpreadPoints, Predicted)
// turn experiments.Results into
// plotter data, and New assembles a Figure of one or more panels that
// Render writes as PNG or SVG. Rates of zero cannot be drawn on a
// logarithmic axis; they are left out and the legend says how many, and an
// interval reaching down to zero is drawn as an arrow from its point.
//
// Every figure follows one standard (see standard.go), checked by the
// tests on the plot data, not on pixels: tick labels with the digits their
// spacing needs, each exactly at its value, and zero labelled on a linear
// axis that straddles it; legends beside the data, never over it; no
// legend entry for a series hidden under another; axis ranges holding
// every point and interval; a colour-blind-safe palette with a distinct
// marker per series.
//
// The package reads results and draws; it measures nothing and chooses no
// file names. The committed figures of the README are in plots/figures,
// measured and drawn by
//
//	go run ./cmd/experiment -exp all -out plots/figures -format png,json
//
// and the results they were drawn from, without the per-filter counts, are
// in plots/figures/data: the tests check every committed figure's data and
// the README's caption numbers against them, and
//
//	go test ./plots -run TestCommittedFigures -update
//
// redraws the PNGs from them without measuring again.
package plots
