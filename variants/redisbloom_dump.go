package variants

import (
	"encoding/binary"
	"fmt"
	"iter"
	"math"
	"math/bits"
	"sort"

	"github.com/bloomlab/bloomlab/analysis"
)

// RedisBloom's dump: the (iter, data) pairs of BF.SCANDUMP, which
// BF.LOADCHUNK loads. Read from RedisBloom's source (src/sb.c, src/sb.h,
// src/rebloom.c, deps/bloom/bloom.c and bloom.h); the layout is stated at
// [RedisBloom.ScanDump].

// The option bits of a RedisBloom chain (deps/bloom/bloom.h), stored in
// the options field of a dump's header.
const (
	// RedisOptNoRound is BLOOM_OPT_NOROUND: tables of trunc(entries bpe)
	// bits rounded up to whole 64-bit words, probes modulo that size.
	// Without it a table has 2^n2 bits ([RedisBloomParams].PowerOfTwo).
	RedisOptNoRound = 1
	// RedisOptEntsIsBits is BLOOM_OPT_ENTS_IS_BITS: the capacity given is
	// log2 of the bits. BF.RESERVE never sets it; dumps with it are
	// refused.
	RedisOptEntsIsBits = 2
	// RedisOptForce64 is BLOOM_OPT_FORCE64: keys hash with 64-bit
	// MurmurHash64A (the hashing [RedisBloom] models). Every chain
	// BF.RESERVE, BF.ADD or BF.INSERT creates has it; dumps without it
	// (32-bit MurmurHash2) are refused.
	RedisOptForce64 = 4
	// RedisOptNoScaling is BLOOM_OPT_NO_SCALING (BF.RESERVE ... NONSCALING):
	// one link with the whole error rate that never grows. The model
	// scales, so dumps with it are refused.
	RedisOptNoScaling = 8
)

// MaxRedisChunk is the largest data chunk BF.SCANDUMP returns,
// MAX_SCANDUMP_SIZE (16 MiB) in RedisBloom's src/rebloom.c: what
// [RedisBloom.ScanDump] uses for a maxChunk of 0 or less.
const MaxRedisChunk = 16 << 20

// The sizes of the packed structs of a dump's header (src/sb.c).
const (
	redisDumpHeaderSize = 20 // dumpedChainHeader without its links
	redisDumpLinkSize   = 53 // dumpedChainLink
)

// The sizes of RedisBloom's structs on a 64-bit machine, for BF.INFO's
// Size (BFMemUsage in src/rebloom.c): sizeof(SBChain) and sizeof(SBLink)
// (src/sb.h; measured with gcc on x86-64: 32 and 64).
const (
	redisChainStructSize = 32
	redisLinkStructSize  = 64
)

