package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/bloomlab/bloomlab/internal/units"
	"github.com/bloomlab/bloomlab/variants"
)

const infoUsage = `usage: bloom info FILTER [-json]

Prints what a saved filter is: its variant and format code, geometry
(bits, hashes, block size, slices or stages), hashing (a secret key prints
as [redacted]), capacity, items, fill ratio, the items its fill implies,
the design rate, the rate theory predicts for its items and the rate its
fill implies, bits per key, and the stages of a growing filter.

Flags:
`

// formatNames describes the variant byte of the format (variants.FormatVersion).
var formatNames = map[uint8]string{
	1:  "standard",
	2:  "partitioned",
	3:  "counting",
	4:  "scalable (remixed stages)",
	5:  "blocked",
	6:  "split-block",
	7:  "scalable (blocked remixed stages)",
	10: "scalable (stream stages)",
	11: "scalable (blocked stream stages)",
	12: "dynamic",
	13: "redisbloom",
	14: "age-partitioned",
	15: "age-partitioned (blocked layout)",
}

// filterInfo is what info prints. Rates and counts that do not apply to
// a filter are omitted from the JSON (null where a number is undefined,
// as the items a saturated filter's fill implies).
type filterInfo struct {
	File          string `json:"file"`
	FileBytes     int64  `json:"file_bytes"`
	Variant       string `json:"variant"`
	FormatCode    uint8  `json:"format_code"`
	Format        string `json:"format"`
	FormatVersion uint16 `json:"format_version"`

	Bits     uint64 `json:"bits"`
	Cells    uint64 `json:"cells"`
	CellBits int    `json:"cell_bits"`
	Hashes   int    `json:"hashes"`
	// SliceBits and Slices: a partitioned filter's k slices, an
	// age-partitioned filter's K + L.
	SliceBits uint64 `json:"slice_bits,omitempty"`
	Slices    int    `json:"slices,omitempty"`
	BlockBits int    `json:"block_bits,omitempty"`
	Blocks    uint64 `json:"blocks,omitempty"`
	Width     int    `json:"counter_width,omitempty"`
	Saturated uint64 `json:"saturated_counters,omitempty"`

	Hashing hashingInfo `json:"hashing"`

	// Parameters of the growing and age-partitioned filters.
	TighteningRatio float64 `json:"tightening_ratio,omitempty"`
	Growth          float64 `json:"growth,omitempty"`
	FirstCapacity   uint64  `json:"first_stage_capacity,omitempty"`
	StageCapacity   uint64  `json:"stage_capacity,omitempty"`
	Expansion       uint64  `json:"expansion,omitempty"`
	PowerOfTwo      bool    `json:"power_of_two,omitempty"`
	K               int     `json:"k,omitempty"`
	L               int     `json:"l,omitempty"`
	Generation      uint64  `json:"generation_items,omitempty"`
	Window          uint64  `json:"window,omitempty"`
	Position        uint64  `json:"position,omitempty"`
	Refresh         string  `json:"refresh,omitempty"`

	Capacity       uint64   `json:"capacity"`
	Items          uint64   `json:"items"`
	FillRatio      float64  `json:"fill_ratio"`
	EstimatedItems *float64 `json:"estimated_items"`
	// DesignFPR is the rate the filter was built for, and DesignBasis
	// says which: the theory at capacity, the target P, ...
	DesignFPR   *float64 `json:"design_fpr,omitempty"`
	DesignBasis string   `json:"design_basis,omitempty"`
	// TheoryFPR is the filter's model (its Model method) at its items.
	TheoryFPR *float64 `json:"theory_fpr,omitempty"`
	// EstimatedFPR is the rate the current fill implies (Stats).
	EstimatedFPR float64 `json:"estimated_fpr"`
	// BitsPerKey is bits per item, and BitsPerCapacity bits per item of
	// the capacity.
	BitsPerKey      *float64 `json:"bits_per_key"`
	BitsPerCapacity *float64 `json:"bits_per_key_at_capacity,omitempty"`
	StageCount      int      `json:"stages,omitempty"`
	GrowthError     string   `json:"growth_error,omitempty"`

	BlockFill  *blockFill  `json:"block_fill,omitempty"`
	StageTable []stageInfo `json:"stage_table,omitempty"`
	SliceTable []sliceInfo `json:"slice_table,omitempty"`
}

