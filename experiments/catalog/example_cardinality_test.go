package catalog_test

import (
	"context"
	"fmt"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/experiments/catalog"
)

// The cardinality experiment on standard filters: the relative error of
// the count estimate over 200 filters sized for 1000 items, at a few
// loads, beside its prediction, and the union and intersection of two
// sets sharing half their keys.
func Example_cardinality() {
	p := experiments.Params{N: 1000, Filters: 200}
	r, err := catalog.Run(context.Background(), "cardinality", "standard", p, experiments.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range r.Rows {
		c := row.CardinalityRow
		switch {
		case c.Estimate == experiments.EstimateItems && (row.Items == 100 || row.Items == 1000 || row.Items == 3000),
			c.Estimate != experiments.EstimateItems && c.Overlap == 0.5:
			fmt.Printf("%-21s %5d: error %+.2f%% ± %.2f%%, predicted bias %+.3f%%; spread %.2f%%, predicted %.2f%% (%s)\n",
				row.Series, row.Items, 100*c.Error, 100*(c.ErrorHi-c.Error), 100*c.Bias, 100*c.Spread, 100*c.StdError, row.Model)
		}
	}
	// Output:
	// standard                100: error -0.05% ± 0.10%, predicted bias +0.000%; spread 0.69%, predicted 0.73% (exact)
	// standard               1000: error +0.03% ± 0.13%, predicted bias +0.002%; spread 0.90%, predicted 0.82% (exact)
	// standard               3000: error +0.14% ± 0.16%, predicted bias +0.014%; spread 1.16%, predicted 1.12% (exact)
	// standard union         1500: error +0.10% ± 0.17%, predicted bias +0.006%; spread 1.24%, predicted 1.32% (exact)
	// standard intersection   500: error -0.09% ± 0.12%, predicted bias -0.001%; spread 0.86%, predicted 0.83% (delta)
}