// ScanDump returns what BF.SCANDUMP key iter returns for a RedisBloom
// filter holding the same bits: the iterator to pass next and a chunk of
// data, which BF.LOADCHUNK key next data (or [RedisLoader.LoadChunk])
// loads. maxChunk is the largest data chunk; 0 or less means
// [MaxRedisChunk], RedisBloom's own. The filter is not changed.
//
// A dump is a header chunk followed by the links' tables, in the order of
// RedisBloom's source:
//
//   - iter 0 returns (1, header): SBChain_GetEncodedHeader (src/sb.c),
//     called by BFScanDump_RedisCommand (src/rebloom.c).
//   - iter >= 1 returns the bytes of the tables from byte offset iter-1
//     of their concatenation, link 0's first, at most maxChunk of them and
//     never past the end of a link's table, with next = iter + len(data):
//     SBChain_GetEncodedChunk and getLinkPos (src/sb.c). The iterator of
//     a data chunk is thus 1 + the offset of the byte after it.
//   - past the last byte (or for iter < 0) it returns (0, nil), the end
//     (SB_CHUNKITER_DONE); BF.SCANDUMP replies with an empty string.
//
// BFAofRewrite (src/rebloom.c) writes the same pairs as BF.LOADCHUNK
// commands, so an AOF's pairs load too; the RDB encoding (BFRdbSave) is
// another format. BF.LOADCHUNK on an empty key takes the pair with
// iterator 1 as the header (BFLoadChunk_RedisCommand).
//
// The header is the packed C struct dumpedChainHeader followed by one
// dumpedChainLink per link (src/sb.c), copied from memory, so its fields
// have the machine's byte order: little-endian on the machines RedisBloom
// is built for (x86-64, arm64), which is what ScanDump writes and
// RedisLoader reads. There is no padding (__attribute__((packed))):
//
//	offset  size  field (dumpedChainHeader)
//	0       8     size (uint64): items in the chain (SBChain.size)
//	8       4     nfilters (uint32): links, >= 1
//	12      4     options (uint32): RedisOptNoRound 1 | RedisOptEntsIsBits 2 |
//	              RedisOptForce64 4 | RedisOptNoScaling 8; BF.RESERVE sets 5
//	              (FORCE64 | NOROUND), and 13 with NONSCALING
//	16      4     growth (uint32): the expansion
//	20      53 L  links[L] (dumpedChainLink), link 0 first:
//	  +0    8     bytes (uint64): the table's bytes, bits/8
//	  +8    8     bits (uint64): bytes*8, a multiple of 64
//	  +16   8     size (uint64): items inserted in the link
//	  +24   8     error (float64): the link's error, error_rate 0.5^(i+1)
//	              (error_rate itself for the one link of NONSCALING)
//	  +32   8     bpe (float64): bits per entry, |ln error / 0.480453013918201|
//	  +40   4     hashes (uint32): ceil(0.693147180559945 bpe)
//	  +44   8     entries (uint64): the link's capacity
//	  +52   1     n2 (uint8): 0 for NOROUND, else log2 of the probes' modulus
//
// so a header has 20 + 53 L bytes. SB_NewChainFromHeader (src/sb.c)
// checks the length, L >= 1, bloom_validate_integrity for each link
// (deps/bloom/bloom.c: 0 < error < 1, n2 <= 63, bits = 8 bytes,
// bits >= 2^n2, hashes = ceil(ln 2 bpe)) and SB_ValidateIntegrity (known
// options, size the sum of the links' sizes), then allocates the tables;
// SBChain_LoadEncodedChunk copies a chunk to offset iter - len(data) - 1,
// which must lie in one link. Bit x of a link is bit x%8 of its byte x/8
// (test_bit_set_bit), that is bit x%64 of [RedisBloom]'s word x/64.
//
// ScanDump writes the header RedisBloom would write for the chain the
// filter models: options RedisOptForce64, plus RedisOptNoRound unless
// PowerOfTwo; growth the expansion; for each link its geometry
// ([analysis.RedisBloomLink]), with the bpe that [RedisLoader] read if
// the filter was loaded from a dump (the C library's log may differ from
// Go's in the last bit), and its items. It reports an error wrapping
// [ErrIncompatible] for a filter with a Seed other than 0, whose bits
// RedisBloom would not find, or a Tightening other than RedisBloom's
// halving, which RedisBloom cannot express (a dump holds each link's
// error, but RedisBloom halves the newest link's error when it adds the
// next, and BF.LOADCHUNK's reader would take the chain for one of error
// rate twice link 0's), and one wrapping [ErrInvalidParams] for a zero
// RedisBloom. It may run
// concurrently with Contains, but not with a mutating method.
func (f *RedisBloom) ScanDump(iter int64, maxChunk int) (next int64, data []byte, err error) {
	if err := f.checkDump(); err != nil {
		return 0, nil, err
	}
	if maxChunk <= 0 {
		maxChunk = MaxRedisChunk
	}
	if iter == 0 {
		return 1, f.dumpHeader(), nil
	}
	if iter < 0 {
		return 0, nil, nil
	}
	pos := uint64(iter - 1)
	for i := range f.links[:f.live] {
		l := &f.links[i]
		size := 8 * uint64(len(l.words))
		if pos >= size {
			pos -= size
			continue
		}
		n := min(size-pos, uint64(maxChunk))
		data = make([]byte, n)
		wordsToBytes(data, l.words, pos)
		return iter + int64(n), data, nil
	}
	return 0, nil, nil
}

