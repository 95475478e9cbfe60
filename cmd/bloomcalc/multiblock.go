package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// maxPoissonWork bounds (C K)^2, the work of analysis.Multiblock.FPR for an
// overlapping block layout beyond its exact sum (the dynamic programme over
// the C cells of a window, C = w / gcd(stride, w), with K bits to stay
// clear): about 0.1 s at 5e7 (K up to 110 in 512-bit words at a byte
// stride, 13 in 4096-bit ones). analysis bounds the exact sums itself (it
// refuses an overlapping multiblock layout beyond 1e8 operations, with an
// error that bloomcalc shows), not this programme: at w = 4096 and K = 4096
// at a byte stride it would run for minutes. When bloomcalc chooses k, a
// k beyond this bound is not tried.
const maxPoissonWork = 5e7

// maxBlockHashes bounds k in a block layout (k bits in one word): each
// rate of one builds matrices of (k + 1)^2 entries, one per bit of the
// probes' count (about 80 MB at k = 700), and the figure rates it at every
// point. Block layouts are sized well below it (k about 14 at 20 bits per
// key).
const maxBlockHashes = 64

// mbLayout is a checked multiblock layout: window w, K, multi, stride and
// block L, in bits.
type mbLayout struct {
	w      uint64
	k      int
	multi  bool
	stride uint64 // bits; L at the natural stride
	l      uint64
}

// newLayout checks a layout for k hashes, as variants.NewMultiblock does,
// with messages that name the flags.
func newLayout(w uint64, k int, multi bool, strideBytes uint64) (mbLayout, error) {
	if w < variants.MinMultiblockWordBits || w > variants.MaxMultiblockBlockBits || w&(w-1) != 0 {
		return mbLayout{}, fmt.Errorf("-word: %d bits, want a power of two from %d to %d (%d, one 64-bit word, by default)",
			w, variants.MinMultiblockWordBits, variants.MaxMultiblockBlockBits, variants.DefaultMultiblockWordBits)
	}
	if k < 1 || k > analysis.MaxHashes {
		return mbLayout{}, fmt.Errorf("-k: %d hash functions, want 1 to %d", k, analysis.MaxHashes)
	}
	l := w
	if multi {
		if uint64(k)*w > variants.MaxMultiblockBlockBits {
			return mbLayout{}, fmt.Errorf("-k, -word, -multi: k = %d words of %d bits span %d bits, more than a block's %d; use fewer hashes or narrower words",
				k, w, uint64(k)*w, variants.MaxMultiblockBlockBits)
		}
		l = uint64(k) * w
	} else if uint64(k) > w {
		return mbLayout{}, fmt.Errorf("-k, -word: k = %d bits in one %d-bit word, want k <= %d (or -multi, one bit in each of k words)", k, w, w)
	} else if k > maxBlockHashes {
		return mbLayout{}, fmt.Errorf("-k: k = %d bits in one word; bloomcalc rates block layouts up to k = %d (the rate's matrices grow as k^2)", k, maxBlockHashes)
	}
	// At the natural stride (-stride 0) the stride is L, which grows with
	// K in a multiblock layout.
	lay := mbLayout{w: w, k: k, multi: multi, stride: 8 * strideBytes, l: l}
	if strideBytes == 0 {
		lay.stride = l
	}
	if lay.stride > l {
		what := fmt.Sprintf("the block's %s (%d bits)", plural(l/8, "byte"), l)
		if multi {
			what = fmt.Sprintf("the block of k = %d (%s of %d bits, %s)", k, plural(uint64(k), "word"), w, plural(l/8, "byte"))
		}
		return mbLayout{}, fmt.Errorf("-stride: %d bytes, more than %s; want 1 to %d, or 0 for blocks that do not overlap",
			strideBytes, what, l/8)
	}
	if lay.stride < l && !multi {
		c := w / gcd(lay.stride, w)
		if work := float64(c*uint64(k)) * float64(c*uint64(k)); work > maxPoissonWork {
			return mbLayout{}, fmt.Errorf("-k, -word, -stride: the rate of k = %d bits in %d-bit words at a stride of %s takes about %.3g operations, beyond bloomcalc's bound of %.3g; use a stride of whole words, fewer hashes or narrower words",
				k, w, plural(strideBytes, "byte"), work, float64(maxPoissonWork))
		}
	}
	return lay, nil
}

