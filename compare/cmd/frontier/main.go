// Command frontier measures the space-time frontier of approximate
// membership: every fixed-size variant of bloomlab, the Bloom filters of
// the other Go libraries (bits-and-blooms, BoomFilters, bbloom, parquet-go's
// split-block filter) and the static xor and binary fuse filters of
// FastFilter/xorfilter, each sized for n keys at each target rate where the
// structure lets one choose.
//
// For each structure it measures, on the harness of package experiments,
// the false-positive rate of -filters independently seeded filters at each
// size of -rates, with its t interval, beside the theory of the geometry
// built; and, on one goroutine, one filter per structure at each size of
// -speed, all on the same keys: ns per insertion (per key of Add and then
// Build, for the static filters) and per query of a present and of an
// absent key. It checks the sizing of bloomlab's variants against their own
// theory (compare.CheckSizing).
//
// It prints the results as Markdown, every number measured in the run;
// with -out it writes, into that directory, frontier.png (the figure:
// rate against bits per key at the largest rate size, with the
// information-theoretic bound log2(1/p), the optimal Bloom filter's
// 1.44 log2(1/p) and bloomlab's theory curves; query and insertion time
// against bits per key at the largest speed size), the harness results
// as frontier-rates-<n>.csv and .json, the timings as frontier-speed.csv
// and .json, and the printed Markdown as frontier.md. Files are written
// only after everything was measured, each to a temporary file renamed
// into place.
//
// Usage (from the compare directory):
//
//	go run ./cmd/frontier [-seed 1] [-filters 20] [-queries 1e6] [-rates 1e4,1e6] [-speed 1e4,1e6,3e7] [-p 0.01,0.001] [-time-queries 1e6] [-min-inserts 1e6] [-passes 3] [-out figures]
package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bloomlab/bloomlab/compare"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/internal/units"
	"github.com/klauspost/cpuid/v2"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "frontier:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// config holds the flags.
type config struct {
	seed, queries, timeQueries uint64
	minInserts                 uint64
	filters, passes, workers   int
	rates, speed               []uint64
	targets                    []float64
	out                        string
}

// Limits of the flags.
const (
	maxSize    = 100_000_000 // keys; the binary fuse filters count in 32 bits, and memory
	onePassMin = 10_000_000  // sizes from here on are timed in one pass
)

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	c := &config{}
	fs := flag.NewFlagSet("frontier", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Uint64Var(&c.seed, "seed", 1, "seed of every filter's keys and hash seed")
	fs.IntVar(&c.filters, "filters", 20, "independently seeded filters per structure and rate size (at least 2)")
	queries := fs.String("queries", "1e6", "never-inserted keys queried per filter on the harness (at least 1000)")
	rates := fs.String("rates", "1e4,1e6", "comma-separated key counts at which rates are measured on the harness")
	speed := fs.String("speed", "1e4,1e6,3e7", "comma-separated key counts at which one filter per structure is timed")
	targets := fs.String("p", "0.01,0.001", "comma-separated target rates of the structures that take one")
	timeQueries := fs.String("time-queries", "1e6", "present and absent keys timed per pass (at least 1000)")
	minInserts := fs.String("min-inserts", "1e6", "fewest keys inserted per timing pass: small filters are filled again until this many (at least 1)")
	fs.IntVar(&c.passes, "passes", 3, "timing passes at sizes below 1e7, the median reported (1 to 21); larger sizes get one")
	fs.IntVar(&c.workers, "workers", 0, "parallel workers of the rate measurement (0: all cores); the rates do not depend on it")
	fs.StringVar(&c.out, "out", "", "if set, the directory for the figure, CSV, JSON and Markdown")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: frontier [flags]\n\nMeasures rate, bits per key and speed of bloomlab's filters and the other libraries' on the same keys.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q", fs.Arg(0))
	}
	var err error
	if c.queries, err = units.ParseCount(*queries); err != nil || c.queries < 1000 {
		return nil, usagef("-queries %q: want a count of at least 1000", *queries)
	}
	if c.timeQueries, err = units.ParseCount(*timeQueries); err != nil || c.timeQueries < 1000 {
		return nil, usagef("-time-queries %q: want a count of at least 1000", *timeQueries)
	}
	if c.minInserts, err = units.ParseCount(*minInserts); err != nil || c.minInserts < 1 {
		return nil, usagef("-min-inserts %q: want a count of at least 1", *minInserts)
	}
	if c.rates, err = counts("rates", *rates); err != nil {
		return nil, err
	}
	if c.speed, err = counts("speed", *speed); err != nil {
		return nil, err
	}
	for _, f := range strings.Split(*targets, ",") {
		p, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(p > 0 && p < 1) {
			return nil, usagef("-p: %q is not a rate in (0, 1)", f)
		}
		if !slices.Contains(c.targets, p) {
			c.targets = append(c.targets, p)
		}
	}
	switch {
	case c.filters < 2:
		return nil, usagef("-filters %d: want at least 2", c.filters)
	case c.passes < 1 || c.passes > 21:
		return nil, usagef("-passes %d: want 1 to 21", c.passes)
	case c.workers < 0:
		return nil, usagef("-workers %d: want 0 or more", c.workers)
	}
	return c, nil
}

