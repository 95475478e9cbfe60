// Command keysources measures the fixed-size filters of bloomlab and of
// the Go libraries in compare on each of the harness's key sources
// (experiments.KeySourceNames: uniform, url, sequential, prefix, repeats),
// by the harness of package experiments: each filter sized for n keys at
// p = 0.01 and measured when it holds n keys, on independently seeded
// filters with keys of their own, beside the exact theory of the geometry
// it builds. A hash that mixes every byte of a key into every bit of its
// output measures its theory on every source; one that does not shows an
// excess on the sources whose keys differ only in a few bytes.
//
// It prints a Markdown table of measured / theory per filter and source,
// with the 95% interval of the ratio; a table of the lowest and highest
// ratio among the independently seeded filters of each cell; and a line
// per cell whose interval misses the theory.
//
// Usage (from the compare directory):
//
//	go run ./cmd/keysources [-seed 1] [-filters 20] [-queries 100000] [-n 100000] [-keys uniform,sequential]
//	go run ./cmd/keysources -time 1e4,1e6,1e7 [-keys uniform] [-queries 1000000] [-passes 3]
//
// With -time it times the same filters instead, sized for each number of
// keys given, by experiments.Time on one goroutine: add, present and absent
// query, beside the time per load of a random 64-byte line of a table the
// size of a standard filter for those keys at 1%.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/bloomlab/bloomlab/compare"
	"github.com/bloomlab/bloomlab/experiments"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "keysources:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

const rate = 0.01

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("keysources", flag.ContinueOnError)
	seed := fs.Uint64("seed", 1, "seed of every filter's keys (and hash seed, where the library takes one)")
	filters := fs.Int("filters", 20, "independently seeded filters per library and source (at least 2)")
	queries := fs.Uint64("queries", 100_000, "never-inserted keys queried per filter (at least 1000)")
	n := fs.Uint64("n", 100_000, "keys the filters are sized for and hold (at least 100)")
	keys := fs.String("keys", strings.Join(experiments.KeySourceNames, ","), "key sources, comma-separated: names or file:PATH")
	workers := fs.Int("workers", 0, "parallel workers (0: all cores); the results do not depend on it")
	timeSizes := fs.String("time", "", "instead of rates, time the filters on the first key source at these numbers of keys, comma-separated, as 1e4,1e6,1e7 (experiments.Time)")
	passes := fs.Int("passes", 3, "with -time, passes per measurement, the median reported")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	case *filters < 2:
		return fmt.Errorf("%w: -filters %d: want at least 2", errUsage, *filters)
	case *queries < 1000:
		return fmt.Errorf("%w: -queries %d: want at least 1000", errUsage, *queries)
	case *n < 100 || *n > 1<<32:
		return fmt.Errorf("%w: -n %d: want 100 <= n <= 2^32", errUsage, *n)
	case *workers < 0:
		return fmt.Errorf("%w: -workers %d: want 0 or more", errUsage, *workers)
	}
	var sources []*experiments.KeySource
	for _, name := range strings.Split(*keys, ",") {
		src, err := experiments.NewKeySource(ctx, name)
		if ctx.Err() != nil {
			return err
		}
		if err != nil {
			return fmt.Errorf("%w: -keys: %v", errUsage, err)
		}
		sources = append(sources, src)
	}
	if *timeSizes != "" {
		sizes, err := parseSizes(*timeSizes)
		if err != nil {
			return fmt.Errorf("%w: -time: %v", errUsage, err)
		}
		if *passes < 1 {
			return fmt.Errorf("%w: -passes %d: want at least 1", errUsage, *passes)
		}
		return timeFilters(ctx, out, sources[0], sizes, *queries, *passes, *seed)
	}
	p := experiments.Params{Filters: *filters, Queries: *queries}
	o := experiments.Options{Seed: *seed, Workers: *workers}

	// results[i][j]: filter i on source j.
	var names []string
	var cells [][]experiments.Row
	for j, src := range sources {
		specs, err := compare.FixedSpecs(*n, rate, []uint64{*n})
		if err != nil {
			return err
		}
		for i := range specs {
			specs[i].Keys = src
		}
		r, err := experiments.Measure(ctx, specs, p, o)
		if err != nil {
			return fmt.Errorf("%s keys: %w", src.Name(), err)
		}
		for i, row := range r.Rows {
			if j == 0 {
				names = append(names, row.Series)
				cells = append(cells, nil)
			}
			cells[i] = append(cells[i], row)
		}
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "Measured by `go run ./cmd/keysources -seed %d -filters %d -queries %d -n %d -keys %s` (%s):\n", *seed, *filters, *queries, *n, *keys, runtime.Version())
	fmt.Fprintf(&b, "each filter sized for n = %d keys at p = %g by the library's own rule and holding n keys; measured rate\n", *n, rate)
	fmt.Fprintf(&b, "over the exact theory of its geometry, with the 95%% t interval over the %d filters scaled by the theory.\n\n", *filters)
	fmt.Fprint(&b, "| filter |")
	for _, src := range sources {
		fmt.Fprintf(&b, " %s |", src.Name())
	}
	fmt.Fprint(&b, "\n|---|")
	for range sources {
		fmt.Fprint(&b, "---:|")
	}
	fmt.Fprintln(&b)
	var outside []string
	for i, name := range names {
		fmt.Fprintf(&b, "| %s |", name)
		for j, row := range cells[i] {
			fmt.Fprintf(&b, " %.3f [%.3f, %.3f] |", row.Rate/row.Theory, row.Lo/row.Theory, row.Hi/row.Theory)
			if row.Inside == "no" {
				outside = append(outside, fmt.Sprintf("%s on %s keys: %.4g [%.4g, %.4g] against %.4g", name, sources[j].Name(), row.Rate, row.Lo, row.Hi, row.Theory))
			}
		}
		fmt.Fprintln(&b)
	}
	fmt.Fprintf(&b, "\nPer filter, the lowest to the highest measured / theory of the %d filters:\n\n| filter |", *filters)
	for _, src := range sources {
		fmt.Fprintf(&b, " %s |", src.Name())
	}
	fmt.Fprint(&b, "\n|---|")
	for range sources {
		fmt.Fprint(&b, "---:|")
	}
	fmt.Fprintln(&b)
	for i, name := range names {
		fmt.Fprintf(&b, "| %s |", name)
		for _, row := range cells[i] {
			lo, hi := spread(row)
			fmt.Fprintf(&b, " %.2f to %.2f |", lo, hi)
		}
		fmt.Fprintln(&b)
	}
	fmt.Fprintf(&b, "\nThe theory lies outside the measured interval in %d of %d cells", len(outside), len(names)*len(sources))
	if len(outside) > 0 {
		fmt.Fprintf(&b, ":\n\n- %s\n", strings.Join(outside, "\n- "))
	} else {
		fmt.Fprintln(&b, ".")
	}
	_, err := out.Write(b.Bytes())
	return err
}

// spread returns the lowest and the highest of the row's filters'
// measured rates over its theory.
func spread(row experiments.Row) (lo, hi float64) {
	for i, t := range row.Trials {
		r := float64(t.Count) / float64(row.Queries) / row.Theory
		if i == 0 || r < lo {
			lo = r
		}
		if i == 0 || r > hi {
			hi = r
		}
	}
	return lo, hi
}
