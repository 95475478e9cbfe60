package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// The values of -variant.
const (
	standard   = "standard"
	blocked    = "blocked"
	splitBlock = "split-block"
)

// checkBlockBits reports an error, naming -block, unless b is a block size
// that variants.Blocked accepts.
func checkBlockBits(b int) error {
	if b < variants.MinBlockBits || b > variants.MaxBlockBits || b&(b-1) != 0 {
		return fmt.Errorf("-block: %d bits, want a power of two from %d to %d (%d, one 64-byte cache line, by default)",
			b, variants.MinBlockBits, variants.MaxBlockBits, variants.DefaultBlockBits)
	}
	return nil
}

// combinations says which flags -variant v takes.
func combinations(v string) string {
	if v == blocked {
		return "give -n and -p (for m and k), or -n and -m, with or without -k (for the rate)"
	}
	return "give -n and -p (for m), or -n and -m (for the rate); k is always 8"
}

// variantResult is what bloomcalc prints for a blocked or split-block
// filter.
type variantResult struct {
	Variant    string  `json:"variant"`
	BlockBits  uint64  `json:"block_bits"`
	Blocks     uint64  `json:"blocks"`
	N          uint64  `json:"n"`
	M          uint64  `json:"m"`
	Bytes      uint64  `json:"bytes"` // whole blocks of whole 64-bit words
	Memory     string  `json:"memory"`
	K          int     `json:"k"`
	P          float64 `json:"p"` // the target if -p was given, else the exact rate
	BitsPerKey float64 `json:"bits_per_key"`
	// InformationMinimum is log2(1/p) bits per key, and Overhead the
	// bits per key over it.
	InformationMinimum float64 `json:"information_minimum_bits_per_key"`
	Overhead           float64 `json:"overhead"`
	// Standard is the standard filter for the same n and p; nil if p is
	// not a rate a filter can be sized for (0 or 1 after rounding).
	Standard *standardSize `json:"standard,omitempty"`
	ExactFPR float64       `json:"fpr_exact"`
	// PutzeFPR is the approximation of Putze, Sanders and Singler
	// (analysis.BlockedClassicFPR); blocked filters only.
	PutzeFPR *float64 `json:"fpr_putze,omitempty"`
	// Limit is the verdict of the memory limit for one filter.
	Limit *limitResult `json:"limit"`
}

// standardSize is the size of the standard filter that a blocked or
// split-block filter is compared with.
type standardSize struct {
	M          uint64  `json:"m"`
	Bytes      uint64  `json:"bytes"` // whole 64-bit words
	Memory     string  `json:"memory"`
	BitsPerKey float64 `json:"bits_per_key"`
	// PenaltyPercent is how many percent more bits the variant takes.
	PenaltyPercent float64 `json:"penalty_percent"`
}

