package catalog

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// selected returns the variants a run measures: all of them for "all",
// else the one named.
func selected(variant string, all []string) []string {
	if variant == "all" {
		return all
	}
	return []string{variant}
}

// queriesFor returns the queries per filter for a point whose predicted
// rate is theory: p.Queries, raised up to ten times where that would
// expect fewer than 200 false positives over all filters, so that small
// rates are resolved rather than measured as zero.
func queriesFor(theory float64, p experiments.Params) uint64 {
	q := p.Queries
	if theory > 0 {
		want := math.Ceil(200 / (float64(p.Filters) * theory))
		if want > float64(q) {
			q = uint64(math.Min(want, float64(10*p.Queries)))
		}
	}
	return q
}

// point plans one point measured on its own filters made by b, a Spec of
// a single item count: filters of the variant with stats st holding n
// items, beside the variant's theory, with queries raised where the rate
// is small (queriesFor). decorate sets the row's other columns.
func addPoint(pl *experiments.Plan, key, name, variant string, b builder, st variants.Stats, n uint64, filters int, p experiments.Params, decorate func(*experiments.Row)) error {
	h, err := hashingOf(variant, p) // the default unless the run sets Hash or Derivation
	if err != nil {
		return err
	}
	theory, model := variantTheory(variant, st)
	return pl.AddSpec(key, experiments.Spec{
		Name:    name,
		New:     b.seeded(h),
		Items:   []uint64{n},
		Filters: filters,
		Queries: queriesFor(theory(n), p),
		Theory:  theory,
		Model:   model,
	}, func(r *experiments.Row) {
		r.Variant = variant
		r.Hashing = hashingName(h)
		r.Bits = st.Bits
		r.Hashes = st.Hashes
		r.Classic = classicOf(st, n)
		if decorate != nil {
			decorate(r)
		}
	})
}

func seq(lo, hi int) []int {
	var s []int
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}

func floats(xs []int) []float64 {
	var s []float64
	for _, x := range xs {
		s = append(s, float64(x))
	}
	return s
}

// bitsVariants are the variants of the bits experiment.
var bitsVariants = []string{"standard", "partitioned", "blocked", "split-block"}

var bitsExperiment = Experiment{
	Name:      "bits",
	Summary:   "false-positive rate against bits per key (1 to 32) at the best integer k, standard, partitioned, blocked and split-block, beside theory",
	Variants:  bitsVariants,
	Shardable: true,
	flags:     fixedFlags("n", "filters", "queries", "keys"),
	defaults: func(string, bool) experiments.Params {
		return experiments.Params{N: 10_000, P: 0.01, Filters: 20, Queries: 100_000, Conf: 0.95, Span: 1, Checkpoints: 1,
			BitsPerKey: floats(seq(1, 32))}
	},
	plan:   planBits,
	figure: bitsFigure,
}

// planBits plans, for each variant and each b in BitsPerKey, filters of
// m = b N bits with the k that minimises the classic rate, holding N items.
func planBits(variant string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{}
	for _, v := range selected(variant, bitsVariants) {
		for _, bpe := range p.BitsPerKey {
			m := uint64(math.Round(bpe * float64(p.N)))
			if m < 1 {
				return nil, paramError("bits-per-key", "%g bits per key of %d items is less than one bit", bpe, p.N)
			}
			m, k, err := blockingGeometry(v, m, p.N)
			if err != nil {
				return nil, err
			}
			if err := planRatePoint(pl, "bits", v, m, k, p); err != nil {
				return nil, err
			}
		}
	}
	pl.Notes = append(pl.Notes, fmt.Sprintf("%d items per filter; k is the integer that minimises the classic rate at each m (for blocked filters, m rounded up to whole blocks and the k that minimises the exact blocked rate; split-block k = 8); where fewer than 200 false positives are expected, queries per filter rise up to %d", p.N, 10*p.Queries))
	return pl, nil
}

