package variants

import (
	"fmt"
	"io"
)

// FormatVersion is the version of the binary format that MarshalBinary and
// WriteTo write. Readers accept every version up to it; a change to the
// layout gets a new version number and keeps the old one readable.
//
// # Layout, version 1
//
// All integers are little-endian, whatever the machine. An encoded filter is
// a fixed header, the variant's parameters, its cells and a checksum:
//
//	offset  size  field
//	0       4     magic "BLMF"
//	4       2     format version (uint16), 1
//	6       1     variant (uint8): 1 standard, 2 partitioned, 3 counting, 4 scalable,
//	              5 blocked, 6 split-block, 7 scalable with blocked stages,
//	              10 scalable (stream stages), 11 scalable with blocked
//	              stream stages, 12 dynamic, 13 redisbloom,
//	              14 age-partitioned, 15 age-partitioned (blocked layout),
//	              16 scalable, horizon-aware (an Estimate given),
//	              17 multiblock
//	7       1     hash kind (HashKind): 0 xxh3, 1 metro, 2 xxh64 (split-block only),
//	              3 siphash (SipHash), 4 murmur64a (redisbloom only),
//	              5 xxh3-64 (split-block only)
//	8       1     derivation (Derivation): 0 enhanced double, 1 double,
//	              2 triple, 3 independent
//	9       8     seed (uint64), 0 for hash kind 3
//	17      16    key (HashKey), for hash kind 3 only: with it the
//	              parameters start 16 bytes later than the offsets below
//	17      ...   parameters of the variant, below
//	...     8 w   payload: the w words of the filter's cells, uint64 each
//	end-4   4     CRC-32C (Castagnoli) of every byte before it (uint32)
//
// [Standard] (28 bytes of parameters, then w = ceil(m/64) words):
//
//	17  8  bits m (uint64), 1 <= m <= MaxBits
//	25  4  hashes k (uint32), 1 <= k <= MaxHashes
//	29  8  capacity (uint64), 0 for a filter built from a geometry
//	37  8  items (uint64), keys added; may exceed capacity
//	45     payload: bit i of the filter is bit i%64 of word i/64; the bits
//	       above m in the last word are zero
//
// [Partitioned] (28 bytes of parameters, then w = k ceil(b/64) words):
//
//	17  8  slice bits b (uint64), 1 <= b and k b <= MaxBits
//	25  4  hashes k (uint32), the number of slices, 1 <= k <= MaxHashes
//	29  8  capacity (uint64)
//	37  8  items (uint64)
//	45     payload: slice 0, then slice 1, ...; each slice is ceil(b/64)
//	       words laid out as a standard filter of b bits, its bits above b
//	       zero
//
// [Counting] (29 bytes of parameters, then w = ceil(m c/64) words):
//
//	17  8  counters m (uint64), 1 <= m <= MaxBits
//	25  4  hashes k (uint32), 1 <= k <= MaxHashes
//	29  1  counter width c in bits (uint8): 2, 4, 8 or 16
//	30  8  capacity (uint64)
//	38  8  items (uint64), adds minus successful removes
//	46     payload: the counters packed as in memory, counter i in bits
//	       (i c)%64 to (i c)%64 + c - 1 of word (i c)/64, least significant
//	       bit first; the bits above m c in the last word are zero
//
// [Scalable] (44 bytes of parameters, then the stages in use, oldest first):
//
//	17  8  target rate P (float64 bits, IEEE 754), 0 < P < 1
//	25  8  tightening ratio r (float64 bits), 0 < r < 1
//	33  8  growth factor s (float64 bits), s >= 1 and finite
//	41  8  first-stage capacity n0 (uint64), 1 <= n0 <= MaxBits
//	49  8  items (uint64), keys inserted
//	57  4  stages L (uint32), 1 <= L <= 256 (analysis.MaxStages)
//	61     L stages, each a partitioned parameter block (slice bits b_i,
//	       hashes k_i, capacity n_i, items) and its k_i ceil(b_i/64) words
//	       as above; the stage's hashing is the filter's, and stage i
//	       queries with Digest.remix(i)
//
// Stage i must be the stage NewScalable builds from P, r, s, n0 (and the
// block bits) for stage i: its capacity, bits (slice bits) and hashes.
// Every stage but the newest holds its capacity in items, the newest at
// least one item unless it is stage 0, and the items field is the sum of
// the stages' items. The same holds for the stages of a dynamic filter
// (their geometry the one N and P give) and for the links of a RedisBloom
// filter.
//
// Scalable with blocked stages (48 bytes of parameters; derivation 0):
//
//	17  32 P, r, s and n0 as for a scalable filter
//	49  4  block bits B (uint32), a power of two from 64 to 4096
//	53  8  items (uint64), keys inserted
//	61  4  stages L (uint32), 1 <= L <= 256
//	65     L stages, each a blocked parameter block (bits m_i, hashes
//	       k_i, block bits B, capacity n_i, items) and its m_i/64 words as
//	       below; stage i queries with Digest.remix(i)
//
// Scalable, stream stages (code 10; derivation 0) and scalable, blocked
// stream stages (code 11; derivation 0): the layouts of codes 4 and 7,
// but stage i derives its bits from the key's wyrand stream (see
// Scalable), not from [Digest].remix(i). A scalable filter with the default
// derivation writes these codes; filters with other derivations still
// write codes 4 and 7, and every code loads as written.
//
// Scalable, horizon-aware (code 16; a filter given an Estimate, see
// [ScalableParams]; 72 bytes of parameters, then the stages in use,
// oldest first):
//
//	17  8  target rate P (float64 bits), 0 < P < 1
//	25  8  growth factor s (float64 bits), s > 1 and finite
//	33  8  smallest first-stage capacity n0 (uint64), n0 >= 1
//	41  8  estimate N̂ (uint64), 1 <= N̂ <= MaxBits
//	49  8  spread F (float64 bits), F >= 1 and finite
//	57  8  tail share (float64 bits), 0 < tail < 1
//	65  8  tail tightening ratio r (float64 bits), 0 < r < 1
//	73  4  block bits B (uint32): 0 for partitioned stages, else a power
//	       of two from 64 to 4096 (derivation 0)
//	77  8  items (uint64), keys inserted
//	85  4  stages L (uint32), 1 <= L <= 256
//	89     L stages: for B = 0 partitioned parameter blocks and words as
//	       in code 4, for B > 0 blocked ones as in code 7
//
// The parameters are stored with the defaults filled in, as
// [Scalable.Params] reports them (a zero spread, tail share or ratio is
// refused). The stages take the stream derivation with derivation 0 (as
// code 10 and 11) and the remixed digests with the others (as code 4).
// Stage i must be stage i of the [analysis.Horizon] of the stored
// parameters, as for the other scalable codes: the decoder recomputes
// every stage's capacity, bits and hashes from the parameters (their
// float64 bits, read exactly) and compares them with the stored ones
// exactly, with no tolerance. Stage design errors are not stored: they
// are recomputed. The recomputation is the constructor's code in the
// same floating-point operations, so a file loads wherever it was
// written; between architectures, a capacity or size that the
// computation puts within an ulp of an integer boundary could round
// the other way, and the file is then refused (ErrCorrupt) rather than
// loaded with a geometry the constructor does not build. The golden
// files load on amd64 and 386.
//
// [Blocked] (32 bytes of parameters, then w = m/64 words; derivation 0):
//
//	17  8  bits m (uint64), a multiple of B, B <= m <= MaxBits
//	25  4  hashes k (uint32), 1 <= k <= MaxHashes
//	29  4  block bits B (uint32), a power of two from 64 to 4096
//	33  8  capacity (uint64)
//	41  8  items (uint64)
//	49     payload: block j is words j B/64 to (j+1) B/64 - 1, laid out as
//	       a standard filter of B bits
//
// Split-block (28 bytes of parameters, then w = m/64 words; derivation 0;
// hash kind 0, 1, 2, 3 or 5):
//
//	17  8  bits m (uint64), 256 z for z blocks, 1 <= z <= 2^32
//	25  4  hashes k (uint32), always 8
//	29  8  capacity (uint64)
//	37  8  items (uint64)
//	45     payload: the Parquet bitset read as little-endian 64-bit words
//	       (SplitBlock.AppendBitset)
//
// [Multiblock] (code 17; derivation 0; 40 bytes of parameters, then
// w = ceil(m/64) words):
//
//	17  8  bits m (uint64), (P - 1) S + L for P >= 1 starts, m <= MaxBits
//	25  4  hashes K (uint32), 1 <= K <= MaxHashes; K <= w for layout 0
//	29  4  window bits w (uint32), a power of two from 8 to 4096
//	33  4  layout (uint32): 0 block (K bits in one window, L = w),
//	       1 multiblock (one bit in each of K windows, L = K w <= 65536)
//	37  4  stride S in bits (uint32), a multiple of 8 from 8 to L (L
//	       stored for the natural stride)
//	41  8  capacity (uint64)
//	49  8  items (uint64)
//	57     payload: bit x of the table is bit x%64 of word x/64; the bits
//	       above m in the last word are zero
//
// [Dynamic] (code 12; derivation 0; 28 bytes of parameters, then the
// stages in use, oldest first):
//
//	17  8  stage capacity N (uint64), 1 <= N <= MaxBits
//	25  8  stage rate P (float64 bits), 0 < P < 1
//	33  8  items (uint64), keys added, the sum of the stages' items
//	41  4  stages L (uint32), 1 <= L <= 65536 (analysis.MaxDynamicStages)
//	45     L stages, each a partitioned parameter block (slice bits b,
//	       hashes k, capacity N, items) and its k ceil(b/64) words as
//	       above; b and k are the same in every stage, every stage but
//	       the newest holds N items, and stage i takes its bits from the
//	       key's wyrand stream (see Dynamic)
//
// [RedisBloom] (code 13; hash kind 4 with derivation 0; 33 bytes of
// parameters, 41 with a tightening, then the links in use, oldest first):
//
//	17  8  error rate (float64 bits), 0 < e < 1
//	25  8  capacity (uint64), the first link's, 1 <= capacity <= MaxBits
//	33  4  expansion (uint32), >= 1
//	37  1  options (uint8): bit 0 power-of-two tables (clear: NOROUND),
//	       bit 1 a tightening follows; the other bits zero
//	(38 8  tightening r (float64 bits), only with option bit 1: 0 < r < 1,
//	       r != 0.5, e (1 - r) < 0.5; the offsets below are then 8 later.
//	       RedisBloom's halving, r = 0.5, is stored without it, as in
//	       every filter written before the option existed)
//	38  8  items (uint64), keys inserted, the sum of the links' items
//	46  4  links L (uint32), 1 <= L <= 256 (analysis.MaxStages)
//	50     L links, each a parameter block (bits m_i, hashes k_i,
//	       capacity n_i, items; m_i, k_i and n_i as analysis.RedisBloom
//	       computes them) and its m_i/64 words, bit x in bit x%64 of word
//	       x/64 (RedisBloom's table read as little-endian words); bits
//	       at or above the link's modulus are zero
//
// Age-partitioned (code 14) and age-partitioned, blocked layout (code 15);
// derivation 0 (52 + 8 s bytes of parameters for s = K + L slots, then the
// words):
//
//	17  4  K (uint32), slices each key sets, 1 <= K
//	21  4  L (uint32), 1 <= L, K + L <= 256 (analysis.MaxAgeSlices)
//	25  8  G (uint64), items per generation, 1 <= G <= 2^48
//	33  8  slice bits b (uint64), 1 <= b, (K + L) b <= 2^48; a multiple
//	       of 64 for code 15
//	41  8  refresh interval in nanoseconds (uint64, < 2^63), 0 when the
//	       slices age by count only
//	49  8  start of the newest generation (int64, Unix nanoseconds of the
//	       filter's clock), 0 when the refresh interval is 0
//	57  4  slot of the newest slice (uint32), < K + L
//	61  8  items (uint64), keys added
//	69  8s the items of the generation that started in each slot r (uint64
//	       each, slot 0 first), each <= G; the newest slice's is the
//	       position in the generation. The counts are those the filter's growth leaves:
//	       their sum is at most the items; without a refresh interval
//	       the newest slot holds 1 to G items (0 only in an empty filter
//	       whose newest slot is slot 0), each older slot, from the
//	       newest on, G or, once one is unused, 0, and the items beyond
//	       the slots' are whole generations, none while a slot is unused
//	...    payload, code 14: slot 0, then slot 1, ..., each ceil(b/64)
//	       words laid out as a standard filter of b bits, its bits above b
//	       zero; code 15: b/64 indexes of S = 8 ceil((K+L)/8) words each,
//	       word r of index x being word x of slot r, the words of slots
//	       K + L to S - 1 zero
//
// A [ConcurrentStandard] writes the standard layout, so either type loads
// what the other saved.
//
// The format overhead over the raw words is 49 bytes for the standard,
// partitioned and split-block layouts, 50 for the counting one, 53 for
// the blocked one, 61 for the multiblock one, 65 + 28 L for a scalable filter of L stages,
// 69 + 32 L for one of L blocked stages, 93 + 28 L and 93 + 32 L for a
// horizon-aware one, 49 + 28 L for a dynamic filter
// of L stages, 54 + 28 L for a RedisBloom filter of L links (62 + 28 L
// with a tightening), and 73 + 8 (K + L) for an age-partitioned filter, and 16 bytes more with a
// keyed hash. The encoding is canonical: a decoded filter encodes to the same
// bytes.
//
// A filter with a keyed hash (hash kind 3) carries its secret key in
// bytes 17 to 32: the encoding is as secret as the key, since whoever
// reads it can compute every key's bits. Keep such files and streams
// where the key itself may be kept. Filters of the other kinds encode as
// before: the key field exists only for kind 3.
//
// # Decoding
//
// UnmarshalBinary, ReadFrom, [Unmarshal] and [ReadFilter] check the magic,
// version, variant, hash options and parameters (with the same rules as the
// constructors, and each stored field against the others: a growing
// filter's stages against its parameters) before they allocate the cells,
// and check the cells' size against the bytes the input holds when its
// length is known: a byte slice, or a reader with a Len method
// (bytes.Reader, bytes.Buffer, strings.Reader) or a regular file. They
// check the cells against the memory limit (see [MemoryLimit]), a growing
// filter's stages all together, before the first is allocated, and
// allocate each table once and read into it, so that decoding allocates
// little more than the filter's size (measured for 32 MiB filters: 1.002
// times from bytes). From a reader of unknown length they read the first
// eighth of a table of more than 1 MiB into small pieces as it arrives,
// then allocate the table: a header that lies about the size costs at
// most eight times the data actually sent (and at most the limit), and a
// real table peaks at 1.125 times its size (measured: 1.127 times).
//
// Every error for bytes that do not hold a valid filter (truncated input,
// trailing bytes after a filter given as a byte slice, a wrong magic,
// checksum, version or variant number, parameters out of range or
// contradicting each other, bits set outside the filter) wraps
// [ErrCorrupt]. A valid encoding of one variant decoded into another
// variant's type gives an error wrapping [ErrIncompatible] instead. An
// error of the underlying reader is returned wrapped as it is; input that
// ends before the first byte gives an error wrapping both ErrCorrupt and
// io.EOF, so a loop reading filters from one stream can tell the clean end
// of the stream. A filter larger than the memory limit gives an error
// wrapping [ErrInvalidParams] and [ErrMemoryLimit], as its constructor
// would. On any error the
// receiver is left unchanged.
//
// ReadFrom reads exactly one encoded filter and nothing after it, so
// filters written one after another to a stream read back one by one.
const FormatVersion = 1

