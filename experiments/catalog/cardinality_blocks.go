package catalog

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// cardinalityBlocks is the variant of the cardinality experiment that
// measures the pooled count estimates of cache-local filters
// (variants.BlockCounter): a blocked filter of 512-bit blocks, a
// split-block filter and a multiblock filter of 64-bit words, each sized
// for N at P. It is not part of "all", whose rows are the committed
// figure's; it runs with -variant blocked, which in this experiment names
// the three cache-local layouts together.
const cardinalityBlocks = "blocked"

// cardinalityBlockOverlaps are the overlaps of the blocked variant's set
// rows: fewer than the other variants', since each costs a filter of N
// keys per pair.
var cardinalityBlockOverlaps = []float64{0, 0.5, 1}

// blockLayout is one cache-local filter of the blocks variant.
type blockLayout struct {
	series string
	build  func(n uint64, p float64) builder
}

var blockLayouts = []blockLayout{
	{"blocked, B = 512 (pooled)", func(n uint64, p float64) builder {
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewBlockedFor(n, p, h)) }
	}},
	{"split-block (pooled)", func(n uint64, p float64) builder {
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewSplitBlockFor(n, p, h)) }
	}},
	{"multiblock<uint64, K>", func(n uint64, p float64) builder {
		return func(h variants.Hashing) (filter, error) {
			mp := variants.MultiblockParams{WordBits: 64, Multi: true, Hashing: h}
			g, err := variants.MultiblockGeometry(n, p, mp)
			if err != nil {
				return nil, err
			}
			mp.Geometry = g
			return wrap(variants.NewMultiblock(mp))
		}
	}},
}

// blockCounter builds one filter of b as a variants.BlockCounter.
func blockCounter(b builder, h variants.Hashing) (variants.BlockCounter, error) {
	f, err := b(h)
	if err != nil {
		return nil, err
	}
	c, ok := f.(variants.BlockCounter)
	if !ok {
		return nil, fmt.Errorf("experiments: %T has no pooled count estimate", f)
	}
	return c, nil
}

