package analysis

import (
	"math"
	"testing"
	"time"
)

// boostCell is one cell of Boost.Bloom's published table: the measured
// false-positive rate in percent of filter<int, 1, Subfilter, Stride> (or
// the classic filter<int, K>) with 10 million inserted ints and a capacity
// of c*10^7 bits, and the K it uses.
type boostCell struct {
	c   uint64
	k   int
	pct float64
}

// boostConfig is one column of Boost's table.
type boostConfig struct {
	name     string
	classic  bool   // filter<int, K>: K uniform bits of the whole table
	wordBits uint64 // window width w
	multi    bool
	stride   uint64 // bytes; 0 = natural
	cells    [4]boostCell
}

// boostTable is Boost.Bloom's table "GCC 14, x64" in doc/bloom/benchmarks.adoc
// (boostorg/bloom at commit 7eda52eec0f44cb9936393568e58891376cc9ccf), FPR
// in percent, with the K of each cell (benchmark/comparison_table.cpp, same
// commit: 10^7 distinct splitmix64 ints inserted, then 10^7 distinct ints
// not inserted queried once each, so Q = 10^7 and the binomial standard
// error of a cell is sqrt(p(1 - p)/10^7)).
var boostTable = []boostConfig{
	{name: "filter<int,K>", classic: true, cells: [4]boostCell{{8, 6, 2.1519}, {12, 9, 0.3180}, {16, 11, 0.0469}, {20, 14, 0.0065}}},
	{name: "block<uint64_t,K>", wordBits: 64, cells: [4]boostCell{{8, 4, 3.3467}, {12, 5, 1.0300}, {16, 6, 0.4034}, {20, 7, 0.1887}}},
	{name: "block<uint64_t,K>,1", wordBits: 64, stride: 1, cells: [4]boostCell{{8, 5, 3.0383}, {12, 6, 0.8268}, {16, 7, 0.2883}, {20, 8, 0.1194}}},
	{name: "multiblock<uint64_t,K>", wordBits: 64, multi: true, cells: [4]boostCell{{8, 5, 2.4510}, {12, 8, 0.4207}, {16, 11, 0.0764}, {20, 13, 0.0150}}},
	{name: "multiblock<uint64_t,K>,1", wordBits: 64, multi: true, stride: 1, cells: [4]boostCell{{8, 5, 2.3157}, {12, 8, 0.3724}, {16, 11, 0.0642}, {20, 14, 0.0122}}},
	{name: "fast_multiblock32<K>", wordBits: 32, multi: true, cells: [4]boostCell{{8, 5, 2.7361}, {12, 8, 0.5415}, {16, 11, 0.1179}, {20, 13, 0.0275}}},
	{name: "fast_multiblock32<K>,1", wordBits: 32, multi: true, stride: 1, cells: [4]boostCell{{8, 5, 2.4788}, {12, 8, 0.4394}, {16, 11, 0.0865}, {20, 13, 0.0178}}},
	{name: "fast_multiblock64<K>", wordBits: 64, multi: true, cells: [4]boostCell{{8, 5, 2.4546}, {12, 8, 0.4210}, {16, 11, 0.0781}, {20, 13, 0.0160}}},
	{name: "fast_multiblock64<K>,1", wordBits: 64, multi: true, stride: 1, cells: [4]boostCell{{8, 5, 2.3234}, {12, 8, 0.3754}, {16, 11, 0.0642}, {20, 14, 0.0110}}},
	{name: "block<uint64_t[8],K>", wordBits: 512, cells: [4]boostCell{{8, 5, 2.3292}, {12, 7, 0.4140}, {16, 9, 0.0852}, {20, 12, 0.0196}}},
	{name: "block<uint64_t[8],K>,1", wordBits: 512, stride: 1, cells: [4]boostCell{{8, 6, 2.2986}, {12, 7, 0.3845}, {16, 10, 0.0714}, {20, 12, 0.0152}}},
	{name: "multiblock<uint64_t[8],K>", wordBits: 512, multi: true, cells: [4]boostCell{{8, 7, 2.3389}, {12, 10, 0.3468}, {16, 11, 0.0493}, {20, 15, 0.0076}}},
}

const boostItems = 10_000_000

// boostTheory returns our rate and Boost's approximation for one cell.
func boostTheory(cfg boostConfig, cell boostCell) (ours, approx float64, geo Multiblock, err error) {
	req := cell.c * boostItems
	if cfg.classic {
		// Boost rounds the capacity up to whole bytes: 8e7 bits already are.
		m := (req + 7) / 8 * 8
		ours = ExactFPR(m, boostItems, cell.k)
		approx = math.Pow(-math.Expm1(-float64(cell.k)*boostItems/float64(m)), float64(cell.k))
		return ours, approx, Multiblock{Bits: m, Hashes: cell.k, WordBits: 8}, nil
	}
	geo = BoostMultiblock(req, cell.k, cfg.wordBits, cfg.multi, cfg.stride)
	ours, err = geo.FPR(boostItems)
	return ours, geo.BoostApproxFPR(boostItems), geo, err
}

