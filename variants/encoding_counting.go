package variants

import (
	"io"
	"math/bits"
)

// ---- Counting ----

// countingParamsSize is the parameter block of Counting.
const countingParamsSize = 29

func (f *Counting) encodedSize() uint64 {
	return headerSize + f.hashing.keyBytes() + countingParamsSize + 8*uint64(len(f.words)) + trailerSize
}

func (f *Counting) encode(e *encoder) {
	e.header(codeCounting, f.hashing)
	e.u64(f.m)
	e.u32(uint32(f.k))
	e.u8(uint8(f.width))
	e.u64(f.capacity)
	e.u64(f.items)
	e.words(f.words, false)
}

// MarshalBinary encodes the filter in the format described at
// [FormatVersion]: its hashing, geometry, counter width, capacity, item count
// and counters. The encoding is FormatVersion's header, 29 bytes of
// parameters, the ceil(m w/64) words of packed counters and a 4-byte
// checksum.
//
// MarshalBinary, like WriteTo, only reads the filter: it may run
// concurrently with Contains, but not with a mutating method.
func (f *Counting) MarshalBinary() ([]byte, error) {
	if f.m == 0 {
		return nil, errZero("Counting")
	}
	return marshal(f.encodedSize(), 8*uint64(len(f.words)), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w, streaming
// the counters through a small buffer. It returns the number of bytes
// written.
func (f *Counting) WriteTo(w io.Writer) (int64, error) {
	if f.m == 0 {
		return 0, errZero("Counting")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the counting filter encoded in data (see
// [FormatVersion] for the format and the errors). The loaded filter has the
// same counters, saturated ones included, and so answers every query and
// every Remove as the one saved. On error f is unchanged.
func (f *Counting) UnmarshalBinary(data []byte) error {
	g, err := unmarshal(data, (*decoder).readCounting)
	if err == nil {
		*f = *g
	}
	return err
}

// ReadFrom replaces f with the counting filter read from r, reading exactly
// the encoding that WriteTo writes and nothing after it. It returns the
// number of bytes read. See [FormatVersion]. On error f is unchanged.
func (f *Counting) ReadFrom(r io.Reader) (int64, error) {
	d := newDecoder(r)
	g, err := d.readCounting()
	if err == nil {
		*f = *g
	}
	return d.n, err
}

// readCounting decodes a counting filter, header included.
func (d *decoder) readCounting() (*Counting, error) {
	h, err := d.expect(codeCounting)
	if err != nil {
		return nil, err
	}
	return d.counting(h)
}

// counting decodes the rest of a counting filter after its header.
func (d *decoder) counting(h header) (*Counting, error) {
	m := d.u64()
	k, _ := d.hashes()
	width := int(d.u8())
	capacity, items := d.u64(), d.u64()
	if d.err != nil {
		return nil, d.err
	}
	switch width {
	case 2, 4, 8, 16:
	default:
		return nil, d.bad(corrupt("counter width w = %d, want 2, 4, 8 or 16", width))
	}
	if err := (Geometry{Bits: m, Hashes: k}).validate(); err != nil {
		return nil, d.bad(corruptParams(err))
	}
	cellBits := m * uint64(width) // at most 2^52
	words := d.words((cellBits + 63) / 64)
	if err := d.checksum(); err != nil {
		return nil, err
	}
	if err := d.padding(words, cellBits); err != nil {
		return nil, err
	}
	return &Counting{
		words:    words,
		m:        m,
		k:        k,
		width:    width,
		wshift:   uint(bits.TrailingZeros(uint(width))),
		max:      1<<width - 1,
		capacity: capacity,
		items:    items,
		hashing:  h.hashing,
	}, nil
}
