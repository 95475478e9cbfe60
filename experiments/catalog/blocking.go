package catalog

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// blockingVariants are the filters the blocking experiment sets side by
// side: a standard filter, blocked filters of three block sizes, the
// split-block filter and three of Boost.Bloom's layouts
// (blockingLayouts).
var blockingVariants = []string{"standard", "blocked-256", "blocked", "blocked-1024", "split-block", "multiblock-64", "block-64", "block-64-1"}

// blockingLayout is a layout of variants.Multiblock in the blocking
// experiment, named as Boost.Bloom names it.
type blockingLayout struct {
	series     string // Boost's name
	wordBits   uint64
	multi      bool
	strideBits uint64 // 0: the natural stride, blocks that do not overlap
}

// blockingLayouts are the Multiblock layouts of the blocking experiment:
// one bit in each of K 64-bit words (multiblock<uint64_t,K>), K bits in
// one 64-bit word (block<uint64_t,K>, the blocked filter of 64-bit blocks)
// and the same word starting at any byte (block<uint64_t,K>,1), whose
// overlapping blocks even out the load.
var blockingLayouts = map[string]blockingLayout{
	"multiblock-64": {"multiblock<uint64_t,K>", 64, true, 0},
	"block-64":      {"block<uint64_t,K>", 64, false, 0},
	"block-64-1":    {"block<uint64_t,K>,1", 64, false, 8},
}

// model returns the layout's theory at m bits and k hashes.
func (l blockingLayout) model(m uint64, k int) analysis.Multiblock {
	return analysis.Multiblock{Bits: m, Hashes: k, WordBits: l.wordBits, Multi: l.multi, StrideBits: l.strideBits}
}

// params returns the variants.Multiblock parameters of the layout with
// geometry g and hashing h.
func (l blockingLayout) params(g variants.Geometry, h variants.Hashing) variants.MultiblockParams {
	return variants.MultiblockParams{Geometry: g, WordBits: l.wordBits, Multi: l.multi, StrideBits: l.strideBits, Hashing: h}
}

// geometry returns the layout's bits, m rounded up to one block and whole
// strides, and the K that minimises its exact rate at n keys: K from 1
// up, stopping two past the best (the exact sum of an overlapping layout
// costs more the larger K).
func (l blockingLayout) geometry(m, n uint64) (uint64, int, error) {
	bestM, bestK, best := uint64(0), 0, math.Inf(1)
	for k := 1; k <= variants.MaxHashes && (bestK == 0 || k < bestK+3); k++ {
		b := l.model(m, k)
		lb, s := b.BlockBits(), b.Stride()
		if !l.multi && uint64(k) > l.wordBits || lb > variants.MaxMultiblockBlockBits {
			break
		}
		b.Bits = lb + (max(m, lb)-lb+s-1)/s*s
		f, err := b.FPR(n)
		if err != nil {
			return 0, 0, err
		}
		if f < best {
			bestM, bestK, best = b.Bits, k, f
		}
	}
	return bestM, bestK, nil
}

var blockingExperiment = Experiment{
	Name: "blocking",
	Summary: "cache-blocked filters against a standard one: false-positive rate against bits per key (1 to 32) " +
		"for blocked filters of 256, 512 and 1024-bit blocks, the split-block filter and Boost.Bloom's multiblock<uint64_t,K>, " +
		"block<uint64_t,K> and block<uint64_t,K>,1 (byte stride) layouts, beside each exact theory, " +
		"and the rate of filters sized for p from 64 blocks to millions",
	Variants:  []string{"standard", "blocked", "split-block"},
	Shardable: true,
	flags:     fixedFlags("n", "p", "filters", "queries", "keys"),
	defaults: func(_ string, quick bool) experiments.Params {
		keys := []uint64{2e3, 2e4, 2e5, 2e6, 2e7}
		if quick {
			keys = keys[:3]
		}
		return experiments.Params{N: 10_000, P: 0.01, Filters: 20, Queries: 100_000, Conf: 0.95, Span: 1, Checkpoints: 1,
			BitsPerKey: floats(seq(1, 32)), Keys: keys}
	},
	plan:   planBlocking,
	figure: blockingFigure,
}

// blockingKeysPerPoint bounds the keys inserted at one point of the sized
// part of the blocking experiment: large filters get fewer seeded filters
// (at least three), since their rate varies little between filters.
const blockingKeysPerPoint = 40_000_000

