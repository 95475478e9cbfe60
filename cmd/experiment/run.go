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
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/experiments/catalog"
	"github.com/bloomlab/bloomlab/internal/units"
)

// usageError is an error in the command line: main exits with status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return plain(e.err.Error()) }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

const usageText = `usage: experiment [flags]

Runs a named experiment on bloomlab's Bloom filters, prints a table and
writes <out>/<exp>-<variant>.csv, .json, .png (and .svg); with -keys K
other than uniform the names end in -keys-K (-keys-file-NAME for a file).

  go run ./cmd/experiment -variant scalable          the main job (fill, scalable)
  go run ./cmd/experiment -exp all -out plots/figures -format png,json
                                                     every figure of the README (then
                                                     go test ./experiments/catalog -update files the JSON)
  go run ./cmd/experiment -list                      the experiments
  go run ./cmd/experiment -exp hashing -keys sequential
                                                     the hashing options on sequential keys
  go run ./cmd/experiment -exp fill -variant standard -keys file:keys.txt
                                                     a filter filled from your own keys
  go run ./cmd/experiment -exp fill -variant standard -m 1e5 -k 3 -derivation double -keys url
                                                     any geometry and hashing, against its theory

Sharding: run -shard i/N for i = 0..N-1 (same flags, any machines), then
-merge the N shard files; the merged output equals the unsharded run's.

Flags:
`

// options are the parsed flags.
type options struct {
	exp, variant, out, format, shard, merge string
	n, p, queries, r, s, conf, keys         string
	candidates, m, hash, derivation         string
	filters, workers, k                     int
	seed                                    uint64
	list, quick                             bool
}

func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("experiment", flag.ContinueOnError)
	fs.StringVar(&o.exp, "exp", "fill", "experiment: a name from -list, or all")
	fs.StringVar(&o.variant, "variant", "all", "variant: "+strings.Join(catalog.Variants, ", ")+", or all")
	fs.StringVar(&o.n, "n", "", "capacity n the filters are sized for (scalable: first stage n0); SI suffixes allowed, as 10k (default: the experiment's)")
	fs.StringVar(&o.p, "p", "", "target false-positive rate, as 0.01, 1e-3, 1/1000 or 0.1% (default: the experiment's)")
	fs.IntVar(&o.filters, "filters", 0, "independently seeded filters per point (default: the experiment's)")
	fs.StringVar(&o.queries, "queries", "", "never-inserted keys queried per filter and point; SI suffixes allowed (default: the experiment's)")
	fs.StringVar(&o.conf, "conf", "", "confidence level of the intervals (default 0.95)")
	fs.StringVar(&o.r, "r", "", "scalable tightening ratios, comma-separated, as 0.5,0.9 (default: the experiment's)")
	fs.StringVar(&o.s, "s", "", "scalable growth factors, comma-separated, as 2,4 (default: the experiment's)")
	fs.StringVar(&o.m, "m", "", "fill: bits m of each filter (counting: counters), in place of the size for -n and -p; a count as 1e5 or a size as 1Mb, 12KiB (blocked: rounded up to whole blocks). Without -k, k is the best for m and -n")
	fs.IntVar(&o.k, "k", 0, "fill: hashes k of each filter (with -m, or with the m sized for -n and -p)")
	fs.StringVar(&o.hash, "hash", "", "fill, hashes, small-m: hash of the keys: "+strings.Join(catalog.HashNames, ", ")+" (xxh64, xxh3-64: split-block only; default xxh3)")
	fs.StringVar(&o.derivation, "derivation", "", "fill, hashes, small-m: how the k indexes come from the digest: "+strings.Join(catalog.DerivationNames, ", ")+" (default enhanced; blocked and split-block take only enhanced)")
	fs.StringVar(&o.candidates, "candidates", "", "adversary: candidate keys T the pollution attacker examines per inserted key, comma-separated, as 1,10,100,1000; SI suffixes allowed (default: the experiment's)")
	fs.StringVar(&o.keys, "keys", "uniform", "key source: "+strings.Join(experiments.KeySourceNames, ", ")+", or file:PATH (a regular file of at most 4 GiB, one key a line of at most 64 KiB, split into members and queries per filter; reading it takes the file's size plus 8 bytes a line of memory); for the experiments that measure rates against inserted keys")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of every filter's hash seed and keys")
	fs.IntVar(&o.workers, "workers", 0, "parallel workers (0: all cores); the results do not depend on it")
	fs.StringVar(&o.out, "out", "results", "output directory, created if missing")
	fs.StringVar(&o.format, "format", "csv,json,png", "files to write, comma-separated: csv, json, png, svg")
	fs.StringVar(&o.shard, "shard", "", "run only shard i/N of the filters and write a shard file for -merge")
	fs.StringVar(&o.merge, "merge", "", "merge shard files (comma-separated paths or glob patterns) instead of running")
	fs.BoolVar(&o.list, "list", false, "list the experiments and exit")
	fs.BoolVar(&o.quick, "quick", false, "smaller default sizes for memory and speed (up to 1e6 keys), adversary (n = 1000, 10 filters, T up to 100) and boost (5 cells at 1e6 keys)")
	fs.SetOutput(io.Discard)
	return fs
}

