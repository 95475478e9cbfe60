// Command bloomcalc sizes a Bloom filter. Given enough of the capacity n,
// the false-positive rate p, the size m and the number of hash functions k,
// it computes the rest, with the conventions of the common online
// calculator (see analysis.Solve), and prints the geometry, its memory, the
// bits per key against the information-theoretic minimum, and the
// false-positive rate at that geometry by the classic and the exact
// formula. Given -n and -p only, it prints the exact sizing too: the
// fewest bits whose exact rate at the best integer k is at most p
// (analysis.ExactStandardSize), and whether and by how much the classic geometry's
// exact rate misses p. The exact sizing stops at a work limit (about
// 0.6 s at p >= 1e-20, where it serves every n, and 0.06 s below, where
// it fails for example at n = 1 and p = 1e-100); past it bloomcalc prints the classic sizing with a note
// in its place (exact_note in the JSON). An interrupt (Ctrl-C) stops the
// computation; bloomcalc then exits with status 130.
//
// For a table of m bits, m a power of two up to 2^16 (within a work bound),
// it also prints the rate of plain double hashing modulo m, as RedisBloom's
// power-of-two tables probe (analysis.DoubleHashing), and its excess over
// the exact rate. For every standard filter with k up to
// analysis.MaxDerivationHashes it prints the rates of bloomlab's own
// derivations (plain, enhanced and triple double hashing reduced by
// multiply-shift, analysis.DerivationFPR) and their excess over it.
//
// Given -n, -m and -p (and -k or not), it checks: the geometry is n, m and
// k (the best k for them if not given), and p is the target it is judged
// against. It prints whether the geometry's exact rate meets p and by how
// much ("meets it: 0.82% (exact rate 0.008194, 0.8194 x the target)" for
// -n 1M -m 10Mb -p 1%), and "check" in the JSON.
//
// With -variant blocked or -variant split-block it sizes a blocked filter
// (Putze, Sanders and Singler 2007: each item sets k bits in one block of
// -block bits, 512 by default) or the split-block filter of Impala, Kudu
// and Parquet (256-bit blocks, k = 8) instead, by the exact theory of
// analysis.BlockedFPR and analysis.SplitBlockFPR: from n and p it finds the
// fewest whole blocks (and, for blocked, the best k; see
// analysis.BlockedSize and analysis.SplitBlockSize), and from n and m (and
// k, for blocked) the rate, choosing the k that minimises it if -k is not
// given. It prints the standard filter's size for the same n and p beside
// it, the penalty of the blocks in percent, and, for blocked, the
// approximation of Putze et al. beside the exact rate. Other combinations
// of flags are refused for these variants, and so is m below one bit per
// item.
//
// Usage:
//
//	bloomcalc [-variant v] [-block bits] [-width bits] [-r ratio] [-s growth]
//		[-n0 items] [-mem size] [-word bits] [-multi] [-stride bytes]
//		[-n items] [-p rate] [-m bits] [-k hashes] [-json]
//
// For example
//
//	bloomcalc -n 10M -p 1e-4
//	bloomcalc -n 1e6 -m 1MiB
//	bloomcalc -m 64Kb -p '1 in 1000' -k 7
//	bloomcalc -variant blocked -n 1e6 -p 0.01
//	bloomcalc -variant blocked -block 64 -n 1e6 -m 2MiB
//	bloomcalc -variant split-block -n 1e6 -p 0.001
//
// With -variant partitioned or -variant counting it sizes those filters
// from the same combinations as a standard one (analysis.PartitionedFPR for
// k slices of ceil(m/k) bits; for counters of -width bits, the memory and
// the probability that a counter saturates, analysis.SaturationProbability,
// with the bound of Fan et al.); with -variant scalable, from the items held
// -n and the target -p, the stages of analysis.Scalable and the compound
// rate.
//
// With -variant multiblock it sizes Boost.Bloom's layouts
// (analysis.Multiblock): -word bits per word (64 by default), k bits in one
// word or, with -multi, one bit in each of k consecutive words, and blocks
// starting every -stride bytes (0, the default: side by side; fewer: they
// overlap). From n and p it finds the fewest bits, one block and whole
// strides, whose exact rate is at most p, with -k or the k that needs the
// fewest bits (the rule of variants.MultiblockGeometry); from n and m the
// rate of the largest such table within m bits, with -k or the k of the
// lowest rate. An impossible layout, or one whose rate analysis refuses to
// compute (an overlapping multiblock beyond its work bound) or bloomcalc
// bounds (k above 64 in a block layout, or an overlapping one whose rate
// would take more than about 0.1 s), is one line and status 2.
//
// With -variant age-partitioned it sizes a sliding-window
// filter (analysis.AgePartitionedSize): -n is the window, the most recent
// items that must test present, and -p the target for the worst rate of
// the generation cycle; it prints the slices, the generation, the bits and
// the rate through the cycle, and with -mem whether it fits in that memory.
//
// Every result ends with the memory limit for one filter on this machine
// (variants.MemoryLimit: half of the cgroup's or the machine's memory) and
// whether the filter, as its constructor counts its bytes, fits under it
// ("limit" in the JSON), and the largest filter the library allows of the
// variant; a scalable filter also says how many items it holds under it.
//
// With -http addr it serves the same calculator as a web page on addr (see
// serve), with figures, and each result also as JSON. The page updates as
// you type (its script fetches the page of the form's values; without
// JavaScript the form submits), every state is a link, parameters it does
// not know (utm_source) are ignored, and hur.st's links (?n=&p=&m=&k=,
// with p a rate or a whole N for 1 in N) work.
//
// In the JSON, bytes is the memory in bytes as the variant holds it (whole
// 64-bit words, whole blocks, every stage), and memory the same for people. The page gives a
// request 1 s of computing once it holds one of the page's slots (one per
// core), cancels it after that and answers 400; a request that finds no
// free slot within 2 s is answered 503 with Retry-After.
//
// Bad or missing flags, and a geometry that cannot hold its
// items usefully (under one bit per item, or a rate that rounds to 1),
// print a one-line message naming the flag and a hint to run -h, and exit
// with status 2; bloomcalc without flags prints the usage text.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/internal/units"
	"github.com/bloomlab/bloomlab/variants"
)