// formatMagic opens every encoded filter.
const formatMagic = "BLMF"

// variantCode is the variant byte of the format.
type variantCode uint8

const (
	codeStandard    variantCode = 1
	codePartitioned variantCode = 2
	codeCounting    variantCode = 3
	codeScalable    variantCode = 4
	codeBlocked     variantCode = 5
	codeSplitBlock  variantCode = 6
	// codeScalableBlocked is a scalable filter with blocked stages.
	codeScalableBlocked variantCode = 7
	// codeScalableStream and codeScalableBlockedStream are scalable
	// filters whose stages take the stream derivation (see Scalable),
	// with partitioned and with blocked stages.
	codeScalableStream        variantCode = 10
	codeScalableBlockedStream variantCode = 11
	// codeDynamic is the dynamic filter, codeRedisBloom the RedisBloom
	// model.
	codeDynamic    variantCode = 12
	codeRedisBloom variantCode = 13
	// codeAgePartitioned and codeAgePartitionedBlocked are the
	// age-partitioned filter in its two layouts.
	codeAgePartitioned        variantCode = 14
	codeAgePartitionedBlocked variantCode = 15
	// codeScalableHorizon is a horizon-aware scalable filter (one given
	// an Estimate), with partitioned or blocked stages.
	codeScalableHorizon variantCode = 16
	// codeMultiblock is the generalised cache-local filter, Multiblock.
	codeMultiblock variantCode = 17
)