func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, usageText)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// run is the whole command: main only calls it. Errors in the command line
// are *usageError, which run has already printed to stderr, followed by
// a one-line hint; the usage text is printed only for -h.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	var o options
	fs := newFlagSet(&o)
	defer func() {
		var u *usageError
		if errors.As(err, &u) {
			// The error, then where to read more: the usage text is for
			// -h, not for every mistake.
			fmt.Fprintf(stderr, "experiment: %v\n%s\n", err, hint)
		}
	}()
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout, fs)
			return nil
		}
		return &usageError{flagError(err)}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (flags start with -)", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	if o.list {
		for name := range set {
			if name != "list" {
				return usagef("-list cannot be combined with -%s", name)
			}
		}
		return list(stdout)
	}
	formats, err := parseFormats(o.format)
	if err != nil {
		return err
	}
	if o.out == "" {
		return usagef("-out: empty output directory")
	}
	if o.merge != "" {
		for _, name := range []string{"exp", "variant", "n", "p", "filters", "queries", "conf", "r", "s", "candidates", "seed", "workers", "shard", "quick", "keys", "m", "k", "hash", "derivation"} {
			if set[name] {
				return usagef("-merge cannot be combined with -%s: the shard files hold the run's parameters", name)
			}
		}
		return merge(ctx, o, formats, stdout, stderr)
	}

	runs, err := plan(ctx, o, set)
	if err != nil {
		return err
	}
	if strings.HasPrefix(o.keys, "file:") {
		// plan's checks read the key file, and each run reads it again:
		// collect the checked copies first, so that the peak is one
		// file's memory, not two.
		runtime.GC()
	}
	if err := prepareOut(o.out); err != nil {
		return err
	}
	progress := newProgress(stderr)
	var failed error
	for i, rn := range runs {
		rn.opts.Progress = progress.start(fmt.Sprintf("%s %s", rn.exp, rn.variant))
		started := time.Now()
		res, err := catalog.Run(ctx, rn.exp, rn.variant, rn.params, rn.opts)
		progress.stop()
		if errors.Is(err, experiments.ErrFalseNegative) && res != nil {
			// The results show the false negatives; write them, then fail.
			failed = errors.Join(failed, err)
			err = nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted during %s %s; files written before are complete, nothing of this run was written", rn.exp, rn.variant)
			}
			return err
		}
		elapsed := time.Since(started)
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if res.Shard != nil {
			path := filepath.Join(o.out, fmt.Sprintf("%s-%s%s.shard-%d-of-%d.json", rn.exp, rn.variant, fileSuffix(rn.params), res.Shard.Index, res.Shard.Count))
			if err := writeFiles([]output{{path, func(w io.Writer) error { return experiments.WriteJSON(w, res) }}}); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s %s: shard %d/%d measured in %s\nwrote %s\n", rn.exp, rn.variant, res.Shard.Index, res.Shard.Count, elapsed.Round(time.Millisecond), path)
			continue
		}
		head := fmt.Sprintf("%s %s (seed %d, %s, measured in %s)", rn.exp, rn.variant, res.Seed, res.GoVersion, elapsed.Round(time.Millisecond))
		if err := report(stdout, head, res, o.out, formats); err != nil {
			return err
		}
		warn(stderr, res)
	}
	return failed
}

