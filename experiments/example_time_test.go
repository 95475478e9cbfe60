package experiments_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// A filter measured for rate and for time on a file of one's own keys.
// The filter here is bloomlab's standard filter; any type with Add and
// Contains, sized by its New function, is measured the same way.
func ExampleTime() {
	// The key file: one key a line. Here 60,000 made-up e-mail
	// addresses; yours would be your URLs, ids or log lines.
	dir, err := os.MkdirTemp("", "keys")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "keys.txt")
	f, _ := os.Create(path)
	w := bufio.NewWriter(f)
	for i := range 60_000 {
		fmt.Fprintf(w, "user%d@example.org\n", i)
	}
	w.Flush()
	f.Close()

	ctx := context.Background()
	keys, err := experiments.KeysFromFile(ctx, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	newFilter := func(n, seed uint64) (experiments.Filter, error) {
		return variants.NewStandardFor(n, 0.01, variants.Hashing{Seed: seed})
	}

	// The rate: 10 filters for 20,000 keys, each filled with 20,000 keys
	// of the file and queried with 20,000 others, beside the theory.
	const n = 20_000
	g, _ := variants.StandardGeometry(n, 0.01)
	rates, err := experiments.Measure(ctx, []experiments.Spec{{
		Name:   "mine",
		New:    func(seed uint64) (experiments.Filter, error) { return newFilter(n, seed) },
		Items:  []uint64{n},
		Keys:   keys,
		Theory: func(items uint64) float64 { return analysis.ExactFPR(g.Bits, items, g.Hashes) },
		Model:  "exact",
	}}, experiments.Params{Filters: 10, Queries: 20_000}, experiments.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rates.Rows[0]
	fmt.Printf("rate %.4f [%.4f, %.4f], exact theory %.4f; %d of %d inserted keys tested absent\n",
		r.Rate, r.Lo, r.Hi, r.Theory, r.FalseNegatives, r.Members*uint64(r.Filters))

	// The time: filters sized for 1000 and for 20,000 keys, filled and
	// queried on one goroutine, beside the random-line baseline.
	times, err := experiments.Time(ctx, []experiments.TimeSpec{{Name: "mine", New: newFilter, Keys: keys}},
		experiments.Params{Keys: []uint64{1000, n}, Queries: 20_000, Passes: 1}, experiments.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range times.Rows {
		// The times differ from run to run (print r.NsPerAdd,
		// r.NsPerPresent and r.NsPerQuery); here, that they were taken.
		if r.Series == experiments.RandomLines {
			fmt.Printf("%s at %d keys: a line load timed: %v\n", r.Series, r.Items, r.NsPerQuery > 0)
			continue
		}
		fmt.Printf("%s at %d keys: add, present and absent query timed: %v; %d false negatives\n",
			r.Series, r.Items, r.NsPerAdd > 0 && r.NsPerPresent > 0 && r.NsPerQuery > 0, r.FalseNegatives)
	}
	// Output:
	// rate 0.0103 [0.0098, 0.0108], exact theory 0.0100; 0 of 100000 inserted keys tested absent
	// mine at 1000 keys: add, present and absent query timed: true; 0 false negatives
	// mine at 20000 keys: add, present and absent query timed: true; 0 false negatives
	// random lines at 1000 keys: a line load timed: true
	// random lines at 20000 keys: a line load timed: true
}
