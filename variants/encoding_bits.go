package variants

import (
	"io"
	"unsafe"
)

// ---- The word-array filters ----

// bitParams is the parameter block of the word-array filters: a size (the
// bits m of a standard, blocked or split-block filter, the slice bits b of
// a partitioned one), the hashes k, the variant's extra 32-bit parameters
// (the block bits of a blocked filter), the capacity and the item count.
type bitParams struct {
	size     uint64
	k        int
	extra    []uint32
	capacity uint64
	items    uint64
}

// params returns c's parameter block with the given size and extras.
func (c *bitCore) params(size uint64, extra ...uint32) bitParams {
	return bitParams{size: size, k: c.k, extra: extra, capacity: c.capacity, items: c.items}
}

// bitTableSize is the encoded size of a word-array filter of p and words.
func bitTableSize(p bitParams, words int) uint64 {
	return headerSize + bitParamsSize + 4*uint64(len(p.extra)) + 8*uint64(words) + trailerSize
}

// bitTable writes a whole word-array filter but its checksum: the header,
// the parameters and the words, reading each word atomically if
// atomicLoad is set.
func (e *encoder) bitTable(c variantCode, h hashConf, p bitParams, words []uint64, atomicLoad bool) {
	e.header(c, h)
	e.bitBody(p, words, atomicLoad)
}

// bitBody writes the parameters and words of a word-array filter, as a
// filter and each stage of a scalable one hold them.
func (e *encoder) bitBody(p bitParams, words []uint64, atomicLoad bool) {
	e.u64(p.size)
	e.u32(uint32(p.k))
	for _, x := range p.extra {
		e.u32(x)
	}
	e.u64(p.capacity)
	e.u64(p.items)
	e.words(words, atomicLoad)
}

// bitParams reads a parameter block with extras 32-bit extra parameters.
func (d *decoder) bitParams(extras int) (bitParams, error) {
	var p bitParams
	p.size = d.u64()
	p.k, _ = d.hashes()
	for range extras {
		p.extra = append(p.extra, d.u32())
	}
	p.capacity, p.items = d.u64(), d.u64()
	return p, d.err
}

// core returns the bitCore of a decoded filter.
func (p bitParams) core(words []uint64, h hashConf) bitCore {
	return bitCore{words: words, k: p.k, capacity: p.capacity, items: p.items, hashing: h}
}

// ---- Standard ----

func (f *Standard) encodedSize() uint64 {
	return bitTableSize(f.params(f.m), len(f.words)) + f.hashing.keyBytes()
}

func (f *Standard) encode(e *encoder) {
	e.bitTable(codeStandard, f.hashing, f.params(f.m), f.words, false)
}

// errZero reports a filter that was not built by a constructor.
func errZero(typ string) error {
	return invalid("the zero %s is not a filter; build one with New%s", typ, typ)
}