// counts parses a comma-separated list of key counts, each 100 to maxSize,
// sorted and without repeats.
func counts(name, s string) ([]uint64, error) {
	var out []uint64
	for _, f := range strings.Split(s, ",") {
		n, err := units.ParseCount(strings.TrimSpace(f))
		if err != nil || n < 100 || n > maxSize {
			return nil, usagef("-%s: %q is not a key count from 100 to %d", name, f, maxSize)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if c.out != "" {
		if err := prepareOut(c.out); err != nil {
			return err
		}
	}
	start := time.Now()
	say := progress(stderr)

	// Rates, on the harness.
	rates := map[uint64]*experiments.Results{}
	rateConfigs := map[uint64][]compare.Config{}
	for _, n := range c.rates {
		configs, err := compare.FrontierConfigs(n, c.targets)
		if err != nil {
			return err
		}
		specs := make([]experiments.Spec, len(configs))
		for i, cf := range configs {
			specs[i] = cf.Spec
		}
		say("rates at n = %d: %d structures x %d filters", n, len(specs), c.filters)
		r, err := experiments.Measure(ctx, specs, experiments.Params{Filters: c.filters, Queries: c.queries}, experiments.Options{Seed: c.seed, Workers: c.workers})
		if err != nil {
			return err
		}
		for _, cf := range configs {
			if err := cf.Err(); err != nil {
				return err
			}
		}
		rates[n], rateConfigs[n] = r, configs
	}

	// Speed, one filter per structure and size, on one goroutine.
	var speed []compare.Timing
	for _, n := range c.speed {
		configs, err := compare.FrontierConfigs(n, c.targets)
		if err != nil {
			return err
		}
		passes := c.passes
		if n >= onePassMin {
			passes = 1
		}
		for _, cf := range configs {
			say("timing %s at n = %d", cf.Spec.Name, n)
			t, err := compare.Time(ctx, cf, n, compare.TimeOptions{Seed: c.seed, Queries: c.timeQueries, MinInserts: c.minInserts, Passes: passes})
			if err != nil {
				return err
			}
			speed = append(speed, t)
		}
	}

	// Sizing of bloomlab's variants against their own theory.
	sizes := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(c.rates), c.speed...))))
	var sizing []sizingRow
	for _, n := range sizes {
		for _, p := range c.targets {
			checks, err := compare.CheckSizing(n, p)
			if err != nil {
				return err
			}
			for _, ch := range checks {
				sizing = append(sizing, sizingRow{n, p, ch})
			}
		}
	}
	took := time.Since(start)

	var md bytes.Buffer
	report(&md, c, rates, speed, sizing, took)
	var outs []output
	if c.out != "" {
		large, top := c.rates[len(c.rates)-1], c.speed[len(c.speed)-1]
		curves, err := compare.FrontierCurves(large, 1, 27, 105)
		if err != nil {
			return err
		}
		fig, err := compare.FrontierFigure(rates[large], rateConfigs[large], curves, large, speed, top)
		if err != nil {
			return err
		}
		outs = append(outs, output{"frontier.png", func(w io.Writer) error { return fig.Render(w, "png") }})
		for _, n := range c.rates {
			r := rates[n]
			outs = append(outs,
				output{fmt.Sprintf("frontier-rates-%s.csv", countName(n)), func(w io.Writer) error { return experiments.WriteCSV(w, r) }},
				output{fmt.Sprintf("frontier-rates-%s.json", countName(n)), func(w io.Writer) error { return experiments.WriteJSON(w, r) }})
		}
		outs = append(outs,
			output{"frontier-speed.csv", func(w io.Writer) error { return writeSpeedCSV(w, speed) }},
			output{"frontier-speed.json", func(w io.Writer) error { return writeSpeedJSON(w, speed) }},
			output{"frontier.md", func(w io.Writer) error { _, err := w.Write(md.Bytes()); return err }})
		if err := writeFiles(c.out, outs); err != nil {
			return err
		}
	}
	_, err = stdout.Write(md.Bytes())
	return err
}