// ScanDumpAll returns the pairs that BF.SCANDUMP returns in a loop from
// iter 0, as [RedisBloom.ScanDump] computes them one by one: the header
// with iterator 1, then the data chunks, each with the iterator
// BF.SCANDUMP returns beside it, which is the one BF.LOADCHUNK takes with
// it; the final (0, "") is left out. Each chunk is a new slice. It reports
// ScanDump's errors before it yields anything; the filter must not be
// mutated while the sequence runs.
func (f *RedisBloom) ScanDumpAll(maxChunk int) (iter.Seq2[int64, []byte], error) {
	if err := f.checkDump(); err != nil {
		return nil, err
	}
	return func(yield func(int64, []byte) bool) {
		var it int64
		for {
			next, data, _ := f.ScanDump(it, maxChunk)
			if next == 0 || !yield(next, data) {
				return
			}
			it = next
		}
	}, nil
}

// checkDump reports why f cannot be dumped, or nil.
func (f *RedisBloom) checkDump() error {
	if f.live == 0 {
		return errZero("RedisBloom")
	}
	if f.hashing.Seed != 0 {
		return incompatible("a redisbloom filter with seed %d hashes keys to other bits than RedisBloom's; only seed 0 dumps", f.hashing.Seed)
	}
	if t := f.geom.Tightening; t != 0 {
		return incompatible("a redisbloom filter with tightening %v: RedisBloom halves each link's error (ERROR_TIGHTENING_RATIO 0.5) and would grow the chain otherwise; only the default dumps", t)
	}
	return nil
}

// redisOptions returns the options field of f's chain.
func (f *RedisBloom) redisOptions() uint32 {
	if f.geom.PowerOfTwo {
		return RedisOptForce64
	}
	return RedisOptForce64 | RedisOptNoRound
}

// dumpHeader returns the header chunk (see ScanDump).
func (f *RedisBloom) dumpHeader() []byte {
	b := make([]byte, 0, redisDumpHeaderSize+redisDumpLinkSize*f.live)
	b = binary.LittleEndian.AppendUint64(b, f.items)
	b = binary.LittleEndian.AppendUint32(b, uint32(f.live))
	b = binary.LittleEndian.AppendUint32(b, f.redisOptions())
	b = binary.LittleEndian.AppendUint32(b, uint32(f.geom.Expansion))
	for _, l := range f.links[:f.live] {
		var n2 uint8
		if f.geom.PowerOfTwo {
			n2 = uint8(bits.TrailingZeros64(l.Modulus))
		}
		b = binary.LittleEndian.AppendUint64(b, l.Bits/8)
		b = binary.LittleEndian.AppendUint64(b, l.Bits)
		b = binary.LittleEndian.AppendUint64(b, l.items)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(l.Error))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(l.BPE))
		b = binary.LittleEndian.AppendUint32(b, uint32(l.Hashes))
		b = binary.LittleEndian.AppendUint64(b, l.Capacity)
		b = append(b, n2)
	}
	return b
}

// wordsToBytes copies to dst the bytes of w from byte offset off, w read
// as little-endian bytes.
func wordsToBytes(dst []byte, w []uint64, off uint64) {
	for len(dst) > 0 && off%8 != 0 {
		dst[0] = byte(w[off/8] >> (8 * (off % 8)))
		dst, off = dst[1:], off+1
	}
	for len(dst) >= 8 {
		binary.LittleEndian.PutUint64(dst, w[off/8])
		dst, off = dst[8:], off+8
	}
	for len(dst) > 0 {
		dst[0] = byte(w[off/8] >> (8 * (off % 8)))
		dst, off = dst[1:], off+1
	}
}

// bytesToWords copies src into the bytes of w from byte offset off, w
// read as little-endian bytes.
func bytesToWords(w []uint64, off uint64, src []byte) {
	put := func(b byte) {
		s := 8 * (off % 8)
		w[off/8] = w[off/8]&^(0xff<<s) | uint64(b)<<s
		off++
	}
	for len(src) > 0 && off%8 != 0 {
		put(src[0])
		src = src[1:]
	}
	for len(src) >= 8 {
		w[off/8] = binary.LittleEndian.Uint64(src)
		src, off = src[8:], off+8
	}
	for _, b := range src {
		put(b)
	}
}

