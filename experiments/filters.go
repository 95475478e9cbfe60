package experiments

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

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
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewBlockedFor(n, p, 0, h)) }, nil
	case "split-block":
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewSplitBlockFor(n, p, h)) }, nil
	}
	if b, ok := blockSize(variant); ok {
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewBlockedFor(n, p, b, h)) }, nil
	}
	return nil, fmt.Errorf("experiments: no sized builder for variant %q", variant)
}

// geometry returns a builder of variant with exactly m bits (counters)
// and k hashes.
func geometry(variant string, m uint64, k int) (builder, error) {
	g := variants.Geometry{Bits: m, Hashes: k}
	switch variant {
	case "standard":
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewStandard(g, h)) }, nil
	case "partitioned":
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewPartitioned(g, h)) }, nil
	case "split-block":
		// k is always 8; m is rounded up to whole blocks.
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewSplitBlock(m, h)) }, nil
	}
	if b, ok := blockSize(variant); ok {
		// m is rounded up to whole blocks.
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewBlocked(g, b, h)) }, nil
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

// rateTheory returns the classic rate and the rate of the variant's model
// for a filter with the stats st (geometry) holding items keys.
func rateTheory(variant string, st variants.Stats, items uint64) (classic, theory float64, model string) {
	m, k := st.Cells, st.Hashes
	classic = classicFPR(m, items, k)
	switch {
	case variant == "partitioned":
		return classic, partitionedFPR(m, items, k), "partitioned"
	case variant == "split-block":
		return classic, splitBlockFPR(m, items), "split-block"
	case st.Blocks.Bits > 0:
		return classic, blockedFPR(m, items, k, uint64(st.Blocks.Bits)), blockedModel(uint64(st.Blocks.Bits))
	default:
		return classic, exactFPR(m, items, k), "exact"
	}
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

// growth returns the runFunc that fills a filter to each row's Items in
// turn and queries it with the row's Queries never-inserted keys. With
// timed set it records the time per Add and per Contains.
func growth(build builder, timed bool) runFunc {
	return func(ctx context.Context, t *trial, rows []*Row, out []Trial) error {
		f, err := build(t.hashing)
		if err != nil {
			return err
		}
		var inserted uint64
		for j, r := range rows {
			start := time.Now()
			added := r.Items - inserted
			for ; inserted < r.Items; inserted++ {
				if inserted%interruptEvery == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				f.Add(t.member(inserted))
			}
			addTime := time.Since(start)
			start = time.Now()
			positives, err := t.countPositives(ctx, f, r.Queries)
			if err != nil {
				return err
			}
			queryTime := time.Since(start)
			st := f.Stats()
			o := &out[j]
			o.Count = positives
			o.Estimated = st.EstimatedFPR
			o.Bits = st.Bits
			o.Stages = len(st.Stages)
			if timed {
				if added > 0 {
					o.NsPerAdd = float64(addTime.Nanoseconds()) / float64(added)
				}
				if r.Queries > 0 {
					o.NsPerQuery = float64(queryTime.Nanoseconds()) / float64(r.Queries)
				}
			}
		}
		return nil
	}
}

// countPositives queries f with the trial's first q never-inserted keys and
// returns how many it reports present, or the context's error if the run is
// interrupted.
func (t *trial) countPositives(ctx context.Context, f filter, q uint64) (uint64, error) {
	var positives uint64
	for i := range q {
		if i%interruptEvery == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		if f.Contains(t.query(i)) {
			positives++
		}
	}
	return positives, nil
}