func main() {
	// The first interrupt cancels the computation (and stops the page's
	// server); a second one kills the process as usual.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	go func() {
		<-ctx.Done()
		stop()
	}()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			os.Exit(2) // run has printed the message and a hint (the usage, without flags)
		}
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, "bloomcalc: interrupted")
			os.Exit(130)
		}
		fmt.Fprintln(os.Stderr, "bloomcalc:", err)
		os.Exit(1)
	}
}

// usageError reports a problem with the command line. run prints it with
// a hint to -h before returning it; main exits with status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return plain(e.err.Error()) }

// plain removes from a message the package prefixes and sentinel words
// of the errors it wraps ("analysis: invalid parameters: "), so that the
// command's prefix and the flag come first, once.
func plain(msg string) string {
	for _, w := range []string{"analysis: ", "units: ", "variants: ", "invalid parameters: "} {
		msg = strings.ReplaceAll(msg, w, "")
	}
	return msg
}

// hint follows every command-line error, in place of the usage text.
const hint = "run 'bloomcalc -h' for the flags and examples"

// flagError rewords the flag package's errors to begin with the flag, as
// the others do.
func flagError(err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return fmt.Errorf("%s: no such flag", name)
	}
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
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
func (e *usageError) Unwrap() error { return e.err }

const usageText = `usage: bloomcalc [-variant v] [-block bits] [-width bits] [-r ratio] [-s growth]
                 [-n0 items] [-mem size] [-word bits] [-multi] [-stride bytes]
                 [-n items] [-p rate] [-m bits] [-k hashes] [-json]
       bloomcalc -http localhost:8080

Give two of -n, -p and -m (and optionally -k); bloomcalc computes the rest:
  -n and -p      the bits and the best number of hashes
  -n, -p, -k     the bits for that number of hashes
  -n and -m      the best number of hashes and the rate (or the rate for -k)
  -m and -p      the most items that fit (with the best k, or with -k)
  -n, -m, -p     check: does the geometry (with the best k, or -k) meet p?

Blocked and split-block filters (-variant) take fewer combinations:
  -n and -p      the fewest whole blocks (and for blocked the best k)
  -n and -m      the rate, for blocked with the best k (or with -k)
m must be a whole number of blocks and at least one bit per item. The
output adds the bits of a standard filter for the same n and p and the
penalty of the blocks; for blocked also the approximation of Putze et al.

Partitioned and counting filters take the combinations of a standard one,
check included.
A scalable filter takes -n (the items it holds) and -p (the target P), with
-r, -s, -n0, -block (blocked stages) and -mem (a budget) optional, and
prints its stages.
A multiblock filter (Boost.Bloom's layouts: -word, -multi, -stride) takes
-n and -p (the fewest bits, and the best k unless -k) or -n and -m (the
rate of the largest table within m bits).
An age-partitioned filter takes -n (the window: the most recent items that
must test present) and -p (the target for the worst rate), with -mem
optional, and prints its slices and generations.
Every output gives the memory limit for one filter on this machine
(half of its or its cgroup's memory, as the library sets it) and whether
the filter fits under it.

Flags:
  -variant v  standard (the default), partitioned (one slice per hash),
              counting (counters of -width bits), blocked (each item sets
              k bits in one block of -block bits), split-block (Impala, Kudu
              and Parquet: 256-bit blocks of eight 32-bit words, one bit in
              each, k = 8), multiblock (Boost.Bloom's layouts), scalable
              (Almeida et al.: stages that grow) or age-partitioned (Shtul
              et al.: a sliding window of slices that age)
  -block B    block size in bits for -variant blocked (and blocked stages of
              -variant scalable): a power of two from 64 to 4096 (default
              512, one 64-byte cache line)
  -width w    counter width for -variant counting: 2, 4, 8 or 16 (default 4)
  -r ratio    scalable: tightening ratio, 0 < r < 1 (default 0.9)
  -s growth   scalable: growth factor of stage capacity, s >= 1 (default 2)
  -n0 items   scalable: capacity of the first stage (default 1000)
  -mem size   scalable and age-partitioned: a memory budget (as -m: 64MiB,
              1GB): does the filter fit in it (and for scalable, how many
              items does it hold)
  -word w     multiblock: word bits, a power of two from 8 to 4096 (64)
  -multi      multiblock: one bit in each of k consecutive words (Boost's
              multiblock); without it k bits in one word (Boost's block)
  -stride S   multiblock: bytes between the starts of blocks, 1 up to the
              block's bytes (blocks overlap); 0, the default, for none
  -n items    capacity, with an optional suffix k, M, G, T: 10M, 2.5k, 1e6
  -p rate     false-positive rate: 0.01, 1e-4, 1/100, "1 in 100", 1%
  -m bits     size: bits (1000, 1Mb = 10^6 bits, 1Mib = 2^20 bits) or
              bytes (1MB = 10^6 bytes, 1MiB = 2^20 bytes)
  -k hashes   number of hash functions
  -json       print the result as JSON
  -http addr  serve the calculator page on addr (localhost if no host is
              given) instead; the page takes the same inputs as the flags
              and gives a request 1s of computing (503 if it is busy)

Given -n and -p only, the exact sizing is printed too; it stops at a work
limit of about 0.6s (it serves every n at p >= 1e-20), past which the
classic sizing is printed with a note.
`

