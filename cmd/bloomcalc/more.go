package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/internal/units"
	"github.com/bloomlab/bloomlab/variants"
)

// The values of -variant added to standard, blocked and split-block.
const (
	partitioned = "partitioned"
	counting    = "counting"
	scalable    = "scalable"
	// multiblock is Boost.Bloom's layouts (multiblock.go) and
	// agePartitioned the sliding-window filter (window.go).
	multiblock     = "multiblock"
	agePartitioned = "age-partitioned"
)

// variantNames lists every value of -variant, in the order the usage text
// and the page give them.
var variantNames = []string{standard, partitioned, counting, blocked, splitBlock, multiblock, scalable, agePartitioned}

// moreFlags are the flags of the partitioned, counting and scalable
// variants.
type moreFlags struct {
	width *int    // -width: counter width of a counting filter
	r, s  *string // -r, -s: tightening ratio and growth factor of a scalable filter
	n0    *string // -n0: capacity of a scalable filter's first stage
	mem   *string // -mem: a memory budget for a scalable or age-partitioned filter
	// -word, -multi, -stride: the layout of a multiblock filter.
	word   *int
	multi  *bool
	stride *int
}

// addMoreFlags defines the flags of moreFlags on fs.
func addMoreFlags(fs *flag.FlagSet) moreFlags {
	return moreFlags{
		width:  fs.Int("width", 0, "counter width in bits for -variant counting"),
		r:      fs.String("r", "", "tightening ratio for -variant scalable"),
		s:      fs.String("s", "", "growth factor for -variant scalable"),
		n0:     fs.String("n0", "", "first stage's capacity for -variant scalable"),
		mem:    fs.String("mem", "", "memory budget for -variant scalable and age-partitioned"),
		word:   fs.Int("word", variants.DefaultMultiblockWordBits, "word (window) bits for -variant multiblock"),
		multi:  fs.Bool("multi", false, "one bit in each of k words for -variant multiblock"),
		stride: fs.Int("stride", 0, "stride in bytes for -variant multiblock (0: the block, no overlap)"),
	}
}

// check refuses the flags of moreFlags that variant v does not take.
func (mf moreFlags) check(v string, fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		switch {
		case f.Name == "width" && v != counting:
			err = fmt.Errorf("-width: only -variant counting takes a counter width, not -variant %s", v)
		case f.Name == "mem" && v != scalable && v != agePartitioned:
			err = fmt.Errorf("-mem: only -variant scalable and age-partitioned take a memory budget, not -variant %s", v)
		case (f.Name == "r" || f.Name == "s" || f.Name == "n0") && v != scalable:
			err = fmt.Errorf("-%s: only -variant scalable takes -%s, not -variant %s", f.Name, f.Name, v)
		case (f.Name == "word" || f.Name == "multi" || f.Name == "stride") && v != multiblock:
			err = fmt.Errorf("-%s: only -variant multiblock takes -%s, not -variant %s", f.Name, f.Name, v)
		case (f.Name == "m" || f.Name == "k") && v == scalable:
			err = fmt.Errorf("-%s: a scalable filter sizes its own stages; give -n (items held), -p (the target P) and optionally -r, -s, -n0 and -block", f.Name)
		case (f.Name == "m" || f.Name == "k") && v == agePartitioned:
			err = fmt.Errorf("-%s: an age-partitioned filter sizes its own slices; give -n (the window: items that must test present), -p (the target for the worst rate) and optionally -mem", f.Name)
		}
	})
	return err
}

// knownVariant reports whether v is a value of -variant.
func knownVariant(v string) bool {
	for _, name := range variantNames {
		if v == name {
			return true
		}
	}
	return false
}

// unknownVariant is the message for a -variant that is not known.
func unknownVariant(v string) error {
	return fmt.Errorf("-variant: unknown variant %q, want %s or %s",
		v, strings.Join(variantNames[:len(variantNames)-1], ", "), variantNames[len(variantNames)-1])
}

