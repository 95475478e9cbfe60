package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/internal/units"
	"github.com/bloomlab/bloomlab/variants"
)

// The values of build's -variant.
var buildVariants = []string{"standard", "partitioned", "blocked", "split-block", "counting", "scalable"}

const buildUsage = `usage: bloom build -variant V [-n N -p P | -m M -k K] [flags] [-keys FILE|-] -out FILTER

Builds a filter, adds the keys (one a line, from FILE or standard input) and
writes it to FILTER atomically (mode 0600 with -hash siphash, else 0644).
The keys are streamed: memory is the filter and a bounded buffer.

Sizing, as bloomcalc's flags: -n and -p (capacity and target rate: the
classic sizing of variants.StandardGeometry, BlockedGeometry or
SplitBlockGeometry), or -m and -k (the geometry itself; -n then records the
capacity). A scalable filter sizes its own stages: give -p (its target),
and optionally -r, -s, -n0 and -block.

  bloom build -variant standard -n 1M -p 1% -keys keys.txt -out f.bloom
  bloom build -variant blocked -block 256 -m 8MiB -k 6 -out f.bloom < keys.txt
  bloom build -variant scalable -p 1e-4 -hash siphash -keys keys.txt -out s.bloom

Flags:
`

// buildOptions are build's flags.
type buildOptions struct {
	variant, n, p, m, r, s, n0 string
	k, block, width            int
	hash, derivation, keys     string
	out                        string
	seed                       uint64
}

// runBuild is "bloom build": it checks every flag before it reads a key,
// builds the empty filter, streams the keys into it and saves it.
func runBuild(ctx context.Context, args []string, stdout, _ io.Writer) error {
	var o buildOptions
	fs := newFlagSet("build")
	fs.StringVar(&o.variant, "variant", "", "variant: "+strings.Join(buildVariants, ", ")+" (required)")
	fs.StringVar(&o.n, "n", "", "capacity: items the filter is sized for, as 1M, 2.5k, 1e6")
	fs.StringVar(&o.p, "p", "", "target false-positive rate, as 0.01, 1e-4, 1/100, '1 in 100', 1%")
	fs.StringVar(&o.m, "m", "", "bits (or counters): 1000, 1Mb (10^6 bits), 1Mib (2^20 bits), 1MB, 1MiB (bytes)")
	fs.IntVar(&o.k, "k", 0, "hashes: bits (or counters) each key sets")
	fs.IntVar(&o.block, "block", variants.DefaultBlockBits, "block size in bits for blocked filters and blocked scalable stages: a power of two from 64 to 4096")
	fs.IntVar(&o.width, "width", variants.DefaultCounterWidth, "counter width in bits for -variant counting: 2, 4, 8 or 16")
	fs.StringVar(&o.r, "r", "", "scalable: tightening ratio, 0 < r < 1 (default 0.9)")
	fs.StringVar(&o.s, "s", "", "scalable: growth factor of stage capacity, s >= 1 (default 2)")
	fs.StringVar(&o.n0, "n0", "", "scalable: capacity of the first stage (default 1000)")
	fs.StringVar(&o.hash, "hash", "xxh3", "hash of keys: xxh3, metro, siphash (keyed: a fresh secret key, stored in the file), xxh64 or xxh3-64 (64-bit, split-block only)")
	fs.StringVar(&o.derivation, "derivation", "enhanced", "how the k indexes come from the digest: enhanced, double, triple, independent (standard, partitioned, counting, scalable)")
	fs.Uint64Var(&o.seed, "seed", 0, "hash seed (not with siphash)")
	fs.StringVar(&o.keys, "keys", "-", "file of keys, one a line, or - for standard input")
	fs.StringVar(&o.out, "out", "", "the filter file to write (required)")
	rest, err := parseArgs(fs, args, buildUsage, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q (build takes flags only; keys come from -keys)", rest[0])
	}
	if o.out == "" {
		return usagef("-out: required: the filter file to write")
	}
	f, err := newFilter(o, visited(fs))
	if err != nil {
		return err
	}
	r, name, closeKeys, err := openKeys(o.keys)
	if err != nil {
		return err
	}
	defer closeKeys()
	n, err := addKeys(ctx, f, r, name)
	if err != nil {
		return noFile(ctx, err)
	}
	if err := growthError(f); err != nil {
		return err
	}
	if err := writeFilter(ctx, o.out, f); err != nil {
		return err
	}
	return summary(stdout, o.out, f, "read", n)
}

