// Command peers measures the Go Bloom-filter libraries in common use
// beside bloomlab, by the harness of package experiments: every filter on
// the same number of independently seeded filters (where a library takes no
// seed, filters with keys of their own), queried with never-inserted keys,
// its mean rate with the Student t interval over the filters, beside the
// theory of the geometry it builds. It measures fixed-size filters sized
// for n keys at p = 0.01, scalable filters asked for 0.001 as they grow to
// a million keys, and the false negatives of counting filters whose
// counters saturate.
//
// It prints the results as the Markdown of the README's section "Beside
// other Go libraries"; every number in it is measured in the run. With
// -out it also writes the two rate measurements as CSV, JSON and PNG.
//
// Usage (from the compare directory):
//
//	go run ./cmd/peers [-seed 1] [-filters 20] [-queries 100000] [-n 100000] [-out dir]
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/bloomlab/bloomlab/compare"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// config holds the flags.
type config struct {
	seed, queries, n uint64
	filters, workers int
	out              string
}

// The rates the filters are asked for.
const (
	fixedRate    = 0.01
	scalableRate = 0.001
)

func run(ctx context.Context, args []string, out io.Writer) error {
	var c config
	fs := flag.NewFlagSet("peers", flag.ContinueOnError)
	fs.Uint64Var(&c.seed, "seed", 1, "seed of every filter's keys (and hash seed, where the library takes one)")
	fs.IntVar(&c.filters, "filters", 20, "independently seeded filters per library (at least 2)")
	fs.Uint64Var(&c.queries, "queries", 100_000, "never-inserted keys queried per filter and point (at least 1000)")
	fs.Uint64Var(&c.n, "n", 100_000, "keys the fixed-size filters are sized for (at least 100)")
	fs.IntVar(&c.workers, "workers", 0, "parallel workers (0: all cores); the results do not depend on it")
	fs.StringVar(&c.out, "out", "", "if set, a directory for the CSV, JSON and PNG of the two rate measurements")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	case c.filters < 2:
		return fmt.Errorf("%w: -filters %d: want at least 2", errUsage, c.filters)
	case c.queries < 1000:
		return fmt.Errorf("%w: -queries %d: want at least 1000", errUsage, c.queries)
	case c.n < 100 || c.n > 1<<32:
		return fmt.Errorf("%w: -n %d: want 100 <= n <= 2^32", errUsage, c.n)
	case c.workers < 0:
		return fmt.Errorf("%w: -workers %d: want 0 or more", errUsage, c.workers)
	}
	p := experiments.Params{Filters: c.filters, Queries: c.queries}
	o := experiments.Options{Seed: c.seed, Workers: c.workers}

	fixed, err := compare.FixedSpecs(c.n, fixedRate, []uint64{c.n / 2, c.n, 2 * c.n})
	if err != nil {
		return err
	}
	fixed = withReversed(fixed)
	fr, err := experiments.Measure(ctx, fixed, p, o)
	if err != nil {
		return err
	}
	scalable, err := compare.ScalableSpecs(scalableRate, []uint64{10_000, 100_000, 1_000_000})
	if err != nil {
		return err
	}
	scalable = withReversed(scalable)
	sr, err := experiments.Measure(ctx, scalable, p, o)
	if err != nil {
		return err
	}
	const members, hot = 100_000, 20
	losses, err := compare.CountingLosses(c.seed, c.filters, members, hot)
	if err != nil {
		return err
	}
	if c.out != "" {
		if err := write(c.out, "peers-fixed", fr); err != nil {
			return err
		}
		if err := write(c.out, "peers-scalable", sr); err != nil {
			return err
		}
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "Measured by `go run ./cmd/peers -seed %d -filters %d -queries %d -n %d` (%s): every filter\n", c.seed, c.filters, c.queries, c.n, runtime.Version())
	fmt.Fprintf(&b, "on %d filters, each with keys of its own (and a hash seed of its own where the library\n", c.filters)
	fmt.Fprintf(&b, "takes one; bits-and-blooms and BoomFilters do not), queried with %d never-inserted keys\n", c.queries)
	fmt.Fprintf(&b, "at each point; a rate is the mean over the filters with its 95%% t interval, and the theory\n")
	fmt.Fprintf(&b, "is that of the geometry the library builds (m bits, k hashes, slices, stages), for positions\n")
	fmt.Fprintf(&b, "independent and uniform. The keys are 16 bytes, an id of the filter's key stream and then a\n")
	fmt.Fprintf(&b, "counter whose top bit sets queries apart from members; BoomFilters, which hashes with 64-bit\n")
	fmt.Fprintf(&b, "FNV-1, is also measured with every key reversed (\"keys reversed\"), since FNV-1 mixes a key's\n")
	fmt.Fprintf(&b, "last byte into the low bits of the hash only.\n\n")

	fmt.Fprintf(&b, "**Fixed-size filters**, each sized for n = %d keys at p = %g by the library's own rule:\n\n", c.n, fixedRate)
	rateTable(&b, fr, 0)
	pooled(&b, fr)

	fmt.Fprintf(&b, "\n**Scalable filters** asked for P = %g (BoomFilters: `NewDefaultScalableBloomFilter`, stages for %d keys at\n", scalableRate, compare.BoomScalableHint)
	fmt.Fprintf(&b, "P r^i with r = %g; bloomlab: `NewScalable` with its defaults r = 0.9, s = 2, n0 = 1000), grown to 10^6 keys:\n\n", compare.BoomScalableRatio)
	rateTable(&b, sr, scalableRate)
	pooled(&b, sr)

	fmt.Fprintf(&b, "\n**Counting filters** with 4-bit counters sized for %d keys at p = 0.01, holding %d keys, after one\n", members, members)
	fmt.Fprintf(&b, "further key was added %d times and removed %d times (%d filters each, keys of their own):\n\n", hot, hot, c.filters)
	fmt.Fprintf(&b, "| filter | members that test absent, mean [95%% t interval] | per filter, min to max |\n|---|---|---|\n")
	for _, l := range losses {
		lo, hi := l.Lost[0], l.Lost[0]
		for _, x := range l.Lost {
			lo, hi = min(lo, x), max(hi, x)
		}
		fmt.Fprintf(&b, "| %s | %.3g [%.3g, %.3g] | %d to %d |\n", l.Name, l.Mean, max(l.Interval.Lo, 0), l.Interval.Hi, lo, hi)
	}
	_, err = out.Write(b.Bytes())
	return err
}