// partitionedResult is what bloomcalc prints for a partitioned filter.
type partitionedResult struct {
	Variant            string  `json:"variant"`
	N                  uint64  `json:"n"`
	M                  uint64  `json:"m"`     // k slices of slice_bits bits
	Bytes              uint64  `json:"bytes"` // k slices of whole 64-bit words
	Memory             string  `json:"memory"`
	K                  int     `json:"k"`
	SliceBits          uint64  `json:"slice_bits"`
	P                  float64 `json:"p"`
	BitsPerKey         float64 `json:"bits_per_key"`
	InformationMinimum float64 `json:"information_minimum_bits_per_key"`
	Overhead           float64 `json:"overhead"`
	ClassicFPR         float64 `json:"fpr_classic"`
	ExactFPR           float64 `json:"fpr_exact"` // analysis.PartitionedFPR
	// StandardExactFPR is the exact rate of a standard filter of the same
	// m, n and k, for comparison.
	StandardExactFPR float64 `json:"fpr_standard_exact"`
	// Exact is the exact sizing, given n and p only
	// (analysis.ExactPartitionedSize), and ExactNote why there is none
	// where it fails.
	Exact     *exactResult `json:"exact,omitempty"`
	ExactNote string       `json:"exact_note,omitempty"`
	// Check is the verdict when n, m and p are all given.
	Check *checkResult `json:"check,omitempty"`
	// Limit is the verdict of the memory limit for one filter.
	Limit *limitResult `json:"limit"`
}

// countingResult is what bloomcalc prints for a counting filter.
type countingResult struct {
	Variant            string  `json:"variant"`
	N                  uint64  `json:"n"`
	M                  uint64  `json:"m"` // counters
	Width              int     `json:"width"`
	MemoryBits         uint64  `json:"memory_bits"` // m * width
	Bytes              uint64  `json:"bytes"`       // of memory_bits, in whole 64-bit words
	Memory             string  `json:"memory"`
	K                  int     `json:"k"`
	P                  float64 `json:"p"`
	BitsPerKey         float64 `json:"bits_per_key"` // memory bits per key
	InformationMinimum float64 `json:"information_minimum_bits_per_key"`
	Overhead           float64 `json:"overhead"`
	ClassicFPR         float64 `json:"fpr_classic"`
	ExactFPR           float64 `json:"fpr_exact"`
	// SaturationProbability is analysis.SaturationProbability: that some
	// counter reaches 2^width - 1 and sticks there, after n items.
	SaturationProbability float64 `json:"saturation_probability"`
	// FanOverflowBound is the union bound of Fan et al. on a counter
	// reaching 2^width (analysis.FanOverflowBound), given only when it is
	// a probability (below 1); at 1 or more it bounds nothing, and
	// FanOverflowNote says so in its place.
	FanOverflowBound *float64 `json:"fan_overflow_bound,omitempty"`
	FanOverflowNote  string   `json:"fan_overflow_note,omitempty"`
	// Check is the verdict when n, m and p are all given.
	Check *checkResult `json:"check,omitempty"`
	// Limit is the verdict of the memory limit for one filter.
	Limit *limitResult `json:"limit"`
}

