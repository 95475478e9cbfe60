package variants

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/bloomlab/bloomlab/analysis"
)

// DefaultBlockBits is the block size of a blocked filter unless one is
// given: 512 bits, one 64-byte cache line.
const DefaultBlockBits = 512

// [MinBlockBits] and [MaxBlockBits] bound the block size of a blocked filter
// (and of the blocked stages of a scalable one), a power of two.
// MaxBlockBits is [analysis.MaxBlockBits], the bound of the theory's
// blocked-filter functions.
const (
	MinBlockBits = 64
	MaxBlockBits = analysis.MaxBlockBits
)

// Blocked is a cache-blocked Bloom filter (Putze, Sanders and Singler,
// "Cache-, Hash- and Space-Efficient Bloom Filters", WEA 2007): m bits in
// m/B blocks of B bits, each key setting k bits inside one block. A query
// therefore touches one block, one cache line at the default B = 512,
// where a standard filter touches k lines; the price is a slightly higher
// false-positive rate at equal memory, because blocks receive unequal
// numbers of keys ([analysis.BlockedFPR] gives the exact rate, and
// [NewBlockedFor] sizes the filter with that penalty included).
//
// The digest's first half picks the block, by multiply-shift over the
// number of blocks; the second half gives the k bit positions inside it,
// log2(B) bits each, taken from its low bits upwards and, once they run
// out, from SplitMix64 remixes of it (h2 + t w for t = 1, 2, ..., w the
// golden-ratio constant). The positions are thus as good as independent
// and uniform, with replacement: two of a key's positions may coincide,
// exactly as the theory assumes. This indexing is the filter's own: the
// hashing's [Derivation] must be the default ([EnhancedDouble]), and the
// constructors reject the others rather than silently ignore them.
//
// The table is aligned to 64 bytes in memory, so that a block of 512 bits
// is exactly one cache line.
//
// Contains, ContainsDigest and ContainsBatch are safe for concurrent use
// while nothing mutates the filter; mutation needs exclusive access.
type Blocked struct {
	bitCore
	m      uint64 // bits, a multiple of blockBits
	blocks uint64 // m / blockBits
	// blockBits is B; blockShift is log2(B), the bits of one position;
	// perWord is floor(64 / blockShift), the positions one 64-bit value
	// gives.
	blockBits  uint64
	blockShift uint
	perWord    int
}

// checkBlockBits reports an error unless b is a power of two between
// MinBlockBits and MaxBlockBits.
func checkBlockBits(b int) error {
	if b < MinBlockBits || b > MaxBlockBits || b&(b-1) != 0 {
		return invalid("block bits B = %d, want a power of two from %d to %d (%d, one cache line, by default)", b, MinBlockBits, MaxBlockBits, DefaultBlockBits)
	}
	return nil
}

// checkOwnIndexing reports an error if h asks for a derivation other than
// the default, which a filter with its own indexing does not use.
func checkOwnIndexing(variant string, h Hashing) error {
	if err := h.validate(); err != nil {
		return err
	}
	if h.Derivation != EnhancedDouble {
		return invalid("derivation %v: a %s filter derives its bit positions from the digest's bits and takes only the default derivation (%v)", h.Derivation, variant, EnhancedDouble)
	}
	return nil
}

// BlockedParams are the parameters of a blocked filter: its geometry, the
// size of its blocks and its hashing. The [Geometry] is embedded, so that
// the result of [BlockedGeometry] goes in whole, its capacity included, and
// p.Bits, p.Hashes and p.Capacity read as fields of the parameters:
//
//	g, err := variants.BlockedGeometry(capacity, fpr, 1024)
//	...
//	f, err := variants.NewBlocked(variants.BlockedParams{Geometry: g, BlockBits: 1024})
type BlockedParams struct {
	// Geometry gives the bits m, rounded up to a whole number of blocks,
	// the bits k a key sets in its block, and the capacity (0 if unknown).
	Geometry
	// BlockBits is the block size B, a power of two from [MinBlockBits] to
	// [MaxBlockBits]; 0 means [DefaultBlockBits].
	BlockBits int
	// Hashing holds the hash options; the filter derives its positions
	// itself and takes only the default derivation ([EnhancedDouble]).
	Hashing Hashing
}

// NewBlocked returns an empty blocked filter of p.Hashes bits per key in
// blocks of p.BlockBits bits (0 means [DefaultBlockBits]), with p.Bits
// rounded up to a whole number of blocks; [Geometry] reports the bits
// actually built. [BlockedGeometry] sizes one for a capacity.
func NewBlocked(p BlockedParams) (*Blocked, error) {
	return newBlockedStage(p, p.Hashing.conf(), 0)
}

