package catalog

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// filter is what the runner needs of a filter. Every variants.Filter has
// it, and so do the reference filters of the hashing experiment.
type filter interface {
	Add(key []byte)
	Contains(key []byte) bool
	Stats() variants.Stats
}

// builder makes an empty filter with hashing h.
type builder func(h variants.Hashing) (filter, error)

// wrap turns a constructor's (*T, error) into (filter, error) without
// making a nil *T into a non-nil interface.
func wrap[T filter](f T, err error) (filter, error) {
	if err != nil {
		return nil, err
	}
	return f, nil
}

// sized returns a builder of variant sized for capacity n at rate p;
// width is the counter width of a counting filter (0 for the default).
func sized(variant string, n uint64, p float64, width int) (builder, error) {
	switch variant {
	case "standard":
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewStandardFor(n, p, h)) }, nil
	case "partitioned":
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewPartitionedFor(n, p, h)) }, nil
	case "counting":
		return countingBuilder(n, p, width), nil
	case "blocked":
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewBlockedFor(n, p, h)) }, nil
	case "split-block":
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewSplitBlockFor(n, p, h)) }, nil
	}
	if b, ok := blockSize(variant); ok {
		return func(h variants.Hashing) (filter, error) { return wrap(blockedFor(n, p, b, h)) }, nil
	}
	if l, ok := blockingLayouts[variant]; ok {
		g, err := variants.MultiblockGeometry(n, p, l.params(variants.Geometry{}, variants.Hashing{}))
		if err != nil {
			return nil, err
		}
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewMultiblock(l.params(g, h))) }, nil
	}
	return nil, fmt.Errorf("experiments: no sized builder for variant %q", variant)
}

// geometry returns a builder of variant with exactly m bits (counters of
// the default width for counting) and k hashes.
func geometry(variant string, m uint64, k int) (builder, error) {
	g := variants.Geometry{Bits: m, Hashes: k}
	switch variant {
	case "standard":
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewStandard(g, h)) }, nil
	case "partitioned":
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewPartitioned(g, h)) }, nil
	case "counting":
		// m counters of the default width.
		return func(h variants.Hashing) (filter, error) {
			return wrap(variants.NewCounting(variants.CountingParams{Geometry: g, Hashing: h}))
		}, nil
	case "split-block":
		// k is always 8; m is rounded up to whole blocks.
		sb := variants.Geometry{Bits: m, Hashes: 8}
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewSplitBlock(sb, h)) }, nil
	}
	if b, ok := blockSize(variant); ok {
		// m is rounded up to whole blocks.
		return func(h variants.Hashing) (filter, error) {
			return wrap(variants.NewBlocked(variants.BlockedParams{Geometry: g, BlockBits: b, Hashing: h}))
		}, nil
	}
	if l, ok := blockingLayouts[variant]; ok {
		// m is rounded up to one block and whole strides.
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewMultiblock(l.params(g, h))) }, nil
	}
	return nil, fmt.Errorf("experiments: no geometry builder for variant %q", variant)
}

// probe builds one filter with the default hashing, to learn the geometry
// the constructor actually builds and to report a bad parameter before any
// work starts.
func probe(b builder) (variants.Stats, error) {
	f, err := b(variants.Hashing{})
	if err != nil {
		return variants.Stats{}, err
	}
	return f.Stats(), nil
}

// seeded returns a Spec's New function that builds b's filter with
// hashing h, its seed replaced by New's (see withSeed).
func (b builder) seeded(h variants.Hashing) func(seed uint64) (experiments.Filter, error) {
	return func(seed uint64) (experiments.Filter, error) {
		f, err := b(experiments.SeedHashing(h, seed))
		if err != nil {
			return nil, err
		}
		return f, nil
	}
}

// variantTheory returns the rate of the variant's model for a filter with
// the stats st (geometry) as a function of the items it holds, and the
// model's name.
func variantTheory(variant string, st variants.Stats) (theory func(items uint64) float64, model string) {
	m, k := st.Cells, st.Hashes
	switch {
	case variant == "partitioned":
		return func(n uint64) float64 { return partitionedFPR(m, n, k) }, "partitioned"
	case variant == "split-block":
		return func(n uint64) float64 { return splitBlockFPR(m, n) }, "split-block"
	case blockingLayouts[variant].series != "":
		b := blockingLayouts[variant].model(st.Bits, k)
		return func(n uint64) float64 {
			f, err := b.FPR(n)
			if err != nil {
				return math.NaN()
			}
			return f
		}, "multiblock"
	case st.Blocks.Bits > 0:
		b := uint64(st.Blocks.Bits)
		return func(n uint64) float64 { return blockedFPR(m, n, k, b) }, blockedModel(b)
	default:
		return func(n uint64) float64 { return exactFPR(m, n, k) }, "exact"
	}
}

// classicOf returns the classic rate (1 - e^(-kn/m))^k of a filter with
// the stats st holding items keys.
func classicOf(st variants.Stats, items uint64) float64 {
	return classicFPR(st.Cells, items, st.Hashes)
}

// blockSize reports the block size of a blocked variant's name: "blocked"
// (variants.DefaultBlockBits) or "blocked-B".
func blockSize(variant string) (int, bool) {
	if variant == "blocked" {
		return variants.DefaultBlockBits, true
	}
	rest, ok := strings.CutPrefix(variant, "blocked-")
	if !ok {
		return 0, false
	}
	b, err := strconv.Atoi(rest)
	return b, err == nil
}

// blockedModel is the Model of a blocked filter's rows, "blocked/B", which
// carries the block size to the plots.
func blockedModel(blockBits uint64) string { return "blocked/" + strconv.FormatUint(blockBits, 10) }

// modelBlockBits returns the block size of a blocked filter's Model
// (see blockedModel).
func modelBlockBits(model string) (uint64, bool) {
	var b uint64
	_, err := fmt.Sscanf(model, "blocked/%d", &b)
	return b, err == nil
}