// result is what bloomcalc prints.
type result struct {
	N uint64 `json:"n"`
	M uint64 `json:"m"`
	// Bytes is the memory of the m bits in whole 64-bit words, as
	// variants holds them, and Memory the same for people ("1.14 MiB").
	Bytes              uint64  `json:"bytes"`
	Memory             string  `json:"memory"`
	K                  int     `json:"k"`
	P                  float64 `json:"p"`
	BitsPerKey         float64 `json:"bits_per_key"`
	InformationMinimum float64 `json:"information_minimum_bits_per_key"`
	Overhead           float64 `json:"overhead"`
	ClassicFPR         float64 `json:"fpr_classic"`
	ExactFPR           float64 `json:"fpr_exact"`
	// Exact is the exact sizing, given n and p only (see exact.go).
	Exact *exactResult `json:"exact,omitempty"`
	// ExactNote says why there is no exact sizing where there would be one
	// (analysis.ExactStandardSize's work limit).
	ExactNote string `json:"exact_note,omitempty"`
	// Check is the verdict when n, m and p are all given.
	Check *checkResult `json:"check,omitempty"`
	// DoubleHashing is the rate of plain double hashing modulo m, where
	// analysis has it exactly (see doubleHashing).
	DoubleHashing *doubleHashingResult `json:"double_hashing,omitempty"`
	// Derivations are the rates of bloomlab's own index derivations at
	// the same m, n and k (see derivations).
	Derivations *derivationsResult `json:"derivations,omitempty"`
	// Limit is the verdict of the memory limit for one filter.
	Limit *limitResult `json:"limit"`
}