func TestMultiblockBoostTable(t *testing.T) {
	const q = 1e7
	// multiblock<uint64_t, K>, 1 and fast_multiblock64<K>, 1 share their
	// geometries: each is computed once.
	type result struct {
		ours, approx float64
		geo          Multiblock
		err          error
	}
	seen := map[Multiblock]result{}
	for _, cfg := range boostTable {
		for _, cell := range cfg.cells {
			start := time.Now()
			var key Multiblock
			if !cfg.classic {
				key = BoostMultiblock(cell.c*boostItems, cell.k, cfg.wordBits, cfg.multi, cfg.stride)
			}
			res, ok := seen[key]
			if !ok || cfg.classic {
				res.ours, res.approx, res.geo, res.err = boostTheory(cfg, cell)
				seen[key] = res
			}
			ours, approx, geo, err := res.ours, res.approx, res.geo, res.err
			el := time.Since(start)
			if err != nil {
				t.Errorf("%s c=%d: %v", cfg.name, cell.c, err)
				continue
			}
			p := cell.pct / 100
			se := math.Sqrt(p * (1 - p) / q)
			t.Logf("%-26s c=%2d K=%2d m=%d boost %.4f%% ours %.5f%% (rel %+.2f%%, z %+.2f) boost-approx %.4f%% (rel %+.2f%%, z %+.2f) [%v]",
				cfg.name, cell.c, cell.k, geo.Bits, cell.pct, 100*ours, 100*(p/ours-1), (p-ours)/se,
				100*approx, 100*(p/approx-1), (p-approx)/se, el.Round(time.Millisecond))
			// Checked: every cell is within 3 standard errors
			// (|z| <= 2.2 in fact) or 2%.
			if z := (p - ours) / se; math.Abs(z) > 3 && math.Abs(p/ours-1) > 0.02 {
				t.Errorf("%s c=%d: Boost measured %.4f%%, our theory %.4f%% (z %.2f)", cfg.name, cell.c, cell.pct, 100*ours, z)
			}
		}
	}
}

// TestMultiblockBoostSlowCells checks the sum by rows, which FPR takes for
// the byte-stride multiblocks with K >= 8 words, against the sum by count
// vectors (overlapExactMulti) beyond its budget, computed once: 9^8
// leaves in 2 min 28 s for multiblock<uint64_t, 8>, 1 (and
// fast_multiblock64<8>, 1, the same geometry) at c = 12, 5^11 in 2 min 18 s
// for fast_multiblock32<11>, 1 at c = 16, on two shared cores.
func TestMultiblockBoostSlowCells(t *testing.T) {
	for _, c := range []struct {
		name string
		c    uint64
		k    int
		w    uint64
		sum  float64 // by count vectors
	}{
		{"multiblock<uint64_t,8>,1", 12, 8, 64, 0.00375949529561715},
		{"fast_multiblock32<11>,1", 16, 11, 32, 0.000861183645927374},
	} {
		geo := BoostMultiblock(c.c*boostItems, c.k, c.w, true, 1)
		f, err := geo.FPR(boostItems)
		if err != nil || math.Abs(f/c.sum-1) > 1e-11 {
			t.Errorf("%s c=%d: FPR %.15g (%v), by count vectors %.15g", c.name, c.c, f, err, c.sum)
		}
	}
}

// TestMultiblockBoostOptimalK sets the K that minimises our rate beside the
// K Boost chose by measurement, for the layouts whose rate is cheap for
// every K (all but the byte-stride multiblocks).
func TestMultiblockBoostOptimalK(t *testing.T) {
	agree, total := 0, 0
	for _, cfg := range boostTable {
		if cfg.classic || (cfg.multi && cfg.stride != 0) {
			continue
		}
		for _, cell := range cfg.cells {
			geo := BoostMultiblock(cell.c*boostItems, cell.k, cfg.wordBits, cfg.multi, cfg.stride)
			k, f, err := MultiblockOptimalHashes(geo, boostItems, cell.k+3)
			if err != nil {
				t.Fatal(err)
			}
			geo.Hashes = cell.k
			fb, _ := geo.FPR(boostItems)
			total++
			if k == cell.k {
				agree++
			}
			t.Logf("%-26s c=%2d Boost's K=%2d (ours %.4f%%), our best K=%2d (%.4f%%)", cfg.name, cell.c, cell.k, 100*fb, k, 100*f)
		}
	}
	t.Logf("our best K is Boost's in %d of %d cells", agree, total)
}