// warn repeats on stderr every note of res that is a warning (the self
// experiment's assembly paths slower than pure Go), so that it is seen
// when stdout goes to a file.
func warn(stderr io.Writer, res *experiments.Results) {
	for _, n := range res.Notes {
		if strings.HasPrefix(n, "WARNING") {
			fmt.Fprintf(stderr, "experiment: %s %s: %s\n", res.Experiment, res.Variant, n)
		}
	}
}

// runSpec is one catalog.Run call.
type runSpec struct {
	exp, variant string
	params       experiments.Params
	opts         experiments.Options
}

// plan turns the flags into the runs to do, checking every flag and
// combination before any work starts.
func plan(ctx context.Context, o options, set map[string]bool) ([]runSpec, error) {
	var p experiments.Params
	var err error
	if set["n"] {
		if p.N, err = units.ParseCount(o.n); err != nil || p.N == 0 {
			return nil, usagef("-n: %s", why(err, "want a count of at least 1"))
		}
	}
	if set["p"] {
		if p.P, err = units.ParseProbability(o.p); err != nil {
			return nil, usagef("-p: %v", err)
		}
	}
	if set["filters"] && o.filters < 1 {
		return nil, usagef("-filters: %d, want at least 1", o.filters)
	}
	p.Filters = o.filters
	if set["queries"] {
		if p.Queries, err = units.ParseCount(o.queries); err != nil || p.Queries == 0 {
			return nil, usagef("-queries: %s", why(err, "want a count of at least 1"))
		}
	}
	if set["conf"] {
		c, err := strconv.ParseFloat(o.conf, 64)
		if err != nil || !(c > 0 && c < 1) {
			return nil, usagef("-conf: %q, want a level between 0 and 1, as 0.95", o.conf)
		}
		p.Conf = c
	}
	if set["r"] {
		if p.R, err = parseFloats(o.r); err != nil {
			return nil, usagef("-r: %v", err)
		}
	}
	if set["s"] {
		if p.S, err = parseFloats(o.s); err != nil {
			return nil, usagef("-s: %v", err)
		}
	}
	if set["candidates"] {
		for _, c := range strings.Split(o.candidates, ",") {
			t, err := units.ParseCount(strings.TrimSpace(c))
			if err != nil || t == 0 {
				return nil, usagef("-candidates: %s", why(err, "want counts of at least 1, as 1,10,100"))
			}
			p.Candidates = append(p.Candidates, t)
		}
	}
	if set["m"] {
		if p.M, err = units.ParseBits(o.m); err != nil || p.M == 0 {
			return nil, usagef("-m: %s", why(err, "want at least 8 bits"))
		}
	}
	if set["k"] {
		if o.k < 1 || o.k > 64 {
			return nil, usagef("-k: %d, want 1 <= k <= 64", o.k)
		}
		p.K = o.k
	}
	if set["m"] && set["p"] {
		return nil, usagef("-p: -m sets the bits, so no rate sizes the filter; give -n and -p, or -m (and -k)")
	}
	if set["hash"] {
		if !slices.Contains(catalog.HashNames, o.hash) {
			return nil, usagef("-hash: unknown hash %q, want %s", o.hash, strings.Join(catalog.HashNames, ", "))
		}
		p.Hash = o.hash
	}
	if set["derivation"] {
		if d := o.derivation; !slices.Contains(catalog.DerivationNames, d) && d != "enhanced-double" {
			return nil, usagef("-derivation: unknown derivation %q, want %s", d, strings.Join(catalog.DerivationNames, ", "))
		}
		p.Derivation = o.derivation
	}
	p.Quick = o.quick
	if set["keys"] {
		if _, isFile := strings.CutPrefix(o.keys, "file:"); !isFile && !slices.Contains(experiments.KeySourceNames, o.keys) {
			return nil, usagef("-keys: unknown key source %q, want %s, or file:PATH", o.keys, strings.Join(experiments.KeySourceNames, ", "))
		}
		if o.keys != "uniform" {
			p.KeySource = o.keys
		}
	}
	if o.workers < 0 {
		return nil, usagef("-workers: %d, want 0 (all cores) or more", o.workers)
	}
	opts := experiments.Options{Seed: o.seed, Workers: o.workers}
	if set["shard"] {
		sh, err := experiments.ParseShard(o.shard)
		if err != nil {
			return nil, usagef("-shard: %q, want i/N with 0 <= i < N, as 0/4", o.shard)
		}
		opts.Shard = sh
	}
	if o.variant != "all" && !slices.Contains(catalog.Variants, o.variant) {
		return nil, usagef("-variant: unknown variant %q, want %s or all", o.variant, strings.Join(catalog.Variants, ", "))
	}
	var exps []catalog.Experiment
	if o.exp == "all" {
		exps = catalog.List()
	} else {
		e, ok := catalog.Lookup(o.exp)
		if !ok {
			// The list outgrew one line; the hint names -list, which shows them.
			return nil, usagef("-exp: unknown experiment %q, want one of the %d that -list shows, or all", o.exp, len(catalog.Names()))
		}
		exps = []catalog.Experiment{e}
	}
	var runs []runSpec
	for _, e := range exps {
		var vs []string
		switch {
		case o.variant == "all" && e.PerVariant:
			vs = e.Variants
		case o.variant == "all":
			vs = []string{"all"}
		case slices.Contains(e.Variants, o.variant):
			vs = []string{o.variant}
		case o.exp == "all":
			continue // -exp all -variant v: the experiments that measure v
		default:
			return nil, usagef("-variant: experiment %s measures %s, not %s", e.Name, strings.Join(e.Variants, ", "), o.variant)
		}
		if opts.Shard.Count > 1 && !e.Shardable {
			if o.exp == "all" {
				return nil, usagef("-shard: experiment %s cannot be sharded (it measures time or memory on one machine); shard one experiment at a time", e.Name)
			}
			return nil, usagef("-shard: experiment %s cannot be sharded: it measures time or memory on one machine", e.Name)
		}
		for _, v := range vs {
			q := p
			for _, name := range []string{"n", "p", "filters", "queries", "r", "s", "candidates", "conf", "quick", "keys", "m", "k", "hash", "derivation"} {
				if !set[name] || uses(e, name, v) {
					continue
				}
				if o.exp != "all" {
					if v == "all" || len(vs) > 1 {
						var some []string
						for _, w := range e.Variants {
							if uses(e, name, w) {
								some = append(some, w)
							}
						}
						if len(some) > 0 {
							return nil, usagef("-%s: experiment %s uses it only with -variant %s", name, e.Name, strings.Join(some, ", "))
						}
						return nil, usagef("-%s: experiment %s does not use it", name, e.Name)
					}
					return nil, usagef("-%s: experiment %s does not use it for -variant %s", name, e.Name, v)
				}
				q = dropParam(q, name) // -exp all: the experiments that use it get it
			}
			runs = append(runs, runSpec{exp: e.Name, variant: v, params: q, opts: opts})
		}
	}
	// Check every run's parameters before measuring anything.
	for _, rn := range runs {
		if err := catalog.Check(ctx, rn.exp, rn.variant, rn.params, rn.opts); err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("interrupted while checking %s %s, before anything was measured or written", rn.exp, rn.variant)
			}
			var pe *experiments.ParamError
			if errors.As(err, &pe) {
				return nil, usagef("-%s: %s (experiment %s %s)", pe.Param, pe.Msg, rn.exp, rn.variant)
			}
			return nil, err
		}
	}
	return runs, nil
}

