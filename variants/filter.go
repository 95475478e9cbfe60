package variants

import (
	"encoding"
	"io"
)

// Filter is an approximate-membership set: Contains never reports false for
// a key that was added (no false negatives) and reports true for a key that
// was not added with a small probability, the false-positive rate.
//
// The [Digest] forms operate on a key's precomputed 128-bit hash. For a filter
// f, f.Contains(key) equals f.ContainsDigest(f.Hashing().Digest(key)), so callers
// can hash a key once and feed the digest to several filters that share the
// same [Hashing].
//
// Contains and ContainsDigest are safe for concurrent use while nothing
// mutates the filter. Add, AddDigest, TestAndAdd and Reset must not run
// concurrently with any other method.
type Filter interface {
	// Add inserts key.
	Add(key []byte)
	// Contains reports whether key is possibly in the set.
	Contains(key []byte) bool
	// TestAndAdd inserts key and reports whether it was possibly present
	// before the insertion.
	TestAndAdd(key []byte) bool

	// AddDigest inserts the key whose digest is d.
	AddDigest(d Digest)
	// ContainsDigest reports whether the key whose digest is d is possibly
	// in the set.
	ContainsDigest(d Digest) bool
	// TestAndAddDigest is TestAndAdd for a digest.
	TestAndAddDigest(d Digest) bool

	// Hashing returns the hash options the filter was built with.
	Hashing() Hashing
	// Stats reports the filter's geometry and load.
	Stats() Stats
	// Reset removes every item, keeping the geometry and hashing.
	Reset()
}

// Remover is implemented by filters that support deletion ([Counting]).
type Remover interface {
	// Remove deletes one occurrence of key and reports whether it did so.
	// A key that tests absent is left alone and Remove reports false.
	Remove(key []byte) bool
	// RemoveDigest is Remove for a digest.
	RemoveDigest(d Digest) bool
}

// Grower is implemented by the filters that grow as keys arrive
// ([Scalable], [Dynamic], [RedisBloom]): the adding calls that can report
// that the filter cannot grow.
//
// A growing filter checks each new stage before it allocates it: against
// its stage rules and against its memory limit, its cells over all stages
// (the MaxBytes of its parameters, or the process limit, see
// [MemoryLimit]). When the next stage cannot be had, TryAdd and
// TryAddDigest insert nothing and return the error, one wrapping
// [ErrMemoryLimit] or [ErrStageLimit], and the filter is unchanged: its
// rate is still what its design promises. Add, AddDigest, TestAndAdd and
// TestAndAddDigest never lose a key instead: they insert it into the
// newest stage beyond that stage's capacity, so that the filter keeps
// giving no false negative but its false-positive rate then exceeds its
// target, and Err reports the error that stopped the growth (Stats shows
// the newest stage's Items above its Capacity). Reset clears Err.
type Grower interface {
	Filter
	// TryAdd inserts key, or returns the error that keeps the filter
	// from growing to hold it and changes nothing.
	TryAdd(key []byte) error
	// TryAddDigest is TryAdd for a digest.
	TryAddDigest(d Digest) error
	// Err returns the error that stopped an Add from growing the filter,
	// or nil.
	Err() error
}

// Batcher is implemented by filters with batched operations, which take
// many keys at once so that the memory accesses of different keys overlap
// instead of waiting one for another. How a filter overlaps them is its
// own: Blocked runs a whole batch of digests in one call of its batch loop
// (assembly on amd64 with AVX2 for blocks of 256 and 512 bits: locate,
// prefetch 16 keys ahead, test or set), hashing keys 32 at a time in Go;
// SplitBlock probes a hashed group in one assembly call; Scalable with
// blocked stages prefetches a group's blocks in every stage in one call;
// AgePartitioned and Multiblock read a group's lines ahead in Go, then
// probe each key; Standard's batches are plain loops (reading ahead did not
// pay, see BenchmarkBatch).
//
// AddBatch(keys) has the effect of Add on each key in turn, and
// ContainsBatch(keys, out) sets out[i] = Contains(keys[i]); ContainsBatch
// panics if out is shorter than keys. Neither allocates.
type Batcher interface {
	// AddBatch inserts every key of keys.
	AddBatch(keys [][]byte)
	// ContainsBatch sets out[i] to whether keys[i] is possibly in the
	// set, for every i < len(keys).
	ContainsBatch(keys [][]byte, out []bool)
	// AddDigestBatch inserts the keys whose digests are ds.
	AddDigestBatch(ds []Digest)
	// ContainsDigestBatch sets out[i] to ContainsDigest(ds[i]).
	ContainsDigestBatch(ds []Digest, out []bool)
}