// scalable reports whether c is one of the scalable filter's codes.
func (c variantCode) scalable() bool {
	switch c {
	case codeScalable, codeScalableBlocked, codeScalableStream, codeScalableBlockedStream, codeScalableHorizon:
		return true
	}
	return false
}

func (c variantCode) String() string {
	switch c {
	case codeStandard:
		return "standard"
	case codePartitioned:
		return "partitioned"
	case codeCounting:
		return "counting"
	case codeScalable:
		return "scalable"
	case codeBlocked:
		return "blocked"
	case codeSplitBlock:
		return "split-block"
	case codeScalableBlocked:
		return "scalable (blocked stages)"
	case codeScalableStream:
		return "scalable (stream stages)"
	case codeScalableBlockedStream:
		return "scalable (blocked stream stages)"
	case codeDynamic:
		return "dynamic"
	case codeRedisBloom:
		return "redisbloom"
	case codeAgePartitioned:
		return "age-partitioned"
	case codeAgePartitionedBlocked:
		return "age-partitioned (blocked)"
	case codeScalableHorizon:
		return "scalable (horizon-aware)"
	case codeMultiblock:
		return "multiblock"
	}
	return fmt.Sprintf("variant(%d)", uint8(c))
}

const (
	headerSize  = 17 // magic, version, variant, hash kind, derivation, seed
	keySize     = 16 // the key after the header, for hash kind SipHash only
	trailerSize = 4  // CRC-32C
	// bitParamsSize is the parameter block of Standard and Partitioned.
	bitParamsSize = 28
	// chunkSize is the buffer through which cells stream.
	chunkSize = 64 << 10
)