// withReversed returns specs with, after each BoomFilters spec, the same
// spec fed with reversed keys (compare.Reversed).
func withReversed(specs []experiments.Spec) []experiments.Spec {
	var out []experiments.Spec
	for _, s := range specs {
		out = append(out, s)
		if strings.HasPrefix(s.Name, "boomfilters") {
			out = append(out, compare.Reversed(s))
		}
	}
	return out
}

// rateTable prints the rows of r as a Markdown table; with target > 0, a
// column of the measured rate over the target too.
func rateTable(w io.Writer, r *experiments.Results, target float64) {
	fmt.Fprint(w, "| filter | keys | bits per key | measured rate [95% interval] | theory | measured / theory |")
	sep := "|---|---:|---:|---|---:|---:|"
	if target > 0 {
		fmt.Fprint(w, " measured / P |")
		sep += "---:|"
	}
	fmt.Fprintf(w, "\n%s\n", sep)
	for _, row := range r.Rows {
		fmt.Fprintf(w, "| %s | %d | %.2f | %.3g [%.3g, %.3g] | %.3g | %.3f |", row.Series, row.Items, row.BitsPerKey, row.Rate, row.Lo, row.Hi, row.Theory, row.Rate/row.Theory)
		if target > 0 {
			fmt.Fprintf(w, " %.2f |", row.Rate/target)
		}
		fmt.Fprintln(w)
	}
}

// pooled prints the notes of r that check each filter's theory once over
// its points.
func pooled(w io.Writer, r *experiments.Results) {
	fmt.Fprintln(w, "\nThe points of one filter share its filters, so the theory is checked once per filter over its points:")
	fmt.Fprintln(w)
	for _, n := range r.Notes {
		if strings.Contains(n, ", pooled over its ") {
			fmt.Fprintf(w, "- %s\n", n)
		}
	}
}

// write writes r as CSV, JSON and PNG under dir.
func write(dir, base string, r *experiments.Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		ext   string
		write func(io.Writer) error
	}{
		{"csv", func(w io.Writer) error { return experiments.WriteCSV(w, r) }},
		{"json", func(w io.Writer) error { return experiments.WriteJSON(w, r) }},
		{"png", func(w io.Writer) error {
			f, err := plots.Measure(r)
			if err != nil {
				return err
			}
			return f.Render(w, "png")
		}},
	} {
		var b bytes.Buffer
		if err := f.write(&b); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, base+"."+f.ext), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