// planRatePoint plans one point: variant with m bits and k hashes holding
// N items.
func planRatePoint(pl *experiments.Plan, exp, variant string, m uint64, k int, p experiments.Params) error {
	b, err := geometry(variant, m, k)
	if err != nil {
		return err
	}
	st, err := probe(b)
	if err != nil {
		return paramError("n", "%v", err)
	}
	return addPoint(pl, fmt.Sprintf("%s/%s/m=%d/k=%d/n=%d", exp, variant, m, k, p.N), variant, variant, b, st, p.N, p.Filters, p, nil)
}

var hashesExperiment = Experiment{
	Name:      "hashes",
	Summary:   "false-positive rate against the number of hashes k at fixed bits per key, with the optimum near (m/n) ln 2",
	Variants:  []string{"standard", "partitioned"},
	Shardable: true,
	flags:     fixedFlags("n", "filters", "queries", "keys", "hash", "derivation"),
	defaults: func(string, bool) experiments.Params {
		return experiments.Params{N: 10_000, P: 0.01, Filters: 20, Queries: 100_000, Conf: 0.95, Span: 1, Checkpoints: 1,
			BitsPerKey: []float64{10}, Hashes: seq(1, 16)}
	},
	plan:   planHashes,
	figure: hashesFigure,
}

func planHashes(variant string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{}
	bpe := p.BitsPerKey[0]
	m := uint64(math.Round(bpe * float64(p.N)))
	for _, v := range selected(variant, []string{"standard", "partitioned"}) {
		for _, k := range p.Hashes {
			if v == "partitioned" && uint64(k) > m {
				continue
			}
			if err := planRatePoint(pl, "hashes", v, m, k, p); err != nil {
				return nil, err
			}
		}
	}
	pl.Notes = append(pl.Notes, fmt.Sprintf("m = %d bits for n = %d items (%g bits per key): the classic optimum is k = (m/n) ln 2 = %.2f, best integer k = %d",
		m, p.N, bpe, float64(m)/float64(p.N)*math.Ln2, analysis.OptimalHashes(m, p.N)))
	if n := hashingNote(p); n != "" {
		pl.Notes = append(pl.Notes, n)
	}
	return pl, nil
}

var smallMExperiment = Experiment{
	Name:      "small-m",
	Summary:   "small filters (64 to 4096 bits), where the classic formula underestimates the rate: measured against classic and exact",
	Variants:  []string{"standard"},
	Shardable: true,
	flags:     fixedFlags("filters", "queries", "keys", "hash", "derivation"),
	defaults: func(string, bool) experiments.Params {
		return experiments.Params{N: 8, P: 0.01, Filters: 1000, Queries: 10_000, Conf: 0.95, Span: 1, Checkpoints: 1,
			BitsPerKey: []float64{8}, Bits: []uint64{64, 128, 256, 512, 1024, 2048, 4096}}
	},
	plan:   planSmallM,
	figure: smallMFigure,
}

// planSmallM plans standard filters of each m in Bits holding
// n = m/BitsPerKey items with the best integer k.
func planSmallM(variant string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{}
	bpe := p.BitsPerKey[0]
	for _, m := range p.Bits {
		n := uint64(math.Round(float64(m) / bpe))
		if n < 1 {
			return nil, paramError("bits", "m = %d at %g bits per key holds no item", m, bpe)
		}
		k := analysis.OptimalHashes(m, n)
		q := p
		q.N = n
		if err := planRatePoint(pl, "small-m", "standard", m, k, q); err != nil {
			return nil, err
		}
	}
	pl.Notes = append(pl.Notes, fmt.Sprintf("each filter holds m/%g items with the best integer k; the exact rate is E[(X/m)^k] over the number X of set bits", bpe))
	if n := hashingNote(p); n != "" {
		pl.Notes = append(pl.Notes, n)
	}
	return pl, nil
}