// doubleHashingResult is the rate of a filter of the same m, n and k whose
// k positions are (a + i b) mod m, plain double hashing reduced modulo a
// power of two, as RedisBloom's power-of-two tables probe
// (analysis.DoubleHashing), beside the exact rate of independent
// positions.
type doubleHashingResult struct {
	FPR float64 `json:"fpr"`
	// ExcessPercent is how many percent FPR is above the exact rate.
	ExcessPercent float64 `json:"excess_percent"`
}

// derivationsResult is the rate of a standard filter of the same m, n and
// k under each of bloomlab's own index derivations (variants.Double,
// EnhancedDouble and Triple, reduced by multiply-shift), as
// analysis.DerivationFPR models them, and how many percent each is above
// the exact rate of independent positions.
type derivationsResult struct {
	Double               float64 `json:"double_fpr"`
	DoubleExcess         float64 `json:"double_excess_percent"`
	EnhancedDouble       float64 `json:"enhanced_double_fpr"`
	EnhancedDoubleExcess float64 `json:"enhanced_double_excess_percent"`
	Triple               float64 `json:"triple_fpr"`
	TripleExcess         float64 `json:"triple_excess_percent"`
}

// derivations returns the rates of the three derivations at (m, n, k), or
// nil where analysis.NewDerivationRate refuses the geometry (k above
// analysis.MaxDerivationHashes or m above analysis.MaxDerivationBits; the
// excess there is of order k^2/m) or the exact rate is 0. Its work does
// not depend on m or n: at most about 50 ms a derivation, at k = 24.
func derivations(m, n uint64, k int, exact float64) *derivationsResult {
	if !(exact > 0) {
		return nil
	}
	var f [3]float64
	for i, d := range []string{analysis.DerivationDouble, analysis.DerivationEnhancedDouble, analysis.DerivationTriple} {
		x, err := analysis.DerivationFPR(m, n, k, d)
		if err != nil || !(x >= 0) {
			return nil
		}
		f[i] = x
	}
	ex := func(x float64) float64 { return 100 * (x/exact - 1) }
	return &derivationsResult{
		Double: f[0], DoubleExcess: ex(f[0]),
		EnhancedDouble: f[1], EnhancedDoubleExcess: ex(f[1]),
		Triple: f[2], TripleExcess: ex(f[2]),
	}
}

// maxDoubleHashingWork bounds m log2(m) k^3, the work of
// analysis.NewDoubleHashing, to about 0.1 s (m = 2^12 with k = 10, or
// 2^14 with k = 5), so that the page's requests stay within their limit;
// maxDoubleHashingK bounds its memory, 2^k floats for each of up to
// log2(m) classes of steps: 512 KiB each at k = 16 (at k = 24 it would be
// 128 MiB each).
const (
	maxDoubleHashingWork = 5e7
	maxDoubleHashingK    = 16
)

