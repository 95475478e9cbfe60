package catalog

import (
	"fmt"
	"math"
	"slices"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// boostCell is one cell of Boost.Bloom's published table: the measured
// false-positive rate in percent of a filter of c bits per element holding
// 10^7 ints, with the K Boost used.
type boostCell struct {
	c   uint64
	k   int
	pct float64
}

// boostLayout is one layout (a column of Boost's table, a row of ours).
type boostLayout struct {
	name     string
	classic  bool   // filter<int, K>: K uniform bits of the whole table
	wordBits uint64 // window width w
	multi    bool
	stride   uint64 // bytes; 0 = natural
	quick    bool   // measured by a -quick run
	cells    [4]boostCell
}

// boostLayouts is Boost.Bloom's table "GCC 14, x64" in
// doc/bloom/benchmarks.adoc (boostorg/bloom at commit
// 7eda52eec0f44cb9936393568e58891376cc9ccf), FPR in percent, with the K of
// each cell (benchmark/comparison_table.cpp, same commit: 10^7 distinct
// ints inserted, then 10^7 distinct ints not inserted queried once each, so
// that the binomial standard error of a cell is sqrt(p(1 - p)/10^7)). The
// same values are in package analysis's TestMultiblockBoostTable.
var boostLayouts = []boostLayout{
	{name: "filter<int,K>", classic: true, quick: true, cells: [4]boostCell{{8, 6, 2.1519}, {12, 9, 0.3180}, {16, 11, 0.0469}, {20, 14, 0.0065}}},
	{name: "block<uint64_t,K>", wordBits: 64, cells: [4]boostCell{{8, 4, 3.3467}, {12, 5, 1.0300}, {16, 6, 0.4034}, {20, 7, 0.1887}}},
	{name: "block<uint64_t,K>,1", wordBits: 64, stride: 1, quick: true, cells: [4]boostCell{{8, 5, 3.0383}, {12, 6, 0.8268}, {16, 7, 0.2883}, {20, 8, 0.1194}}},
	{name: "multiblock<uint64_t,K>", wordBits: 64, multi: true, cells: [4]boostCell{{8, 5, 2.4510}, {12, 8, 0.4207}, {16, 11, 0.0764}, {20, 13, 0.0150}}},
	{name: "multiblock<uint64_t,K>,1", wordBits: 64, multi: true, stride: 1, quick: true, cells: [4]boostCell{{8, 5, 2.3157}, {12, 8, 0.3724}, {16, 11, 0.0642}, {20, 14, 0.0122}}},
	{name: "fast_multiblock32<K>", wordBits: 32, multi: true, quick: true, cells: [4]boostCell{{8, 5, 2.7361}, {12, 8, 0.5415}, {16, 11, 0.1179}, {20, 13, 0.0275}}},
	{name: "fast_multiblock32<K>,1", wordBits: 32, multi: true, stride: 1, cells: [4]boostCell{{8, 5, 2.4788}, {12, 8, 0.4394}, {16, 11, 0.0865}, {20, 13, 0.0178}}},
	{name: "fast_multiblock64<K>", wordBits: 64, multi: true, cells: [4]boostCell{{8, 5, 2.4546}, {12, 8, 0.4210}, {16, 11, 0.0781}, {20, 13, 0.0160}}},
	{name: "fast_multiblock64<K>,1", wordBits: 64, multi: true, stride: 1, cells: [4]boostCell{{8, 5, 2.3234}, {12, 8, 0.3754}, {16, 11, 0.0642}, {20, 14, 0.0110}}},
	{name: "block<uint64_t[8],K>", wordBits: 512, cells: [4]boostCell{{8, 5, 2.3292}, {12, 7, 0.4140}, {16, 9, 0.0852}, {20, 12, 0.0196}}},
	{name: "block<uint64_t[8],K>,1", wordBits: 512, stride: 1, quick: true, cells: [4]boostCell{{8, 6, 2.2986}, {12, 7, 0.3845}, {16, 10, 0.0714}, {20, 12, 0.0152}}},
	{name: "multiblock<uint64_t[8],K>", wordBits: 512, multi: true, cells: [4]boostCell{{8, 7, 2.3389}, {12, 10, 0.3468}, {16, 11, 0.0493}, {20, 15, 0.0076}}},
}

// boostQueries is the number of absent keys Boost's benchmark queries per
// cell, which gives its measured rates their standard error.
const boostQueries = 1e7

var boostExperiment = Experiment{
	Name: "boost",
	Summary: "Boost.Bloom's published table (12 layouts at 8, 12, 16 and 20 bits per element, 10^7 keys): Boost's measured rate, " +
		"our exact theory and our own multiblock filter of the same layout measured, side by side with relative differences and z-scores",
	Variants:  []string{"all"},
	Shardable: true,
	flags:     fixedFlags("n", "filters", "queries"),
	defaults: func(_ string, quick bool) experiments.Params {
		if quick {
			return experiments.Params{N: 1_000_000, P: 0.01, Filters: 3, Queries: 100_000, Conf: 0.95, Span: 1, Checkpoints: 1,
				BitsPerKey: []float64{8}}
		}
		return experiments.Params{N: 10_000_000, P: 0.01, Filters: 3, Queries: 1_000_000, Conf: 0.95, Span: 1, Checkpoints: 1,
			BitsPerKey: []float64{8, 12, 16, 20}}
	},
	plan:      planBoost,
	summarize: summarizeBoost,
	figure:    boostFigure,
}

// boostPoint is one cell a run measures.
type boostPoint struct {
	layout boostLayout
	cell   boostCell
}

// unbuilt returns why our filter cannot take the cell's layout, or "":
// variants.Multiblock spans at most variants.MaxMultiblockBlockBits bits
// per key (65536; Boost's widest block, multiblock<uint64_t[8], 15>, spans
// 7680), so every cell of Boost's table is built.
func (pt boostPoint) unbuilt() string {
	l := pt.layout
	if l.multi && uint64(pt.cell.k)*l.wordBits > variants.MaxMultiblockBlockBits {
		return fmt.Sprintf("its block of %d bits exceeds variants.Multiblock's maximum of %d", uint64(pt.cell.k)*l.wordBits, variants.MaxMultiblockBlockBits)
	}
	return ""
}

// theory returns our rate for the cell at n keys, or an error where
// analysis does not compute it.
func (pt boostPoint) theory(n uint64) (float64, error) {
	if pt.layout.classic {
		return analysis.ExactFPR((pt.cell.c*n+7)/8*8, n, pt.cell.k), nil
	}
	l := pt.layout
	return analysis.BoostMultiblock(pt.cell.c*n, pt.cell.k, l.wordBits, l.multi, l.stride).FPR(n)
}

// boostPoints returns the cells a run with parameters p measures, in the
// order of its rows: layout by layout, the cells of p.BitsPerKey (each
// one of Boost's 8, 12, 16, 20) in Boost's order; a quick run measures only
// the layouts marked quick.
func boostPoints(p experiments.Params) ([]boostPoint, error) {
	for _, c := range p.BitsPerKey {
		if !slices.Contains([]float64{8, 12, 16, 20}, c) {
			return nil, paramError("bits-per-key", "%v, want Boost's 8, 12, 16 or 20", c)
		}
	}
	var out []boostPoint
	for _, l := range boostLayouts {
		if p.Quick && !l.quick {
			continue
		}
		for _, cell := range l.cells {
			if slices.Contains(p.BitsPerKey, float64(cell.c)) {
				out = append(out, boostPoint{l, cell})
			}
		}
	}
	return out, nil
}

// boostFilter returns the builder of our filter of a cell's layout holding
// n keys at c bits per key in Boost's geometry (analysis.BoostMultiblock;
// for the classic filter c n bits rounded up to whole bytes, a standard
// filter), and the theory of its rate at n keys, or an error from the
// theory (an overlapping multiblock beyond analysis's exact budget).
func boostFilter(pt boostPoint, n uint64) (b builder, bits uint64, theory float64, terr error) {
	k := pt.cell.k
	if pt.layout.classic {
		m := (pt.cell.c*n + 7) / 8 * 8
		g := variants.Geometry{Bits: m, Hashes: k}
		return func(h variants.Hashing) (filter, error) { return wrap(variants.NewStandard(g, h)) }, m, analysis.ExactFPR(m, n, k), nil
	}
	l := pt.layout
	geo := analysis.BoostMultiblock(pt.cell.c*n, k, l.wordBits, l.multi, l.stride)
	mp := variants.MultiblockParams{Geometry: variants.Geometry{Bits: geo.Bits, Hashes: k}, WordBits: l.wordBits, Multi: l.multi, StrideBits: geo.StrideBits}
	b = func(h variants.Hashing) (filter, error) {
		q := mp
		q.Hashing = h
		return wrap(variants.NewMultiblock(q))
	}
	theory, terr = geo.FPR(n)
	return b, geo.Bits, theory, terr
}

// planBoost plans one point per cell of Boost's table: Filters seeded
// filters of the cell's layout and K, in Boost's geometry for N keys at c
// bits per key, holding N keys, queried with Queries absent keys each
// (more where fewer than 200 false positives are expected, queriesFor),
// beside our theory where analysis computes it.
func planBoost(_ string, p experiments.Params) (*experiments.Plan, error) {
	pts, err := boostPoints(p)
	if err != nil {
		return nil, err
	}
	pl := &experiments.Plan{}
	h := variants.Hashing{}
	var missing, unbuilt []string
	for _, pt := range pts {
		if why := pt.unbuilt(); why != "" {
			unbuilt = append(unbuilt, fmt.Sprintf("%s c=%d K=%d (%s)", pt.layout.name, pt.cell.c, pt.cell.k, why))
			continue
		}
		b, bits, th, terr := boostFilter(pt, p.N)
		st, err := probe(b)
		if err != nil {
			return nil, paramError("n", "%s at %d bits per key of %d keys: %v", pt.layout.name, pt.cell.c, p.N, err)
		}
		if st.Bits != bits {
			return nil, fmt.Errorf("catalog: boost: %s c=%d: built %d bits, Boost's geometry has %d", pt.layout.name, pt.cell.c, st.Bits, bits)
		}
		spec := experiments.Spec{
			Name:    pt.layout.name,
			New:     b.seeded(h),
			Items:   []uint64{p.N},
			Filters: p.Filters,
			Queries: p.Queries,
		}
		if terr == nil {
			spec.Theory = func(uint64) float64 { return th }
			spec.Model = "multiblock"
			if pt.layout.classic {
				spec.Model = "exact"
			}
			spec.Queries = queriesFor(th, p)
		} else {
			missing = append(missing, fmt.Sprintf("%s c=%d K=%d", pt.layout.name, pt.cell.c, pt.cell.k))
			spec.Queries = queriesFor(pt.cell.pct/100, p)
		}
		variant := "multiblock"
		if pt.layout.classic {
			variant = "standard"
		}
		key := fmt.Sprintf("boost/%s/c=%d/k=%d/n=%d", pt.layout.name, pt.cell.c, pt.cell.k, p.N)
		if err := pl.AddSpec(key, spec, func(r *experiments.Row) {
			r.Variant = variant
			r.Hashing = hashingName(h)
			r.Bits = st.Bits
			r.Hashes = st.Hashes
			r.BitsPerKey = float64(st.Bits) / float64(p.N)
		}); err != nil {
			return nil, err
		}
	}
	pl.Notes = append(pl.Notes,
		fmt.Sprintf("each cell: %d seeded filters of Boost's layout, K and geometry (analysis.BoostMultiblock: c n bits requested, rounded up as Boost rounds them) holding n = %d keys, queried with %d absent keys each (up to 10 times more where fewer than 200 false positives are expected); Boost's values from boostorg/bloom commit 7eda52e, doc/bloom/benchmarks.adoc (GCC 14, x64), measured with 10^7 keys and 10^7 queries", p.Filters, p.N, p.Queries))
	if len(missing) > 0 {
		pl.Notes = append(pl.Notes, fmt.Sprintf("theory not computed (an overlapping multiblock beyond the exact sum's work limit in analysis.Multiblock.FPR) for %d cells: %s", len(missing), joinList(missing)))
	}
	if len(unbuilt) > 0 {
		pl.Notes = append(pl.Notes, fmt.Sprintf("not measured, our filter cannot take the layout: %s; their notes below set Boost's rate beside our theory only", joinList(unbuilt)))
	}
	if p.N != 10_000_000 {
		pl.Notes = append(pl.Notes, fmt.Sprintf("n = %d, not Boost's 10^7: Boost's values are set beside filters of another size", p.N))
	}
	return pl, nil
}

// joinList joins s with "; ".
func joinList(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "; "
		}
		out += x
	}
	return out
}