// MarshalBinary encodes the filter in the format described at
// [FormatVersion]: its hashing, geometry, capacity, item count and bits. The
// encoding is FormatVersion's header, 28 bytes of parameters, the
// ceil(m/64) words of bits and a 4-byte checksum.
//
// MarshalBinary, like WriteTo, only reads the filter: it may run
// concurrently with Contains, but not with a mutating method.
func (f *Standard) MarshalBinary() ([]byte, error) {
	if f.m == 0 {
		return nil, errZero("Standard")
	}
	return marshal(f.encodedSize(), 8*uint64(len(f.words)), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w, streaming
// the bits through a small buffer rather than building a copy of the
// filter in memory. It returns the number of bytes written.
func (f *Standard) WriteTo(w io.Writer) (int64, error) {
	if f.m == 0 {
		return 0, errZero("Standard")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the standard filter encoded in data
// (see [FormatVersion] for the format and the errors). The loaded filter
// answers every query as the one saved: same hashing, seed, geometry and
// bits, capacity and item count. On error f is unchanged.
func (f *Standard) UnmarshalBinary(data []byte) error {
	g, err := unmarshal(data, (*decoder).readStandard)
	if err == nil {
		*f = *g
	}
	return err
}

// ReadFrom replaces f with the standard filter read from r, reading exactly
// the encoding that WriteTo writes and nothing after it. It returns the
// number of bytes read. See [FormatVersion] for the format, the bound on the
// memory it allocates before the bits arrive, and the errors. On error f is
// unchanged.
func (f *Standard) ReadFrom(r io.Reader) (int64, error) {
	d := newDecoder(r)
	g, err := d.readStandard()
	if err == nil {
		*f = *g
	}
	return d.n, err
}

// readStandard decodes a standard filter, header included.
func (d *decoder) readStandard() (*Standard, error) {
	h, err := d.expect(codeStandard)
	if err != nil {
		return nil, err
	}
	return d.standard(h)
}

// standard decodes the rest of a standard filter after its header.
func (d *decoder) standard(h header) (*Standard, error) {
	p, err := d.bitParams(0)
	if err != nil {
		return nil, err
	}
	m := p.size
	if err := (Geometry{Bits: m, Hashes: p.k}).validate(); err != nil {
		return nil, d.bad(corruptParams(err))
	}
	words := d.words((m + 63) / 64)
	if err := d.checksum(); err != nil {
		return nil, err
	}
	if err := d.padding(words, m); err != nil {
		return nil, err
	}
	return &Standard{bitCore: p.core(words, h.hashing), m: m}, nil
}

// padding checks that the bits above bit b of a table of b bits in words
// are zero.
func (d *decoder) padding(words []uint64, b uint64) error {
	if r := b % 64; r != 0 && words[len(words)-1]>>r != 0 {
		d.err = corrupt("bits set beyond the %d bits of the table", b)
	}
	return d.err
}

// ---- ConcurrentStandard (the standard layout) ----

func (f *ConcurrentStandard) encode(e *encoder) {
	e.bitTable(codeStandard, f.hashing, f.params(), f.words, true)
}

// params returns the parameter block of the standard format.
func (f *ConcurrentStandard) params() bitParams {
	return bitParams{size: f.m, k: f.k, capacity: f.capacity, items: f.itemCount()}
}

func (f *ConcurrentStandard) encodedSize() uint64 {
	return bitTableSize(f.params(), len(f.words)) + f.hashing.keyBytes()
}

// MarshalBinary encodes the filter in the standard format (see
// [FormatVersion] and [Standard.MarshalBinary]). It may run while other
// goroutines add keys; the encoding then holds every key whose Add
// returned before MarshalBinary was called, and its item count may miss
// keys whose bits it holds.
func (f *ConcurrentStandard) MarshalBinary() ([]byte, error) {
	if f.m == 0 {
		return nil, errZero("ConcurrentStandard")
	}
	return marshal(f.encodedSize(), 8*uint64(len(f.words)), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w, streaming
// the bits through a small buffer. It may run while other goroutines add
// keys, as MarshalBinary may.
func (f *ConcurrentStandard) WriteTo(w io.Writer) (int64, error) {
	if f.m == 0 {
		return 0, errZero("ConcurrentStandard")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the standard filter encoded in data, as
// [Standard.UnmarshalBinary] does. It needs exclusive access. On error f is
// unchanged.
func (f *ConcurrentStandard) UnmarshalBinary(data []byte) error {
	g, err := unmarshal(data, (*decoder).readStandard)
	if err == nil {
		f.take(g)
	}
	return err
}

// ReadFrom replaces f with the standard filter read from r, as
// [Standard.ReadFrom] does. It needs exclusive access. On error f is
// unchanged.
func (f *ConcurrentStandard) ReadFrom(r io.Reader) (int64, error) {
	d := newDecoder(r)
	g, err := d.readStandard()
	if err == nil {
		f.take(g)
	}
	return d.n, err
}

// ---- Partitioned ----

func (f *Partitioned) encodedSize() uint64 {
	return bitTableSize(f.params(f.sliceBits), len(f.words)) + f.hashing.keyBytes()
}

func (f *Partitioned) encode(e *encoder) {
	e.bitTable(codePartitioned, f.hashing, f.params(f.sliceBits), f.words, false)
}

// MarshalBinary encodes the filter in the format described at
// [FormatVersion]: its hashing, slice size, number of slices, capacity, item
// count and bits. The encoding is FormatVersion's header, 28 bytes of
// parameters, the k ceil(b/64) words of the slices and a 4-byte checksum.
//
// MarshalBinary, like WriteTo, only reads the filter: it may run
// concurrently with Contains, but not with a mutating method.
func (f *Partitioned) MarshalBinary() ([]byte, error) {
	if f.k == 0 {
		return nil, errZero("Partitioned")
	}
	return marshal(f.encodedSize(), 8*uint64(len(f.words)), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w, streaming
// the bits through a small buffer. It returns the number of bytes written.
func (f *Partitioned) WriteTo(w io.Writer) (int64, error) {
	if f.k == 0 {
		return 0, errZero("Partitioned")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the partitioned filter encoded in data
// (see [FormatVersion] for the format and the errors). The loaded filter
// answers every query as the one saved. On error f is unchanged.
func (f *Partitioned) UnmarshalBinary(data []byte) error {
	g, err := unmarshal(data, (*decoder).readPartitioned)
	if err == nil {
		*f = *g
	}
	return err
}

// ReadFrom replaces f with the partitioned filter read from r, reading
// exactly the encoding that WriteTo writes and nothing after it. It returns
// the number of bytes read. See [FormatVersion]. On error f is unchanged.
func (f *Partitioned) ReadFrom(r io.Reader) (int64, error) {
	d := newDecoder(r)
	g, err := d.readPartitioned()
	if err == nil {
		*f = *g
	}
	return d.n, err
}

// readPartitioned decodes a partitioned filter, header included.
func (d *decoder) readPartitioned() (*Partitioned, error) {
	h, err := d.expect(codePartitioned)
	if err != nil {
		return nil, err
	}
	return d.partitioned(h)
}

// partitioned decodes the rest of a partitioned filter after its header.
func (d *decoder) partitioned(h header) (*Partitioned, error) {
	f, err := d.partitionedBody(h.hashing)
	if err != nil {
		return nil, err
	}
	if err := d.checksum(); err != nil {
		return nil, err
	}
	return f, d.partitionedPadding(f)
}

// partitionedBody decodes the parameters and slices of a partitioned
// filter, as a partitioned filter and each stage of a scalable one hold
// them. Its padding is checked after the checksum, by partitionedPadding.
func (d *decoder) partitionedBody(h hashConf) (*Partitioned, error) {
	return d.partitionedBodyWant(h, nil)
}

// partitionedBodyWant is partitionedBody with a check of the parameter
// block, run before the slices are read: a growing filter's check that
// the stage is the one its parameters give.
func (d *decoder) partitionedBodyWant(h hashConf, want func(bitParams) error) (*Partitioned, error) {
	p, err := d.bitParams(0)
	if err != nil {
		return nil, err
	}
	b, k := p.size, p.k
	if b == 0 {
		return nil, d.bad(corrupt("slice bits b = 0, want b >= 1"))
	}
	if b > MaxBits || b*uint64(k) > MaxBits {
		return nil, d.bad(corrupt("%d slices of %d bits, more than the maximum of %d bits", k, b, uint64(MaxBits)))
	}
	if err := (Geometry{Bits: b * uint64(k), Hashes: k}).validate(); err != nil {
		return nil, d.bad(corruptParams(err))
	}
	if want != nil {
		if err := want(p); err != nil {
			return nil, d.bad(err)
		}
	}
	sw := (b + 63) / 64
	words := d.words(sw * uint64(k))
	if d.err != nil {
		return nil, d.err
	}
	return &Partitioned{bitCore: p.core(words, h), sliceBits: b, sliceWords: sw}, nil
}

// partitionedPadding checks that the bits above b in every slice are zero.
func (d *decoder) partitionedPadding(f *Partitioned) error {
	sw := f.sliceWords
	for j := range uint64(f.k) {
		if err := d.padding(f.words[j*sw:(j+1)*sw], f.sliceBits); err != nil {
			return err
		}
	}
	return nil
}

// loadInto sets *dst to the filter that read decodes from data, which it
// must consume whole, leaving *dst unchanged on error: UnmarshalBinary.
func loadInto[T any](dst *T, data []byte, read func(*decoder) (*T, error)) error {
	g, err := unmarshal(data, read)
	if err == nil {
		*dst = *g
	}
	return err
}

// readInto sets *dst to the filter that read decodes from r and returns
// the bytes read, leaving *dst unchanged on error: ReadFrom.
func readInto[T any](dst *T, r io.Reader, read func(*decoder) (*T, error)) (int64, error) {
	d := newDecoder(r)
	g, err := read(d)
	if err == nil {
		*dst = *g
	}
	return d.n, err
}

// expectThen returns a reader of a whole filter of variant c: the header,
// then body.
func expectThen[T any](c variantCode, body func(*decoder, header) (*T, error)) func(*decoder) (*T, error) {
	return func(d *decoder) (*T, error) {
		h, err := d.expect(c)
		if err != nil {
			return nil, err
		}
		return body(d, h)
	}
}

// aligned returns words, or a copy of them on a 64-byte boundary if they
// are not on one (large tables are page-aligned by the allocator).
func aligned(words []uint64) ([]uint64, error) {
	if uintptr(unsafe.Pointer(unsafe.SliceData(words)))&63 == 0 {
		return words, nil
	}
	w, err := alignedWords(uint64(len(words)), 0)
	if err != nil {
		return nil, err
	}
	copy(w, words)
	return w, nil
}

// ---- Blocked ----

func (f *Blocked) encodedSize() uint64 {
	return bitTableSize(f.params(f.m, uint32(f.blockBits)), len(f.words)) + f.hashing.keyBytes()
}

func (f *Blocked) encode(e *encoder) {
	e.bitTable(codeBlocked, f.hashing, f.params(f.m, uint32(f.blockBits)), f.words, false)
}

// MarshalBinary encodes the filter in the format described at
// [FormatVersion]: its hashing, bits, hashes, block bits, capacity, item
// count and bits. The encoding is FormatVersion's header, 32 bytes of
// parameters, the m/64 words of the blocks and a 4-byte checksum.
//
// MarshalBinary, like WriteTo, only reads the filter: it may run
// concurrently with Contains, but not with a mutating method.
func (f *Blocked) MarshalBinary() ([]byte, error) {
	if f.m == 0 {
		return nil, errZero("Blocked")
	}
	return marshal(f.encodedSize(), 8*uint64(len(f.words)), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w, streaming
// the bits through a small buffer. It returns the number of bytes written.
func (f *Blocked) WriteTo(w io.Writer) (int64, error) {
	if f.m == 0 {
		return 0, errZero("Blocked")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the blocked filter encoded in data (see
// [FormatVersion] for the format and the errors). The loaded filter answers
// every query as the one saved. On error f is unchanged.
func (f *Blocked) UnmarshalBinary(data []byte) error {
	return loadInto(f, data, expectThen(codeBlocked, (*decoder).blocked))
}

// ReadFrom replaces f with the blocked filter read from r, reading exactly
// the encoding that WriteTo writes and nothing after it. It returns the
// number of bytes read. See [FormatVersion]. On error f is unchanged.
func (f *Blocked) ReadFrom(r io.Reader) (int64, error) {
	return readInto(f, r, expectThen(codeBlocked, (*decoder).blocked))
}

// blocked decodes the rest of a blocked filter after its header.
func (d *decoder) blocked(h header) (*Blocked, error) {
	f, err := d.blockedBody(h.hashing)
	if err != nil {
		return nil, err
	}
	if err := d.checksum(); err != nil {
		return nil, err
	}
	if f.words, err = aligned(f.words); err != nil {
		return nil, d.bad(err)
	}
	return f, nil
}

// blockedBody decodes the parameters and blocks of a blocked filter, as a
// blocked filter and each blocked stage of a scalable one hold them. Its
// words are aligned to 64 bytes after the checksum, by aligned.
func (d *decoder) blockedBody(h hashConf) (*Blocked, error) {
	return d.blockedBodyWant(h, nil)
}

// blockedBodyWant is blockedBody with a check of the parameter block, run
// before the blocks are read, as partitionedBodyWant has.
func (d *decoder) blockedBodyWant(h hashConf, want func(bitParams) error) (*Blocked, error) {
	p, err := d.bitParams(1)
	if err != nil {
		return nil, err
	}
	m, b := p.size, uint64(p.extra[0])
	if err := checkBlockBits(int(p.extra[0])); err != nil {
		return nil, d.bad(corruptParams(err))
	}
	if m == 0 || m%b != 0 || m > MaxBits {
		return nil, d.bad(corrupt("bits m = %d, want a positive multiple of the block bits %d, at most %d", m, b, uint64(MaxBits)))
	}
	if err := (Geometry{Bits: m, Hashes: p.k}).validate(); err != nil {
		return nil, d.bad(corruptParams(err))
	}
	if want != nil {
		if err := want(p); err != nil {
			return nil, d.bad(err)
		}
	}
	words := d.words(m / 64)
	if d.err != nil {
		return nil, d.err
	}
	return newBlocked(p.core(words, h), m, b), nil
}

// ---- SplitBlock ----

func (f *SplitBlock) encodedSize() uint64 {
	return bitTableSize(f.params(f.blocks*splitBlockBits), len(f.words)) + f.hashing.keyBytes()
}

func (f *SplitBlock) encode(e *encoder) {
	e.bitTable(codeSplitBlock, f.hashing, f.params(f.blocks*splitBlockBits), f.words, false)
}

// MarshalBinary encodes the filter in the format described at
// [FormatVersion]: its hashing, bits, capacity, item count and bits. The
// encoding is FormatVersion's header, 28 bytes of parameters, the m/64
// words of the blocks (the Parquet bitset, see AppendBitset) and a 4-byte
// checksum.
//
// MarshalBinary, like WriteTo, only reads the filter: it may run
// concurrently with Contains, but not with a mutating method.
func (f *SplitBlock) MarshalBinary() ([]byte, error) {
	if f.blocks == 0 {
		return nil, errZero("SplitBlock")
	}
	return marshal(f.encodedSize(), 8*uint64(len(f.words)), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w, streaming
// the bits through a small buffer. It returns the number of bytes written.
func (f *SplitBlock) WriteTo(w io.Writer) (int64, error) {
	if f.blocks == 0 {
		return 0, errZero("SplitBlock")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the split-block filter encoded in data
// (see [FormatVersion] for the format and the errors). The loaded filter
// answers every query as the one saved. On error f is unchanged.
func (f *SplitBlock) UnmarshalBinary(data []byte) error {
	return loadInto(f, data, expectThen(codeSplitBlock, (*decoder).splitBlock))
}

// ReadFrom replaces f with the split-block filter read from r, reading
// exactly the encoding that WriteTo writes and nothing after it. It
// returns the number of bytes read. See [FormatVersion]. On error f is
// unchanged.
func (f *SplitBlock) ReadFrom(r io.Reader) (int64, error) {
	return readInto(f, r, expectThen(codeSplitBlock, (*decoder).splitBlock))
}

// splitBlock decodes the rest of a split-block filter after its header.
func (d *decoder) splitBlock(h header) (*SplitBlock, error) {
	p, err := d.bitParams(0)
	if err != nil {
		return nil, err
	}
	m := p.size
	if m == 0 || m%splitBlockBits != 0 || m/splitBlockBits > maxSplitBlocks {
		return nil, d.bad(corrupt("bits m = %d, want 256 z for 1 <= z <= %d blocks", m, uint64(maxSplitBlocks)))
	}
	if p.k != splitBlockHashes {
		return nil, d.bad(corrupt("hashes k = %d, want %d for a split-block filter", p.k, splitBlockHashes))
	}
	words := d.words(m / 64)
	if err := d.checksum(); err != nil {
		return nil, err
	}
	if words, err = aligned(words); err != nil {
		return nil, d.bad(err)
	}
	return &SplitBlock{bitCore: p.core(words, h.hashing), blocks: m / splitBlockBits, path: splitPath(h.hashing.public())}, nil
}
