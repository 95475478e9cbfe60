package variants

import (
	"io"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
)

// ---- Dynamic ----

// dynamicParamsSize is the parameter block of Dynamic before its stages.
const dynamicParamsSize = 28

func (f *Dynamic) encodedSize() uint64 {
	n := headerSize + f.hashing.keyBytes() + dynamicParamsSize + trailerSize
	for _, p := range f.stages[:f.live] {
		n += bitParamsSize + 8*uint64(len(p.words))
	}
	return n
}

func (f *Dynamic) encode(e *encoder) {
	e.header(codeDynamic, f.hashing)
	e.u64(f.geom.N)
	e.u64(math.Float64bits(f.geom.P))
	e.u64(f.items)
	e.u32(uint32(f.live))
	for _, p := range f.stages[:f.live] {
		e.bitBody(p.params(p.sliceBits), p.words, false)
	}
}

// MarshalBinary encodes the filter in the format described at
// [FormatVersion] (variant 12): its hashing, N, P, item count and the stages
// in use, each with its geometry, capacity, item count and slices. The
// memory of stages kept by Reset is not saved, nor is Err. It may run
// concurrently with Contains, but not with a mutating method.
func (f *Dynamic) MarshalBinary() ([]byte, error) {
	if f.live == 0 {
		return nil, errZero("Dynamic")
	}
	return marshal(f.encodedSize(), f.liveBytes(), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w, streaming
// the stages through a small buffer. It returns the number of bytes
// written.
func (f *Dynamic) WriteTo(w io.Writer) (int64, error) {
	if f.live == 0 {
		return 0, errZero("Dynamic")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the dynamic filter encoded in data (see
// [FormatVersion] for the format and the errors). The loaded filter answers
// every query as the one saved and grows as it would have; Err starts out
// nil. It keeps f's MaxBytes (0 for a zero Dynamic: the process limit),
// which is not in the encoding, and checks the stages against it before it
// allocates them; so does ReadFrom. On error f is unchanged.
func (f *Dynamic) UnmarshalBinary(data []byte) error {
	return loadInto(f, data, f.keepLimit((*decoder).readDynamic))
}

// ReadFrom replaces f with the dynamic filter read from r, reading exactly
// the encoding that WriteTo writes and nothing after it. It returns the
// number of bytes read. On error f is unchanged.
func (f *Dynamic) ReadFrom(r io.Reader) (int64, error) {
	return readInto(f, r, f.keepLimit((*decoder).readDynamic))
}

// keepLimit returns read with f's MaxBytes as the decoder's limit and the
// decoded filter's (it is not in the encoding).
func (f *Dynamic) keepLimit(read func(*decoder) (*Dynamic, error)) func(*decoder) (*Dynamic, error) {
	return func(d *decoder) (*Dynamic, error) {
		d.maxBytes = f.maxBytes
		g, err := read(d)
		if err == nil {
			g.maxBytes = f.maxBytes
		}
		return g, err
	}
}

// readDynamic decodes a dynamic filter, header included.
func (d *decoder) readDynamic() (*Dynamic, error) {
	h, err := d.expect(codeDynamic)
	if err != nil {
		return nil, err
	}
	return d.dynamic(h)
}

// dynamic decodes the rest of a dynamic filter after its header.
func (d *decoder) dynamic(h header) (*Dynamic, error) {
	geom := analysis.Dynamic{N: d.u64(), P: math.Float64frombits(d.u64())}
	items, live := d.u64(), d.u32()
	if d.err != nil {
		return nil, d.err
	}
	if geom.N == 0 || geom.N > MaxBits {
		return nil, d.bad(corrupt("dynamic filter: stage capacity %d, want 1 to %d", geom.N, uint64(MaxBits)))
	}
	if err := analysis.CheckProbability("P", geom.P); err != nil {
		return nil, d.bad(corrupt("dynamic filter: %s", trimPrefix(err)))
	}
	if live < 1 || live > analysis.MaxDynamicStages {
		return nil, d.bad(corrupt("%d stages, want 1 to %d", live, analysis.MaxDynamicStages))
	}
	// Every stage has the geometry NewDynamic gives N and P.
	want, err := geom.Stage()
	if err != nil {
		return nil, d.bad(corrupt("dynamic filter: %s", trimPrefix(err)))
	}
	f := &Dynamic{geom: geom, stage: want, hashing: h.hashing, items: items, live: int(live)}
	var sum uint64
	for i := range int(live) {
		p, err := d.partitionedBodyWant(h.hashing, func(p bitParams) error {
			if p.k != want.Hashes || p.size != want.SliceBits {
				return corrupt("stage %d has %d slices of %d bits, but N = %d and P = %v give %d of %d", i, p.k, p.size, geom.N, geom.P, want.Hashes, want.SliceBits)
			}
			if err := checkStageItems(d, i, int(live), p.capacity, geom.N, p.items); err != nil || i > 0 {
				return err
			}
			// All the stages must fit the memory limit before the
			// first is allocated.
			return d.declared("dynamic filter", uint64(live)*8*((want.SliceBits+63)/64)*uint64(want.Hashes))
		})
		if err != nil {
			return nil, err
		}
		sum += p.items
		f.stages = append(f.stages, p)
	}
	if sum != items {
		return nil, d.bad(corrupt("the stages hold %d items, the filter says %d", sum, items))
	}
	if err := d.checksum(); err != nil {
		return nil, err
	}
	for i, p := range f.stages {
		if err := d.partitionedPadding(p); err != nil {
			return nil, err
		}
		words, err := aligned(p.words)
		if err != nil {
			return nil, d.bad(err)
		}
		p.words = words
		f.hot = append(f.hot, f.streamStage(i, p))
	}
	return f, nil
}

// checkStageItems checks stage i of live of a growing filter: its
// capacity n as the filter's rules give it, every stage but the newest
// holding exactly n items, the newest at least one item if it is not the
// first.
func checkStageItems(d *decoder, i, live int, capacity, n, items uint64) error {
	switch {
	case capacity != n:
		return d.bad(corrupt("stage %d has capacity %d, want %d", i, capacity, n))
	case i < live-1 && items != n:
		return d.bad(corrupt("stage %d holds %d items, but a stage before the newest holds its capacity %d", i, items, n))
	case i == live-1 && i > 0 && items == 0:
		return d.bad(corrupt("the newest stage %d is empty", i))
	}
	return nil
}

// ---- RedisBloom ----

// redisParamsSize is the parameter block of RedisBloom before its links,
// without the tightening, which takes 8 bytes more when it is not
// RedisBloom's (redisOptTightening).
const redisParamsSize = 33

// The bits of a RedisBloom filter's options byte.
const (
	redisOptPowerOfTwo = 1 // power-of-two tables
	redisOptTightening = 2 // a tightening other than RedisBloom's follows
)

func (f *RedisBloom) encodedSize() uint64 {
	n := headerSize + f.hashing.keyBytes() + redisParamsSize + trailerSize
	if f.geom.Tightening != 0 {
		n += 8
	}
	for _, l := range f.links[:f.live] {
		n += bitParamsSize + 8*uint64(len(l.words))
	}
	return n
}

func (f *RedisBloom) encode(e *encoder) {
	e.header(codeRedisBloom, f.hashing)
	e.u64(math.Float64bits(f.geom.ErrorRate))
	e.u64(f.geom.Capacity)
	e.u32(uint32(f.geom.Expansion))
	var opt uint8
	if f.geom.PowerOfTwo {
		opt |= redisOptPowerOfTwo
	}
	if f.geom.Tightening != 0 {
		opt |= redisOptTightening
	}
	e.u8(opt)
	if f.geom.Tightening != 0 {
		e.u64(math.Float64bits(f.geom.Tightening))
	}
	e.u64(f.items)
	e.u32(uint32(f.live))
	for _, l := range f.links[:f.live] {
		e.bitBody(bitParams{size: l.Bits, k: l.Hashes, capacity: l.Capacity, items: l.items}, l.words, false)
	}
}

// MarshalBinary encodes the filter in the format described at
// [FormatVersion] (variant 13, hash kind 4): its seed, error rate,
// capacity, expansion, rounding option, tightening (only when it is not
// RedisBloom's, below), item count and the links in use,
// each with its capacity, bits, hashes, item count and table, bit x of a
// link being bit x%64 of its word x/64 as in RedisBloom's byte array read
// little-endian. The memory of links kept by Reset is not saved, nor is
// Err. It may run concurrently with Contains, but not with a mutating
// method.
//
// A [RedisBloomParams].Tightening other than RedisBloom's is stored in
// version 1 as an optional field: bit 1 (value 2) of the options byte
// (offset 37) says that the tightening r follows at offset 38 as float64
// bits (0 < r < 1, r != 0.5, error rate times 1 - r below 0.5), and the
// fields after it (items, links, the links) move 8 bytes later: 41 bytes
// of parameters, an overhead of 62 + 28 L bytes. A filter that halves
// (Tightening 0 or 0.5) is written without it, byte for byte as before
// the option existed; decoders refuse the other option bits, a stored
// 0.5 (which is not canonical) and a tightening the constructor would
// refuse, with errors wrapping [ErrCorrupt]. Decoders older than the
// option refuse options byte 2 or 3 as corrupt rather than misread it.
func (f *RedisBloom) MarshalBinary() ([]byte, error) {
	if f.live == 0 {
		return nil, errZero("RedisBloom")
	}
	return marshal(f.encodedSize(), f.liveBytes(), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w. It returns
// the number of bytes written.
func (f *RedisBloom) WriteTo(w io.Writer) (int64, error) {
	if f.live == 0 {
		return 0, errZero("RedisBloom")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the [RedisBloom] filter encoded in data
// (see [FormatVersion]). The loaded filter answers every query as the one
// saved and grows as it would have; Err starts out nil. It keeps f's
// MaxBytes (0 for a zero RedisBloom: the process limit), which is not in
// the encoding, and checks the links against it before it allocates them;
// so does ReadFrom. On error f is unchanged.
func (f *RedisBloom) UnmarshalBinary(data []byte) error {
	return loadInto(f, data, f.keepLimit((*decoder).readRedisBloom))
}

// ReadFrom replaces f with the [RedisBloom] filter read from r, reading
// exactly the encoding that WriteTo writes and nothing after it. It
// returns the number of bytes read. On error f is unchanged.
func (f *RedisBloom) ReadFrom(r io.Reader) (int64, error) {
	return readInto(f, r, f.keepLimit((*decoder).readRedisBloom))
}

// keepLimit returns read with f's MaxBytes as the decoder's limit and the
// decoded filter's (it is not in the encoding).
func (f *RedisBloom) keepLimit(read func(*decoder) (*RedisBloom, error)) func(*decoder) (*RedisBloom, error) {
	return func(d *decoder) (*RedisBloom, error) {
		d.maxBytes = f.maxBytes
		g, err := read(d)
		if err == nil {
			g.maxBytes = f.maxBytes
		}
		return g, err
	}
}

// readRedisBloom decodes a RedisBloom filter, header included.
func (d *decoder) readRedisBloom() (*RedisBloom, error) {
	h, err := d.expect(codeRedisBloom)
	if err != nil {
		return nil, err
	}
	return d.redisBloom(h)
}

// redisBloom decodes the rest of a RedisBloom filter after its header.
// Every link's geometry must be the one RedisBloom's rules give.
func (d *decoder) redisBloom(h header) (*RedisBloom, error) {
	geom := analysis.RedisBloom{ErrorRate: math.Float64frombits(d.u64()), Capacity: d.u64(), Expansion: uint64(d.u32())}
	opt := d.u8()
	if d.err != nil {
		return nil, d.err
	}
	if opt&^(redisOptPowerOfTwo|redisOptTightening) != 0 {
		return nil, d.bad(corrupt("redisbloom options %d, want 0 (NOROUND) or 1 (power of two), plus 2 with a tightening", opt))
	}
	if opt&redisOptTightening != 0 {
		geom.Tightening = math.Float64frombits(d.u64())
	}
	items, live := d.u64(), d.u32()
	if d.err != nil {
		return nil, d.err
	}
	geom.PowerOfTwo = opt&redisOptPowerOfTwo != 0
	if opt&redisOptTightening != 0 && (geom.Tightening == 0 || geom.Tightening == analysis.DefaultRedisTightening) {
		// NewRedisBloom stores RedisBloom's halving as no tightening:
		// one encoding per filter.
		return nil, d.bad(corrupt("redisbloom filter: tightening %v stored, but RedisBloom's %v is stored as none", geom.Tightening, analysis.DefaultRedisTightening))
	}
	if err := geom.Validate(); err != nil {
		return nil, d.bad(corrupt("redisbloom filter: %s", trimPrefix(err)))
	}
	if live < 1 || live > analysis.MaxStages {
		return nil, d.bad(corrupt("%d links, want 1 to %d", live, analysis.MaxStages))
	}
	links := make([]analysis.RedisBloomLink, 0, live)
	for i := range int(live) {
		g, err := geom.Link(i)
		if err != nil {
			return nil, d.bad(corrupt("redisbloom filter with %d links: %s", live, trimPrefix(err)))
		}
		links = append(links, g)
	}
	f := &RedisBloom{geom: geom, hashing: h.hashing, items: items, live: int(live)}
	var sum uint64
	for i, g := range links {
		p, err := d.bitParams(0)
		if err != nil {
			return nil, err
		}
		if p.size != g.Bits || p.k != g.Hashes {
			return nil, d.bad(corrupt("link %d has %d bits and %d hashes, RedisBloom's rules %d and %d", i, p.size, p.k, g.Bits, g.Hashes))
		}
		if err := checkStageItems(d, i, int(live), p.capacity, g.Capacity, p.items); err != nil {
			return nil, err
		}
		if i == 0 {
			// All the links must fit the memory limit before the
			// first is allocated.
			var total uint64
			for _, g := range links {
				total += g.Bits / 8
			}
			if err := d.declared("redisbloom filter", total); err != nil {
				return nil, err
			}
		}
		words := d.words(g.Bits / 64)
		if d.err != nil {
			return nil, d.err
		}
		sum += p.items
		f.links = append(f.links, redisLink{RedisBloomLink: g, words: words, items: p.items})
	}
	if sum != items {
		return nil, d.bad(corrupt("the links hold %d items, the filter says %d", sum, items))
	}
	if err := d.checksum(); err != nil {
		return nil, err
	}
	for _, l := range f.links {
		if err := d.padding(l.words, l.Modulus); err != nil {
			return nil, err
		}
	}
	return f, nil
}