// RedisInfo is what BF.INFO key reports for a RedisBloom filter
// (BFInfo_RedisCommand in RedisBloom's src/rebloom.c), field by field.
type RedisInfo struct {
	// Capacity is "Capacity": the sum of the links' capacities (entries;
	// BFCapacity), the items the chain holds before it adds a link. With
	// power-of-two tables these are the raised capacities.
	Capacity uint64
	// Size is "Size": BFMemUsage, the bytes of the chain as RedisBloom
	// holds it on a 64-bit machine: sizeof(SBChain) = 32, plus
	// sizeof(SBLink) = 64 per link, plus the links' tables. It is not the
	// memory of this Go value (see [RedisBloom.Stats] for its bits).
	Size uint64
	// Filters is "Number of filters": the links.
	Filters int
	// Items is "Number of items inserted": the keys inserted (SBChain.size);
	// keys that tested present were not inserted and are not counted.
	Items uint64
	// ExpansionRate is "Expansion rate": the growth of the capacities from
	// one link to the next. (RedisBloom reports nil for a NONSCALING
	// filter, which the model does not build.)
	ExpansionRate uint64
}

// Info returns what BF.INFO returns for the chain f models: the same
// numbers RedisBloom reports for a filter holding the same keys, or for
// the dump f was loaded from.
func (f *RedisBloom) Info() RedisInfo {
	in := RedisInfo{
		Size:          redisChainStructSize,
		Filters:       f.live,
		Items:         f.items,
		ExpansionRate: f.geom.Expansion,
	}
	for _, l := range f.links[:f.live] {
		in.Capacity += l.Capacity
		in.Size += redisLinkStructSize + l.Bits/8
	}
	return in
}

// RedisLoader loads a dump of a RedisBloom filter (the pairs BF.SCANDUMP
// returns, see [RedisBloom.ScanDump]) into a [RedisBloom], as
// BF.LOADCHUNK loads one into an empty key, and checks it more than
// RedisBloom does: the first chunk must be the header, with iterator 1;
// its links must be those of a chain the model builds (options FORCE64,
// with or without NOROUND; link i's error, entries, bits, bytes, hashes
// and n2 exactly those RedisBloom's rules give for link i of the chain
// whose link 0 is link 0 of the dump, its bpe within 1e-12 of ours, every
// link but the newest holding its capacity in items, the newest at least
// one unless it is link 0, the chain's items their sum); all the tables
// together must fit the memory limit, which is checked before any of them
// is allocated. Each data chunk must lie within one link's table (as
// BF.LOADCHUNK requires) and overlap no chunk loaded before; Filter then
// requires that the chunks cover every table exactly once and that no bit
// is set at or above a power-of-two link's modulus. Chunks may come in any
// order. A pair (0, empty), BF.SCANDUMP's end, is ignored. The loaded
// filter has Seed 0 and Err nil, and grows as RedisBloom's chain would.
// A dump does not hold BF.RESERVE's error_rate and capacity: the filter's
// Params report twice link 0's error and link 0's capacity, or, with
// power-of-two tables, the smallest capacity that BF.RESERVE raises to
// link 0's (every such capacity builds the same links). The loaded
// filter keeps each link's bpe as the dump gives it (RedisBloom's C
// library computes the log, which may differ from Go's math.Log in the
// last bit), so that it dumps back the same bytes; [RedisBloom.Equal]
// compares the bpe and the capacity in Params, and so may report a
// loaded filter different from the model built from the same parameters
// and keys although both hold the same bits and answer alike.
//
// Errors wrap [ErrCorrupt]; options the model does not support
// (NONSCALING, no FORCE64, ENTS_IS_BITS) give errors wrapping
// [ErrIncompatible], and tables beyond the memory limit errors wrapping
// [ErrInvalidParams] and [ErrMemoryLimit]. A chunk that gives an error is
// not loaded, and the loader stays as it was.
//
// The zero RedisLoader is ready to use, with the process limit. A
// RedisLoader is not safe for concurrent use.
type RedisLoader struct {
	// MaxBytes, when positive, is the most memory the tables may take
	// together, and becomes the loaded filter's MaxBytes
	// ([RedisBloomParams]); zero means the process limit ([MemoryLimit]).
	// A negative value is an error.
	MaxBytes int64

	f      *RedisBloom
	total  uint64 // bytes of all the tables
	spans  []span // byte ranges loaded, sorted, disjoint and not adjacent
	chunks int    // data chunks loaded
	done   bool   // Filter has returned the filter
}

