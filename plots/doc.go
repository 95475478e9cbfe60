// Package plots draws experiment results as gonum/plot figures: measured
// rates with confidence intervals beside theory curves on a logarithmic
// axis.
package plots