// newBlockedStage is NewBlocked with p.Hashing as filters hold it, c, which
// the stages of a scalable filter share with their filter, and the memory
// limit maxBytes of allocWords.
func newBlockedStage(p BlockedParams, c hashConf, maxBytes int64) (*Blocked, error) {
	g, blockBits, h := p.Geometry, p.BlockBits, p.Hashing
	if blockBits == 0 {
		blockBits = DefaultBlockBits
	}
	if err := checkBlockBits(blockBits); err != nil {
		return nil, err
	}
	if err := g.validate(); err != nil {
		return nil, err
	}
	if err := checkOwnIndexing("blocked", h); err != nil {
		return nil, err
	}
	b := uint64(blockBits)
	m := (g.Bits + b - 1) / b * b
	if m > MaxBits {
		return nil, invalid("bits m = %d rounded up to whole blocks of %d is %d, more than the maximum of %d", g.Bits, b, m, uint64(MaxBits))
	}
	w, err := alignedWords(m/64, maxBytes)
	if err != nil {
		return nil, err
	}
	return newBlocked(bitCore{words: w, k: g.Hashes, capacity: g.Capacity, hashing: c}, m, b), nil
}

// newBlocked returns a blocked filter around c, whose words hold m bits in
// blocks of b bits.
func newBlocked(c bitCore, m, b uint64) *Blocked {
	shift := uint(bits.TrailingZeros64(b))
	return &Blocked{bitCore: c, m: m, blocks: m / b, blockBits: b, blockShift: shift, perWord: 64 / int(shift)}
}

// NewBlockedFor returns an empty blocked filter with blocks of
// [DefaultBlockBits] bits, sized by [BlockedGeometry] for capacity items at
// false-positive rate fpr. For other block sizes, build
// [NewBlocked](BlockedParams{[Geometry]: g, BlockBits: b, [Hashing]: h}) with g
// from BlockedGeometry(capacity, fpr, b).
func NewBlockedFor(capacity uint64, fpr float64, h Hashing) (*Blocked, error) {
	g, err := BlockedGeometry(capacity, fpr, DefaultBlockBits)
	if err != nil {
		return nil, err
	}
	return NewBlocked(BlockedParams{Geometry: g, Hashing: h})
}

// Add inserts key.
func (f *Blocked) Add(key []byte) {
	if f.hashing.Kind != XXH3 {
		f.AddDigest(f.hashing.Digest(key))
		return
	}
	u := xxh3.Hash128Seed(key, f.hashing.Seed)
	f.set(f.block(u.Lo), u.Hi)
	f.items++
}

// Contains reports whether key is possibly in the set.
func (f *Blocked) Contains(key []byte) bool {
	if f.hashing.Kind != XXH3 {
		return f.ContainsDigest(f.hashing.Digest(key))
	}
	u := xxh3.Hash128Seed(key, f.hashing.Seed)
	return f.test(f.block(u.Lo), u.Hi)
}

// TestAndAdd inserts key and reports whether it was possibly present.
func (f *Blocked) TestAndAdd(key []byte) bool {
	return f.TestAndAddDigest(f.hashing.Digest(key))
}

// AddDigest inserts the key whose digest is d.
func (f *Blocked) AddDigest(d Digest) {
	f.set(f.block(d.H1), d.H2)
	f.items++
}

// ContainsDigest reports whether the key whose digest is d is possibly present.
func (f *Blocked) ContainsDigest(d Digest) bool {
	return f.test(f.block(d.H1), d.H2)
}

// TestAndAddDigest inserts d and reports whether it was possibly present.
func (f *Blocked) TestAndAddDigest(d Digest) bool {
	p := f.block(d.H1)
	present := f.test(p, d.H2)
	f.set(p, d.H2)
	f.items++
	return present
}

// block returns the address of the block that h1 picks, reduce(h1, z)
// for z blocks. z is taken from the table's length (z B/64 words, which
// the constructors and the decoder make equal to f.blocks), so that the
// unchecked arithmetic stays inside the table by construction with no
// assertion to pay per key.
func (f *Blocked) block(h1 uint64) unsafe.Pointer {
	s := (f.blockShift - 3) & 63 // bytes per block, log2
	z := uint64(len(f.words)) << 3 >> s
	return unsafe.Add(unsafe.Pointer(unsafe.SliceData(f.words)), reduce(h1, z)<<s)
}

// The in-block loops take the k positions from h2 as the type's comment
// says; x holds the unused bits of the current 64-bit value.