// dropParam returns p with the parameter of the flag name unset, so that
// the experiment's default applies.
func dropParam(p experiments.Params, name string) experiments.Params {
	switch name {
	case "n":
		p.N = 0
	case "p":
		p.P = 0
	case "filters":
		p.Filters = 0
	case "queries":
		p.Queries = 0
	case "r":
		p.R = nil
	case "s":
		p.S = nil
	case "candidates":
		p.Candidates = nil
	case "conf":
		p.Conf = 0
	case "quick":
		p.Quick = false
	case "keys":
		p.KeySource = ""
	case "m":
		p.M = 0
	case "k":
		p.K = 0
	case "hash":
		p.Hash = ""
	case "derivation":
		p.Derivation = ""
	}
	return p
}

// uses reports whether experiment e run on variant v uses the flag name:
// -conf sets the level of the intervals, which the timed measurements of
// memory and speed do not have; -quick shortens only those two,
// adversary and boost.
func uses(e catalog.Experiment, name, v string) bool {
	timing := e.Name == "memory" || e.Name == "speed"
	switch name {
	case "conf":
		return !timing
	case "quick":
		return timing || e.Name == "adversary" || e.Name == "boost"
	}
	return e.Uses(name, v)
}

// hint follows every command-line error, in place of the usage text.
const hint = "run 'experiment -h' for the flags, 'experiment -list' for the experiments"