// span is a range [start, end) of bytes.
type span struct{ start, end uint64 }

// LoadChunk loads one pair (iter, data) that BF.SCANDUMP returned: first
// the header, with iter 1, then the data chunks, each with the iterator
// returned beside it. See [RedisLoader] for what it checks.
func (ld *RedisLoader) LoadChunk(iter int64, data []byte) error {
	switch {
	case ld.done:
		return fmt.Errorf("variants: redisbloom dump: the loader has returned its filter; use a new RedisLoader")
	case iter == 0 && len(data) == 0:
		return nil
	case ld.f == nil:
		if iter != 1 {
			return corrupt("redisbloom dump: the first chunk has iterator %d, want the header with iterator 1", iter)
		}
		return ld.header(data)
	}
	n := int64(len(data))
	if iter <= 0 || iter < n || iter-n < 1 {
		return corrupt("redisbloom dump: chunk of %d bytes with iterator %d, want an iterator of at least %d", n, iter, n+1)
	}
	if n == 0 {
		return corrupt("redisbloom dump: empty chunk with iterator %d", iter)
	}
	start := uint64(iter - n - 1)
	end := start + uint64(n)
	pos := start
	var link *redisLink
	var linkStart uint64
	for i := range ld.f.links {
		size := 8 * uint64(len(ld.f.links[i].words))
		if pos < size {
			link = &ld.f.links[i]
			break
		}
		pos -= size
		linkStart += size
	}
	if link == nil {
		return corrupt("redisbloom dump: chunk at byte %d, beyond the %d bytes of the tables", start, ld.total)
	}
	if size := 8 * uint64(len(link.words)); uint64(n) > size-pos {
		return corrupt("redisbloom dump: chunk of bytes %d to %d runs past the end of link %d (bytes %d to %d)", start, end, link.Index, linkStart, linkStart+size)
	}
	i := sort.Search(len(ld.spans), func(i int) bool { return ld.spans[i].end > start })
	if i < len(ld.spans) && ld.spans[i].start < end {
		return corrupt("redisbloom dump: chunk of bytes %d to %d overlaps bytes %d to %d loaded before", start, end, max(start, ld.spans[i].start), min(end, ld.spans[i].end))
	}
	bytesToWords(link.words, pos, data)
	ld.chunks++
	// Insert [start, end), merged with its neighbours where they touch.
	joinPrev := i > 0 && ld.spans[i-1].end == start
	joinNext := i < len(ld.spans) && ld.spans[i].start == end
	switch {
	case joinPrev && joinNext:
		ld.spans[i-1].end = ld.spans[i].end
		ld.spans = append(ld.spans[:i], ld.spans[i+1:]...)
	case joinPrev:
		ld.spans[i-1].end = end
	case joinNext:
		ld.spans[i].start = start
	default:
		ld.spans = append(ld.spans, span{})
		copy(ld.spans[i+1:], ld.spans[i:])
		ld.spans[i] = span{start, end}
	}
	return nil
}

// Filter returns the loaded filter, once the header and chunks covering
// every table have been loaded. The loader hands the filter over: it
// loads nothing after Filter has succeeded.
func (ld *RedisLoader) Filter() (*RedisBloom, error) {
	switch {
	case ld.done:
		return nil, fmt.Errorf("variants: redisbloom dump: the loader has returned its filter; use a new RedisLoader")
	case ld.f == nil:
		return nil, corrupt("redisbloom dump: no header loaded")
	}
	if len(ld.spans) != 1 || ld.spans[0] != (span{0, ld.total}) {
		var have uint64
		for _, s := range ld.spans {
			have += s.end - s.start
		}
		first := uint64(0)
		if len(ld.spans) > 0 && ld.spans[0].start == 0 {
			first = ld.spans[0].end
		}
		return nil, corrupt("redisbloom dump: the chunks cover %d of the %d bytes of the tables; the first missing is byte %d", have, ld.total, first)
	}
	for _, l := range ld.f.links {
		if r := l.Modulus % 64; r != 0 && l.words[len(l.words)-1]>>r != 0 {
			return nil, corrupt("redisbloom dump: link %d has bits set at or above its modulus %d", l.Index, l.Modulus)
		}
	}
	ld.done = true
	return ld.f, nil
}