// gcd returns the greatest common divisor of a and b.
func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// model returns the analysis geometry of the layout with the given starts.
func (lay mbLayout) model(starts uint64) analysis.Multiblock {
	b := analysis.Multiblock{Bits: (starts-1)*lay.stride + lay.l, Hashes: lay.k, WordBits: lay.w, Multi: lay.multi}
	if lay.stride != lay.l {
		b.StrideBits = lay.stride
	}
	return b
}

// maxStarts is the most starts within analysis.MaxBits.
func (lay mbLayout) maxStarts() uint64 { return (analysis.MaxBits-lay.l)/lay.stride + 1 }

// multiblockResult is what bloomcalc prints for a multiblock filter.
type multiblockResult struct {
	Variant string `json:"variant"` // "multiblock"
	// Layout says the layout in words, as Boost.Bloom names it.
	Layout   string `json:"layout"`
	WordBits uint64 `json:"word_bits"` // w
	Multi    bool   `json:"multi"`     // one bit in each of k words
	// StrideBytes is the distance between consecutive starts, and
	// BlockBits the bits a key's block spans; blocks overlap when the
	// stride is below the block.
	StrideBytes uint64  `json:"stride_bytes"`
	BlockBits   uint64  `json:"block_bits"`
	Starts      uint64  `json:"starts"` // P, the blocks a key may pick
	N           uint64  `json:"n"`      // capacity
	M           uint64  `json:"m"`      // one block and whole strides
	Bytes       uint64  `json:"bytes"`  // whole 64-bit words
	Memory      string  `json:"memory"`
	K           int     `json:"k"`            // bits a key sets
	P           float64 `json:"p"`            // the target if -p was given, else the exact rate
	BitsPerKey  float64 `json:"bits_per_key"` // m / n
	// InformationMinimum is log2(1/p) bits per key, and Overhead the
	// bits per key over it.
	InformationMinimum float64 `json:"information_minimum_bits_per_key"`
	Overhead           float64 `json:"overhead"`
	// Standard is the standard filter for the same n and p.
	Standard *standardSize `json:"standard,omitempty"`
	// ExactFPR is analysis.Multiblock.FPR, and BoostFPR Boost.Bloom's own
	// estimate (analysis.Multiblock.BoostApproxFPR).
	ExactFPR float64 `json:"fpr_exact"`
	BoostFPR float64 `json:"fpr_boost"`
	// Note says how -m was rounded, if it was.
	Note string `json:"note,omitempty"`
	// Limit is the verdict of the memory limit for one filter.
	Limit *limitResult `json:"limit"`
}

// layoutText names a layout: "multiblock<uint64_t, 6>: one bit in each of
// 6 consecutive 64-bit words, blocks at every byte (overlapping)".
func layoutText(lay mbLayout) string {
	word := fmt.Sprintf("%d-bit words", lay.w)
	var s string
	if lay.multi {
		s = fmt.Sprintf("multiblock: one bit in each of %d consecutive %s", lay.k, word)
	} else {
		s = fmt.Sprintf("block: %d bits in one %d-bit word", lay.k, lay.w)
	}
	if lay.stride == lay.l {
		return s + ", blocks side by side (no overlap)"
	}
	if lay.stride == 8 {
		return s + ", a block at every byte (overlapping)"
	}
	return s + fmt.Sprintf(", a block at every %d bytes (overlapping)", lay.stride/8)
}

