package variants

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/zeebo/xxh3"

	"github.com/bloomlab/bloomlab/analysis"
)

// splitBlockBits is the block size of a split-block filter: 256 bits,
// eight 32-bit words.
const splitBlockBits = analysis.SplitBlockBits

// splitBlockHashes is the number of bits a key sets: one per 32-bit word.
const splitBlockHashes = analysis.SplitBlockHashes

// maxSplitBlocks is the largest number of blocks of a split-block filter:
// the block index is computed from 32 bits of the hash, so there are at
// most 2^32 blocks (128 GiB).
const maxSplitBlocks = 1 << 32

// SplitBlock is the split-block Bloom filter of Apache Impala, Kudu and
// Parquet, bit for bit as the Parquet format specifies its Bloom filters
// (BloomFilter.md): z blocks of 256 bits, each eight 32-bit words; a 64-bit
// hash h picks block ((h >> 32) z) >> 32, and its low 32 bits x set one bit
// in each word i, bit (x salt_i mod 2^32) >> 27, with the eight salts of
// the specification. A key touches one 32-byte block, and every key sets
// exactly eight bits. Its rate, [analysis.SplitBlockFPR], is a little above
// a blocked filter's at equal memory.
//
// Keys are hashed with the filter's [Hashing]; the 64-bit hash is the
// digest's first half, H1: the low half of the 128-bit [XXH3] by default,
// or with Hashing{Kind: [XXH3_64]} the cheaper 64-bit XXH3, under the same
// theory (both give one 64-bit hash per key, which the theory assumes
// uniform). With Hashing{Kind: [XXH64]} (seed 0) a key hashes
// as Parquet hashes a value's plain encoding, so Add and Contains on plain
// encoded values agree with a Parquet reader; AddHash64 and ContainsHash64
// take the 64-bit hash directly, and [NewSplitBlockFromBitset] and
// AppendBitset exchange the raw bitset of a Parquet column chunk.
//
// Contains, ContainsDigest, ContainsHash64 and ContainsBatch are safe for
// concurrent use while nothing mutates the filter; mutation needs
// exclusive access.
type SplitBlock struct {
	bitCore
	blocks uint64 // z
	// path is the hash path of Add and Contains, from the hashing (see
	// splitPath), decided once so that a key does not compare the whole
	// Hashing struct.
	path uint8
}

// The hash paths of a split-block filter's key forms.
const (
	splitPathOther   uint8 = iota // f.hash64
	splitPathParquet              // XXH64, seed 0: Parquet's hash
	splitPathXXH3                 // xxh3, the low half of the 128-bit hash
	splitPathXXH3x64              // xxh3-64, the 64-bit hash
)

// splitPath returns the hash path for h.
func splitPath(h Hashing) uint8 {
	switch {
	case h == parquetHashing:
		return splitPathParquet
	case h.Kind == XXH3:
		return splitPathXXH3
	case h.Kind == XXH3_64:
		return splitPathXXH3x64
	}
	return splitPathOther
}

// checkSplitHashing reports an error unless h suits a split-block filter:
// any hash kind, the 64-bit xxh64 and xxh3-64 included, and the default
// derivation.
func checkSplitHashing(h Hashing) error {
	if h.Kind.only64() {
		if h.Key != (HashKey{}) {
			return invalid("a hash key is set, but hash kind %v takes no key; use siphash (%d) for keyed hashing", h.Kind, uint8(SipHash))
		}
		h.Kind = XXH3 // valid here; check the rest
	}
	return checkOwnIndexing("split-block", h)
}

// NewSplitBlock returns an empty split-block filter of g.Bits bits rounded
// up to a whole number of 256-bit blocks; [Geometry] reports the bits
// actually built, and [Stats] the capacity g.Capacity. g.Hashes must be 8:
// every key sets one bit in each of a block's eight words, and any other
// value (0 included) is an error wrapping [ErrInvalidParams] rather than a
// filter other than the one asked for. [SplitBlockGeometry] sizes one for a
// capacity.
func NewSplitBlock(g Geometry, h Hashing) (*SplitBlock, error) {
	m := g.Bits
	if m == 0 {
		return nil, invalid("bits m = 0, want m >= 1")
	}
	if g.Hashes != splitBlockHashes {
		return nil, invalid("hashes k = %d, but a split-block filter sets one bit in each of a block's %d words: want k = %d", g.Hashes, splitBlockHashes, splitBlockHashes)
	}
	if err := checkSplitHashing(h); err != nil {
		return nil, err
	}
	z := (m + splitBlockBits - 1) / splitBlockBits
	if m > MaxBits || z > maxSplitBlocks {
		return nil, invalid("bits m = %d needs %d blocks, more than the %d that a split-block filter addresses", m, z, uint64(maxSplitBlocks))
	}
	w, err := alignedWords(z*splitBlockBits/64, 0)
	if err != nil {
		return nil, err
	}
	return &SplitBlock{bitCore: bitCore{words: w, k: splitBlockHashes, capacity: g.Capacity, hashing: h.conf()}, blocks: z, path: splitPath(h)}, nil
}