// runVariant sizes a blocked (v = blocked, with blocks of blockBits bits)
// or split-block filter from the known values, of which given names the
// flags, and prints it. Like run, it returns command-line problems through
// usage.
func runVariant(stdout io.Writer, v string, blockBits uint64, known analysis.Sizing, given []string, jsonOut bool,
	usage func(error) error) error {
	if v == splitBlock {
		blockBits = analysis.SplitBlockBits
		if known.K != 0 && known.K != analysis.SplitBlockHashes {
			return usage(fmt.Errorf("-k: a split-block filter always uses %d hashes (one bit in each of its eight 32-bit words), not %d; omit -k",
				analysis.SplitBlockHashes, known.K))
		}
	}
	hasN, hasM, hasK, hasP := known.N != 0, known.M != 0, known.K != 0, known.P != 0
	if v == splitBlock {
		hasK = false // -k 8 changes nothing
	}
	flags := strings.Join(given, ", ")
	const fn, fm, fk, fp = 1, 2, 4, 8
	have := 0
	for _, f := range []struct {
		ok  bool
		bit int
	}{{hasN, fn}, {hasM, fm}, {hasK, fk}, {hasP, fp}} {
		if f.ok {
			have |= f.bit
		}
	}
	supported := []int{fn | fp, fn | fm}
	if v == blocked {
		supported = append(supported, fn|fm|fk)
	}
	ok, partial := false, false
	for _, s := range supported {
		ok = ok || have == s
		partial = partial || have&s == have
	}
	switch {
	case ok:
	case partial:
		what := "no flags given"
		if len(given) > 0 {
			what = "only " + strings.Join(given, " and ") + " given"
		}
		return usage(fmt.Errorf("not enough to size a %s filter: %s; %s", v, what, combinations(v)))
	default:
		return usage(fmt.Errorf("%s: not supported for a %s filter; %s", flags, v, combinations(v)))
	}

	r := variantResult{Variant: v, BlockBits: blockBits, N: known.N, P: known.P}
	if hasP {
		// Under one bit per item the blocks hold so many items that the
		// load distributions get long and slow to sum (and the filter
		// answers yes to nearly everything).
		sd, err := analysis.StandardSize(known.N, known.P)
		if err != nil {
			return usage(fmt.Errorf("%s: %w", flags, err))
		}
		std := sd.Bits
		if std < known.N {
			return usage(fmt.Errorf("-p: at p = %g even a standard filter has under one bit per item; %s filters are sized from one bit per item up (p at most 0.618)",
				known.P, v))
		}
		if v == blocked {
			var bl analysis.Blocked
			bl, err = analysis.BlockedSize(known.N, known.P, blockBits)
			r.M, r.K = bl.Bits, bl.Hashes
		} else {
			var sb analysis.SplitBlock
			sb, err = analysis.SplitBlockSize(known.N, known.P)
			r.M = sb.Bits
		}
		if err != nil {
			return usage(fmt.Errorf("%s: %w", flags, err))
		}
	} else {
		m := known.M
		if m > analysis.MaxBits {
			return usage(fmt.Errorf("-m: %d bits exceeds the maximum %d", m, uint64(analysis.MaxBits)))
		}
		if m%blockBits != 0 {
			lo := m / blockBits * blockBits
			if lo == 0 {
				return usage(fmt.Errorf("-m: %d bits is less than one %d-bit block, the smallest valid size", m, blockBits))
			}
			return usage(fmt.Errorf("-m: %d bits is not a whole number of %d-bit blocks; the nearest valid sizes are %d bits (%d blocks) and %d bits (%d blocks)",
				m, blockBits, lo, lo/blockBits, lo+blockBits, lo/blockBits+1))
		}
		if m < known.N {
			return usage(fmt.Errorf("%s: %d bits for %d items is under one bit per item; %s filters are rated from one bit per item up (-m at least %d)",
				flags, m, known.N, v, known.N))
		}
		r.M, r.K = m, known.K
		if v == blocked && !hasK {
			r.K = analysis.BlockedOptimalHashes(m, known.N, blockBits)
		}
		if v == blocked {
			if err := analysis.CheckBlocked(m, blockBits, r.K); err != nil {
				return usage(fmt.Errorf("%s: %w", flags, err))
			}
		}
	}
	if v == blocked {
		r.ExactFPR = analysis.BlockedFPR(r.M, r.N, r.K, blockBits)
		putze := analysis.BlockedClassicFPR(r.M, r.N, r.K, blockBits)
		r.PutzeFPR = &putze
	} else {
		r.K = analysis.SplitBlockHashes
		r.ExactFPR = analysis.SplitBlockFPR(r.M, r.N)
	}
	if !hasP {
		r.P = r.ExactFPR
	}
	r.Blocks = r.M / blockBits
	r.Bytes = wordBytes(r.M)
	r.Memory = memory(r.Bytes)
	r.BitsPerKey = analysis.BitsPerKey(r.M, r.N)
	r.InformationMinimum = analysis.InformationMinimum(r.P)
	r.Overhead = r.BitsPerKey / r.InformationMinimum
	if sd, err := analysis.StandardSize(r.N, r.P); err == nil {
		std := sd.Bits
		r.Standard = &standardSize{
			M:              std,
			Bytes:          wordBytes(std),
			Memory:         memory(wordBytes(std)),
			BitsPerKey:     analysis.BitsPerKey(std, r.N),
			PenaltyPercent: 100 * (float64(r.M)/float64(std) - 1),
		}
	}
	r.Limit = memoryLimit(v, r.Bytes+alignBytes)
	if jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return printVariant(stdout, r, hasP)
}

func printVariant(w io.Writer, r variantResult, target bool) error {
	pLabel := "rate (p)"
	if target {
		pLabel = "target rate (p)"
	}
	kind := fmt.Sprintf("blocked, %d-bit blocks", r.BlockBits)
	hashes := fmt.Sprintf("%d", r.K)
	fpr := fmt.Sprintf("exact %.6g", r.ExactFPR)
	if r.Variant == splitBlock {
		kind = "split-block, 256-bit blocks of eight 32-bit words"
		hashes += " (one bit in each word)"
	} else {
		fpr += fmt.Sprintf(", Putze et al. approximation %.6g", *r.PutzeFPR)
	}
	lines := [][2]string{
		{"variant", kind},
		{"capacity (n)", fmt.Sprintf("%s items", groupUint(r.N))},
		{pLabel, fmt.Sprintf("%.4g (1 in %s)", r.P, oneIn(r.P))},
		{"bits (m)", fmt.Sprintf("%s (%s), %s blocks", groupUint(r.M), r.Memory, groupUint(r.Blocks))},
		{"hashes (k)", hashes},
		{"bits per key", fmt.Sprintf("%.3f", r.BitsPerKey)},
	}
	if s := r.Standard; s != nil {
		lines = append(lines,
			[2]string{"standard filter", fmt.Sprintf("%s bits (%s), %.3f bits per key, for the same n and p", groupUint(s.M), s.Memory, s.BitsPerKey)},
			[2]string{"block penalty", fmt.Sprintf("%+.2f%% bits against the standard filter", s.PenaltyPercent)})
	}
	lines = append(lines, [2]string{"FPR at (m, n, k)", fpr})
	lines = append(lines, limitLines(r.Limit)...)
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%-21s %s\n", l[0], l[1])
	}
	_, err := io.WriteString(w, b.String())
	return err
}