// LineCounter is implemented by every filter of this package. QueryLines
// reports the number of distinct 64-byte lines of memory that
// ContainsDigest(d) reads from the filter's cells: the lines of the addresses
// that the query's own probe sequence loads, with the same groups of loads
// and the same early exits, taken from the filter's actual memory, so a
// table that does not start on a line boundary counts the lines its probes
// really straddle. It counts loads of the cells only, not of the filter's
// own fields, and is a measurement tool, not a fast path: it may allocate.
//
// A query that reads more lines costs more once the filter is larger than
// the cache; analysis.Scalable.Lines and analysis.TableLines predict the
// count.
type LineCounter interface {
	QueryLines(d Digest) int
}

// FreshCounter is implemented by filters that can say, without changing
// anything, how many of the cells a digest would set on AddDigest are still
// zero. It is what an attacker who knows a filter's hashing and contents
// computes to choose keys that fill the filter as fast as possible (a
// pollution attack; see the adversary experiment), and a research tool
// for studying how keys overlap. With the [SipHash] hash kind and a secret
// key, nobody without the key can compute the digest it needs.
type FreshCounter interface {
	// FreshCells returns the number of distinct zero cells (bits or
	// counters) that AddDigest(d) would set: two probes that coincide on
	// a zero cell count once, so it is what the add gains. For a scalable
	// filter it counts in the stage that would take the add: the newest,
	// or a new empty one (k fresh cells) if the newest is full.
	FreshCells(d Digest) int
}

// Stats is a filter's geometry and load as plain data.
type Stats struct {
	// Variant is the filter's kind: "standard", "partitioned", "counting",
	// "scalable", "blocked", "split-block", "multiblock", "dynamic", "redisbloom",
	// "age-partitioned" or "age-partitioned-blocked".
	Variant string
	// Cells is the number of cells the hashes index (m): bits for the bit
	// filters, counters for a counting filter, the sum over stages for a
	// growing filter (scalable, dynamic, [RedisBloom]).
	Cells uint64
	// CellBits is the width of one cell in bits: 1 for the bit filters, the
	// counter width for a counting filter.
	CellBits int
	// Bits is the memory of the cells in bits, Cells * CellBits.
	Bits uint64
	// Hashes is the number of cells each key touches (k); for a scalable
	// or [RedisBloom] filter, that of its newest stage.
	Hashes int
	// Capacity is the number of items the filter was sized for, or 0 if it
	// was built from an explicit geometry; for a growing filter, the sum
	// of its stages' capacities.
	Capacity uint64
	// Items is the number of keys added (for a scalable or [RedisBloom]
	// filter, keys that were added because they tested absent; for a
	// dynamic filter, every Add and every TestAndAdd of a key that tested
	// absent; for a counting filter, adds minus successful removes).
	Items uint64
	// FillRatio is the fraction of non-zero cells.
	FillRatio float64
	// EstimatedFPR is the false-positive rate implied by the current fill:
	// FillRatio^Hashes for a standard or counting filter, the product of
	// the slices' fill ratios for a partitioned one, the compound
	// 1 - prod(1 - f_i) of its stages for a growing one, and the mean over
	// blocks of each block's rate for a blocked or split-block one.
	EstimatedFPR float64
	// Saturated is the number of counters at their maximum (counting only).
	Saturated uint64
	// Stages holds per-stage figures of the growing filters (scalable,
	// dynamic and [RedisBloom], whose stages are its links).
	Stages []StageStats
	// Slices holds per-slice figures of an age-partitioned filter, newest
	// slice first; it is nil for the other variants.
	Slices []SliceStats
	// Blocks describes the blocks of a blocked or split-block filter; it
	// is zero for the other variants.
	Blocks BlockStats
	// EstimatedItems is the number of distinct keys the cells imply, the
	// estimate of Swamidass and Baldi (2007) with the exact inverse of
	// the expected fill (see analysis.FillEstimator): ln(1 - X/m) / ln q
	// with X of the m bits set and q the probability that one key leaves
	// a given bit clear, (1 - 1/m)^k for a standard filter and 1 - k/m
	// for a partitioned one (its slices pooled); the sum over stages for
	// a scalable filter. A blocked, split-block or multiblock filter pools
	// its whole table with the exact q of its layout (see
	// [BlockCounter]), whatever the blocks' unequal loads. A
	// counting filter reports the exact count, its counter sum over k
	// (each add counts, as in Items), while no counter is saturated, and
	// the estimate from its non-zero counters otherwise. It is +Inf for a
	// saturated filter (every bit set, or a stage full), which
	// may hold any number of keys beyond what its fill can tell. Package
	// analysis predicts its bias and standard error.
	EstimatedItems float64
}