// newFilter checks build's flags and returns the empty filter they
// describe. Every error is a usage error naming a flag.
func newFilter(o buildOptions, set map[string]bool) (variants.Filter, error) {
	v := o.variant
	if v == "" {
		return nil, usagef("-variant: required: want %s", strings.Join(buildVariants, ", "))
	}
	known := false
	for _, name := range buildVariants {
		known = known || v == name
	}
	if !known {
		return nil, usagef("-variant: unknown variant %q, want %s", v, strings.Join(buildVariants, ", "))
	}
	if set["block"] && v != "blocked" && v != "scalable" {
		return nil, usagef("-block: only -variant blocked and scalable take a block size, not -variant %s", v)
	}
	if set["block"] && (o.block < variants.MinBlockBits || o.block > variants.MaxBlockBits || o.block&(o.block-1) != 0) {
		return nil, usagef("-block: %d bits, want a power of two from %d to %d", o.block, variants.MinBlockBits, variants.MaxBlockBits)
	}
	if set["width"] && v != "counting" {
		return nil, usagef("-width: only -variant counting takes a counter width, not -variant %s", v)
	}
	for _, name := range []string{"r", "s", "n0"} {
		if set[name] && v != "scalable" {
			return nil, usagef("-%s: only -variant scalable takes -%s, not -variant %s", name, name, v)
		}
	}
	h, err := hashing(o, set, v)
	if err != nil {
		return nil, err
	}
	if v == "scalable" {
		return newScalable(o, set, h)
	}
	g, err := geometry(o, set, v)
	if err != nil {
		return nil, err
	}
	var f variants.Filter
	switch v {
	case "standard":
		f, err = variants.NewStandard(g, h)
	case "partitioned":
		f, err = variants.NewPartitioned(g, h)
	case "blocked":
		f, err = variants.NewBlocked(variants.BlockedParams{Geometry: g, BlockBits: o.block, Hashing: h})
	case "split-block":
		f, err = variants.NewSplitBlock(g, h)
	case "counting":
		f, err = variants.NewCounting(variants.CountingParams{Geometry: g, Width: o.width, Hashing: h})
	}
	if err != nil {
		return nil, usagef("%s: %v", sizingFlags(set), err)
	}
	return f, nil
}

// sizingFlags names the sizing flags given, for messages: "-n, -p".
func sizingFlags(set map[string]bool) string {
	var names []string
	for _, name := range []string{"n", "p", "m", "k", "block", "width", "hash", "derivation", "seed"} {
		if set[name] {
			names = append(names, "-"+name)
		}
	}
	if len(names) == 0 {
		return "-variant"
	}
	return strings.Join(names, ", ")
}

// geometry returns the geometry of a fixed-size filter of variant v from
// -n and -p (sized by the library's classic rule for the variant) or -m
// and -k (as given, -n recorded as the capacity).
func geometry(o buildOptions, set map[string]bool, v string) (variants.Geometry, error) {
	var g variants.Geometry
	var n uint64
	var p float64
	var err error
	if set["n"] {
		if n, err = units.ParseCount(o.n); err != nil {
			return g, usagef("-n: %v", err)
		}
		if n == 0 {
			return g, usagef("-n: 0 items, want a capacity of at least 1")
		}
	}
	if set["p"] {
		if p, err = units.ParseProbability(o.p); err != nil {
			return g, usagef("-p: %v", err)
		}
	}
	switch {
	case set["m"] || set["k"]:
		if set["p"] {
			return g, usagef("-p: give -n and -p, or -m and -k, not both (bloomcalc -n N -m M -p P checks a geometry against a rate)")
		}
		if !set["m"] {
			return g, usagef("-k: give -m with it (or -n and -p instead)")
		}
		m, err := units.ParseBits(o.m)
		if err != nil {
			return g, usagef("-m: %v", err)
		}
		if m == 0 {
			return g, usagef("-m: 0 bits, want a size of at least 1 bit")
		}
		k := o.k
		if v == "split-block" && !set["k"] {
			k = 8
		}
		if !set["k"] && v != "split-block" {
			return g, usagef("-m: give -k with it (or -n and -p instead)")
		}
		if k < 1 || k > analysis.MaxHashes {
			return g, usagef("-k: %d hashes, want 1 to %d", k, analysis.MaxHashes)
		}
		if v == "split-block" && k != 8 {
			return g, usagef("-k: %d, but a split-block filter always sets 8 bits (one in each word of a block)", k)
		}
		return variants.Geometry{Bits: m, Hashes: k, Capacity: n}, nil
	case set["n"] && set["p"]:
		switch v {
		case "blocked":
			g, err = variants.BlockedGeometry(n, p, o.block)
		case "split-block":
			g, err = variants.SplitBlockGeometry(n, p)
		default: // standard, partitioned, counting: the classic sizing
			g, err = variants.StandardGeometry(n, p)
		}
		if err != nil {
			return g, usagef("-n, -p: %v", err)
		}
		return g, nil
	case set["n"]:
		return g, usagef("-n: give -p with it (or -m and -k)")
	case set["p"]:
		return g, usagef("-p: give -n with it (the capacity it is sized for)")
	}
	return g, usagef("-variant %s: give -n and -p, or -m and -k", v)
}

