package variants

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"sync/atomic"
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
//	              14 age-partitioned, 15 age-partitioned (blocked layout)
//	7       1     hash kind (HashKind): 0 xxh3, 1 metro, 2 xxh64 (split-block only),
//	              3 siphash (Keyed), 4 murmur64a (redisbloom only)
//	8       1     derivation (Derivation): 0 enhanced double, 1 double,
//	              2 triple, 3 independent
//	9       8     seed (uint64), 0 for hash kind 3
//	17      16    key (HashKey), for hash kind 3 only: with it the
//	              parameters start 16 bytes later than the offsets below
//	17      ...   parameters of the variant, below
//	...     8 w   payload: the w words of the filter's cells, uint64 each
//	end-4   4     CRC-32C (Castagnoli) of every byte before it (uint32)
//
// Standard (28 bytes of parameters, then w = ceil(m/64) words):
//
//	17  8  bits m (uint64), 1 <= m <= MaxBits
//	25  4  hashes k (uint32), 1 <= k <= MaxHashes
//	29  8  capacity (uint64), 0 for a filter built from a geometry
//	37  8  items (uint64), keys added; may exceed capacity
//	45     payload: bit i of the filter is bit i%64 of word i/64; the bits
//	       above m in the last word are zero
//
// Partitioned (28 bytes of parameters, then w = k ceil(b/64) words):
//
//	17  8  slice bits b (uint64), 1 <= b and k b <= MaxBits
//	25  4  hashes k (uint32), the number of slices, 1 <= k <= MaxHashes
//	29  8  capacity (uint64)
//	37  8  items (uint64)
//	45     payload: slice 0, then slice 1, ...; each slice is ceil(b/64)
//	       words laid out as a standard filter of b bits, its bits above b
//	       zero
//
// Counting (29 bytes of parameters, then w = ceil(m c/64) words):
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
// Scalable (44 bytes of parameters, then the stages in use, oldest first):
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
//	       queries with Digest.Remix(i)
//
// Scalable with blocked stages (48 bytes of parameters; derivation 0):
//
//	17  32 P, r, s and n0 as for a scalable filter
//	49  4  block bits B (uint32), a power of two from 64 to 4096
//	53  8  items (uint64), keys inserted
//	61  4  stages L (uint32), 1 <= L <= 256
//	65     L stages, each a blocked parameter block (bits m_i, hashes
//	       k_i, block bits B, capacity n_i, items) and its m_i/64 words as
//	       below; stage i queries with Digest.Remix(i)
//
// Scalable, stream stages (code 10; derivation 0) and scalable, blocked
// stream stages (code 11; derivation 0): the layouts of codes 4 and 7,
// but stage i derives its bits from the key's wyrand stream (see
// Scalable), not from Digest.Remix(i). A scalable filter with the default
// derivation writes these codes; filters with other derivations still
// write codes 4 and 7, and every code loads as written.
//
// Blocked (32 bytes of parameters, then w = m/64 words; derivation 0):
//
//	17  8  bits m (uint64), a multiple of B, B <= m <= MaxBits
//	25  4  hashes k (uint32), 1 <= k <= MaxHashes
//	29  4  block bits B (uint32), a power of two from 64 to 4096
//	33  8  capacity (uint64)
//	41  8  items (uint64)
//	49     payload: block j is words j B/64 to (j+1) B/64 - 1, laid out as
//	       a standard filter of B bits
//
// Split-block (28 bytes of parameters, then w = m/64 words; derivation 0):
//
//	17  8  bits m (uint64), 256 z for z blocks, 1 <= z <= 2^32
//	25  4  hashes k (uint32), always 8
//	29  8  capacity (uint64)
//	37  8  items (uint64)
//	45     payload: the Parquet bitset read as little-endian 64-bit words
//	       (SplitBlock.AppendBitset)
//
// Dynamic (code 12; derivation 0; 28 bytes of parameters, then the
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
// RedisBloom (code 13; hash kind 4 with derivation 0; 33 bytes of
// parameters, then the links in use, oldest first):
//
//	17  8  error rate (float64 bits), 0 < e < 1
//	25  8  capacity (uint64), the first link's, 1 <= capacity <= MaxBits
//	33  4  expansion (uint32), >= 1
//	37  1  options (uint8): 0 NOROUND, 1 power-of-two tables
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
//	       position in the generation
//	...    payload, code 14: slot 0, then slot 1, ..., each ceil(b/64)
//	       words laid out as a standard filter of b bits, its bits above b
//	       zero; code 15: b/64 indexes of S = 8 ceil((K+L)/8) words each,
//	       word r of index x being word x of slot r, the words of slots
//	       K + L to S - 1 zero
//
// A ConcurrentStandard writes the standard layout, so either type loads
// what the other saved.
//
// The format overhead over the raw words is 49 bytes for the standard,
// partitioned and split-block layouts, 50 for the counting one, 53 for
// the blocked one, 65 + 28 L for a scalable filter of L stages,
// 69 + 32 L for one of L blocked stages, 49 + 28 L for a dynamic filter
// of L stages, 54 + 28 L for a RedisBloom filter of L links, and
// 73 + 8 (K + L) for an age-partitioned filter, and 16 bytes more with a
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
// UnmarshalBinary, ReadFrom, Unmarshal and ReadFilter check the magic,
// version, variant, hash options and parameters (with the same rules as the
// constructors) before they allocate the cells, and check the cells' size
// against the bytes the input holds when its length is known: a byte slice,
// or a reader with a Len method (bytes.Reader, bytes.Buffer,
// strings.Reader) or a regular file. From a reader of unknown length they
// grow the cells as the bytes arrive, at most doubling per step, so a
// header that lies about the size costs memory in proportion to the data
// actually sent, not to the size declared.
//
// Every error for bytes that do not hold a valid filter (truncated input,
// trailing bytes after a filter given as a byte slice, a wrong magic,
// checksum, version or variant number, parameters out of range, bits set
// outside the filter) wraps ErrCorrupt. A valid encoding of one variant
// decoded into another variant's type gives an error wrapping
// ErrIncompatible instead. An error of the underlying reader is returned
// wrapped as it is; input that ends before the first byte gives an error
// wrapping both ErrCorrupt and io.EOF, so a loop reading filters from one
// stream can tell the clean end of the stream. A filter larger than this
// machine's memory gives an error wrapping ErrInvalidParams, as its
// constructor would. On any error the receiver is left unchanged.
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
)