// ownPositions is the derivation of the variants whose positions follow
// their own rule (blocked, split-block, the stream stages of scalable and
// dynamic filters, RedisBloom's double hashing, age-partitioned).
const ownPositions = "own"

// hashingInfo is a filter's hashing; the key is never printed.
type hashingInfo struct {
	Kind       string `json:"kind"`
	Derivation string `json:"derivation"`
	Seed       uint64 `json:"seed"`
	Key        string `json:"key,omitempty"`
}

type blockFill struct {
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// sliceInfo is one slice of an age-partitioned filter, newest first.
type sliceInfo struct {
	Age       int     `json:"age"`
	Items     uint64  `json:"items"`
	Bits      uint64  `json:"bits"`
	FillRatio float64 `json:"fill_ratio"`
}

// stageInfo is one stage of a growing filter.
type stageInfo struct {
	Capacity       uint64   `json:"capacity"`
	Items          uint64   `json:"items"`
	Hashes         int      `json:"hashes"`
	Bits           uint64   `json:"bits"`
	FillRatio      float64  `json:"fill_ratio"`
	Error          float64  `json:"design_fpr"`
	EstimatedFPR   float64  `json:"estimated_fpr"`
	EstimatedItems *float64 `json:"estimated_items"`
}

// runInfo is "bloom info": describe, printed as text or JSON.
func runInfo(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("info")
	asJSON := fs.Bool("json", false, "print JSON")
	rest, err := parseArgs(fs, args, infoUsage, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("want one FILTER argument, got %d", len(rest))
	}
	in, err := describe(rest[0])
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(in)
	}
	return printInfo(stdout, in)
}

// describe loads the filter at path and collects its description.
func describe(path string) (*filterInfo, error) {
	f, err := loadFilter(path)
	if err != nil {
		return nil, err
	}
	in := &filterInfo{File: path}
	if err := readHeader(path, in); err != nil {
		return nil, err
	}
	st := f.Stats()
	h := f.Hashing()
	in.Variant = st.Variant
	in.Bits, in.Cells, in.CellBits, in.Hashes = st.Bits, st.Cells, st.CellBits, st.Hashes
	in.Saturated = st.Saturated
	in.Hashing = hashingInfo{Kind: h.Kind.String(), Derivation: h.Derivation.String(), Seed: h.Seed}
	switch in.FormatCode {
	case 1, 2, 3, 4: // the codes whose positions come from the Derivation
	default:
		in.Hashing.Derivation = ownPositions
	}
	if h.Kind == variants.SipHash {
		in.Hashing.Key = "[redacted]"
	}
	in.Capacity, in.Items, in.FillRatio, in.EstimatedFPR = st.Capacity, st.Items, st.FillRatio, st.EstimatedFPR
	in.EstimatedItems = finite(st.EstimatedItems)
	if st.Items > 0 {
		in.BitsPerKey = finite(float64(st.Bits) / float64(st.Items))
	}
	if st.Capacity > 0 {
		in.BitsPerCapacity = finite(float64(st.Bits) / float64(st.Capacity))
	}
	if st.Blocks.Count > 0 {
		in.BlockBits, in.Blocks = st.Blocks.Bits, st.Blocks.Count
		in.BlockFill = &blockFill{st.Blocks.FillMean, st.Blocks.FillStdDev, st.Blocks.FillMin, st.Blocks.FillMax}
	}
	for _, s := range st.Stages {
		in.StageTable = append(in.StageTable, stageInfo{s.Capacity, s.Items, s.Hashes, s.Bits, s.FillRatio, s.Error, s.EstimatedFPR, finite(s.EstimatedItems)})
	}
	for _, s := range st.Slices {
		in.SliceTable = append(in.SliceTable, sliceInfo{s.Age, s.Items, s.Bits, s.FillRatio})
	}
	if e, ok := f.(interface{ Err() error }); ok && e.Err() != nil {
		in.GrowthError = plain(e.Err().Error())
	}
	// The design rate and the model's rate at the items held.
	atCapacity := func(fpr func(uint64) (float64, error)) {
		in.DesignBasis = "the capacity is unknown (built from a geometry)"
		if st.Capacity > 0 {
			if r, err := fpr(st.Capacity); err == nil {
				in.DesignFPR, in.DesignBasis = finite(r), "theory at capacity"
			}
		}
		if r, err := fpr(st.Items); err == nil {
			in.TheoryFPR = finite(r)
		}
	}
	switch f := f.(type) {
	case *variants.Standard:
		atCapacity(f.Model().FPR)
	case *variants.Partitioned:
		in.Slices, in.SliceBits = f.Geometry().Hashes, f.Geometry().Bits/uint64(f.Geometry().Hashes)
		atCapacity(f.Model().FPR)
	case *variants.Counting:
		in.Width = f.Width()
		atCapacity(f.Model().FPR)
	case *variants.Blocked:
		atCapacity(f.Model().FPR)
	case *variants.SplitBlock:
		atCapacity(f.Model().FPR)
	case *variants.Multiblock:
		atCapacity(f.Model().FPR)
	case *variants.Scalable:
		p := f.Params()
		in.TighteningRatio, in.Growth, in.FirstCapacity, in.StageCount = p.R, p.S, p.N0, f.Stages()
		in.BlockBits = p.BlockBits
		in.DesignFPR, in.DesignBasis = finite(p.P), "target P at every size"
		if r, err := f.Model().FPR(st.Items); err == nil {
			in.TheoryFPR = finite(r)
		}
	case *variants.Dynamic:
		p := f.Params()
		in.StageCapacity, in.StageCount = p.N, f.Stages()
		in.DesignFPR, in.DesignBasis = finite(p.P), "rate of one full stage"
		if r, err := f.Model().FPR(st.Items); err == nil {
			in.TheoryFPR = finite(r)
		}
	case *variants.RedisBloom:
		p := f.Params()
		in.FirstCapacity, in.Expansion, in.PowerOfTwo, in.StageCount = p.Capacity, uint64(p.Expansion), p.PowerOfTwo, f.Links()
		in.DesignFPR, in.DesignBasis = finite(p.ErrorRate), "error rate of BF.RESERVE"
		if r, err := f.Model().FPR(st.Items); err == nil {
			in.TheoryFPR = finite(r)
		}
	case *variants.AgePartitioned:
		p, m := f.Params(), f.Model()
		in.K, in.L, in.Generation, in.SliceBits, in.Slices = p.K, p.L, p.G, p.SliceBits, p.K+p.L
		in.Window, in.Position = f.Window(), f.Position()
		if p.Refresh != 0 {
			in.Refresh = p.Refresh.String()
		}
		in.DesignFPR, in.DesignBasis = finite(m.WorstFPR()), "theory at the worst point of the generation cycle"
		in.TheoryFPR = finite(m.FPR(f.Position()))
	}
	return in, nil
}