// NewSplitBlockFor returns an empty split-block filter sized by
// [SplitBlockGeometry] for capacity items at false-positive rate fpr.
func NewSplitBlockFor(capacity uint64, fpr float64, h Hashing) (*SplitBlock, error) {
	g, err := SplitBlockGeometry(capacity, fpr)
	if err != nil {
		return nil, err
	}
	return NewSplitBlock(g, h)
}

// NewSplitBlockFromBitset returns a split-block filter holding a copy of a
// Parquet Bloom filter bitset: the bytes that follow a column chunk's
// BloomFilterHeader, a whole number of 32-byte blocks of eight
// little-endian 32-bit words. Its hashing is Hashing{Kind: [XXH64]}, as
// Parquet's; its capacity and item count are unknown and reported as 0.
// Query it with ContainsHash64([ParquetHash](value)) or Contains(value).
func NewSplitBlockFromBitset(bitset []byte) (*SplitBlock, error) {
	if len(bitset) == 0 || len(bitset)%(splitBlockBits/8) != 0 {
		return nil, invalid("bitset of %d bytes, want a positive multiple of %d (whole 256-bit blocks)", len(bitset), splitBlockBits/8)
	}
	f, err := NewSplitBlock(Geometry{Bits: uint64(len(bitset)) * 8, Hashes: splitBlockHashes}, Hashing{Kind: XXH64})
	if err != nil {
		return nil, err
	}
	for i := range f.words {
		f.words[i] = binary.LittleEndian.Uint64(bitset[8*i:])
	}
	return f, nil
}

// AppendBitset appends the filter's bits to dst in the layout of a Parquet
// Bloom filter bitset (blocks in order, each eight little-endian 32-bit
// words) and returns the extended slice. A Parquet writer stores it after
// a BloomFilterHeader whose numBytes is len of the bitset; its algorithm
// is SPLIT_BLOCK, hash XXHASH and compression UNCOMPRESSED, which hold only
// when the filter hashes with [XXH64] seed 0 (Parquet's hash) or its keys
// were added by AddHash64 with Parquet hashes.
func (f *SplitBlock) AppendBitset(dst []byte) []byte {
	for _, w := range f.words {
		dst = binary.LittleEndian.AppendUint64(dst, w)
	}
	return dst
}

// Add inserts key.
func (f *SplitBlock) Add(key []byte) {
	// The two usual hashes are called from here, not through hash64, so
	// that a key costs one call to the hash and one to the probe.
	var h uint64
	switch f.path {
	case splitPathParquet:
		h = xxhash.Sum64(key)
	case splitPathXXH3:
		h = xxh3.Hash128Seed(key, f.hashing.Seed).Lo
	case splitPathXXH3x64:
		h = xxh3.HashSeed(key, f.hashing.Seed)
	default:
		h = f.hash64(key)
	}
	splitAddOne(f.base(), f.z(), h)
	f.items++
}

// Contains reports whether key is possibly in the set.
func (f *SplitBlock) Contains(key []byte) bool {
	var h uint64
	switch f.path {
	case splitPathParquet:
		h = xxhash.Sum64(key)
	case splitPathXXH3:
		h = xxh3.Hash128Seed(key, f.hashing.Seed).Lo
	case splitPathXXH3x64:
		h = xxh3.HashSeed(key, f.hashing.Seed)
	default:
		h = f.hash64(key)
	}
	return splitContainsOne(f.base(), f.z(), h)
}

// TestAndAdd inserts key and reports whether it was possibly present.
func (f *SplitBlock) TestAndAdd(key []byte) bool { return f.TestAndAddHash64(f.hash64(key)) }