// scalable reports whether c is one of the scalable filter's codes.
func (c variantCode) scalable() bool {
	switch c {
	case codeScalable, codeScalableBlocked, codeScalableStream, codeScalableBlockedStream:
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
	}
	return fmt.Sprintf("variant(%d)", uint8(c))
}

const (
	headerSize  = 17 // magic, version, variant, hash kind, derivation, seed
	keySize     = 16 // the key after the header, for hash kind Keyed only
	trailerSize = 4  // CRC-32C
	// bitParamsSize is the parameter block of Standard and Partitioned.
	bitParamsSize = 28
	// chunkSize is the buffer through which cells stream.
	chunkSize = 64 << 10
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ---- encoding ----

// encoder writes the format. With a nil writer it builds the encoding in
// buf, which the caller sizes exactly; otherwise it streams through buf in
// chunks. The checksum is computed as bytes leave buf.
type encoder struct {
	w      io.Writer
	buf    []byte
	summed int // bytes of buf already in crc
	crc    uint32
	n      int64 // bytes written to w
	err    error
}

// flush adds the new bytes of buf to the checksum and, when streaming,
// writes buf out.
func (e *encoder) flush() {
	e.crc = crc32.Update(e.crc, castagnoli, e.buf[e.summed:])
	e.summed = len(e.buf)
	if e.w == nil || e.err != nil || len(e.buf) == 0 {
		return
	}
	n, err := e.w.Write(e.buf)
	e.n += int64(n)
	if err == nil && n < len(e.buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		e.err = err
	}
	e.buf, e.summed = e.buf[:0], 0
}

// room makes space for n more bytes.
func (e *encoder) room(n int) {
	if e.w != nil && cap(e.buf)-len(e.buf) < n {
		e.flush()
	}
}

func (e *encoder) u8(v uint8)   { e.room(1); e.buf = append(e.buf, v) }
func (e *encoder) u16(v uint16) { e.room(2); e.buf = binary.LittleEndian.AppendUint16(e.buf, v) }
func (e *encoder) u32(v uint32) { e.room(4); e.buf = binary.LittleEndian.AppendUint32(e.buf, v) }
func (e *encoder) u64(v uint64) { e.room(8); e.buf = binary.LittleEndian.AppendUint64(e.buf, v) }

// header writes the fixed header.
func (e *encoder) header(c variantCode, h Hashing) {
	e.room(headerSize)
	e.buf = append(e.buf, formatMagic...)
	e.u16(FormatVersion)
	e.u8(uint8(c))
	e.u8(uint8(h.Kind))
	e.u8(uint8(h.Derivation))
	e.u64(h.Seed)
	if h.Kind == Keyed {
		e.room(keySize)
		e.buf = append(e.buf, h.Key[:]...)
	}
}

// keyBytes is the size of h's key field in the format: keySize for the
// Keyed kind, 0 otherwise. Encoded sizes add it to headerSize.
func (h Hashing) keyBytes() uint64 {
	if h.Kind == Keyed {
		return keySize
	}
	return 0
}

// words writes ws as little-endian words, reading each word atomically if
// atomicLoad is set.
func (e *encoder) words(ws []uint64, atomicLoad bool) {
	for len(ws) > 0 && e.err == nil {
		free := (cap(e.buf) - len(e.buf)) / 8
		if free == 0 {
			if e.w == nil {
				free = len(ws) // not reached: buf was sized exactly
			} else {
				e.flush()
				continue
			}
		}
		n := min(free, len(ws))
		l := len(e.buf)
		if cap(e.buf) < l+8*n {
			e.buf = append(e.buf, make([]byte, 8*n)...)
		}
		e.buf = e.buf[:l+8*n]
		b := e.buf[l:]
		if atomicLoad {
			for i := range ws[:n] {
				binary.LittleEndian.PutUint64(b[8*i:], atomic.LoadUint64(&ws[i]))
			}
		} else {
			for i, w := range ws[:n] {
				binary.LittleEndian.PutUint64(b[8*i:], w)
			}
		}
		ws = ws[n:]
	}
}

// finish appends the checksum and flushes.
func (e *encoder) finish() {
	e.flush()
	e.buf = binary.LittleEndian.AppendUint32(e.buf, e.crc)
	e.summed = len(e.buf)
	e.flush()
}

// marshal returns the encoding of a filter of the given encoded size.
func marshal(size uint64, encode func(*encoder)) ([]byte, error) {
	if size > math.MaxInt {
		return nil, invalid("an encoding of %d bytes cannot be addressed", size)
	}
	e := &encoder{buf: make([]byte, 0, size)}
	encode(e)
	e.finish()
	return e.buf, nil
}

// writeTo streams the encoding of a filter of the given encoded size to w.
func writeTo(w io.Writer, size uint64, encode func(*encoder)) (int64, error) {
	e := &encoder{w: w, buf: make([]byte, 0, max(64, min(size, chunkSize)))}
	encode(e)
	e.finish()
	return e.n, e.err
}

// ---- decoding ----

// decoder reads the format from r, keeping count of the bytes read and the
// running checksum. Its first error sticks: later reads do nothing and
// return zero values.
type decoder struct {
	r     io.Reader
	n     int64 // bytes read
	limit int64 // bytes r held at the start, or -1 if unknown
	crc   uint32
	err   error
	small [16]byte
	chunk []byte
}

func newDecoder(r io.Reader) *decoder {
	return &decoder{r: r, limit: available(r)}
}

// available returns the number of bytes left in r, or -1 if r does not say.
func available(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len())
	case interface {
		Stat() (fs.FileInfo, error)
		io.Seeker
	}:
		fi, err := r.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		pos, err := r.Seek(0, io.SeekCurrent)
		if err != nil || pos < 0 || pos > fi.Size() {
			return -1
		}
		return fi.Size() - pos
	}
	return -1
}

