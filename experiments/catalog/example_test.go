package catalog_test

import (
	"context"
	"fmt"
	"os"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/experiments/catalog"
)

// A tiny fill experiment: 8 standard filters sized for 1000 items at 1%,
// filled to twice their capacity in four steps, each queried with 20000
// keys that were never inserted. The same seed gives the same numbers on
// any machine and any number of workers.
func ExampleRun() {
	p := experiments.Params{N: 1000, P: 0.01, Filters: 8, Queries: 20_000, Checkpoints: 4}
	r, err := catalog.Run(context.Background(), "fill", "standard", p, experiments.Options{Seed: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range r.Rows {
		fmt.Printf("%4d items: measured %.3g [%.3g, %.3g], exact theory %.3g, inside: %s\n",
			row.Items, row.Rate, row.Lo, row.Hi, row.Theory, row.Inside)
	}
	// Output:
	// 500 items: measured 0.000212 [0.000136, 0.000289], exact theory 0.000251, inside: yes
	// 1000 items: measured 0.01 [0.00937, 0.0107], exact theory 0.01, inside: yes
	// 1500 items: measured 0.0581 [0.057, 0.0593], exact theory 0.0579, inside: yes
	// 2000 items: measured 0.159 [0.156, 0.163], exact theory 0.157, inside: yes
}

// The results as CSV, the columns that are empty in every row left out.
func Example_writeCSV() {
	p := experiments.Params{N: 100, P: 0.05, Filters: 3, Queries: 1000, Checkpoints: 2}
	r, err := catalog.Run(context.Background(), "fill", "partitioned", p, experiments.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	experiments.WriteCSV(os.Stdout, r)
	// Output:
	// series,variant,hashing,items,capacity,bits,hashes,bits_per_element,filters,queries,members,false_negatives,rate,lo,hi,interval,estimated,classic,theory,model,target,inside
	// partitioned,partitioned,xxh3/enhanced-double,100,100,624,4,6.24,3,1000,100,0,0.051,0.025064840878982867,0.07693515912101713,t,0.05539822318067905,0.05015977251011677,0.050621686207222724,partitioned,0.05,yes
	// partitioned,partitioned,xxh3/enhanced-double,200,100,624,4,3.12,3,1000,200,0,0.25966666666666666,0.17214413395540584,0.34718919937792747,t,0.280158327105237,0.27253947919656984,0.2742676645109389,partitioned,0.05,yes
}