// mbRate returns the rate of the layout with the given starts at n items,
// checking ctx first.
func mbRate(ctx context.Context, lay mbLayout, starts, n uint64) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	b := lay.model(starts)
	var f float64
	var err error
	if b.Overlapping() {
		// An overlapping layout's rate may take a few tenths of a second.
		f, err = detached(ctx, func() (float64, error) { return b.FPR(n) })
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
	} else {
		f, err = b.FPR(n)
	}
	if err != nil {
		return 0, fmt.Errorf("-k, -word, -multi, -stride: %w", err)
	}
	return f, nil
}

// mbSize returns the fewest starts at which the layout holds n items at
// rate at most p, the size variants.MultiblockGeometry finds (which
// brackets it from the standard filter's size and bisects); here the
// bracket is narrower (steps of 10% from the standard filter's size) and
// its points are chosen by false position on the logarithm of the rate
// (the Illinois method, bisecting when it stalls), which takes a handful of
// rates instead of some thirty: an overlapping layout's rate costs up to a
// few tenths of a second. ctx is checked before every rate.
func mbSize(ctx context.Context, lay mbLayout, n uint64, p float64) (uint64, error) {
	maxStarts := lay.maxStarts()
	excess := func(starts uint64) (float64, error) { // log(rate / p): <= 0 fits
		f, err := mbRate(ctx, lay, starts, n)
		if err != nil {
			return 0, err
		}
		return math.Log(f / p), nil
	}
	guess := -float64(n) * math.Log(p) / (math.Ln2 * math.Ln2) / float64(lay.stride)
	hi := uint64(min(max(guess, 1), float64(maxStarts)))
	fhi, err := excess(hi)
	if err != nil {
		return 0, err
	}
	// lo = 0 stands for no table at all, which never fits.
	lo, flo := uint64(0), math.Inf(1)
	if fhi > 0 {
		for fhi > 0 {
			if hi == maxStarts {
				return 0, fmt.Errorf("-n, -p: a multiblock filter of %d items at rate %g needs more than %d bits", n, p, uint64(analysis.MaxBits))
			}
			lo, flo = hi, fhi
			hi = min(hi+hi/10+1, maxStarts)
			if fhi, err = excess(hi); err != nil {
				return 0, err
			}
		}
	} else {
		for hi > 1 {
			next := hi - hi/10 - 1
			if next < 1 {
				next = 1
			}
			f, err := excess(next)
			if err != nil {
				return 0, err
			}
			if f > 0 {
				lo, flo = next, f
				break
			}
			hi, fhi = next, f
		}
	}
	side := 0 // the end kept last time: -1 lo, +1 hi (Illinois halves its value)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if !math.IsInf(flo, 0) && flo > fhi && !math.IsNaN(flo-fhi) {
			x := float64(lo) + float64(hi-lo)*flo/(flo-fhi)
			mid = uint64(min(max(math.Round(x), float64(lo+1)), float64(hi-1)))
		}
		f, err := excess(mid)
		if err != nil {
			return 0, err
		}
		if f <= 0 {
			hi, fhi = mid, f
			if side == 1 {
				flo /= 2
			}
			side = 1
		} else {
			lo, flo = mid, f
			if side == -1 {
				fhi /= 2
			}
			side = -1
		}
	}
	return hi, nil
}

