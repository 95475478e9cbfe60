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

// castagnoli is the table of the CRC-32C that ends every encoding.
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
func (e *encoder) header(c variantCode, h hashConf) {
	e.room(headerSize)
	e.buf = append(e.buf, formatMagic...)
	e.u16(FormatVersion)
	e.u8(uint8(c))
	e.u8(uint8(h.Kind))
	e.u8(uint8(h.Derivation))
	e.u64(h.Seed)
	if h.Kind == SipHash {
		e.room(keySize)
		key := h.public().Key
		e.buf = append(e.buf, key[:]...)
	}
}

// keyBytes is the size of h's key field in the format: keySize for the
// SipHash kind, 0 otherwise. Encoded sizes add it to headerSize.
func (h hashConf) keyBytes() uint64 {
	if h.Kind == SipHash {
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

// marshal returns the encoding of a filter of the given encoded size,
// cells of which are the filter's cells. The buffer's cells are checked
// against the process limit first (see MemoryLimit; the few bytes of
// parameters around them are not counted, so that any filter built under
// the limit can be encoded): a filter whose cells exceed it, since the
// limit was lowered, gets an error wrapping ErrMemoryLimit instead of a
// second copy, which WriteTo, streaming, does not need.
func marshal(size, cells uint64, encode func(*encoder)) ([]byte, error) {
	if size > math.MaxInt {
		return nil, invalid("an encoding of %d bytes cannot be addressed", size)
	}
	if limit := MemoryLimit(); cells > uint64(limit) {
		return nil, fmt.Errorf("variants: %w: MarshalBinary's buffer of %d bytes holds %d bytes of cells, more than the process limit (see SetMemoryLimit) of %d; WriteTo streams the encoding without it", ErrMemoryLimit, size, cells, limit)
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
	// held is the bytes of cells allocated so far for the filter being
	// decoded, maxBytes its limit (0: the process limit).
	held     uint64
	maxBytes int64
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
	hashing hashConf
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
	if h.Kind == SipHash {
		if b := d.read(keySize); b != nil {
			copy(h.Key[:], b)
		}
	}
	if d.err != nil {
		return header{}, d.err
	}
	var err error
	switch c {
	case codeStandard, codePartitioned, codeCounting, codeScalable, codeScalableHorizon:
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
	case codeMultiblock:
		err = checkOwnIndexing("multiblock", h)
	default:
		return header{}, d.bad(corrupt("unknown variant %d", uint8(c)))
	}
	if err != nil {
		return header{}, d.bad(corruptParams(err))
	}
	return header{variant: c, hashing: h.conf()}, nil
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

// streamPrefix is the share of a table that a decoder reading from a
// stream of unknown length buffers before it allocates the whole table:
// one eighth (see words).
const streamPrefix = 8

// words reads n >= 1 words of cells into a table it allocates once, on a
// 64-byte boundary. It first checks the filter's cells, those read so far
// and these, against the limit (d.maxBytes, or the process limit: see
// MemoryLimit). If the input's length is known, it checks that the words
// are there before it allocates them. From a stream of unknown length it
// reads the first eighth of the words into small pieces as they arrive,
// then allocates the table and moves the pieces into it: a header that
// lies about the size costs at most eight times the bytes actually sent
// (or 1 MiB), and a real table peaks at 1.125 times its size.
func (d *decoder) words(n uint64) []uint64 {
	if d.err != nil {
		return nil
	}
	// An input of known length too short for the cells is corrupt, whatever
	// the platform can address: checked first, so that a 32-bit build
	// gives the same error as a 64-bit one.
	if d.limit >= 0 {
		left := d.limit - d.n
		if left < 0 || n > uint64(left)/8 {
			d.err = corrupt("truncated input: the parameters declare %d bytes of cells, %d bytes remain", n*8, max(left, 0))
			return nil
		}
	}
	if n > math.MaxInt/8-7 {
		d.err = invalid("%d words of memory cannot be addressed", n)
		return nil
	}
	if err := checkGrowth("the filter's cells", -1, d.held, 8*n, d.maxBytes, true); err != nil {
		d.err = err
		return nil
	}
	var pieces [][]uint64
	var got uint64
	if d.limit < 0 && n > (1<<20)/8 {
		for prefix := n / streamPrefix; got < prefix; {
			p := make([]uint64, min(chunkSize/8, prefix-got))
			d.fill(p)
			if d.err != nil {
				return nil
			}
			pieces = append(pieces, p)
			got += uint64(len(p))
		}
	}
	w, err := alignedWords(n, noLimit)
	if err != nil {
		d.err = err
		return nil
	}
	at := w
	for i, p := range pieces {
		at = at[copy(at, p):]
		pieces[i] = nil
	}
	d.fill(at)
	if d.err != nil {
		return nil
	}
	d.held += 8 * n
	return w
}

// declared checks the total bytes of cells that a growing filter's
// parameters declare, all its stages, against the memory limit before any
// of them is allocated. An input of known length too short for them is
// left to words, which finds it corrupt at the first table it cannot
// hold, or to the checks of the stages' parameters before it.
func (d *decoder) declared(what string, total uint64) error {
	if d.err != nil {
		return d.err
	}
	if left := d.limit - d.n; d.limit >= 0 && (left < 0 || total > uint64(left)) {
		return nil
	}
	if err := checkGrowth(what, -1, d.held, total, d.maxBytes, true); err != nil {
		return d.bad(err)
	}
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
