package stats_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/stats"
)

// A measured rate: 42 false positives in 100,000 queries of one filter.
func ExampleClopperPearson() {
	cp, _ := stats.ClopperPearson(42, 100_000, 0.95)
	w, _ := stats.Wilson(42, 100_000, 0.95)
	fmt.Printf("Clopper-Pearson [%.6f, %.6f]\n", cp.Lo, cp.Hi)
	fmt.Printf("Wilson          [%.6f, %.6f]\n", w.Lo, w.Hi)
	// Output:
	// Clopper-Pearson [0.000303, 0.000568]
	// Wilson          [0.000311, 0.000568]
}

// The estimates of a few filters: their mean and spread with standard
// errors, to set beside a prediction.
func ExampleSampleMoments() {
	m, err := stats.SampleMoments([]float64{9970, 10012, 9991, 10043, 9958, 10020})
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, _ := m.StdDevInterval(0.95)
	fmt.Printf("mean %.1f ± %.1f, standard deviation %.1f [%.1f, %.1f]\n", m.Mean, m.MeanSE, m.StdDev(), iv.Lo, iv.Hi)
	// Output: mean 9999.0 ± 13.1, standard deviation 32.0 [21.2, 40.0]
}