// runSolved sizes a partitioned or counting filter: the geometry comes from
// analysis.Solve, as for a standard filter, from the same combinations of
// flags.
func runSolved(stdout io.Writer, v string, width int, known analysis.Sizing, given []string, jsonOut bool,
	usage func(error) error) error {
	if v == counting {
		if width == 0 {
			width = variants.DefaultCounterWidth
		}
		switch width {
		case 2, 4, 8, 16:
		default:
			return usage(fmt.Errorf("-width: %d-bit counters, want 2, 4, 8 or 16 (%d by default)", width, variants.DefaultCounterWidth))
		}
	}
	if need := missingFlags(known); need != "" {
		have := "no flags given"
		if len(given) > 0 {
			have = "only " + strings.Join(given, " and ") + " given"
		}
		return usage(fmt.Errorf("not enough to size a filter: %s; %s", have, need))
	}
	// Check mode, as for a standard filter: given n, m and p, the geometry
	// is n, m and k, and p the target it is judged against.
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
	check := func(fpr float64) *checkResult {
		if !checking {
			return nil
		}
		c := &checkResult{Target: s.P, FPR: fpr, Meets: fpr <= s.P, Ratio: fpr / s.P}
		c.Verdict = c.verdict()
		return c
	}
	var out any
	switch v {
	case partitioned:
		// variants.NewPartitioned builds k slices of ceil(m/k) bits.
		b := (s.M + uint64(s.K) - 1) / uint64(s.K)
		m := b * uint64(s.K)
		if m > analysis.MaxBits {
			return usage(fmt.Errorf("%s: %d slices of %d bits exceed the maximum %d bits", strings.Join(given, ", "), s.K, b, uint64(analysis.MaxBits)))
		}
		r := partitionedResult{
			Variant: v, N: s.N, M: m, Bytes: uint64(s.K) * wordBytes(b), Memory: memory(uint64(s.K) * wordBytes(b)), K: s.K, SliceBits: b, P: s.P,
			BitsPerKey:         analysis.BitsPerKey(m, s.N),
			InformationMinimum: analysis.InformationMinimum(s.P),
			ClassicFPR:         analysis.ClassicFPR(m, s.N, s.K),
			ExactFPR:           analysis.PartitionedFPR(m, s.N, s.K),
			StandardExactFPR:   analysis.ExactFPR(m, s.N, s.K),
		}
		r.Overhead = r.BitsPerKey / r.InformationMinimum
		r.Check = check(r.ExactFPR)
		if r.Exact, err = exactPartitionedSizing(known, s.N, m, s.P, r.ExactFPR); err != nil {
			r.ExactNote = plain(err.Error())
		}
		r.Limit = memoryLimit(v, r.Bytes)
		out = r
	case counting:
		mem := s.M * uint64(width)
		r := countingResult{
			Variant: v, N: s.N, M: s.M, Width: width, MemoryBits: mem, Bytes: wordBytes(mem), Memory: memory(wordBytes(mem)), K: s.K, P: s.P,
			BitsPerKey:            analysis.BitsPerKey(mem, s.N),
			InformationMinimum:    analysis.InformationMinimum(s.P),
			ClassicFPR:            analysis.ClassicFPR(s.M, s.N, s.K),
			ExactFPR:              analysis.ExactFPR(s.M, s.N, s.K),
			SaturationProbability: analysis.SaturationProbability(s.M, s.N, s.K, width),
		}
		r.Overhead = r.BitsPerKey / r.InformationMinimum
		switch fan := analysis.FanOverflowBound(s.M, s.N, s.K, width); {
		case fan < 1:
			r.FanOverflowBound = &fan
		case math.IsInf(fan, 0) || math.IsNaN(fan):
			r.FanOverflowNote = "vacuous (the bound overflows float64, not a probability)"
		default:
			r.FanOverflowNote = fmt.Sprintf("vacuous (the bound is %.4g, not a probability)", fan)
		}
		r.Check = check(r.ExactFPR)
		r.Limit = memoryLimit(v, r.Bytes)
		out = r
	}
	if jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return printMore(stdout, out, known.P != 0)
}

// scalableResult is what bloomcalc prints for a scalable filter.
type scalableResult struct {
	Variant   string  `json:"variant"`
	P         float64 `json:"p"` // the target P
	R         float64 `json:"r"`
	S         float64 `json:"s"`
	N0        uint64  `json:"n0"`
	BlockBits uint64  `json:"block_bits"` // 0: Almeida's partitioned stages
	N         uint64  `json:"n"`          // items held
	M         uint64  `json:"m"`          // bits of all the stages
	Bytes     uint64  `json:"bytes"`      // of every stage, in whole 64-bit words
	Memory    string  `json:"memory"`
	// BitsPerKey is m / n.
	BitsPerKey float64 `json:"bits_per_key"`
	// InformationMinimum is log2(1/P) bits per key, and Overhead the
	// bits per key over it.
	InformationMinimum float64 `json:"information_minimum_bits_per_key"`
	Overhead           float64 `json:"overhead"`
	// Bound is P0/(1 - r), which bounds the compound rate at every size.
	Bound float64 `json:"bound"`
	// ExactFPR is the compound rate at n items (analysis.Scalable.FPR).
	ExactFPR float64 `json:"fpr_exact"`
	// Budget answers "does it reach n within this memory?", given -mem.
	Budget *budgetResult `json:"budget,omitempty"`
	// Limit is the verdict of the memory limit for one filter, with the
	// most items the filter holds under it.
	Limit  *limitResult    `json:"limit"`
	Stages []scalableStage `json:"stages"`
}