// doubleHashing returns the rate of plain double hashing modulo m at n
// items for m a power of two up to analysis.MaxDoubleHashingBits within
// maxDoubleHashingWork, or nil: analysis has no theory for the other
// tables, nor for bloomlab's own derivations (multiply-shift reduction,
// enhanced and triple double hashing), whose cost only the hashing
// experiment measures.
func doubleHashing(m, n uint64, k int, exact float64) *doubleHashingResult {
	if m < 2 || m&(m-1) != 0 || m > analysis.MaxDoubleHashingBits || k > maxDoubleHashingK || !(exact > 0) {
		return nil
	}
	if float64(m)*math.Log2(float64(m))*math.Pow(float64(k), 3) > maxDoubleHashingWork {
		return nil
	}
	dh, err := analysis.NewDoubleHashing(m, k)
	if err != nil {
		return nil
	}
	f := dh.FPR(n)
	return &doubleHashingResult{FPR: f, ExcessPercent: 100 * (f/exact - 1)}
}

// checkResult says whether a given geometry (n, m and k, the best k for
// them if not given) meets a given target rate p, by its exact rate.
type checkResult struct {
	Target float64 `json:"target"`
	FPR    float64 `json:"fpr_exact"`
	Meets  bool    `json:"meets"`
	// Ratio is FPR / Target: at most 1 when the target is met.
	Ratio float64 `json:"ratio"`
	// Verdict says it in words (see verdict).
	Verdict string `json:"verdict"`
}

// verdict is the check's line: "meets it: 0.82% (exact rate 0.008194,
// 0.8194 x the target)".
func (c *checkResult) verdict() string {
	word := "meets it"
	if !c.Meets {
		word = "misses it"
	}
	return fmt.Sprintf("%s: %s (exact rate %.4g, %.4g x the target)", word, percent(c.FPR, c.Target), c.FPR, c.Ratio)
}

// percent writes a rate as a percentage with two significant digits, or
// as many more (up to six) as it takes to tell it from the target t:
// "0.82%", and "1.004%" for 0.0100436 against 1%.
func percent(p, t float64) string {
	d := 2
	for ; d < 6; d++ {
		if roundSig(p, d) != roundSig(t, d) {
			break
		}
	}
	return strconv.FormatFloat(p*100, 'g', d, 64) + "%"
}

// roundSig rounds x to d significant digits.
func roundSig(x float64, d int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', d, 64), 64)
	return v
}