// BlockStats describes the blocks of a blocked or split-block filter: how
// many there are, their size, and the spread of their fill ratios, whose
// unevenness is what costs a blocked filter its higher rate.
type BlockStats struct {
	Count      uint64  // number of blocks
	Bits       int     // bits per block (B)
	FillMean   float64 // mean fill ratio over blocks (the filter's fill ratio)
	FillStdDev float64 // standard deviation of the blocks' fill ratios
	FillMin    float64 // smallest fill ratio of a block
	FillMax    float64 // largest fill ratio of a block
}

// StageStats describes one stage of a growing filter ([Scalable], [Dynamic],
// or a link of [RedisBloom]).
type StageStats struct {
	Capacity     uint64  // items the stage is sized for
	Items        uint64  // items added to the stage
	Hashes       int     // slices (k_i); hashes of a RedisBloom link
	Bits         uint64  // bits of the stage
	FillRatio    float64 // fraction of set bits (of a RedisBloom link's modulus bits)
	Error        float64 // design error P_i
	EstimatedFPR float64 // product of the slices' fill ratios; FillRatio^Hashes for a RedisBloom link

	// EstimatedItems is the stage's estimate of its items from its fill
	// (see [Stats.EstimatedItems]).
	EstimatedItems float64
}

// SliceStats describes one slice of an age-partitioned filter.
type SliceStats struct {
	Age       int     // generations since the slice was the newest (0: newest)
	Items     uint64  // items of the generations it received
	Bits      uint64  // bits of the slice
	FillRatio float64 // fraction of its bits set
}