// budgetResult says whether a scalable filter holding n items fits in a
// memory budget, and how many items the budget holds: a stage takes its
// memory when it opens, so the budget holds the items of the stages that
// fit in it whole.
type budgetResult struct {
	Bytes  uint64 `json:"bytes"` // the budget
	Memory string `json:"memory"`
	Fits   bool   `json:"fits"` // n items fit
	// ItemsWithin is the most items the filter holds before it opens a
	// stage that the budget cannot take, and StagesWithin its stages.
	ItemsWithin  uint64 `json:"items_within"`
	StagesWithin int    `json:"stages_within"`
	// NextBytes is the memory with one more stage, the first over the
	// budget; 0 if the filter cannot grow further (analysis.MaxStages or
	// MaxBits).
	NextBytes uint64 `json:"next_bytes"`
	Verdict   string `json:"verdict"`
}

// stageBytes is the memory of a stage: k slices of whole 64-bit words, or
// whole blocks.
func stageBytes(st analysis.Stage) uint64 {
	if st.SliceBits != 0 {
		return uint64(st.Hashes) * wordBytes(st.SliceBits)
	}
	return wordBytes(st.Bits)
}

// budget answers -mem for sc holding n items in the stages known (those
// of n items): the stages past them are built one at a time, with one
// BlockedSizer for blocked stages, until one exceeds the budget, the
// filter cannot grow, or ctx is done.
//
// atN is the memory of the stages of n items.
func budget(ctx context.Context, sc analysis.Scalable, known []analysis.Stage, n, atN, budgetBytes uint64) (*budgetResult, error) {
	b := &budgetResult{Bytes: budgetBytes, Memory: memory(budgetBytes)}
	var z *analysis.BlockedSizer
	if sc.BlockBits != 0 {
		z = analysis.NewBlockedSizer(sc.BlockBits)
	}
	var used, held uint64
	for i := 0; i < analysis.MaxStages; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var st analysis.Stage
		if i < len(known) {
			st = known[i]
		} else {
			var err error
			if st, err = sc.StageWith(i, z); err != nil {
				break // the filter cannot grow past i stages
			}
		}
		if used+stageBytes(st) > budgetBytes {
			b.NextBytes = used + stageBytes(st)
			break
		}
		used += stageBytes(st)
		held += st.Capacity
		b.ItemsWithin, b.StagesWithin = held, i+1
	}
	b.Fits = b.ItemsWithin >= n
	if b.Fits {
		b.Verdict = fmt.Sprintf("fits: %s items take %s, %s%% of %s, which holds up to %s items in %d stages",
			groupUint(n), memory(atN), strconv.FormatFloat(100*float64(atN)/float64(budgetBytes), 'g', 2, 64), b.Memory, groupUint(b.ItemsWithin), b.StagesWithin)
	} else {
		b.Verdict = fmt.Sprintf("does not fit: %s items take %s; %s holds up to %s items in %d stages",
			groupUint(n), memory(atN), b.Memory, groupUint(b.ItemsWithin), b.StagesWithin)
	}
	return b, nil
}

// scalableStage is one row of the stages table.
type scalableStage struct {
	Index     int     `json:"index"`
	Capacity  uint64  `json:"capacity"`
	Items     uint64  `json:"items"` // items in the stage at n
	Hashes    int     `json:"k"`
	SliceBits uint64  `json:"slice_bits,omitempty"` // partitioned stages
	Bits      uint64  `json:"bits"`
	Error     float64 `json:"design_error"` // P0 r^i
	FPR       float64 `json:"fpr"`          // the stage's rate holding items
}