// parquetHashing is the hashing of Parquet's Bloom filters: XXH64, seed 0.
var parquetHashing = Hashing{Kind: XXH64}

// hash64 returns the 64-bit hash of key, H1 of its digest.
func (f *SplitBlock) hash64(key []byte) uint64 {
	switch f.hashing.Kind {
	case XXH3:
		return xxh3.Hash128Seed(key, f.hashing.Seed).Lo
	case XXH64:
		return xxh64(key, f.hashing.Seed)
	case XXH3_64:
		return xxh3.HashSeed(key, f.hashing.Seed)
	}
	return f.hashing.Digest(key).H1
}

// AddDigest inserts the key whose digest is d; it uses d.H1.
func (f *SplitBlock) AddDigest(d Digest) {
	splitAddOne(f.base(), f.z(), d.H1)
	f.items++
}

// ContainsDigest reports whether the key whose digest is d is possibly
// present; it uses d.H1.
func (f *SplitBlock) ContainsDigest(d Digest) bool {
	return splitContainsOne(f.base(), f.z(), d.H1)
}

// TestAndAddDigest inserts d and reports whether it was possibly present.
func (f *SplitBlock) TestAndAddDigest(d Digest) bool { return f.TestAndAddHash64(d.H1) }

// AddHash64 inserts the key whose 64-bit hash is h, as Parquet's
// insert(h) does.
func (f *SplitBlock) AddHash64(h uint64) {
	if archSIMDProbes {
		splitAddOne(f.base(), f.z(), h)
	} else {
		w := f.words
		splitAddHash(unsafe.Pointer(unsafe.SliceData(w)), uint64(len(w))/4, h)
	}
	f.items++
}

// ContainsHash64 reports whether the key whose 64-bit hash is h is
// possibly present, as Parquet's check(h) does.
func (f *SplitBlock) ContainsHash64(h uint64) bool {
	if archSIMDProbes {
		return splitContainsOne(f.base(), f.z(), h)
	}
	return splitContainsHash(f.base(), f.z(), h)
}

// TestAndAddHash64 inserts the key whose 64-bit hash is h and reports
// whether it was possibly present.
func (f *SplitBlock) TestAndAddHash64(h uint64) bool {
	present := f.ContainsHash64(h)
	f.AddHash64(h)
	return present
}

// block returns the address of the block that h picks, ((h >> 32) z) >> 32,
// which is below z; the table has exactly 4 z words, asserted once.
func (f *SplitBlock) block(h uint64) unsafe.Pointer {
	_ = f.words[f.blocks*4-1]
	return splitBlockAt(f.base(), f.blocks, h)
}

// base returns the address of the table, for the probes.
func (f *SplitBlock) base() unsafe.Pointer {
	return unsafe.Pointer(unsafe.SliceData(f.words))
}

// z returns the number of blocks for the probes, taken from the table's
// length (which is 4 z words): the probes' unchecked arithmetic then stays
// inside the table by construction, with no assertion to pay per key.
func (f *SplitBlock) z() uint64 { return uint64(len(f.words)) / 4 }

// splitBlockAt returns the address of the block that h picks in the
// table at words of z blocks.
func splitBlockAt(words unsafe.Pointer, z, h uint64) unsafe.Pointer {
	return unsafe.Add(words, ((h>>32)*z)>>32<<5)
}

// masks returns the block mask of x as four 64-bit words: 32-bit word i of
// the block is the low half of 64-bit word i/2 for even i and the high
// half for odd i, which is the little-endian layout of the bitset. The
// constants are the eight salts of the Parquet specification, in order:
// 0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b,
// 0x9efc4947, 0x5c6bfb31.
func masks(x uint32) (m0, m1, m2, m3 uint64) {
	m0 = 1<<((x*0x47b6137b)>>27) | 1<<((x*0x44974d91)>>27+32)
	m1 = 1<<((x*0x8824ad5b)>>27) | 1<<((x*0xa2b7289d)>>27+32)
	m2 = 1<<((x*0x705495c7)>>27) | 1<<((x*0x2df1424b)>>27+32)
	m3 = 1<<((x*0x9efc4947)>>27) | 1<<((x*0x5c6bfb31)>>27+32)
	return
}

