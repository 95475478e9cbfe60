package variants

import "github.com/bloomlab/bloomlab/analysis"

// Each filter returns its theory, the model of package analysis with the
// filter's own parameters and defaults filled in, from its Model method, so
// that comparing a filter with theory is one line:
//
//	rate, err := f.Model().FPR(f.Stats().Items)
//
// The models are those the experiments set beside their measurements.
// They assume independent uniform positions and distinct keys; where the
// filter or its item count departs from that, the method says so. The
// age-partitioned filter's model is its Geometry.

// Model returns the filter's theory: [analysis.Standard] with its bits m
// and hashes k, so that f.Model().FPR(f.Stats().Items) is the rate theory
// predicts for the filter as it is now, the exact rate [analysis.ExactFPR].
// [Stats.Items] counts every add, so a key added twice counts twice though
// it sets no new bit; with repeated keys (or after Union, which adds the
// item counts) the prediction is above the filter's rate. The derivations
// other than the default ([Double], [Triple], [Independent]) and the hash kinds
// depart from independent positions by what the hashing experiment
// measures.
func (f *Standard) Model() analysis.Standard {
	return analysis.Standard{Bits: f.m, Hashes: f.k}
}

// Model returns the filter's theory: [analysis.Standard] with its bits m
// and hashes k, as for a [Standard], so that f.Model().FPR(f.Stats().Items)
// is the rate theory predicts for the filter as it is now (while no Add
// runs; see [Stats]). [Stats.Items] counts every add, repeated keys included
// (see [Standard.Model]).
func (f *ConcurrentStandard) Model() analysis.Standard {
	return analysis.Standard{Bits: f.m, Hashes: f.k}
}

// Model returns the filter's theory: [analysis.Partitioned] with the bits
// actually built (k slices of SliceBits bits, as [Geometry] reports them)
// and its hashes k, so that f.Model().FPR(f.Stats().Items) is the rate
// theory predicts for the filter as it is now, the exact partitioned rate
// [analysis.PartitionedFPR]. [Stats.Items] counts every add, repeated keys
// included (see [Standard.Model]).
func (f *Partitioned) Model() analysis.Partitioned {
	return analysis.Partitioned{Bits: f.sliceBits * uint64(f.k), Hashes: f.k}
}

// Model returns the filter's theory: [analysis.Counting] with its counters
// m (as Bits), hashes k and counter width (the default filled in), so that
// f.Model().FPR(f.Stats().Items) is the rate theory predicts for the
// filter as it is now: the exact rate of the standard filter of m bits,
// since a counter is non-zero where that filter's bit is set. [Stats.Items]
// is the adds minus the successful removes, which is the count the model
// needs while [Stats.Saturated] is 0; a saturated counter that lost its keys
// to removes stays set and raises the rate above the prediction (see
// analysis.Counting). Repeated keys count as for a [Standard].
func (f *Counting) Model() analysis.Counting {
	return analysis.Counting{Bits: f.m, Hashes: f.k, Width: f.width}
}

// Model returns the filter's theory: [analysis.Blocked] with its bits m (a
// whole number of blocks), hashes k and block size B, so that
// f.Model().FPR(f.Stats().Items) is the rate theory predicts for the
// filter as it is now, [analysis.BlockedFPR]. [Stats.Items] counts every add,
// repeated keys included (see [Standard.Model]).
func (f *Blocked) Model() analysis.Blocked {
	return analysis.Blocked{Bits: f.m, Hashes: f.k, BlockBits: f.blockBits}
}

// Model returns the filter's theory: [analysis.SplitBlock] with its bits (a
// whole number of 256-bit blocks), so that f.Model().FPR(f.Stats().Items)
// is the rate theory predicts for the filter as it is now,
// [analysis.SplitBlockFPR]. [Stats.Items] counts every add, repeated keys
// included (see [Standard.Model]), and is 0 for a filter read from a Parquet
// bitset ([NewSplitBlockFromBitset]), whose item count is unknown.
func (f *SplitBlock) Model() analysis.SplitBlock {
	return analysis.SplitBlock{Bits: f.blocks * splitBlockBits}
}

// Model returns the filter's theory: [analysis.Multiblock] with its bits
// (one block plus whole strides), hashes K, window bits, layout and stride
// (0 at the natural stride), so that f.Model().FPR(f.Stats().Items) is the
// rate theory predicts for the filter as it is now: exact at the natural
// stride, and for overlapping strides computed as analysis describes (every
// start treated as interior). [Stats.Items] counts every add, repeated keys
// included (see [Standard.Model]).
func (f *Multiblock) Model() analysis.Multiblock {
	return analysis.Multiblock{Bits: f.m, Hashes: f.k, WordBits: f.w, Multi: f.multi, StrideBits: f.strideOrZero()}
}

// Model returns the filter's theory as a [ScalableModel]: for a filter
// given an Estimate, [analysis.Horizon] with its target P, growth factor
// s, n0, estimate, spread, tail share, tail ratio r and block size (the
// defaults filled in, as Params reports them), from which the filter
// builds its stages; otherwise [analysis.Scalable] with its target P,
// tightening ratio r, growth factor s, initial capacity n0 (the defaults
// filled in, as Params reports them) and block size (0 for partitioned
// stages), the geometry from which the filter builds its stages, so that
// f.Model().FPR(f.Stats().Items) is the rate theory predicts for the
// filter as it is now: the compound rate of its stages filled in order.
// [Stats.Items] is the right count: it counts the keys inserted, which is
// what fills the stages, and not the keys that Add skipped because they
// tested present (repeats, and the false positives among new keys). The
// model assumes independent stages, which the stream derivation and the
// remixed digests of the other derivations both give (see [Scalable]). If the
// filter could not add a stage (Err is not nil), its newest stage holds
// more than its capacity and the rate is above the prediction. A type
// assertion, f.Model().(analysis.Scalable) or (analysis.Horizon), gives
// the parameters.
func (f *Scalable) Model() ScalableModel { return f.geom }

// Model returns the filter's theory: [analysis.Dynamic] with its items per
// stage N and design rate P, whose stage geometry is the one [NewDynamic]
// builds, so that f.Model().FPR(f.Stats().Items) is the rate theory
// predicts for the filter as it is now: the compound rate of its stages,
// every one but the newest holding N items. [Stats.Items] counts every Add,
// and a key added again takes room in the newest stage, as in the filter;
// if its earlier copy is in the same stage it sets no new bit there, so
// with repeated keys the prediction is a little above the filter's rate.
// If the filter could not add a stage (Err is not nil), the rate is above
// the prediction.
func (f *Dynamic) Model() analysis.Dynamic { return f.geom }

// Model returns the filter's theory: [analysis.RedisBloom] with its error
// rate, capacity, expansion (the default filled in) and power-of-two
// rounding, the parameters of BF.RESERVE from which the filter builds its
// links, so that f.Model().FPR(f.Stats().Items) is the rate theory
// predicts for the filter as it is now under independent probes. [Stats.Items]
// counts the keys inserted, not those Add skipped because they tested
// present, which is what fills the links. RedisBloom's plain double
// hashing puts the filter's rate above that prediction: by about 1% in a
// chain of full links, more while the newest link is part full, several
// times at a quarter of its capacity (see analysis.RedisBloom). For
// power-of-two tables f.Model().DoubleHashingFPR(f.Stats().Items) gives
// the exact rate of that probing. If the filter could not add a link (Err
// is not nil), the rate is above the prediction.
func (f *RedisBloom) Model() analysis.RedisBloom { return f.geom }