// run is bloomcalc with its command-line arguments (without the program
// name) and output streams. It returns ctx's error if ctx is done before
// the computation ends; it checks ctx between its steps, each of which is
// bounded (see analysis.ExactStandardSize's work limit), and the page
// (-http) serves until ctx is done.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bloomcalc", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // run prints errors and usage itself
	nFlag := fs.String("n", "", "capacity (items)")
	pFlag := fs.String("p", "", "false-positive rate")
	mFlag := fs.String("m", "", "size in bits, or with a unit")
	kFlag := fs.Int("k", 0, "number of hash functions")
	jsonFlag := fs.Bool("json", false, "print JSON")
	variantFlag := fs.String("variant", standard, "standard, partitioned, counting, blocked, split-block, multiblock, scalable or age-partitioned")
	blockFlag := fs.Int("block", variants.DefaultBlockBits, "block size in bits for -variant blocked")
	more := addMoreFlags(fs)
	httpFlag := fs.String("http", "", "serve the calculator page on this address")

	usage := func(err error) error {
		ue := &usageError{err}
		fmt.Fprintf(stderr, "bloomcalc: %v\n%s\n", ue, hint)
		return ue
	}
	if len(args) == 0 {
		// A bare invocation asks what the command does.
		fmt.Fprint(stderr, usageText)
		return &usageError{errors.New("no flags given; give two of -n, -m and -p")}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usageText)
			return nil
		}
		return usage(flagError(err))
	}
	if fs.NArg() > 0 {
		return usage(fmt.Errorf("unexpected argument %q (all input is given by flags)", fs.Arg(0)))
	}
	if *httpFlag != "" {
		if fs.NFlag() > 1 {
			return usage(errors.New("-http: give no other flag with -http; the page has its own form"))
		}
		return serve(ctx, *httpFlag, stderr)
	}
	if !knownVariant(*variantFlag) {
		return usage(unknownVariant(*variantFlag))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["block"] && *variantFlag != blocked && *variantFlag != scalable {
		return usage(fmt.Errorf("-block: only -variant blocked and scalable take a block size, not -variant %s", *variantFlag))
	}
	if err := checkBlockBits(*blockFlag); err != nil {
		return usage(err)
	}
	if err := more.check(*variantFlag, fs); err != nil {
		return usage(err)
	}

	var known analysis.Sizing
	var given []string
	if *nFlag != "" {
		n, err := units.ParseCount(*nFlag)
		if err != nil {
			return usage(fmt.Errorf("-n: %w", err))
		}
		if n == 0 {
			return usage(errors.New("-n: 0 items, want a capacity of at least 1"))
		}
		known.N = n
		given = append(given, "-n")
	}
	if *mFlag != "" {
		m, err := units.ParseBits(*mFlag)
		if err != nil {
			return usage(fmt.Errorf("-m: %w", err))
		}
		if m == 0 {
			return usage(errors.New("-m: 0 bits, want a size of at least 1 bit"))
		}
		known.M = m
		given = append(given, "-m")
	}
	if set["k"] {
		if *kFlag < 1 || *kFlag > analysis.MaxHashes {
			return usage(fmt.Errorf("-k: %d hash functions, want 1 to %d", *kFlag, analysis.MaxHashes))
		}
		known.K = *kFlag
		given = append(given, "-k")
	}
	if *pFlag != "" {
		p, err := units.ParseProbability(*pFlag)
		if err != nil {
			return usage(fmt.Errorf("-p: %w", err))
		}
		known.P = p
		given = append(given, "-p")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	switch *variantFlag {
	case partitioned, counting:
		return runSolved(stdout, *variantFlag, *more.width, known, given, *jsonFlag, usage)
	case scalable:
		var b uint64
		if set["block"] {
			b = uint64(*blockFlag)
		}
		return runScalable(ctx, stdout, more, b, known, *jsonFlag, usage)
	case multiblock:
		return runMultiblock(ctx, stdout, more, known, given, *jsonFlag, usage)
	case agePartitioned:
		return runAgePartitioned(ctx, stdout, more, known, *jsonFlag, usage)
	case blocked, splitBlock:
		return runVariant(stdout, *variantFlag, uint64(*blockFlag), known, given, *jsonFlag, usage)
	}
	if need := missingFlags(known); need != "" {
		have := "no flags given"
		if len(given) > 0 {
			have = "only " + strings.Join(given, " and ") + " given"
		}
		return usage(fmt.Errorf("not enough to size a filter: %s; %s", have, need))
	}
	// Check mode: given n, m and p (with or without k), the geometry is
	// known, and p is the target it is judged against, not a third
	// constraint that must agree to rounding.
	solveFor, checking := known, known.N != 0 && known.M != 0 && known.P != 0
	if checking {
		solveFor.P = 0
	}
	s, err := analysis.Solve(solveFor)
	if err != nil {
		return usage(fmt.Errorf("%s: %w", strings.Join(given, ", "), err))
	}
	if checking {
		s.P = known.P
	}

	r := result{
		N:                  s.N,
		M:                  s.M,
		Bytes:              wordBytes(s.M),
		Memory:             memory(wordBytes(s.M)),
		K:                  s.K,
		P:                  s.P,
		BitsPerKey:         analysis.BitsPerKey(s.M, s.N),
		InformationMinimum: analysis.InformationMinimum(s.P),
		ClassicFPR:         analysis.ClassicFPR(s.M, s.N, s.K),
		ExactFPR:           analysis.ExactFPR(s.M, s.N, s.K),
	}
	if err := useless(s, r.ExactFPR, given); err != nil {
		return usage(err)
	}
	r.Overhead = r.BitsPerKey / r.InformationMinimum
	if checking {
		r.Check = &checkResult{Target: s.P, FPR: r.ExactFPR, Meets: r.ExactFPR <= s.P, Ratio: r.ExactFPR / s.P}
		r.Check.Verdict = r.Check.verdict()
	}
	r.DoubleHashing = doubleHashing(s.M, s.N, s.K, r.ExactFPR)
	r.Derivations = derivations(s.M, s.N, s.K, r.ExactFPR)
	r.Limit = memoryLimit(standard, r.Bytes)
	if err := ctx.Err(); err != nil {
		return err
	}
	if r.Exact, err = exactSizing(known, s); err != nil {
		r.ExactNote = plain(err.Error())
	}
	if *jsonFlag {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	if err := printText(stdout, r, known.P != 0); err != nil {
		return err
	}
	return printExact(stdout, r.Exact, r.ExactNote, r.M)
}

// useless refuses a geometry that cannot hold its items usefully: under
// one bit per item (no k then gives a rate below 0.6), or a rate that
// prints as 1.
func useless(s analysis.Sizing, exact float64, given []string) error {
	flags := strings.Join(given, ", ")
	if s.M < s.N {
		return fmt.Errorf("%s: %d bits for %d items is %.3g bits per key (rate %.3g); a useful filter has at least one (-m %d)",
			flags, s.M, s.N, analysis.BitsPerKey(s.M, s.N), exact, s.N)
	}
	if exact >= 0.9995 {
		return fmt.Errorf("%s: m = %d, n = %d and k = %d give a rate of %.4g, yes to every key; use a smaller -k or a larger -m",
			flags, s.M, s.N, s.K, exact)
	}
	return nil
}

// oneIn writes 1/p for "1 in ...": whole and grouped below 1e15 ("1 in
// 10,000"), in scientific
// notation above, where the digits would be noise.
func oneIn(p float64) string {
	if 1/p < 1e15 {
		return group(fmt.Sprintf("%.0f", 1/p))
	}
	return fmt.Sprintf("%.4g", 1/p)
}

// missingFlags returns what must be added to the known values, or "".
func missingFlags(k analysis.Sizing) string {
	hasN, hasM, hasP := k.N != 0, k.M != 0, k.P != 0
	switch {
	case hasN && (hasM || hasP), hasM && hasP:
		return ""
	case hasN:
		return "give -m or -p as well"
	case hasM:
		return "give -n or -p as well"
	case hasP:
		return "give -n or -m as well"
	}
	return "give two of -n, -m and -p"
}

func printText(w io.Writer, r result, target bool) error {
	pLabel := "rate (p)"
	if target {
		pLabel = "target rate (p)"
	}
	lines := [][2]string{
		{"capacity (n)", fmt.Sprintf("%s items", groupUint(r.N))},
		{pLabel, fmt.Sprintf("%.4g (1 in %s)", r.P, oneIn(r.P))},
		{"bits (m)", fmt.Sprintf("%s (%s)", groupUint(r.M), r.Memory)},
		{"hashes (k)", fmt.Sprintf("%d", r.K)},
		{"bits per key", fmt.Sprintf("%.3f", r.BitsPerKey)},
		{"information minimum", fmt.Sprintf("%.3f bits per key at p", r.InformationMinimum)},
		{"Bloom overhead", fmt.Sprintf("%.3f x the minimum (1/ln 2 = %.3f when optimal)", r.Overhead, math.Log2E)},
		{"FPR at (m, n, k)", fmt.Sprintf("classic %.6g, exact %.6g", r.ClassicFPR, r.ExactFPR)},
	}
	if r.Check != nil {
		lines = append(lines, [2]string{"check against p", r.Check.Verdict})
	}
	if d := r.DoubleHashing; d != nil {
		lines = append(lines, [2]string{"double hashing", fmt.Sprintf("rate %.6g with positions (a + i b) mod m, %+.3g%% against the exact rate (RedisBloom's power-of-two tables)", d.FPR, d.ExcessPercent)})
	}
	if d := r.Derivations; d != nil {
		lines = append(lines, [2]string{"index derivations", fmt.Sprintf("double %.6g (%+.3g%%), enhanced double %.6g (%+.3g%%), triple %.6g (%+.3g%%) against the exact rate (multiply-shift, bloomlab's own)",
			d.Double, d.DoubleExcess, d.EnhancedDouble, d.EnhancedDoubleExcess, d.Triple, d.TripleExcess)})
	}
	lines = append(lines, limitLines(r.Limit)...)
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%-21s %s\n", l[0], l[1])
	}
	_, err := io.WriteString(w, b.String())
	return err
}