// set sets the k bits of h2 in the block at b.
func (f *Blocked) set(b unsafe.Pointer, h2 uint64) {
	s, mask, per := f.blockShift&63, f.blockBits-1, f.perWord
	x, k := h2, f.k
	for t := uint64(1); ; t++ {
		n := min(k, per)
		for range n {
			i := x & mask
			*wordPtr(b, i) |= 1 << (i & 63)
			x >>= s
		}
		if k -= n; k == 0 {
			return
		}
		x = mix64(h2 + t*weyl)
	}
}

// test reports whether the k bits of h2 are all set in the block at b,
// with the AVX2 probe where there is one (see blockedTest), or its
// archsimd form in the GOEXPERIMENT=simd build (blockedTestOne).
func (f *Blocked) test(b unsafe.Pointer, h2 uint64) bool {
	if archSIMDProbes {
		return blockedTestOne(b, h2, f.k, f.perWord, f.blockShift)
	}
	return blockedTest(b, h2, f.k, f.perWord, f.blockShift)
}

// blockedTestGo is the pure-Go test of a blocked filter's block: it
// reports whether the k bits of h2, s = shift bits per position and per =
// 64/s positions per 64-bit value, are all set in the block at b. It
// tests every bit without an early exit: the loads all hit the one line
// the first brings in, and a loop without branches on the bits lets the
// processor run the tests of consecutive keys side by side.
func blockedTestGo(b unsafe.Pointer, h2 uint64, k, per int, shift uint) bool {
	s, mask := shift&63, uint64(1)<<(shift&63)-1
	x := h2
	acc := uint64(1)
	for t := uint64(1); ; t++ {
		n := min(k, per)
		for range n {
			i := x & mask
			acc &= *wordPtr(b, i) >> (i & 63)
			x >>= s
		}
		if k -= n; k <= 0 {
			return acc&1 != 0
		}
		x = mix64(h2 + t*weyl)
	}
}

// Hashing returns the filter's hash options.
func (f *Blocked) Hashing() Hashing { return f.hashing.public() }

// Geometry returns the filter's bits (a whole number of blocks), hashes
// and capacity (0 if unknown).
func (f *Blocked) Geometry() Geometry {
	return Geometry{Bits: f.m, Hashes: f.k, Capacity: f.capacity}
}

// BlockBits returns the size of the filter's blocks in bits.
func (f *Blocked) BlockBits() int { return int(f.blockBits) }

// Stats reports the filter's geometry and load. Its EstimatedFPR is the
// rate conditional on the bits: the mean over blocks of (X_b/B)^k, where
// X_b is the number of set bits of block b, since a query picks a block
// uniformly and then k positions in it with replacement. Blocks describes
// the spread of the blocks' fill. EstimatedItems is the estimate over the
// whole table, ln(1 - X/m) / ln q with X the set bits and q the exact
// probability that one key leaves a given bit clear (0 when empty, +Inf
// only when every bit is set): the Items of [Blocked.EstimateCount],
// whose Error (or [analysis.Multiblock.EstimateError] of
// [Blocked.CountModel]) predicts its bias and standard error.
func (f *Blocked) Stats() Stats {
	wordsPer := int(f.blockBits / 64)
	bs, est := blockSpread(f.words, wordsPer, func(block []uint64) float64 {
		return math.Pow(float64(popcount(block))/float64(f.blockBits), float64(f.k))
	})
	return Stats{
		Variant:      "blocked",
		Cells:        f.m,
		CellBits:     1,
		Bits:         f.m,
		Hashes:       f.k,
		Capacity:     f.capacity,
		Items:        f.items,
		FillRatio:    bs.FillMean,
		EstimatedFPR: est,
		Blocks:       bs,

		EstimatedItems: f.CountModel().EstimateItems(popcount(f.words)),
	}
}

// blockSpread summarises the fill of the blocks of wordsPer words in words,
// and returns with it the mean over blocks of rate(block).
func blockSpread(words []uint64, wordsPer int, rate func([]uint64) float64) (BlockStats, float64) {
	n := len(words) / wordsPer
	bs := BlockStats{Count: uint64(n), Bits: 64 * wordsPer, FillMin: 1}
	var sum, sumSq, est float64
	for b := range n {
		block := words[b*wordsPer : (b+1)*wordsPer]
		fill := float64(popcount(block)) / float64(bs.Bits)
		sum += fill
		sumSq += fill * fill
		bs.FillMin = min(bs.FillMin, fill)
		bs.FillMax = max(bs.FillMax, fill)
		est += rate(block)
	}
	bs.FillMean = sum / float64(n)
	bs.FillStdDev = math.Sqrt(max(0, sumSq/float64(n)-bs.FillMean*bs.FillMean))
	return bs, est / float64(n)
}

// Reset empties the filter.
func (f *Blocked) Reset() { f.reset() }