// newScalable returns an empty scalable filter from -p, -r, -s, -n0 and
// -block.
func newScalable(o buildOptions, set map[string]bool, h variants.Hashing) (variants.Filter, error) {
	for _, name := range []string{"n", "m", "k"} {
		if set[name] {
			return nil, usagef("-%s: a scalable filter sizes its own stages; give -p (its target rate) and optionally -r, -s, -n0 and -block", name)
		}
	}
	if !set["p"] {
		return nil, usagef("-p: required for -variant scalable: its target rate")
	}
	var sp variants.ScalableParams
	var err error
	if sp.P, err = units.ParseProbability(o.p); err != nil {
		return nil, usagef("-p: %v", err)
	}
	if set["r"] {
		if sp.R, err = strconv.ParseFloat(o.r, 64); err != nil || !(sp.R > 0 && sp.R < 1) {
			return nil, usagef("-r: %q, want a tightening ratio 0 < r < 1, as 0.9", o.r)
		}
	}
	if set["s"] {
		if sp.S, err = strconv.ParseFloat(o.s, 64); err != nil || !(sp.S >= 1) || sp.S > 1e6 {
			return nil, usagef("-s: %q, want a growth factor s >= 1, as 2", o.s)
		}
	}
	if set["n0"] {
		if sp.N0, err = units.ParseCount(o.n0); err != nil {
			return nil, usagef("-n0: %v", err)
		}
		if sp.N0 == 0 {
			return nil, usagef("-n0: 0 items, want a first-stage capacity of at least 1")
		}
	}
	if set["block"] {
		sp.BlockBits = o.block
	}
	sp.Hashing = h
	f, err := variants.NewScalable(sp)
	if err != nil {
		return nil, usagef("%s: %v", strings.Join(append([]string{"-p"}, scalableFlags(set)...), ", "), err)
	}
	return f, nil
}

func scalableFlags(set map[string]bool) []string {
	var names []string
	for _, name := range []string{"r", "s", "n0", "block", "derivation"} {
		if set[name] {
			names = append(names, "-"+name)
		}
	}
	return names
}

// hashing returns the Hashing of -hash, -derivation and -seed, with a
// fresh secret key for siphash.
func hashing(o buildOptions, set map[string]bool, v string) (variants.Hashing, error) {
	var h variants.Hashing
	kind, ok := parseHashKind(o.hash)
	if !ok || kind == variants.Murmur64A {
		return h, usagef("-hash: unknown hash %q, want xxh3, metro, siphash, or xxh64 or xxh3-64 (split-block only)", o.hash)
	}
	switch {
	case kind == variants.XXH64 && v != "split-block":
		return h, usagef("-hash: xxh64 is a 64-bit hash, which only -variant split-block takes (the Parquet filter's hash)")
	case kind == variants.XXH3_64 && v != "split-block":
		return h, usagef("-hash: xxh3-64 is a 64-bit hash, which only -variant split-block takes (the cheaper 64-bit hash beside Parquet's xxh64)")
	}
	d, ok := parseDerivation(o.derivation)
	if !ok {
		return h, usagef("-derivation: unknown derivation %q, want enhanced, double, triple or independent", o.derivation)
	}
	if d != variants.EnhancedDouble && (v == "blocked" || v == "split-block") {
		return h, usagef("-derivation: -variant %s derives its positions itself and takes only the default, enhanced", v)
	}
	h.Kind, h.Derivation, h.Seed = kind, d, o.seed
	if kind == variants.SipHash {
		if set["seed"] {
			return h, usagef("-seed: siphash takes no seed: its secret key (drawn fresh and stored in the filter) takes the seed's place")
		}
		h.Key = variants.NewKey()
	}
	return h, nil
}