// planBlockCounts plans the rows of the blocks variant: for each layout,
// count rows at the loads (one filter growing through them per trial),
// each row's trial error the pooled estimate (EstimateCount) less the
// keys inserted, over the keys, beside analysis.Multiblock.EstimateError
// at the filter's layout; then union and intersection rows of two sets of
// N keys at cardinalityBlockOverlaps (EstimateBlockSets, beside
// analysis.Multiblock.SetError).
func planBlockCounts(pl *experiments.Plan, loads []uint64, p experiments.Params) error {
	for _, l := range blockLayouts {
		b := l.build(p.N, p.P)
		c, err := blockCounter(b, variants.Hashing{})
		if err != nil {
			return paramError("n", "%v", err)
		}
		st, model := c.Stats(), c.CountModel()
		pl.Notes = append(pl.Notes, fmt.Sprintf("%s: sized for n = %d at p = %g: m = %d bits, k = %d, analysis.Multiblock{WordBits: %d, Multi: %v}; pooled estimate ln(1 - X/m)/ln q over the whole table",
			l.series, p.N, p.P, st.Bits, st.Hashes, model.WordBits, model.Multi))
		g := experiments.Group{Key: "cardinality/blocks/" + l.series, Filters: p.Filters, Hashing: variants.Hashing{}, Run: blockCountErrors(b)}
		for _, n := range loads {
			e, err := model.EstimateError(n)
			if err != nil {
				return paramError("n", "%v", err)
			}
			row := experiments.Row{Series: l.series, Variant: cardinalityBlocks, Hashing: hashingName(variants.Hashing{}), Items: n, Capacity: p.N,
				Bits: st.Bits, Hashes: st.Hashes, Filters: p.Filters, Model: modelOf(e)}
			setPrediction(&row, experiments.EstimateItems, 0, float64(n), e)
			row.PSaturated = e.Saturated
			g.Rows = append(g.Rows, pl.AddRow(row))
		}
		pl.Groups = append(pl.Groups, g)
	}
	for _, l := range blockLayouts {
		b := l.build(p.N, p.P)
		c, err := blockCounter(b, variants.Hashing{})
		if err != nil {
			return paramError("n", "%v", err)
		}
		st, model := c.Stats(), c.CountModel()
		n := float64(p.N)
		g := experiments.Group{Key: "cardinality/blocks/sets/" + l.series, Filters: p.Filters, Hashing: variants.Hashing{}, Run: blockSetErrors(b)}
		for _, o := range cardinalityBlockOverlaps {
			shared := uint64(math.Round(o * n))
			e, err := model.SetError(p.N, p.N, shared)
			if err != nil {
				return paramError("n", "%v", err)
			}
			base := experiments.Row{Variant: cardinalityBlocks, Hashing: hashingName(variants.Hashing{}), Capacity: p.N, Bits: st.Bits,
				Hashes: st.Hashes, Filters: p.Filters}
			u := base
			u.Series, u.Items, u.Model = cardinalitySetSeries(l.series, experiments.EstimateUnion), 2*p.N-shared, modelOf(e.Union)
			setPrediction(&u, experiments.EstimateUnion, o, n, e.Union)
			in := base
			in.Series, in.Items, in.Model = cardinalitySetSeries(l.series, experiments.EstimateIntersection), shared, modelOf(e.Intersection)
			setPrediction(&in, experiments.EstimateIntersection, o, n, e.Intersection)
			g.Rows = append(g.Rows, pl.AddRow(u), pl.AddRow(in))
		}
		pl.Groups = append(pl.Groups, g)
	}
	pl.Notes = append(pl.Notes, "blocked: the estimates of the three cache-local layouts are pooled over the whole table (variants.BlockCounter.EstimateCount, variants.EstimateBlockSets; Stats.EstimatedItems and EstimateSets give the same estimates), not a sum of the blocks' estimates; the predictions are analysis.Multiblock's delta method on the exact variance of the clear bits")
	return nil
}

// blockCountErrors returns the RunFunc of a layout's count rows: one filter
// grows through the rows' loads.
func blockCountErrors(build builder) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		f, err := blockCounter(build, t.Hashing)
		if err != nil {
			return err
		}
		var inserted uint64
		for j, r := range rows {
			if err := addMembers(t, ctx, f, inserted, r.Items); err != nil {
				return err
			}
			inserted = max(inserted, r.Items)
			e, err := f.EstimateCount()
			if err != nil && !errors.Is(err, variants.ErrSaturated) {
				return err
			}
			out[j].Bits = f.Stats().Bits
			recordError(&out[j], e.Items, float64(r.Items), r.Scale)
		}
		return nil
	}
}

// blockSetErrors is setErrors with EstimateBlockSets.
func blockSetErrors(build builder) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		a, err := blockCounter(build, t.Hashing)
		if err != nil {
			return err
		}
		bf, err := blockCounter(build, t.Hashing)
		if err != nil {
			return err
		}
		n := rows[0].Capacity
		if err := addMembers(t, ctx, a, 0, n); err != nil {
			return err
		}
		bits := a.Stats().Bits
		for j := 0; j+1 < len(rows); j += 2 {
			shared := rows[j+1].Items
			bf.Reset()
			if err := addMembers(t, ctx, bf, n-shared, 2*n-shared); err != nil {
				return err
			}
			s, _, err := variants.EstimateBlockSets(a, bf)
			if err != nil && !errors.Is(err, variants.ErrSaturated) {
				return err
			}
			recordError(&out[j], s.Union, float64(rows[j].Items), rows[j].Scale)
			recordError(&out[j+1], s.Intersection, float64(shared), rows[j+1].Scale)
			out[j].Bits, out[j+1].Bits = bits, bits
		}
		return nil
	}
}