// LoadRedisChunks loads the pairs of a dump (see [RedisLoader]), header
// first, and returns the filter, with the process memory limit. The
// pairs BF.SCANDUMP returned in a loop load as they came, and so do those
// of [RedisBloom.ScanDumpAll]. It returns a nil filter exactly when it
// returns an error.
func LoadRedisChunks(chunks iter.Seq2[int64, []byte]) (*RedisBloom, error) {
	var ld RedisLoader
	for it, data := range chunks {
		if err := ld.LoadChunk(it, data); err != nil {
			return nil, err
		}
	}
	return ld.Filter()
}

// redisDumpLink is a link of a dump's header (dumpedChainLink).
type redisDumpLink struct {
	bytes, bits, size uint64
	err, bpe          float64
	hashes            uint32
	entries           uint64
	n2                uint8
}

// header checks the header chunk and allocates the tables.
func (ld *RedisLoader) header(b []byte) error {
	if ld.MaxBytes < 0 {
		return invalid("redisbloom dump: MaxBytes = %d, want >= 0 (0: the process limit)", ld.MaxBytes)
	}
	if len(b) < redisDumpHeaderSize {
		return corrupt("redisbloom dump: header of %d bytes, want at least %d", len(b), redisDumpHeaderSize)
	}
	le := binary.LittleEndian
	items, nf, opt, growth := le.Uint64(b), le.Uint32(b[8:]), le.Uint32(b[12:]), le.Uint32(b[16:])
	if nf < 1 || nf > analysis.MaxStages {
		return corrupt("redisbloom dump: %d links, want 1 to %d", nf, analysis.MaxStages)
	}
	if want := redisDumpHeaderSize + redisDumpLinkSize*int(nf); len(b) != want {
		return corrupt("redisbloom dump: header of %d bytes for %d links, want %d", len(b), nf, want)
	}
	if opt&^(RedisOptNoRound|RedisOptEntsIsBits|RedisOptForce64|RedisOptNoScaling) != 0 {
		return corrupt("redisbloom dump: unknown options %#x", opt)
	}
	switch {
	case opt&RedisOptNoScaling != 0:
		return incompatible("redisbloom dump: options %#x: a NONSCALING filter (BLOOM_OPT_NO_SCALING), which the model does not build", opt)
	case opt&RedisOptEntsIsBits != 0:
		return incompatible("redisbloom dump: options %#x: BLOOM_OPT_ENTS_IS_BITS, which the model does not build", opt)
	case opt&RedisOptForce64 == 0:
		return incompatible("redisbloom dump: options %#x: without BLOOM_OPT_FORCE64 keys hash with 32-bit MurmurHash2, which the model does not compute", opt)
	}
	if growth < 1 {
		return corrupt("redisbloom dump: expansion %d, want at least 1", growth)
	}
	links := make([]redisDumpLink, nf)
	for i := range links {
		p := b[redisDumpHeaderSize+redisDumpLinkSize*i:]
		links[i] = redisDumpLink{
			bytes: le.Uint64(p), bits: le.Uint64(p[8:]), size: le.Uint64(p[16:]),
			err: math.Float64frombits(le.Uint64(p[24:])), bpe: math.Float64frombits(le.Uint64(p[32:])),
			hashes: le.Uint32(p[40:]), entries: le.Uint64(p[44:]), n2: p[52],
		}
	}
	geom, err := redisGeometry(links[0], opt&RedisOptNoRound == 0, uint64(growth))
	if err != nil {
		return err
	}
	f := &RedisBloom{geom: geom, hashing: Hashing{Kind: Murmur64A}.conf(), maxBytes: ld.MaxBytes, items: items, live: int(nf)}
	geoms := make([]analysis.RedisBloomLink, nf)
	var sum, total uint64
	for i, d := range links {
		g, err := geom.Link(i)
		if err != nil {
			return corrupt("redisbloom dump with %d links: %s", nf, trimPrefix(err))
		}
		if err := checkDumpLink(i, d, g, geom.PowerOfTwo); err != nil {
			return err
		}
		switch {
		case i < int(nf)-1 && d.size != g.Capacity:
			return corrupt("redisbloom dump: link %d holds %d items, but a link before the newest holds its capacity %d", i, d.size, g.Capacity)
		case i == int(nf)-1 && i > 0 && d.size == 0:
			return corrupt("redisbloom dump: the newest link %d is empty", i)
		case d.size > math.MaxUint64-sum:
			return corrupt("redisbloom dump: the links' items overflow")
		}
		sum += d.size
		total += g.Bits / 8 // at most 256 links of at most MaxBits bits: no overflow
		g.BPE = d.bpe       // RedisBloom's, which the C library's log computed
		geoms[i] = g
	}
	if sum != items {
		return corrupt("redisbloom dump: the links hold %d items, the chain says %d", sum, items)
	}
	// All the tables must fit the limit before the first is allocated.
	if err := checkGrowth("redisbloom dump", -1, 0, total, ld.MaxBytes, true); err != nil {
		return err
	}
	f.links = make([]redisLink, 0, nf)
	for i, g := range geoms {
		w, err := allocWords(g.Bits/64, noLimit)
		if err != nil {
			return err
		}
		f.links = append(f.links, redisLink{RedisBloomLink: g, words: w, items: links[i].size})
	}
	ld.f, ld.total = f, total
	return nil
}