// sizingRow is one check of compare.CheckSizing at n keys and rate p.
type sizingRow struct {
	n     uint64
	p     float64
	check compare.SizingCheck
}

// progress returns a function that prints a line to stderr when stderr is
// a terminal, and does nothing otherwise.
func progress(stderr io.Writer) func(format string, args ...any) {
	f, ok := stderr.(*os.File)
	if !ok {
		return func(string, ...any) {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return func(string, ...any) {}
	}
	return func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
}

// countName writes n as in a file name: 1e4, 3e7, or in full.
func countName(n uint64) string {
	e := 0
	m := n
	for m >= 10 && m%10 == 0 {
		m /= 10
		e++
	}
	if e >= 3 && m < 10 {
		return fmt.Sprintf("%de%d", m, e)
	}
	return strconv.FormatUint(n, 10)
}

// machine describes the processor the run measured on.
func machine() string {
	s := fmt.Sprintf("%s/%s, %d logical CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	if cpuid.CPU.BrandName != "" {
		s = cpuid.CPU.BrandName + ", " + s
	}
	kib := func(b int) string {
		if b <= 0 {
			return "not reported"
		}
		if b >= 1<<20 {
			return fmt.Sprintf("%d MiB", b>>20)
		}
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%s; caches per core: L1d %s, L2 %s; L3 %s", s, kib(cpuid.CPU.Cache.L1D), kib(cpuid.CPU.Cache.L2), kib(cpuid.CPU.Cache.L3))
}

// command returns a command line that repeats the run's measurements.
func command(c *config) string {
	list := func(ns []uint64) string {
		s := make([]string, len(ns))
		for i, n := range ns {
			s[i] = countName(n)
		}
		return strings.Join(s, ",")
	}
	ps := make([]string, len(c.targets))
	for i, p := range c.targets {
		ps[i] = strconv.FormatFloat(p, 'g', -1, 64)
	}
	return fmt.Sprintf("go run ./cmd/frontier -seed %d -filters %d -queries %s -rates %s -speed %s -p %s -time-queries %s -min-inserts %s -passes %d",
		c.seed, c.filters, countName(c.queries), list(c.rates), list(c.speed), strings.Join(ps, ","), countName(c.timeQueries), countName(c.minInserts), c.passes)
}

// report writes the Markdown of the run.
func report(w io.Writer, c *config, rates map[uint64]*experiments.Results, speed []compare.Timing, sizing []sizingRow, took time.Duration) {
	fmt.Fprintf(w, "Measured by `%s` (%s; %s) in %.0f s.\n\n", command(c), runtime.Version(), machine(), took.Seconds())

	summary(w, c, rates, speed)

	fmt.Fprintf(w, "**Rates.** Each structure on %d filters at each size, each with keys of its own and a hash seed of its own\n", c.filters)
	fmt.Fprintf(w, "where the library takes one, queried with %d never-inserted keys; the rate is the mean over the filters\n", c.queries)
	fmt.Fprintf(w, "with its 95%% t interval (Clopper-Pearson on the pooled counts where all filters agree), and the theory is that of\n")
	fmt.Fprintf(w, "the geometry the library builds (2^-w for a w-bit fingerprint). The last column is bits per key over\n")
	fmt.Fprintf(w, "log2(1/rate), the factor over the information-theoretic bound, with the interval the rate's gives.\n\n")
	fmt.Fprintln(w, "| structure | p asked | n | bits per key | measured rate [95% interval] | theory | measured / theory | bits / log2(1/rate) |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|---:|---:|---|")
	for _, n := range c.rates {
		for _, row := range rates[n].Rows {
			name, p := splitSeries(row.Series)
			fmt.Fprintf(w, "| %s | %s | %s | %.2f | %.3g [%.3g, %.3g] | %.3g | %.3f | %s |\n", name, p, countName(n), row.BitsPerKey,
				row.Rate, row.Lo, row.Hi, row.Theory, row.Rate/row.Theory, factor(row.BitsPerKey, row.Rate, row.Lo, row.Hi))
		}
	}

	passes := fmt.Sprintf("median of %d passes", c.passes)
	if c.speed[0] >= onePassMin {
		passes = "one pass"
	} else if c.speed[len(c.speed)-1] >= onePassMin {
		passes += fmt.Sprintf(" below %s keys, one pass above", countName(onePassMin))
	}
	fmt.Fprintf(w, "\n**Speed.** One filter per structure and size, filled with the same keys for every structure, on one goroutine\n")
	fmt.Fprintf(w, "(%s): ns per key inserted (for the static filters, keeping the key's hash and then building, per key),\n", passes)
	fmt.Fprintf(w, "filling fresh filters until at least %s keys were inserted in the pass; ns per query of %d present and %d absent keys, with\n", countName(c.minInserts), c.timeQueries, c.timeQueries)
	fmt.Fprintf(w, "the hashing of the 16-byte key included everywhere; and the rate of that one filter on the absent keys\n")
	fmt.Fprintf(w, "(Clopper-Pearson 95%%). Times are wall-clock on shared cores and vary by tens of percent between runs.\n\n")
	fmt.Fprintln(w, "| structure | p asked | n | bits per key | insert ns | present query ns | absent query ns | rate of this filter [95%] |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|")
	for _, t := range speed {
		name, p := splitSeries(t.Series)
		fmt.Fprintf(w, "| %s | %s | %s | %.2f | %.1f | %.1f | %.1f | %.3g [%.3g, %.3g] |\n", name, p, countName(t.Items), t.BitsPerKey,
			t.NsPerInsert, t.NsPerPresent, t.NsPerAbsent, t.Rate, t.Lo, t.Hi)
	}

	fmt.Fprintf(w, "\n**Targets**, as ratios within this run.\n\n")
	fmt.Fprintln(w, "bloomlab standard against bits-and-blooms (their time over ours, so above 2 meets the target of 2x):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| n | p | insert | present query | absent query |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|")
	for _, pair := range pairs(speed, "bloomlab standard", compare.BitsAndBlooms) {
		ours, theirs := pair[0], pair[1]
		fmt.Fprintf(w, "| %s | %g | %.2f | %.2f | %.2f |\n", countName(ours.Items), ours.Target,
			theirs.NsPerInsert/ours.NsPerInsert, theirs.NsPerPresent/ours.NsPerPresent, theirs.NsPerAbsent/ours.NsPerAbsent)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "bloomlab's blocked and split-block queries against parquet-go's split-block filter (ours over theirs, so at most 1.2 meets the target; hashing included on each side as the library does it: XXH3 for bloomlab, XXH64 for parquet-go):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| n | p | blocked / parquet-go, present | absent | split-block / parquet-go, present | absent |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|")
	blocked := pairs(speed, "bloomlab blocked", compare.ParquetGo)
	split := pairs(speed, "bloomlab split-block", compare.ParquetGo)
	for i := range min(len(blocked), len(split)) {
		b, s := blocked[i], split[i]
		fmt.Fprintf(w, "| %s | %g | %.2f | %.2f | %.2f | %.2f |\n", countName(b[0].Items), b[0].Target,
			b[0].NsPerPresent/b[1].NsPerPresent, b[0].NsPerAbsent/b[1].NsPerAbsent, s[0].NsPerPresent/s[1].NsPerPresent, s[0].NsPerAbsent/s[1].NsPerAbsent)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "bloomlab's variants sized for n at p: bits allocated against the fewest bits their own theory needs for p (compare.CheckSizing):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| variant | n | p | k | bits per key allocated | bits per key its theory needs | allocated / needed - 1 | theory rate at the allocation |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, s := range sizing {
		fmt.Fprintf(w, "| %s | %s | %g | %d | %.4f | %.4f | %+.3f%% | %.5g |\n", s.check.Variant, countName(s.n), s.p, s.check.Hashes,
			float64(s.check.Allocated)/float64(s.n), float64(s.check.Needed)/float64(s.n), 100*s.check.Excess(), s.check.Rate)
	}
}

// summary writes one line per structure and target: its bits per key and
// measured rate at the largest rate size, the factor over the bound, and
// its times at every speed size.
func summary(w io.Writer, c *config, rates map[uint64]*experiments.Results, speed []compare.Timing) {
	large := c.rates[len(c.rates)-1]
	sizes := make([]string, len(c.speed))
	for i, n := range c.speed {
		sizes[i] = countName(n)
	}
	fmt.Fprintf(w, "**Summary.** Bits per key and rate of each structure at n = %s (mean of %d filters, 95%% interval), the factor\n", countName(large), c.filters)
	fmt.Fprintf(w, "over the bound log2(1/rate), and the ns per query (present / absent key) and per key inserted (for the static\n")
	fmt.Fprintf(w, "filters: built) of one filter at n = %s. The tables below give every size and interval.\n\n", strings.Join(sizes, ", "))
	fmt.Fprint(w, "| structure | p asked | bits per key | rate [95% interval] | bits / log2(1/rate) |")
	sep := "|---|---:|---:|---|---:|"
	for _, n := range sizes {
		fmt.Fprintf(w, " query ns, n = %s |", n)
		sep += "---:|"
	}
	fmt.Fprintf(w, " insert ns, n = %s |\n%s---:|\n", strings.Join(sizes, " / "), sep)
	for _, row := range rates[large].Rows {
		name, p := splitSeries(row.Series)
		f, _, _ := strings.Cut(factor(row.BitsPerKey, row.Rate, row.Lo, row.Hi), " ")
		fmt.Fprintf(w, "| %s | %s | %.2f | %.3g [%.3g, %.3g] | %s |", name, p, row.BitsPerKey, row.Rate, row.Lo, row.Hi, f)
		var inserts []string
		for _, n := range c.speed {
			cell := "-"
			for _, t := range speed {
				if t.Series == row.Series && t.Items == n {
					cell = fmt.Sprintf("%.0f / %.0f", t.NsPerPresent, t.NsPerAbsent)
					inserts = append(inserts, fmt.Sprintf("%.0f", t.NsPerInsert))
				}
			}
			fmt.Fprintf(w, " %s |", cell)
		}
		fmt.Fprintf(w, " %s |\n", strings.Join(inserts, " / "))
	}
	fmt.Fprintln(w)
}

// splitSeries splits "name, p = 0.01" into the name and "0.01"; a static
// filter's series has no target and gives "-".
func splitSeries(s string) (name, p string) {
	if i := strings.LastIndex(s, ", p = "); i >= 0 {
		return s[:i], s[i+len(", p = "):]
	}
	return s, "-"
}

// factor formats bits per key over log2(1/rate) with the interval from
// the rate's interval [lo, hi].
func factor(bits, rate, lo, hi float64) string {
	f := func(r float64) string {
		if !(r > 0 && r < 1) {
			return "-"
		}
		return fmt.Sprintf("%.3f", bits/math.Log2(1/r))
	}
	return fmt.Sprintf("%s [%s, %s]", f(rate), f(lo), f(hi))
}

// pairs returns the timings of structures a and b measured at the same
// size and target, in the order of speed.
func pairs(speed []compare.Timing, a, b string) [][2]compare.Timing {
	var out [][2]compare.Timing
	for _, x := range speed {
		if x.Structure != a {
			continue
		}
		for _, y := range speed {
			if y.Structure == b && y.Items == x.Items && y.Target == x.Target {
				out = append(out, [2]compare.Timing{x, y})
			}
		}
	}
	return out
}

// writeSpeedCSV writes the timings as CSV, a header and one line each.
func writeSpeedCSV(w io.Writer, speed []compare.Timing) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"series", "structure", "target", "static", "items", "bits", "bits_per_key", "ns_per_insert", "ns_per_present", "ns_per_absent", "queries", "false_positives", "rate", "lo", "hi"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, t := range speed {
		cw.Write([]string{t.Series, t.Structure, g(t.Target), strconv.FormatBool(t.Static), strconv.FormatUint(t.Items, 10), strconv.FormatUint(t.Bits, 10),
			g(t.BitsPerKey), g(t.NsPerInsert), g(t.NsPerPresent), g(t.NsPerAbsent), strconv.FormatUint(t.Queries, 10), strconv.FormatUint(t.FalsePositives, 10),
			g(t.Rate), g(t.Lo), g(t.Hi)})
	}
	cw.Flush()
	return cw.Error()
}

// writeSpeedJSON writes the timings as indented JSON.
func writeSpeedJSON(w io.Writer, speed []compare.Timing) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(speed)
}

// prepareOut creates the output directory and checks that a file can be
// created in it, before anything is measured.
func prepareOut(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	f, err := os.CreateTemp(dir, ".frontier-probe-*")
	if err != nil {
		return fmt.Errorf("-out: %s is not writable: %w", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// output is a file to write: its name in the output directory and its
// content.
type output struct {
	name  string
	write func(io.Writer) error
}

// writeFiles renders every output in memory first, then writes each to a
// temporary file in dir and renames it into place: an error leaves no
// partial file.
func writeFiles(dir string, outs []output) error {
	data := make([][]byte, len(outs))
	for i, o := range outs {
		var b bytes.Buffer
		if err := o.write(&b); err != nil {
			return fmt.Errorf("%s: %w", o.name, err)
		}
		data[i] = b.Bytes()
	}
	for i, o := range outs {
		tmp, err := os.CreateTemp(dir, "."+o.name+".tmp-*")
		if err != nil {
			return err
		}
		_, err = tmp.Write(data[i])
		if err == nil {
			err = tmp.Chmod(0o644)
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), filepath.Join(dir, o.name))
		}
		if err != nil {
			os.Remove(tmp.Name())
			return fmt.Errorf("%s: %w", o.name, err)
		}
	}
	return nil
}