// Compile-time checks that every filter implements Filter, the encoding
// interfaces and the optional capabilities it offers.
var (
	_ Filter                     = (*Standard)(nil)
	_ LineCounter                = (*Standard)(nil)
	_ FreshCounter               = (*Standard)(nil)
	_ encoding.BinaryMarshaler   = (*Standard)(nil)
	_ encoding.BinaryUnmarshaler = (*Standard)(nil)
	_ io.WriterTo                = (*Standard)(nil)
	_ io.ReaderFrom              = (*Standard)(nil)

	_ Filter                     = (*ConcurrentStandard)(nil)
	_ LineCounter                = (*ConcurrentStandard)(nil)
	_ encoding.BinaryMarshaler   = (*ConcurrentStandard)(nil)
	_ encoding.BinaryUnmarshaler = (*ConcurrentStandard)(nil)
	_ io.WriterTo                = (*ConcurrentStandard)(nil)
	_ io.ReaderFrom              = (*ConcurrentStandard)(nil)

	_ Filter                     = (*Partitioned)(nil)
	_ LineCounter                = (*Partitioned)(nil)
	_ FreshCounter               = (*Partitioned)(nil)
	_ encoding.BinaryMarshaler   = (*Partitioned)(nil)
	_ encoding.BinaryUnmarshaler = (*Partitioned)(nil)
	_ io.WriterTo                = (*Partitioned)(nil)
	_ io.ReaderFrom              = (*Partitioned)(nil)

	_ Filter                     = (*Counting)(nil)
	_ Remover                    = (*Counting)(nil)
	_ LineCounter                = (*Counting)(nil)
	_ FreshCounter               = (*Counting)(nil)
	_ encoding.BinaryMarshaler   = (*Counting)(nil)
	_ encoding.BinaryUnmarshaler = (*Counting)(nil)
	_ io.WriterTo                = (*Counting)(nil)
	_ io.ReaderFrom              = (*Counting)(nil)

	_ Filter                     = (*Blocked)(nil)
	_ Batcher                    = (*Blocked)(nil)
	_ LineCounter                = (*Blocked)(nil)
	_ FreshCounter               = (*Blocked)(nil)
	_ encoding.BinaryMarshaler   = (*Blocked)(nil)
	_ encoding.BinaryUnmarshaler = (*Blocked)(nil)
	_ io.WriterTo                = (*Blocked)(nil)
	_ io.ReaderFrom              = (*Blocked)(nil)

	_ Filter                     = (*SplitBlock)(nil)
	_ Batcher                    = (*SplitBlock)(nil)
	_ LineCounter                = (*SplitBlock)(nil)
	_ encoding.BinaryMarshaler   = (*SplitBlock)(nil)
	_ encoding.BinaryUnmarshaler = (*SplitBlock)(nil)
	_ io.WriterTo                = (*SplitBlock)(nil)
	_ io.ReaderFrom              = (*SplitBlock)(nil)

	_ Filter                     = (*Multiblock)(nil)
	_ LineCounter                = (*Multiblock)(nil)
	_ FreshCounter               = (*Multiblock)(nil)
	_ encoding.BinaryMarshaler   = (*Multiblock)(nil)
	_ encoding.BinaryUnmarshaler = (*Multiblock)(nil)
	_ io.WriterTo                = (*Multiblock)(nil)
	_ io.ReaderFrom              = (*Multiblock)(nil)

	_ Filter                     = (*Scalable)(nil)
	_ Grower                     = (*Scalable)(nil)
	_ LineCounter                = (*Scalable)(nil)
	_ FreshCounter               = (*Scalable)(nil)
	_ encoding.BinaryMarshaler   = (*Scalable)(nil)
	_ encoding.BinaryUnmarshaler = (*Scalable)(nil)
	_ io.WriterTo                = (*Scalable)(nil)
	_ io.ReaderFrom              = (*Scalable)(nil)

	_ Filter                     = (*Dynamic)(nil)
	_ Grower                     = (*Dynamic)(nil)
	_ LineCounter                = (*Dynamic)(nil)
	_ FreshCounter               = (*Dynamic)(nil)
	_ encoding.BinaryMarshaler   = (*Dynamic)(nil)
	_ encoding.BinaryUnmarshaler = (*Dynamic)(nil)
	_ io.WriterTo                = (*Dynamic)(nil)
	_ io.ReaderFrom              = (*Dynamic)(nil)

	_ Filter                     = (*RedisBloom)(nil)
	_ Grower                     = (*RedisBloom)(nil)
	_ LineCounter                = (*RedisBloom)(nil)
	_ FreshCounter               = (*RedisBloom)(nil)
	_ encoding.BinaryMarshaler   = (*RedisBloom)(nil)
	_ encoding.BinaryUnmarshaler = (*RedisBloom)(nil)
	_ io.WriterTo                = (*RedisBloom)(nil)
	_ io.ReaderFrom              = (*RedisBloom)(nil)

	_ Filter                     = (*AgePartitioned)(nil)
	_ Batcher                    = (*AgePartitioned)(nil)
	_ LineCounter                = (*AgePartitioned)(nil)
	_ encoding.BinaryMarshaler   = (*AgePartitioned)(nil)
	_ encoding.BinaryUnmarshaler = (*AgePartitioned)(nil)
	_ io.WriterTo                = (*AgePartitioned)(nil)
	_ io.ReaderFrom              = (*AgePartitioned)(nil)
)