// readOne decodes one filter of any variant from d.
func (d *decoder) readOne() (Filter, error) {
	h, err := d.header()
	if err != nil {
		return nil, err
	}
	switch h.variant {
	case codeStandard:
		if f, err := d.standard(h); err == nil {
			return f, nil
		}
	case codePartitioned:
		if f, err := d.partitioned(h); err == nil {
			return f, nil
		}
	case codeCounting:
		if f, err := d.counting(h); err == nil {
			return f, nil
		}
	case codeScalable, codeScalableBlocked, codeScalableStream, codeScalableBlockedStream, codeScalableHorizon:
		if f, err := d.scalable(h); err == nil {
			return f, nil
		}
	case codeBlocked:
		if f, err := d.blocked(h); err == nil {
			return f, nil
		}
	case codeSplitBlock:
		if f, err := d.splitBlock(h); err == nil {
			return f, nil
		}
	case codeDynamic:
		if f, err := d.dynamic(h); err == nil {
			return f, nil
		}
	case codeRedisBloom:
		if f, err := d.redisBloom(h); err == nil {
			return f, nil
		}
	case codeAgePartitioned, codeAgePartitionedBlocked:
		if f, err := d.agePartitioned(h); err == nil {
			return f, nil
		}
	case codeMultiblock:
		if f, err := d.multiblock(h); err == nil {
			return f, nil
		}
	default:
		d.bad(corrupt("unknown variant %d", uint8(h.variant)))
	}
	return nil, d.err
}

// Unmarshal decodes a filter of any variant from data, which must hold
// exactly one encoded filter (see [FormatVersion]). A standard filter decodes
// to a *[Standard], a partitioned one to a *[Partitioned], a counting one to a
// *[Counting], a scalable one to a *[Scalable], a dynamic one to a *[Dynamic],
// a multiblock one to a *[Multiblock],
// a [RedisBloom] one to a *RedisBloom and an age-partitioned one (of either
// layout) to an *[AgePartitioned]. It returns a nil
// [Filter] exactly when it returns an error, and every error wraps
// [ErrCorrupt], except that a filter larger than the memory limit (see
// [MemoryLimit]) gives one wrapping [ErrInvalidParams] and [ErrMemoryLimit].
func Unmarshal(data []byte) (Filter, error) {
	return unmarshal(data, (*decoder).readOne)
}

// ReadFilter reads one encoded filter of any variant from r, as [Unmarshal]
// decodes one from bytes, and nothing after it. At the end of r, before any
// byte of a filter, its error wraps io.EOF as well as [ErrCorrupt].
func ReadFilter(r io.Reader) (Filter, error) {
	return newDecoder(r).readOne()
}