// fail records a read error.
func (d *decoder) fail(err error) {
	switch {
	case d.err != nil:
	case err == io.EOF && d.n == 0:
		d.err = fmt.Errorf("variants: %w: empty input (%w)", ErrCorrupt, io.EOF)
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		d.err = corrupt("truncated input: it ends after %d bytes", d.n)
	default:
		d.err = fmt.Errorf("variants: reading filter: %w", err)
	}
}

// bad records err as the decoder's error unless one is already recorded,
// and returns the recorded error.
func (d *decoder) bad(err error) error {
	if d.err == nil {
		d.err = err
	}
	return d.err
}

// read reads n <= len(d.small) bytes into the checksum and returns them, or
// nil after an error.
func (d *decoder) read(n int) []byte {
	if d.err != nil {
		return nil
	}
	b := d.small[:n]
	k, err := io.ReadFull(d.r, b)
	d.n += int64(k)
	if err != nil {
		d.fail(err)
		return nil
	}
	d.crc = crc32.Update(d.crc, castagnoli, b)
	return b
}

func (d *decoder) u8() uint8 {
	if b := d.read(1); b != nil {
		return b[0]
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if b := d.read(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if b := d.read(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if b := d.read(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// header is the fixed header of an encoded filter.
type header struct {
	variant variantCode
	hashing Hashing
}

// header reads and checks the fixed header.
func (d *decoder) header() (header, error) {
	if b := d.read(len(formatMagic)); b != nil && string(b) != formatMagic {
		return header{}, d.bad(corrupt("bad magic %q, want %q", b, formatMagic))
	}
	if v := d.u16(); d.err == nil && v != FormatVersion {
		return header{}, d.bad(corrupt("unknown format version %d; this package reads versions 1 to %d", v, FormatVersion))
	}
	c := variantCode(d.u8())
	h := Hashing{Kind: HashKind(d.u8()), Derivation: Derivation(d.u8()), Seed: d.u64()}
	if h.Kind == Keyed {
		if b := d.read(keySize); b != nil {
			copy(h.Key[:], b)
		}
	}
	if d.err != nil {
		return header{}, d.err
	}
	var err error
	switch c {
	case codeStandard, codePartitioned, codeCounting, codeScalable:
		err = h.validate()
	case codeBlocked, codeScalableBlocked, codeScalableBlockedStream:
		err = checkOwnIndexing("blocked", h)
	case codeScalableStream:
		err = checkOwnIndexing("scalable stream", h)
	case codeDynamic:
		err = checkOwnIndexing("dynamic", h)
	case codeRedisBloom:
		err = checkRedisHashing(h)
	case codeAgePartitioned, codeAgePartitionedBlocked:
		err = checkOwnIndexing("age-partitioned", h)
	case codeSplitBlock:
		err = checkSplitHashing(h)
	default:
		return header{}, d.bad(corrupt("unknown variant %d", uint8(c)))
	}
	if err != nil {
		return header{}, d.bad(corruptParams(err))
	}
	return header{variant: c, hashing: h}, nil
}

// expect reads the header and checks that it announces variant c.
func (d *decoder) expect(c variantCode) (header, error) {
	h, err := d.header()
	if err != nil {
		return h, err
	}
	if h.variant != c {
		return h, d.bad(incompatible("the data holds a %v filter, not a %v one", h.variant, c))
	}
	return h, nil
}

// hashes reads the hash count k and checks its range.
func (d *decoder) hashes() (int, error) {
	k := d.u32()
	if d.err != nil {
		return 0, d.err
	}
	if k < 1 || k > MaxHashes {
		return 0, d.bad(corrupt("hashes k = %d, want 1 <= k <= %d", k, MaxHashes))
	}
	return int(k), nil
}

// checkMemory reports an error if n words cannot be allocated on this
// machine, as allocWords would, without allocating.
func checkMemory(n uint64) error {
	if n > math.MaxInt/8 {
		return invalid("%d words of memory cannot be addressed", n)
	}
	if mem := physicalMemory(); mem > 0 && n > mem/8 {
		return invalid("the filter needs %d bytes of memory, more than this machine's %d", n*8, mem)
	}
	return nil
}

// words reads n >= 1 words of cells. If the input's length is known, it
// checks that the words are there before it allocates them; otherwise it
// allocates as they arrive.
func (d *decoder) words(n uint64) []uint64 {
	if d.err != nil {
		return nil
	}
	if d.limit >= 0 {
		left := d.limit - d.n
		if left < 0 || n > uint64(left)/8 {
			d.err = corrupt("truncated input: the parameters declare %d bytes of cells, %d bytes remain", n*8, max(left, 0))
			return nil
		}
		w, err := allocWords(n)
		if err != nil {
			d.err = err
			return nil
		}
		d.fill(w)
		return w
	}
	if err := checkMemory(n); err != nil {
		d.err = err
		return nil
	}
	w, err := allocWords(min(n, chunkSize/8))
	have := 0
	for err == nil {
		d.fill(w[have:])
		if d.err != nil {
			return nil
		}
		have = len(w)
		if uint64(have) == n {
			return w
		}
		var next []uint64
		next, err = allocWords(min(n, 2*uint64(have)))
		if err == nil {
			copy(next, w)
			w = next
		}
	}
	d.err = err
	return nil
}

// fill reads len(dst) words into dst through the chunk buffer.
func (d *decoder) fill(dst []uint64) {
	if size := min(chunkSize, 8*len(dst)); len(d.chunk) < size {
		d.chunk = make([]byte, size)
	}
	for len(dst) > 0 && d.err == nil {
		n := min(len(dst), len(d.chunk)/8)
		b := d.chunk[:8*n]
		k, err := io.ReadFull(d.r, b)
		d.n += int64(k)
		if err != nil {
			d.fail(err)
			return
		}
		d.crc = crc32.Update(d.crc, castagnoli, b)
		for i := range dst[:n] {
			dst[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
		dst = dst[n:]
	}
}

// checksum reads the trailing checksum and compares it with the one
// computed over the bytes read so far.
func (d *decoder) checksum() error {
	if d.err != nil {
		return d.err
	}
	want := d.crc
	b := d.small[:trailerSize]
	k, err := io.ReadFull(d.r, b)
	d.n += int64(k)
	if err != nil {
		d.fail(err)
		return d.err
	}
	if got := binary.LittleEndian.Uint32(b); got != want {
		d.err = corrupt("checksum %08x, but the data sums to %08x", got, want)
	}
	return d.err
}

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
	case codeScalable, codeScalableBlocked, codeScalableStream, codeScalableBlockedStream:
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
	default:
		d.bad(corrupt("unknown variant %d", uint8(h.variant)))
	}
	return nil, d.err
}

// unmarshal decodes data with read, which must consume all of it.
func unmarshal[T any](data []byte, read func(*decoder) (T, error)) (T, error) {
	r := bytes.NewReader(data)
	v, err := read(newDecoder(r))
	if err == nil && r.Len() > 0 {
		err = corrupt("%d bytes follow the filter", r.Len())
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// Unmarshal decodes a filter of any variant from data, which must hold
// exactly one encoded filter (see FormatVersion). A standard filter decodes
// to a *Standard, a partitioned one to a *Partitioned, a counting one to a
// *Counting, a scalable one to a *Scalable, a dynamic one to a *Dynamic,
// a RedisBloom one to a *RedisBloom and an age-partitioned one (of either
// layout) to an *AgePartitioned. It returns a nil
// Filter exactly when it returns an error, and every error wraps
// ErrCorrupt, except that a filter larger than this machine's memory gives
// one wrapping ErrInvalidParams.
func Unmarshal(data []byte) (Filter, error) {
	return unmarshal(data, (*decoder).readOne)
}

// ReadFilter reads one encoded filter of any variant from r, as Unmarshal
// decodes one from bytes, and nothing after it. At the end of r, before any
// byte of a filter, its error wraps io.EOF as well as ErrCorrupt.
func ReadFilter(r io.Reader) (Filter, error) {
	return newDecoder(r).readOne()
}