// readHeader reads the format's header from the file at path: its size,
// format version and variant code (the library has validated the rest).
func readHeader(path string, in *filterInfo) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var h [7]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	in.FileBytes = fi.Size()
	in.FormatVersion = binary.LittleEndian.Uint16(h[4:6])
	in.FormatCode = h[6]
	in.Format = formatNames[h[6]]
	if in.Format == "" {
		in.Format = fmt.Sprintf("code %d", h[6])
	}
	return nil
}

// finite returns a pointer to x, or nil if x is not finite (JSON has no
// infinity).
func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// printInfo prints in as aligned lines, then the tables.
func printInfo(w io.Writer, in *filterInfo) error {
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-22s %s\n", label, fmt.Sprintf(format, args...))
	}
	line("file", "%s (%d bytes)", in.File, in.FileBytes)
	line("variant", "%s", in.Variant)
	line("format", "code %d, %s; version %d", in.FormatCode, in.Format, in.FormatVersion)
	if in.CellBits > 1 {
		line("bits (m)", "%d (%s): %d counters of %d bits", in.Bits, units.FormatBytes(in.Bits), in.Cells, in.CellBits)
	} else {
		line("bits (m)", "%d (%s)", in.Bits, units.FormatBytes(in.Bits))
	}
	hashesNote := ""
	if in.StageCount > 0 {
		hashesNote = " (newest stage)"
	}
	line("hashes (k)", "%d%s", in.Hashes, hashesNote)
	if in.Variant == "partitioned" {
		line("slices", "%d of %d bits", in.Slices, in.SliceBits)
	}
	if in.K > 0 {
		line("slices", "%d (K = %d set by each key, L = %d more) of %d bits", in.Slices, in.K, in.L, in.SliceBits)
		line("generation", "%d items (position %d)", in.Generation, in.Position)
		line("window", "%d most recent keys always present", in.Window)
		if in.Refresh != "" {
			line("refresh", "%s", in.Refresh)
		}
	}
	if in.Blocks > 0 {
		line("blocks", "%d of %d bits", in.Blocks, in.BlockBits)
	} else if in.BlockBits > 0 {
		line("block bits", "%d (blocked stages)", in.BlockBits)
	}
	if in.Width > 0 {
		line("counter width", "%d bits (%d saturated)", in.Width, in.Saturated)
	}
	key := ""
	if in.Hashing.Key != "" {
		key = ", key " + in.Hashing.Key
	}
	derivation := in.Hashing.Derivation
	if derivation == ownPositions {
		derivation = "positions by the variant's own rule"
	}
	line("hashing", "%s, %s, seed %d%s", in.Hashing.Kind, derivation, in.Hashing.Seed, key)
	switch {
	case in.TighteningRatio > 0:
		line("parameters", "tightening ratio r = %g, growth s = %g, first stage n0 = %d", in.TighteningRatio, in.Growth, in.FirstCapacity)
	case in.StageCapacity > 0:
		line("parameters", "stage capacity N = %d", in.StageCapacity)
	case in.Expansion > 0:
		line("parameters", "first link capacity %d, expansion %d, power-of-two tables %v", in.FirstCapacity, in.Expansion, in.PowerOfTwo)
	}
	if in.StageCount > 0 && in.Expansion > 0 {
		line("stages", "%d (links)", in.StageCount)
	} else if in.StageCount > 0 {
		line("stages", "%d", in.StageCount)
	}
	if in.Capacity > 0 {
		line("capacity (n)", "%d items", in.Capacity)
	} else {
		line("capacity (n)", "unknown (built from a geometry)")
	}
	line("items", "%d", in.Items)
	line("fill ratio", "%.6g", in.FillRatio)
	if in.EstimatedItems != nil {
		line("estimated items", "%.6g (from the fill)", *in.EstimatedItems)
	} else {
		line("estimated items", "unknown: the filter is saturated")
	}
	if in.DesignFPR != nil {
		line("design rate", "%s (%s)", rate(*in.DesignFPR), in.DesignBasis)
	} else {
		line("design rate", "none: %s", in.DesignBasis)
	}
	if in.TheoryFPR != nil {
		line("theory now", "%s (the model at the items held)", rate(*in.TheoryFPR))
	}
	line("rate from fill", "%s (what the filter answers now)", rate(in.EstimatedFPR))
	if in.BitsPerKey != nil {
		line("bits per key", "%.4g", *in.BitsPerKey)
	}
	if in.BitsPerCapacity != nil {
		line("bits per key at n", "%.4g", *in.BitsPerCapacity)
	}
	if in.BlockFill != nil {
		line("block fill", "mean %.4g, sd %.4g, min %.4g, max %.4g", in.BlockFill.Mean, in.BlockFill.StdDev, in.BlockFill.Min, in.BlockFill.Max)
	}
	if in.GrowthError != "" {
		line("growth error", "%s", in.GrowthError)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if len(in.StageTable) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "stage\tcapacity\titems\thashes\tbits\tfill\tdesign rate\trate from fill\testimated items\t")
		for i, s := range in.StageTable {
			est := "saturated"
			if s.EstimatedItems != nil {
				est = strconv.FormatFloat(*s.EstimatedItems, 'g', 6, 64)
			}
			fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%.4g\t%.4g\t%.4g\t%s\t\n", i, s.Capacity, s.Items, s.Hashes, s.Bits, s.FillRatio, s.Error, s.EstimatedFPR, est)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(in.SliceTable) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "slice age\titems\tbits\tfill\t")
		for _, s := range in.SliceTable {
			fmt.Fprintf(tw, "%d\t%d\t%d\t%.4g\t\n", s.Age, s.Items, s.Bits, s.FillRatio)
		}
		return tw.Flush()
	}
	return nil
}

// rate prints a rate with "1 in N".
func rate(p float64) string {
	if p <= 0 {
		return "0"
	}
	return fmt.Sprintf("%.4g (1 in %.4g)", p, 1/p)
}
