package experiments_test

import (
	"context"
	"fmt"

	"github.com/bloomlab/bloomlab/experiments"
)

// The cardinality experiment on standard filters: the relative error of
// the count estimate over 200 filters sized for 2000 items, at a few
// loads, beside its prediction, and the union and intersection of two
// sets sharing half their keys.
func ExampleCardinalityRow() {
	p := experiments.Params{N: 2000, Filters: 200}
	r, err := experiments.Run(context.Background(), "cardinality", "standard", p, experiments.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range r.Rows {
		c := row.CardinalityRow
		switch {
		case c.Estimate == experiments.EstimateItems && (row.Items == 200 || row.Items == 2000 || row.Items == 6000),
			c.Estimate != experiments.EstimateItems && c.Overlap == 0.5:
			fmt.Printf("%-21s %5d: error %+.2f%% ± %.2f%%, predicted bias %+.3f%%; spread %.2f%%, predicted %.2f%% (%s)\n",
				row.Series, row.Items, 100*c.Error, 100*(c.ErrorHi-c.Error), 100*c.Bias, 100*c.Spread, 100*c.StdError, row.Model)
		}
	}
	// Output:
	// standard                200: error -0.01% ± 0.07%, predicted bias +0.000%; spread 0.53%, predicted 0.52% (exact)
	// standard               2000: error +0.02% ± 0.07%, predicted bias +0.001%; spread 0.53%, predicted 0.58% (exact)
	// standard               6000: error +0.06% ± 0.11%, predicted bias +0.007%; spread 0.78%, predicted 0.79% (delta)
	// standard union         3000: error -0.03% ± 0.13%, predicted bias +0.003%; spread 0.92%, predicted 0.94% (exact)
	// standard intersection  1000: error -0.05% ± 0.08%, predicted bias -0.001%; spread 0.57%, predicted 0.59% (delta)
}