// runScalable sizes a scalable filter holding known.N items for the target
// known.P, with blocked stages of blockBits bits (0: partitioned stages).
func runScalable(ctx context.Context, stdout io.Writer, mf moreFlags, blockBits uint64, known analysis.Sizing, jsonOut bool,
	usage func(error) error) error {
	if known.N == 0 || known.P == 0 {
		return usage(errors.New("not enough to size a scalable filter: give -n (the items it holds) and -p (the target rate P), and optionally -r, -s, -n0 and -block"))
	}
	sc := analysis.Scalable{P: known.P, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth,
		N0: variants.DefaultInitialCapacity, BlockBits: blockBits}
	for _, f := range []struct {
		name string
		val  string
		dst  *float64
	}{{"r", *mf.r, &sc.R}, {"s", *mf.s, &sc.S}} {
		if f.val == "" {
			continue
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(f.val), 64)
		if err != nil {
			return usage(fmt.Errorf("-%s: %q is not a number", f.name, f.val))
		}
		*f.dst = x
	}
	if *mf.n0 != "" {
		n0, err := units.ParseCount(*mf.n0)
		if err != nil {
			return usage(fmt.Errorf("-n0: %w", err))
		}
		sc.N0 = n0
	}
	if err := sc.Validate(); err != nil {
		return usage(fmt.Errorf("-p, -r, -s, -n0: %w", err))
	}
	// Curve gives FPR(n), with the stages built once.
	c, err := sc.Curve([]uint64{known.N})
	if err != nil {
		if blockBits != 0 && strings.Contains(err.Error(), "needs more bits than the maximum") {
			// A stage of small blocks cannot reach a small stage rate
			// within MaxBits; say so, not only which stage failed.
			return usage(fmt.Errorf("-block, -p: blocked stages of %d-bit blocks cannot reach the stage rates P0 r^i this target needs within the largest filter (%w); use larger blocks (-block) or partitioned stages (no -block)",
				blockBits, err))
		}
		return usage(fmt.Errorf("-n, -n0, -s: %w", err))
	}
	r := scalableResult{Variant: scalable, P: sc.P, R: sc.R, S: sc.S, N0: sc.N0, BlockBits: blockBits, N: known.N,
		Bound: sc.Bound(), ExactFPR: c.FPR[0]}
	left := known.N
	for _, st := range c.Stages {
		items := min(left, st.Capacity)
		left -= items
		r.M += st.Bits
		r.Stages = append(r.Stages, scalableStage{Index: st.Index, Capacity: st.Capacity, Items: items, Hashes: st.Hashes,
			SliceBits: st.SliceBits, Bits: st.Bits, Error: st.Error, FPR: sc.StageFPR(st, items)})
	}
	for _, st := range r.Stages {
		if st.SliceBits != 0 {
			r.Bytes += uint64(st.Hashes) * wordBytes(st.SliceBits)
		} else {
			r.Bytes += wordBytes(st.Bits)
		}
	}
	r.Memory = memory(r.Bytes)
	if *mf.mem != "" {
		bits, err := units.ParseBits(*mf.mem)
		if err != nil {
			return usage(fmt.Errorf("-mem: %w", err))
		}
		if bits < 8 {
			return usage(fmt.Errorf("-mem: %d bits, want a budget of at least one byte", bits))
		}
		if r.Budget, err = budget(ctx, sc, c.Stages, known.N, r.Bytes, bits/8); err != nil {
			return err
		}
	}
	r.Limit = memoryLimit(scalable, r.Bytes)
	lb, err := budget(ctx, sc, c.Stages, known.N, r.Bytes, r.Limit.Bytes)
	if err != nil {
		return err
	}
	r.Limit.ItemsWithin = lb.ItemsWithin
	if lb.NextBytes == 0 {
		// No stage exceeded the limit: the filter cannot grow further
		// (analysis.MaxStages, or stages beyond the largest filter).
		r.Limit.Verdict += fmt.Sprintf("; the filter cannot grow past %s items in %d stages, within the limit", groupUint(lb.ItemsWithin), lb.StagesWithin)
	} else {
		r.Limit.Verdict += fmt.Sprintf("; the limit holds up to %s items in %d stages", groupUint(lb.ItemsWithin), lb.StagesWithin)
	}
	r.BitsPerKey = analysis.BitsPerKey(r.M, r.N)
	r.InformationMinimum = analysis.InformationMinimum(r.P)
	r.Overhead = r.BitsPerKey / r.InformationMinimum
	if jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return printMore(stdout, r, true)
}