// boostRow is a row of a boost run with its cell of Boost's table and the
// comparisons the notes and the figure make.
type boostRow struct {
	row    *experiments.Row // nil where our filter cannot take the layout
	pt     boostPoint
	theory float64 // our theory, 0 where not computed
	sem    float64 // standard error of our mean over the filters
	seB    float64 // Boost's binomial standard error, Q = 10^7
	zB     float64 // (Boost - theory)/seB
	zUs    float64 // (ours - theory)/sem
	relB   float64 // Boost/theory - 1
	rel    float64 // ours/theory - 1
}

// boostRows pairs the rows of r with the cells of Boost's table they
// measure, in the order of the table, or returns nil if they do not
// match. A cell our filter cannot take has no row: its row field is nil
// and its theory is computed here.
func boostRows(r *experiments.Results) []boostRow {
	pts, err := boostPoints(r.Params)
	if err != nil {
		return nil
	}
	var out []boostRow
	next := 0
	for _, pt := range pts {
		pb := pt.cell.pct / 100
		br := boostRow{pt: pt, seB: math.Sqrt(pb * (1 - pb) / boostQueries)}
		if pt.unbuilt() == "" {
			if next >= len(r.Rows) {
				return nil
			}
			row := &r.Rows[next]
			next++
			if row.Series != pt.layout.name || row.Hashes != pt.cell.k {
				return nil
			}
			br.row, br.sem = row, boostSEM(row)
			if row.Model != "" && row.Theory > 0 {
				br.theory = row.Theory
			}
		} else if t, err := pt.theory(r.Params.N); err == nil {
			br.theory = t
		}
		if t := br.theory; t > 0 {
			br.relB, br.zB = pb/t-1, (pb-t)/br.seB
			if br.row != nil {
				br.rel = br.row.Rate/t - 1
				if br.sem > 0 {
					br.zUs = (br.row.Rate - t) / br.sem
				}
			}
		}
		out = append(out, br)
	}
	if next != len(r.Rows) {
		return nil
	}
	return out
}