// runMultiblock sizes a multiblock filter of the layout given by -word,
// -multi and -stride: from n and p the fewest bits (one block and whole
// strides) whose exact rate is at most p, with -k or the K that needs the
// fewest bits (the rule of variants.MultiblockGeometry); from n and m the
// rate of the largest table of whole strides within m bits, with -k or the
// K of the lowest rate.
func runMultiblock(ctx context.Context, stdout io.Writer, mf moreFlags, known analysis.Sizing, given []string, jsonOut bool,
	usage func(error) error) error {
	w, multi := uint64(max(*mf.word, 0)), *mf.multi
	if *mf.stride < 0 {
		return usage(fmt.Errorf("-stride: %d bytes, want 1 to the block's bytes, or 0 for blocks that do not overlap", *mf.stride))
	}
	strideBytes := uint64(*mf.stride)
	// The layout's own checks first, with k = 1 if k is to be chosen, as
	// variants.MultiblockGeometry does (so a multiblock layout whose
	// one-word block is shorter than the stride is refused).
	if _, err := newLayout(w, max(known.K, 1), multi, strideBytes); err != nil {
		return usage(err)
	}
	hasN, hasM, hasP := known.N != 0, known.M != 0, known.P != 0
	const how = "give -n and -p (for m and k), or -n and -m (for the rate), with or without -k"
	switch {
	case hasN && hasP && !hasM, hasN && hasM && !hasP:
	case hasN && hasM && hasP:
		return usage(fmt.Errorf("%s: not supported for a multiblock filter; %s", strings.Join(given, ", "), how))
	default:
		what := "nothing given"
		if len(given) > 0 {
			what = "only " + strings.Join(given, " and ") + " given"
		}
		return usage(fmt.Errorf("not enough to size a multiblock filter: %s; %s", what, how))
	}
	// The K to try: -k, or 1 up to the layout's limit.
	ks := []int{known.K}
	if known.K == 0 {
		ks = nil
		for k := 1; k <= analysis.MaxHashes; k++ {
			if _, err := newLayout(w, k, multi, strideBytes); err != nil {
				break // k beyond the word or the block's maximum
			}
			ks = append(ks, k)
		}
	}
	var best mbLayout
	var bestStarts uint64
	var bestRate float64
	note := ""
	if hasP {
		if err := analysis.CheckProbability("p", known.P); err != nil {
			return usage(fmt.Errorf("-p: %w", err))
		}
		if float64(known.N)*-math.Log2(known.P) > analysis.MaxBits {
			return usage(fmt.Errorf("-n, -p: a multiblock filter of %d items at rate %g needs more than %d bits", known.N, known.P, uint64(analysis.MaxBits)))
		}
		bestBits := uint64(math.MaxUint64)
		for _, k := range ks {
			lay, _ := newLayout(w, k, multi, strideBytes)
			starts, err := mbSize(ctx, lay, known.N, known.P)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if best.k == 0 {
					return usage(err)
				}
				break
			}
			if bits := lay.model(starts).Bits; bits < bestBits {
				best, bestStarts, bestBits = lay, starts, bits
			} else if k >= best.k+2 {
				break
			}
		}
	} else {
		if known.M > analysis.MaxBits {
			return usage(fmt.Errorf("-m: %d bits exceeds the maximum %d", known.M, uint64(analysis.MaxBits)))
		}
		// Under one bit per item the blocks' loads are long to sum (and
		// the filter answers yes to nearly everything): refused before any
		// rate, as for blocked filters.
		if known.M < known.N {
			return usage(fmt.Errorf("%s: %d bits for %d items is under one bit per item; multiblock filters are rated from one bit per item up (-m at least %d)",
				strings.Join(given, ", "), known.M, known.N, known.N))
		}
		bestRate = math.Inf(1)
		for _, k := range ks {
			lay, _ := newLayout(w, k, multi, strideBytes)
			if known.M < lay.l {
				if best.k == 0 {
					return usage(fmt.Errorf("-m: %d bits, less than one block of %d bits", known.M, lay.l))
				}
				break
			}
			starts := (known.M-lay.l)/lay.stride + 1
			f, err := mbRate(ctx, lay, starts, known.N)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if best.k == 0 {
					return usage(err)
				}
				break
			}
			if f < bestRate {
				best, bestStarts, bestRate = lay, starts, f
			} else if k >= best.k+2 {
				break
			}
		}
		if m := best.model(bestStarts).Bits; m != known.M {
			note = fmt.Sprintf("-m %d rounded down to one block of %d bits and %d whole strides of %d bits: %d bits", known.M, best.l, bestStarts-1, best.stride, m)
		}
	}
	b := best.model(bestStarts)
	r := multiblockResult{Variant: multiblock, Layout: layoutText(best), WordBits: best.w, Multi: best.multi, StrideBytes: best.stride / 8,
		BlockBits: best.l, Starts: bestStarts, N: known.N, M: b.Bits, K: best.k, P: known.P, Note: note}
	var err error
	if r.ExactFPR, err = mbRate(ctx, best, bestStarts, known.N); err != nil {
		return usage(err)
	}
	r.BoostFPR = b.BoostApproxFPR(known.N)
	if !hasP {
		r.P = r.ExactFPR
	}
	if r.M < r.N {
		return usage(fmt.Errorf("%s: %d bits for %d items is under one bit per item; multiblock filters are rated from one bit per item up (-m at least %d)",
			strings.Join(given, ", "), r.M, r.N, r.N))
	}
	if !(r.P > 0) {
		return usage(fmt.Errorf("%s: m = %d, n = %d and k = %d give a rate that rounds to 0, below what the exact sum resolves; give fewer bits per item or fewer hashes",
			strings.Join(given, ", "), r.M, r.N, r.K))
	}
	if r.P >= 0.9995 {
		return usage(fmt.Errorf("%s: m = %d, n = %d and k = %d give a rate of %.4g; use a larger -m", strings.Join(given, ", "), r.M, r.N, r.K, r.P))
	}
	r.Bytes = wordBytes(r.M)
	r.Memory = memory(r.Bytes)
	r.BitsPerKey = analysis.BitsPerKey(r.M, r.N)
	r.InformationMinimum = analysis.InformationMinimum(r.P)
	r.Overhead = r.BitsPerKey / r.InformationMinimum
	if sd, err := analysis.StandardSize(r.N, r.P); err == nil {
		r.Standard = &standardSize{M: sd.Bits, Bytes: wordBytes(sd.Bits), Memory: memory(wordBytes(sd.Bits)),
			BitsPerKey: analysis.BitsPerKey(sd.Bits, r.N), PenaltyPercent: 100 * (float64(r.M)/float64(sd.Bits) - 1)}
	}
	r.Limit = memoryLimit(multiblock, r.Bytes+alignBytes)
	if jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return printMultiblock(stdout, r, hasP)
}