// The pure-Go probes of the split-block filter. The probe entry points
// (splitAddHash, splitContainsHash, splitAdd, splitContains) are these
// functions on every architecture but amd64 and under the purego build
// tag (probe_generic.go); on amd64 they are the AVX2 loops of
// probe_amd64.s, which jump to these when the processor has no AVX2. Each
// takes the table's address and its number of blocks z, which the caller
// has checked against the table. The single-key methods call them through
// splitAddOne and splitContainsOne, which the GOEXPERIMENT=simd build
// replaces with inlined archsimd forms (probe_simd_amd64.go).

// splitSet ORs the mask of x into the block at b.
func splitSet(b unsafe.Pointer, x uint32) {
	m0, m1, m2, m3 := masks(x)
	w := (*[4]uint64)(b)
	w[0] |= m0
	w[1] |= m1
	w[2] |= m2
	w[3] |= m3
}

// splitTest reports whether the block at b holds every bit of the mask of x.
func splitTest(b unsafe.Pointer, x uint32) bool {
	m0, m1, m2, m3 := masks(x)
	w := (*[4]uint64)(b)
	return (m0&^w[0])|(m1&^w[1])|(m2&^w[2])|(m3&^w[3]) == 0
}

// splitAddHashGo sets the bits of hash h.
func splitAddHashGo(words unsafe.Pointer, z, h uint64) {
	splitSet(splitBlockAt(words, z, h), uint32(h))
}

// splitContainsHashGo reports whether the bits of hash h are all set.
func splitContainsHashGo(words unsafe.Pointer, z, h uint64) bool {
	return splitTest(splitBlockAt(words, z, h), uint32(h))
}

// splitAddGo sets the bits of each of the n 64-bit hashes at h, h+stride,
// ... (bytes).
func splitAddGo(words unsafe.Pointer, z uint64, h unsafe.Pointer, stride uintptr, n int) {
	for i := range n {
		x := *(*uint64)(unsafe.Add(h, uintptr(i)*stride))
		splitSet(splitBlockAt(words, z, x), uint32(x))
	}
}

// splitContainsGo sets out[i] to whether the bits of the i-th of the n
// hashes at h (stride bytes apart) are all set.
func splitContainsGo(words unsafe.Pointer, z uint64, h unsafe.Pointer, stride uintptr, n int, out *bool) {
	o := unsafe.Slice(out, n)
	for i := range o {
		x := *(*uint64)(unsafe.Add(h, uintptr(i)*stride))
		o[i] = splitTest(splitBlockAt(words, z, x), uint32(x))
	}
}

// Hashing returns the filter's hash options.
func (f *SplitBlock) Hashing() Hashing { return f.hashing.public() }

// Geometry returns the filter's bits (a whole number of 256-bit blocks)
// its 8 hashes and its capacity (0 if unknown).
func (f *SplitBlock) Geometry() Geometry {
	return Geometry{Bits: f.blocks * splitBlockBits, Hashes: splitBlockHashes, Capacity: f.capacity}
}

// Stats reports the filter's geometry and load. Its EstimatedFPR is the
// rate conditional on the bits: the mean over blocks of the product over
// the block's eight words of their fill ratios, since a query sets one
// uniform bit per word. EstimatedItems is the estimate over the whole
// table, ln(1 - X/m) / ln q with X the set bits and q the exact probability
// that one key leaves a given bit clear (0 when empty, +Inf only when
// every bit is set): the Items of [SplitBlock.EstimateCount], whose Error
// (or [analysis.Multiblock.EstimateError] of [SplitBlock.CountModel])
// predicts its bias and standard error.
func (f *SplitBlock) Stats() Stats {
	bs, est := blockSpread(f.words, splitBlockBits/64, func(block []uint64) float64 {
		p := 1.0
		for _, w := range block {
			p *= float64(bits.OnesCount32(uint32(w))) / 32
			p *= float64(bits.OnesCount32(uint32(w>>32))) / 32
		}
		return p
	})
	m := f.blocks * splitBlockBits
	return Stats{
		Variant:      "split-block",
		Cells:        m,
		CellBits:     1,
		Bits:         m,
		Hashes:       splitBlockHashes,
		Capacity:     f.capacity,
		Items:        f.items,
		FillRatio:    bs.FillMean,
		EstimatedFPR: est,
		Blocks:       bs,

		EstimatedItems: f.CountModel().EstimateItems(popcount(f.words)),
	}
}

// Reset empties the filter.
func (f *SplitBlock) Reset() { f.reset() }
