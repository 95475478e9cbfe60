// Package experiments runs named experiments that measure the false-positive
// rate, speed and memory of the filters in package variants and set the
// measurements beside the theory of package analysis.
package experiments