func printMultiblock(w io.Writer, r multiblockResult, target bool) error {
	pLabel := "rate (p)"
	if target {
		pLabel = "target rate (p)"
	}
	lines := [][2]string{
		{"variant", r.Layout},
		{"capacity (n)", fmt.Sprintf("%s items", groupUint(r.N))},
		{pLabel, fmt.Sprintf("%.4g (1 in %s)", r.P, oneIn(r.P))},
		{"bits (m)", fmt.Sprintf("%s (%s), %s starts of %d-bit blocks, %s apart", groupUint(r.M), r.Memory, groupUint(r.Starts), r.BlockBits, plural(r.StrideBytes, "byte"))},
	}
	if r.Note != "" {
		lines = append(lines, [2]string{"", r.Note})
	}
	lines = append(lines,
		[2]string{"hashes (k)", fmt.Sprintf("%d", r.K)},
		[2]string{"bits per key", fmt.Sprintf("%.3f", r.BitsPerKey)})
	if s := r.Standard; s != nil {
		lines = append(lines,
			[2]string{"standard filter", fmt.Sprintf("%s bits (%s), %.3f bits per key, for the same n and p", groupUint(s.M), s.Memory, s.BitsPerKey)},
			[2]string{"block penalty", fmt.Sprintf("%+.2f%% bits against the standard filter", s.PenaltyPercent)})
	}
	lines = append(lines, [2]string{"FPR at (m, n, k)", fmt.Sprintf("exact %.6g, Boost.Bloom's estimate %.6g", r.ExactFPR, r.BoostFPR)})
	lines = append(lines, limitLines(r.Limit)...)
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%-21s %s\n", l[0], l[1])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// plural writes "1 byte", "8 bytes".
func plural(n uint64, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return groupUint(n) + " " + unit + "s"
}