// plain removes from a message the package prefixes and sentinel words
// of the errors it wraps ("analysis: invalid parameters: "): the command's
// own prefix and the flag come first, once.
func plain(msg string) string {
	for _, w := range []string{"analysis: ", "stats: ", "units: ", "variants: ", "experiments: ", "plots: ", "invalid parameters: "} {
		msg = strings.ReplaceAll(msg, w, "")
	}
	return msg
}

// flagError rewords the flag package's errors to begin with the flag, as
// the others do.
func flagError(err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return fmt.Errorf("%s: no such flag", name)
	}
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		// invalid value "x" for flag -seed: parse error
		if val, after, ok := strings.Cut(rest, " for flag "); ok {
			name, why, _ := strings.Cut(after, ": ")
			return fmt.Errorf("%s: %s is not valid (%s)", name, val, why)
		}
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return fmt.Errorf("%s: needs a value", name)
	}
	return err
}

func why(err error, fallback string) string {
	if err != nil {
		return err.Error()
	}
	return fallback
}

func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		out = append(out, v)
	}
	return out, nil
}

var allFormats = []string{"csv", "json", "png", "svg"}

func parseFormats(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if !slices.Contains(allFormats, f) {
			return nil, usagef("-format: unknown format %q, want a comma-separated list of %s", f, strings.Join(allFormats, ", "))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// prepareOut creates the output directory and checks that files can be
// created in it, before any measuring.
func prepareOut(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".experiment-probe-*")
	if err != nil {
		return fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// output is one file to write.
type output struct {
	path  string
	write func(io.Writer) error
}

// writeFiles renders every output in memory, then writes each to a
// temporary file in its directory and renames it into place, so that an
// error or an interrupt leaves only complete files.
func writeFiles(outs []output) error {
	data := make([][]byte, len(outs))
	for i, o := range outs {
		var b bytes.Buffer
		if err := o.write(&b); err != nil {
			return fmt.Errorf("%s: %w", o.path, err)
		}
		data[i] = b.Bytes()
	}
	for i, o := range outs {
		if err := writeAtomic(o.path, data[i]); err != nil {
			return err
		}
	}
	return nil
}

func writeAtomic(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// report writes the files of res, then prints head (if not empty), its
// table and notes: the files come first, so that a reader who stops
// reading the table (a pipe into head) does not lose the measurements.
func report(stdout io.Writer, head string, res *experiments.Results, dir string, formats []string) error {
	base := filepath.Join(dir, res.Experiment+"-"+res.Variant+fileSuffix(res.Params))
	var outs []output
	for _, f := range formats {
		switch f {
		case "csv":
			outs = append(outs, output{base + ".csv", func(w io.Writer) error { return experiments.WriteCSV(w, res) }})
		case "json":
			outs = append(outs, output{base + ".json", func(w io.Writer) error { return experiments.WriteJSON(w, res) }})
		case "png", "svg":
			outs = append(outs, output{base + "." + f, func(w io.Writer) error {
				fig, err := catalog.Figure(res)
				if err != nil {
					return err
				}
				return fig.Render(w, f)
			}})
		}
	}
	if err := writeFiles(outs); err != nil {
		return err
	}
	if head != "" {
		fmt.Fprintln(stdout, head)
	}
	printTable(stdout, res)
	for _, n := range res.Notes {
		fmt.Fprintln(stdout, "note:", n)
	}
	var paths []string
	for _, o := range outs {
		paths = append(paths, o.path)
	}
	fmt.Fprintf(stdout, "wrote %s\n", strings.Join(paths, ", "))
	return nil
}

// merge reads shard files, merges them and reports the merged results.
func merge(_ context.Context, o options, formats []string, stdout, _ io.Writer) error {
	var paths []string
	for _, pat := range strings.Split(o.merge, ",") {
		pat = strings.TrimSpace(pat)
		if strings.ContainsAny(pat, "*?[") {
			m, err := filepath.Glob(pat)
			if err != nil {
				return usagef("-merge: bad pattern %q: %v", pat, err)
			}
			if len(m) == 0 {
				return usagef("-merge: no file matches %q", pat)
			}
			paths = append(paths, m...)
		} else if pat != "" {
			paths = append(paths, pat)
		}
	}
	if len(paths) == 0 {
		return usagef("-merge: no shard files given")
	}
	var shards []*experiments.Results
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return usagef("-merge: %v", err)
		}
		r, err := experiments.ReadJSON(f)
		f.Close()
		if err != nil {
			return usagef("-merge: %s: %v", p, err)
		}
		shards = append(shards, r)
	}
	if err := missingShards(paths, shards); err != nil {
		return err
	}
	res, err := catalog.Merge(shards)
	if err != nil {
		return usagef("-merge: %v", err)
	}
	if err := prepareOut(o.out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s %s: merged %d shards (seed %d, %s)\n", res.Experiment, res.Variant, len(shards), res.Seed, res.GoVersion)
	return report(stdout, "", res, o.out, formats)
}

// list prints the experiments.
func list(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "experiment\tvariants\twhat it measures")
	for _, e := range catalog.List() {
		vs := strings.Join(e.Variants, ",")
		if e.PerVariant {
			vs += " (one per run)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Name, vs, e.Summary)
	}
	return tw.Flush()
}

// missingShards names a shard of the first file's run that two files
// given (paths) hold, then the shards that no file holds, with the file
// name -shard gives them.
func missingShards(paths []string, shards []*experiments.Results) error {
	first := shards[0]
	if first.Shard == nil || first.Shard.Count < 1 {
		return nil // catalog.Merge says what is wrong
	}
	have := map[int]bool{}
	from := map[int]string{}
	for j, r := range shards {
		if r.Shard != nil && r.Shard.Count == first.Shard.Count {
			i := r.Shard.Index
			if have[i] {
				what := fmt.Sprintf("%s and %s", from[i], paths[j])
				if from[i] == paths[j] {
					what = fmt.Sprintf("%s, given twice", paths[j])
				}
				return usagef("-merge: shard %d of %d appears twice (%s); give each shard's file once", i, first.Shard.Count, what)
			}
			have[i], from[i] = true, paths[j]
		}
	}
	var missing []string
	for i := range first.Shard.Count {
		if !have[i] {
			missing = append(missing, fmt.Sprintf("%s-%s.shard-%d-of-%d.json", first.Experiment, first.Variant, i, first.Shard.Count))
		}
	}
	switch {
	case len(missing) == 0:
		return nil
	case len(missing) == 1:
		return usagef("-merge: shard file %s is missing (the run has %d shards)", missing[0], first.Shard.Count)
	case len(missing) <= 3:
		return usagef("-merge: shard files %s are missing (the run has %d shards)", strings.Join(missing, ", "), first.Shard.Count)
	}
	return usagef("-merge: %d of the %d shard files are missing, %s first", len(missing), first.Shard.Count, missing[0])
}

// fileSuffix returns what the output files of a run with parameters p
// add to their names: keysSuffix of the key source, then "-m-M", "-k-K",
// "-hash-H" and "-derivation-D" for the geometry and hashing given, so
// that they do not overwrite the files of the default run.
func fileSuffix(p experiments.Params) string {
	s := keysSuffix(p.KeySource)
	if p.M != 0 {
		s += fmt.Sprintf("-m-%d", p.M)
	}
	if p.K != 0 {
		s += fmt.Sprintf("-k-%d", p.K)
	}
	if p.Hash != "" {
		s += "-hash-" + p.Hash
	}
	if p.Derivation != "" {
		s += "-derivation-" + p.Derivation
	}
	return s
}

// keysSuffix returns what the output files of a run with key source src
// add to their names, so that runs on different keys do not overwrite
// each other: "" for the uniform keys, "-keys-url" for a named source,
// "-keys-file-NAME" for file:PATH, NAME the file's base name without its
// extension, other characters than letters, digits, '-' and '_' dropped.
func keysSuffix(src string) string {
	if src == "" || src == "uniform" {
		return ""
	}
	if path, ok := strings.CutPrefix(src, "file:"); ok {
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		name = strings.Map(func(r rune) rune {
			if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				return r
			}
			return -1
		}, name)
		return "-keys-file-" + name
	}
	return "-keys-" + src
}
