package experiments_test

import (
	"context"
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// A measurement that is not a false-positive rate, planned by hand: the
// fraction of the bits of a standard filter that 500 keys set, on 20
// independently seeded filters, beside its expectation
// 1 - (1 - 1/m)^(kn). Each filter's Count is its number of set bits out
// of Queries = m, so the harness reports the mean fraction and its
// interval, and whether the theory lies inside.
func ExampleExecute() {
	const m, k, n = 1 << 12, 5, 500
	pl := &experiments.Plan{Experiment: "fill-ratio", Variant: "standard"}
	row := pl.AddRow(experiments.Row{Series: "standard", Items: n, Bits: m, Hashes: k, Filters: 20, Queries: m,
		Theory: 1 - math.Pow(1-1.0/m, k*n), Model: "occupancy"})
	pl.Groups = append(pl.Groups, experiments.Group{
		Key:     "fill-ratio/standard",
		Rows:    []int{row},
		Filters: 20,
		Run: func(ctx context.Context, j *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
			f, err := variants.NewStandard(variants.Geometry{Bits: m, Hashes: k}, j.Hashing)
			if err != nil {
				return err
			}
			for i := range rows[0].Items {
				f.Add(j.Member(i))
			}
			out[0].Count = uint64(math.Round(f.Stats().FillRatio * m))
			return nil
		},
	})
	res, err := experiments.Execute(context.Background(), pl, experiments.Params{Conf: 0.95}, experiments.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := res.Rows[0]
	fmt.Printf("%d filters: %.2f of the bits set, theory %.2f, inside the %s interval: %s\n", r.Filters, r.Rate, r.Theory, r.Interval, r.Inside)
	// Output:
	// 20 filters: 0.46 of the bits set, theory 0.46, inside the t interval: yes
}
