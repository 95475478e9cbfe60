package plots_test

import (
	"context"
	"fmt"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/experiments/catalog"
	"github.com/bloomlab/bloomlab/plots"
)

// The data of the cardinality figure for one series, in percent: the mean
// relative errors with their intervals, the spreads, and the predicted
// standard errors, against the load.
func ExampleErrorPoints() {
	r, err := catalog.Run(context.Background(), "cardinality", "partitioned",
		experiments.Params{N: 1000, Filters: 100, Span: 1}, experiments.Options{Seed: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	rows := plots.Rows(r, "partitioned", nil)
	items := func(row *experiments.Row) float64 { return float64(row.Items) }
	mean := plots.ErrorPoints(rows, items, 100)
	spread := plots.SpreadPoints(rows, items, 100)
	predicted := plots.Predicted(rows, items, func(row *experiments.Row) float64 { return row.StdError }, 100)
	for i, xy := range mean.XYs {
		lo, hi := mean.YError(i)
		fmt.Printf("%.0f items: mean %+.2f%% (-%.2f, +%.2f), spread %.2f%%, predicted %.2f%%\n",
			xy.X, xy.Y, lo, hi, spread.XYs[i].Y, predicted[i].Y)
	}
	// Output:
	// 10 items: mean +0.06% (-0.13, +0.13), spread 0.67%, predicted 0.69%
	// 20 items: mean +0.05% (-0.14, +0.14), spread 0.69%, predicted 0.71%
	// 50 items: mean -0.02% (-0.15, +0.15), spread 0.73%, predicted 0.72%
	// 100 items: mean -0.03% (-0.14, +0.14), spread 0.72%, predicted 0.73%
	// 200 items: mean +0.01% (-0.17, +0.17), spread 0.84%, predicted 0.74%
	// 300 items: mean +0.11% (-0.16, +0.16), spread 0.79%, predicted 0.75%
	// 500 items: mean +0.12% (-0.16, +0.16), spread 0.81%, predicted 0.77%
	// 750 items: mean +0.15% (-0.17, +0.17), spread 0.84%, predicted 0.79%
	// 1000 items: mean +0.18% (-0.17, +0.17), spread 0.86%, predicted 0.82%
}
