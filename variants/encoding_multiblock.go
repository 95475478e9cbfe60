package variants

import "io"

// ---- Multiblock (code 17) ----

// multiblockExtras returns the three 32-bit parameters after the hashes:
// window bits, layout (0 block, 1 multiblock) and stride in bits.
func (f *Multiblock) multiblockExtras() []uint32 {
	layout := uint32(0)
	if f.multi {
		layout = 1
	}
	return []uint32{uint32(f.w), layout, uint32(f.stride)}
}

func (f *Multiblock) encodedSize() uint64 {
	return bitTableSize(f.params(f.m, f.multiblockExtras()...), len(f.words)) + f.hashing.keyBytes()
}

func (f *Multiblock) encode(e *encoder) {
	e.bitTable(codeMultiblock, f.hashing, f.params(f.m, f.multiblockExtras()...), f.words, false)
}

// MarshalBinary encodes the filter in the format described at
// [FormatVersion] (code 17): its hashing, bits, hashes, window bits,
// layout, stride, capacity, item count and bits. The encoding is
// FormatVersion's header, 40 bytes of parameters, the ceil(m/64) words of
// the table and a 4-byte checksum.
//
// MarshalBinary, like WriteTo, only reads the filter: it may run
// concurrently with Contains, but not with a mutating method.
func (f *Multiblock) MarshalBinary() ([]byte, error) {
	if f.m == 0 {
		return nil, errZero("Multiblock")
	}
	return marshal(f.encodedSize(), 8*uint64(len(f.words)), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w, streaming
// the bits through a small buffer. It returns the number of bytes written.
func (f *Multiblock) WriteTo(w io.Writer) (int64, error) {
	if f.m == 0 {
		return 0, errZero("Multiblock")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the multiblock filter encoded in data
// (see [FormatVersion] for the format and the errors). The loaded filter
// answers every query as the one saved. On error f is unchanged.
func (f *Multiblock) UnmarshalBinary(data []byte) error {
	return loadInto(f, data, expectThen(codeMultiblock, (*decoder).multiblock))
}

// ReadFrom replaces f with the multiblock filter read from r, reading
// exactly the encoding that WriteTo writes and nothing after it. It returns
// the number of bytes read. See [FormatVersion]. On error f is unchanged.
func (f *Multiblock) ReadFrom(r io.Reader) (int64, error) {
	return readInto(f, r, expectThen(codeMultiblock, (*decoder).multiblock))
}

// multiblock decodes the rest of a multiblock filter after its header: the
// layout is checked by the constructor's rules, and the bits must be one
// block plus a whole number of strides, before the table is allocated
// (against the memory limit); the bits above m must be zero.
func (d *decoder) multiblock(h header) (*Multiblock, error) {
	p, err := d.bitParams(3)
	if err != nil {
		return nil, err
	}
	w, layout, stride := p.extra[0], p.extra[1], p.extra[2]
	if layout > 1 {
		return nil, d.bad(corrupt("multiblock layout %d, want 0 (block) or 1 (multiblock)", layout))
	}
	if w == 0 || stride == 0 {
		return nil, d.bad(corrupt("word bits %d and stride %d bits, want both stored and positive", w, stride))
	}
	params := MultiblockParams{Geometry: Geometry{Bits: p.size, Hashes: p.k}, WordBits: uint64(w), Multi: layout == 1, StrideBits: uint64(stride)}
	sh, err := params.shape(p.k)
	if err != nil {
		return nil, d.bad(corruptParams(err))
	}
	m, starts, err := sh.bits(p.size)
	if err != nil {
		return nil, d.bad(corruptParams(err))
	}
	if m != p.size {
		return nil, d.bad(corrupt("bits m = %d is not one block of %d bits plus whole strides of %d", p.size, sh.l, sh.stride))
	}
	words := d.words((m + 63) / 64)
	if err := d.checksum(); err != nil {
		return nil, err
	}
	if err := d.padding(words, m); err != nil {
		return nil, err
	}
	if words, err = aligned(words); err != nil {
		return nil, d.bad(err)
	}
	return newMultiblock(p.core(words, h.hashing), sh, m, starts, layout == 1), nil
}