// parseHashKind returns the kind whose name (HashKind.String) is s.
func parseHashKind(s string) (variants.HashKind, bool) {
	for _, k := range []variants.HashKind{variants.XXH3, variants.Metro, variants.XXH64, variants.XXH3_64, variants.SipHash, variants.Murmur64A} {
		if k.String() == strings.ToLower(s) {
			return k, true
		}
	}
	return 0, false
}

// parseDerivation returns the derivation whose name (Derivation.String)
// is s; "enhanced" is accepted for "enhanced-double".
func parseDerivation(s string) (variants.Derivation, bool) {
	s = strings.ToLower(s)
	if s == "enhanced" {
		return variants.EnhancedDouble, true
	}
	for _, d := range []variants.Derivation{variants.EnhancedDouble, variants.Double, variants.Triple, variants.Independent} {
		if d.String() == s {
			return d, true
		}
	}
	return 0, false
}

// addKeys adds every key of r to f, in batches: filters with batched adds
// (variants.Batcher: blocked and split-block) take each batch at once, so
// that the cache misses of its keys overlap. It returns the keys read.
func addKeys(ctx context.Context, f variants.Filter, r io.Reader, name string) (uint64, error) {
	b, batched := f.(variants.Batcher)
	return eachBatch(ctx, r, name, func(keys [][]byte) error {
		if batched {
			b.AddBatch(keys)
			return nil
		}
		for _, k := range keys {
			f.Add(k)
		}
		return nil
	})
}

const addUsage = `usage: bloom add FILTER [-keys FILE|-]

Adds the keys (one a line, from FILE or standard input) to the saved filter
and rewrites it atomically, with the permissions it had (never wider than
0600 if it is keyed).

Flags:
`

// runAdd is "bloom add": it loads the filter, streams the keys into it
// and saves it in place, atomically. A growing filter that could not add a
// stage is an error, and the file is left as it was.
func runAdd(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("add")
	keys := fs.String("keys", "-", "file of keys, one a line, or - for standard input")
	rest, err := parseArgs(fs, args, addUsage, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("want one FILTER argument, got %d", len(rest))
	}
	path := rest[0]
	r, name, closeKeys, err := openKeys(*keys)
	if err != nil {
		return err
	}
	defer closeKeys()
	f, err := loadFilter(path)
	if err != nil {
		return err
	}
	n, err := addKeys(ctx, f, r, name)
	if err != nil {
		return noFile(ctx, err)
	}
	if err := growthError(f); err != nil {
		return err
	}
	// Keep the file's permissions, never wider than 0600 for a keyed
	// filter.
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	mode := fi.Mode().Perm()
	if keyed(f) {
		mode &= 0o600
	}
	if err := writeFilterMode(ctx, path, f, mode); err != nil {
		return err
	}
	return summary(stdout, path, f, "added", n)
}

// growthError is the error a growing filter reports when it could not add
// a stage (its rate is then above its target), or nil.
func growthError(f variants.Filter) error {
	if e, ok := f.(interface{ Err() error }); ok && e.Err() != nil {
		return fmt.Errorf("the filter could not grow, so its rate is above its target: %w", e.Err())
	}
	return nil
}

// summary prints the line that build and add end with: what was written
// and how full it is.
func summary(w io.Writer, path string, f variants.Filter, verb string, keys uint64) error {
	st := f.Stats()
	_, err := fmt.Fprintf(w, "%s: %s filter, %s keys %s, %d items, %d bits (%s), fill %.4g, estimated rate %.4g\n",
		path, st.Variant, strconv.FormatUint(keys, 10), verb, st.Items, st.Bits, units.FormatBytes(st.Bits), st.FillRatio, st.EstimatedFPR)
	return err
}

// noFile adds to an error of reading keys that no file was written, when
// the read was interrupted.
func noFile(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w; no file written", err)
	}
	return err
}