// redisGeometry returns the parameters of the chain whose link 0 is l: its
// error rate twice l's error, its expansion growth, and its capacity l's
// entries with NOROUND; with power-of-two tables (pow2) the smallest
// capacity, of the 64 at or below l's entries, that RedisBloom raises to
// l's entries, since the capacity BF.RESERVE was given is not in the dump
// (all such capacities build the same chain).
func redisGeometry(l redisDumpLink, pow2 bool, growth uint64) (analysis.RedisBloom, error) {
	if !(l.err > 0 && l.err < 0.5) {
		return analysis.RedisBloom{}, corrupt("redisbloom dump: link 0 has error %v, want 0 < error < 0.5 (half the error rate)", l.err)
	}
	geom := analysis.RedisBloom{ErrorRate: 2 * l.err, Capacity: l.entries, Expansion: growth, PowerOfTwo: pow2}
	if err := geom.Validate(); err != nil {
		return analysis.RedisBloom{}, corrupt("redisbloom dump: link 0: %s", trimPrefix(err))
	}
	if !pow2 {
		return geom, nil
	}
	var found bool
	for c := l.entries; c >= 1 && c+64 > l.entries; c-- {
		g := geom
		g.Capacity = c
		if k, err := g.Link(0); err == nil && k.Capacity == l.entries && k.Bits == l.bits {
			geom, found = g, true
		}
	}
	if !found {
		return analysis.RedisBloom{}, corrupt("redisbloom dump: no capacity gives link 0 of a power-of-two chain %d entries and %d bits", l.entries, l.bits)
	}
	return geom, nil
}

// checkDumpLink checks link i of a dump, d, against g, the geometry
// RedisBloom's rules give it.
func checkDumpLink(i int, d redisDumpLink, g analysis.RedisBloomLink, pow2 bool) error {
	var n2 uint8
	if pow2 {
		n2 = uint8(bits.TrailingZeros64(g.Modulus))
	}
	switch {
	case d.err != g.Error:
		return corrupt("redisbloom dump: link %d has error %v, want %v (half the error of the link before)", i, d.err, g.Error)
	case !(math.Abs(d.bpe-g.BPE) <= 1e-12*g.BPE):
		return corrupt("redisbloom dump: link %d has %v bits per entry, want %v for its error", i, d.bpe, g.BPE)
	case d.entries != g.Capacity:
		return corrupt("redisbloom dump: link %d has capacity %d, want %d", i, d.entries, g.Capacity)
	case d.bits != g.Bits || d.bytes != g.Bits/8 || d.n2 != n2:
		return corrupt("redisbloom dump: link %d has %d bits, %d bytes and n2 %d, want %d, %d and %d", i, d.bits, d.bytes, d.n2, g.Bits, g.Bits/8, n2)
	case d.hashes != uint32(g.Hashes):
		return corrupt("redisbloom dump: link %d has %d hashes, want %d", i, d.hashes, g.Hashes)
	}
	return nil
}