// printMore prints a partitioned, counting or scalable result as text.
func printMore(w io.Writer, out any, target bool) error {
	pLabel := "rate (p)"
	if target {
		pLabel = "target rate (p)"
	}
	var lines [][2]string
	add := func(label, format string, a ...any) {
		lines = append(lines, [2]string{label, fmt.Sprintf(format, a...)})
	}
	switch r := out.(type) {
	case partitionedResult:
		add("variant", "partitioned, %d slices of %s bits", r.K, groupUint(r.SliceBits))
		add("capacity (n)", "%s items", groupUint(r.N))
		add(pLabel, "%.4g (1 in %s)", r.P, oneIn(r.P))
		add("bits (m)", "%s (%s)", groupUint(r.M), r.Memory)
		add("hashes (k)", "%d", r.K)
		add("bits per key", "%.3f", r.BitsPerKey)
		add("information minimum", "%.3f bits per key at p", r.InformationMinimum)
		add("Bloom overhead", "%.3f x the minimum", r.Overhead)
		add("FPR at (m, n, k)", "classic %.6g, exact %.6g (a standard filter: exact %.6g)", r.ClassicFPR, r.ExactFPR, r.StandardExactFPR)
		if r.Check != nil {
			add("check against p", "%s", r.Check.Verdict)
		}
		lines = append(lines, exactLines(r.Exact, r.ExactNote, r.M)...)
		lines = append(lines, limitLines(r.Limit)...)
	case countingResult:
		add("variant", "counting, %d-bit counters", r.Width)
		add("capacity (n)", "%s items", groupUint(r.N))
		add(pLabel, "%.4g (1 in %s)", r.P, oneIn(r.P))
		add("counters (m)", "%s; %s bits of memory (%s)", groupUint(r.M), groupUint(r.MemoryBits), r.Memory)
		add("hashes (k)", "%d", r.K)
		add("bits per key", "%.3f (memory)", r.BitsPerKey)
		add("information minimum", "%.3f bits per key at p", r.InformationMinimum)
		add("overhead", "%.3f x the minimum", r.Overhead)
		add("FPR at (m, n, k)", "classic %.6g, exact %.6g", r.ClassicFPR, r.ExactFPR)
		fan := r.FanOverflowNote
		if r.FanOverflowBound != nil {
			fan = fmt.Sprintf("%.4g", *r.FanOverflowBound)
		}
		add("counter overflow", "P(some counter saturates) %.4g; Fan et al. bound %s", r.SaturationProbability, fan)
		if r.Check != nil {
			add("check against p", "%s", r.Check.Verdict)
		}
		lines = append(lines, limitLines(r.Limit)...)
	case scalableResult:
		stages := "partitioned stages"
		if r.BlockBits != 0 {
			stages = fmt.Sprintf("blocked stages, %d-bit blocks", r.BlockBits)
		}
		add("variant", "scalable, %s, r = %g, s = %g, n0 = %s", stages, r.R, r.S, groupUint(r.N0))
		add("items held (n)", "%s", groupUint(r.N))
		add(pLabel, "%.4g (bound P0/(1-r) = %.4g)", r.P, r.Bound)
		add("bits (m)", "%s (%s) in %d stages", groupUint(r.M), r.Memory, len(r.Stages))
		add("bits per key", "%.3f (%.3f x the minimum %.3f at P)", r.BitsPerKey, r.Overhead, r.InformationMinimum)
		add("FPR at n", "%.6g (compound)", r.ExactFPR)
		if r.Budget != nil {
			add("within memory", "%s", r.Budget.Verdict)
		}
		lines = append(lines, limitLines(r.Limit)...)
	}
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%-21s %s\n", l[0], l[1])
	}
	if r, ok := out.(scalableResult); ok {
		fmt.Fprintf(&b, "\n%5s %12s %12s %5s %14s %12s %12s\n", "stage", "capacity", "items", "k", "bits", "design P_i", "FPR")
		for _, st := range r.Stages {
			fmt.Fprintf(&b, "%5d %12s %12s %5d %14s %12.4g %12.4g\n", st.Index, groupUint(st.Capacity), groupUint(st.Items), st.Hashes, groupUint(st.Bits), st.Error, st.FPR)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