// boostSEM returns the standard error of a row's mean rate over its
// filters, from the trials (sd/sqrt(F)), or 0 without them.
func boostSEM(row *experiments.Row) float64 {
	f := len(row.Trials)
	if f < 2 || row.Queries == 0 {
		return 0
	}
	var s, s2 float64
	for _, t := range row.Trials {
		x := float64(t.Count) / float64(row.Queries)
		s += x
		s2 += x * x
	}
	mean := s / float64(f)
	v := (s2 - float64(f)*mean*mean) / float64(f-1)
	return math.Sqrt(max(v, 0) / float64(f))
}

// summarizeBoost notes each cell side by side (Boost's measured rate and
// its standard error, our theory, our measurement and its standard error
// over the filters, the relative differences and z-scores), then how many
// cells agree within 3 standard errors or 2% and the largest |z|.
func summarizeBoost(r *experiments.Results) []string {
	rows := boostRows(r)
	if rows == nil {
		return nil
	}
	var notes []string
	var computed, boostOK, oursOK int
	var maxZB, maxZ float64
	var maxZBAt, maxZAt string
	var measured int
	for _, b := range rows {
		name := fmt.Sprintf("%s c=%d K=%d", b.pt.layout.name, b.pt.cell.c, b.pt.cell.k)
		ours := "ours not measured (" + b.pt.unbuilt() + ")"
		if b.row != nil {
			ours = fmt.Sprintf("ours %.5f%% ± %.5f%% (%d filters of %d queries)", 100*b.row.Rate, 100*b.sem, b.row.Filters, b.row.Queries)
		}
		if b.theory == 0 {
			notes = append(notes, fmt.Sprintf("boost %s: Boost %.4f%% ± %.4f%%; theory not computed; %s", name, b.pt.cell.pct, 100*b.seB, ours))
			continue
		}
		computed++
		if math.Abs(b.zB) <= 3 || math.Abs(b.relB) <= 0.02 {
			boostOK++
		}
		if math.Abs(b.zB) > math.Abs(maxZB) {
			maxZB, maxZBAt = b.zB, name
		}
		if b.row == nil {
			notes = append(notes, fmt.Sprintf("boost %s: Boost %.4f%% ± %.4f%%, theory %.5f%% (Boost %+.2f%%, z %+.2f); %s",
				name, b.pt.cell.pct, 100*b.seB, 100*b.theory, 100*b.relB, b.zB, ours))
			continue
		}
		measured++
		if math.Abs(b.zUs) <= 3 || math.Abs(b.rel) <= 0.02 {
			oursOK++
		}
		if math.Abs(b.zUs) > math.Abs(maxZ) {
			maxZ, maxZAt = b.zUs, name
		}
		notes = append(notes, fmt.Sprintf("boost %s: Boost %.4f%% ± %.4f%%, theory %.5f%% (Boost %+.2f%%, z %+.2f); %s (%+.2f%%, z %+.2f)",
			name, b.pt.cell.pct, 100*b.seB, 100*b.theory, 100*b.relB, b.zB, ours, 100*b.rel, b.zUs))
	}
	notes = append(notes, fmt.Sprintf("boost summary: theory computed for %d of %d cells; Boost's measurement within 3 SE (Boost's binomial SE, Q = 10^7) or 2%% of our theory in %d of %d, largest |z| %.2f (%s); our measurement within 3 SE (over the filters) or 2%% of our theory in %d of the %d measured cells with theory, largest |z| %.2f (%s)",
		computed, len(rows), boostOK, computed, math.Abs(maxZB), maxZBAt, oursOK, measured, math.Abs(maxZ), maxZAt))
	return notes
}