// planBlocking plans two parts. The sweep: for each variant and each b in
// BitsPerKey, filters of m = b N bits (rounded up to whole blocks) with
// the k that minimises the variant's exact rate (8 for split-block),
// holding N items. The sizes: for each n in Keys, filters of each variant
// sized for n items at P (with the block penalty), holding n; those rows
// carry Target = P.
func planBlocking(variant string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{}
	vs := blockingVariants
	if variant != "all" {
		vs = nil
		for _, v := range blockingVariants {
			if v == variant || (variant == "blocked" && blockedVariant(v)) {
				vs = append(vs, v)
			}
		}
	}
	for _, v := range vs {
		for _, bpe := range p.BitsPerKey {
			m := uint64(math.Round(bpe * float64(p.N)))
			if m < 1 {
				return nil, paramError("bits-per-key", "%g bits per key of %d items is less than one bit", bpe, p.N)
			}
			m, k, err := blockingGeometry(v, m, p.N)
			if err != nil {
				return nil, err
			}
			b, err := geometry(v, m, k)
			if err != nil {
				return nil, err
			}
			if err := planBlockingPoint(pl, v, b, p.N, p.Filters, 0, p); err != nil {
				return nil, err
			}
		}
	}
	for _, v := range vs {
		for _, n := range p.Keys {
			b, err := sized(v, n, p.P, 0)
			if err != nil {
				return nil, err
			}
			filters := int(min(uint64(p.Filters), max(4, blockingKeysPerPoint/n)))
			// Fewer filters get more queries each, so that every point
			// has the same total queries.
			q := p
			q.Queries = p.Queries * uint64(p.Filters) / uint64(filters)
			if err := planBlockingPoint(pl, v, b, n, filters, p.P, q); err != nil {
				return nil, err
			}
		}
	}
	pl.Notes = append(pl.Notes,
		fmt.Sprintf("sweep: %d items per filter, m rounded up to whole blocks (for the Multiblock layouts one block and whole strides), k the integer that minimises each variant's exact rate at that m (8 for split-block; analysis.Multiblock.FPR for the Multiblock layouts); where fewer than 200 false positives are expected, queries per filter rise up to %d", p.N, 10*p.Queries),
		fmt.Sprintf("sizes: filters sized for n items at p = %g by each variant's own sizing (the blocked ones with the block penalty, the Multiblock layouts by variants.MultiblockGeometry), holding n; %d filters per point, fewer (at least 4, with proportionally more queries each) where %d filters of n keys would exceed %d keys", p.P, p.Filters, p.Filters, blockingKeysPerPoint))
	return pl, nil
}

// blockedVariant reports whether v names a blocked filter.
func blockedVariant(v string) bool { _, ok := blockSize(v); return ok }

// blockingGeometry returns the bits and hashes of variant v at about m
// bits holding n items: m rounded up to whole blocks (for a Multiblock
// layout, one block and whole strides) and the k that minimises the
// variant's exact rate.
func blockingGeometry(v string, m, n uint64) (uint64, int, error) {
	if v == "split-block" {
		blocks := max(1, (m+analysis.SplitBlockBits-1)/analysis.SplitBlockBits)
		return blocks * analysis.SplitBlockBits, analysis.SplitBlockHashes, nil
	}
	if l, ok := blockingLayouts[v]; ok {
		return l.geometry(m, n)
	}
	if b, ok := blockSize(v); ok {
		bb := uint64(b)
		m = max(1, (m+bb-1)/bb) * bb
		return m, analysis.BlockedOptimalHashes(m, n, bb), nil
	}
	return m, analysis.OptimalHashes(m, n), nil
}

// planBlockingPoint plans one point of the blocking experiment: filters
// made by b holding n items; target is the rate they were sized for, or 0.
func planBlockingPoint(pl *experiments.Plan, v string, b builder, n uint64, filters int, target float64, p experiments.Params) error {
	st, err := probe(b)
	if err != nil {
		return paramError("n", "%v", err)
	}
	return addPoint(pl, fmt.Sprintf("blocking/%s/m=%d/k=%d/n=%d/p=%g", v, st.Bits, st.Hashes, n, target), blockingSeries(v), v, b, st, n, filters, p, func(r *experiments.Row) {
		r.Variant = variantFamily(v)
		r.Capacity = capacityIf(target, n)
		r.Target = target
	})
}

func capacityIf(target float64, n uint64) uint64 {
	if target > 0 {
		return n
	}
	return 0
}

// blockingSeries names the series of a blocking variant: "blocked B=256",
// or Boost's name of a Multiblock layout.
func blockingSeries(v string) string {
	if l, ok := blockingLayouts[v]; ok {
		return l.series
	}
	if b, ok := blockSize(v); ok {
		return fmt.Sprintf("blocked B=%d", b)
	}
	return v
}

// variantFamily returns the variant name of v without its block size or
// layout.
func variantFamily(v string) string {
	if blockedVariant(v) {
		return "blocked"
	}
	if _, ok := blockingLayouts[v]; ok {
		return "multiblock"
	}
	return v
}
