package variants

import (
	"math/bits"
	"runtime"
	"sync"
	"unsafe"

	"github.com/bloomlab/bloomlab/analysis"
)

// The stream derivation of a scalable filter's stages (format codes 10 and
// 11; see Scalable for why it is sound). A key's digest gives one 64-bit
// seed s; the key's probe values are the outputs of wyrand (Wang Yi's
// generator: state x += wyp0, output (x * (x ^ wyp1)) folded to 64 bits)
// started from the state s. Stage i takes the outputs from number
// i*streamStride + 1 onwards: one per slice of a partitioned stage, each
// reduced to the slice by multiply-shift; or, for a blocked stage, the
// first reduced to a block and the second passed to Blocked as the h2 of
// its in-block positions.

// The constants of wyrand (wyhash final version 4).
const (
	wyp0 = 0xa0761d6478bd642f
	wyp1 = 0xe7037ed1a0b428db
)

// Multiples of wyp0 modulo 2^64: the states of the next outputs.
const (
	wyp0x2 = 2 * wyp0 & (1<<64 - 1)
	wyp0x3 = 3 * wyp0 & (1<<64 - 1)
	wyp0x4 = 4 * wyp0 & (1<<64 - 1)
)

// streamStride is the number of wyrand outputs reserved for each stage: at
// least the MaxHashes values a partitioned stage may take.
const streamStride = 1 << 12

// streamSeed returns the seed of d's stream: both halves of the digest,
// H2 rotated so that a digest with equal halves does not give zero.
func streamSeed(d Digest) uint64 { return d.H1 ^ bits.RotateLeft64(d.H2, 32) }

// wyout returns the output of wyrand for the state x (already advanced).
func wyout(x uint64) uint64 {
	hi, lo := bits.Mul64(x, x^wyp1)
	return hi ^ lo
}

// streamStage is what a query needs of one stage of the stream
// derivation, in one flat record, so that the stage loop reads no pointer
// but the table: the address of the first word, the slice geometry and the
// stage's state offset. Exactly one of words (partitioned) and bl
// (blocked) is set.
type streamStage struct {
	words unsafe.Pointer // first word of slice 0
	b     uint64         // slice bits
	step  uintptr        // bytes per slice, 8 ceil(b/64)
	k     int            // slices
	x0    uint64         // i streamStride wyp0: the state before the stage's first output
	// wide is set for slices of more than wideSlice bits, which take a
	// whole output each; narrower slices take half of one each.
	wide bool
	// For a blocked stage, words is the first block, b the number of
	// blocks and bshift log2 of the bytes per block, so that the block of
	// h1 is at words + reduce(h1, b) << bshift, as Blocked.block computes
	// it.
	bshift uint8
	bl     *Blocked
	// bk, bper and bbits are the blocked stage's hashes, positions per
	// 64-bit value and bits per position (Blocked's k, perWord and
	// blockShift), copied here so that a query passes them to blockedTest
	// without reading the Blocked.
	bk, bper int
	bbits    uint
}

// newStreamStage returns the stream record of stage i, whose filter is p
// or bl. It checks once what the unchecked loops rely on: the table holds
// exactly k slices of ceil(b/64) words (for a blocked stage Blocked.block
// asserts its table itself).
func newStreamStage(i int, p *Partitioned, bl *Blocked) streamStage {
	st := streamStage{x0: uint64(i) * streamStride * uint64(wyp0), bl: bl}
	if bl != nil {
		_ = bl.words[bl.blocks<<(bl.blockShift-6)-1]
		st.words = unsafe.Pointer(unsafe.SliceData(bl.words))
		st.b, st.bshift = bl.blocks, uint8(bl.blockShift-3)
		st.bk, st.bper, st.bbits = bl.k, bl.perWord, bl.blockShift
	}
	if p != nil {
		_ = p.words[uint64(p.k-1)*p.sliceWords+(p.sliceBits-1)>>6]
		st.words = unsafe.Pointer(unsafe.SliceData(p.words))
		st.b, st.step, st.k = p.sliceBits, uintptr(p.sliceWords)*8, p.k
		st.wide = p.sliceBits > wideSlice
	}
	return st
}

// wideSlice is the largest slice, in bits, that takes half an output: the
// 32-bit multiply-shift gives each of its b bits 2^32/b values of the half,
// rounded up or down, so for b <= 2^24 every bit's chance is within 2^-8 of
// 1/b, which moves a stage's rate by less than 0.1% for any k up to 64
// (the relative change of a slice's rate is about 0.9 times the variance
// of the chances, at most 2^-18, per slice). Larger slices, in stages of
// more than about 11 million items and far beyond any cache, take a whole
// output each, reduced by the 64-bit multiply-shift.
const wideSlice = 1 << 24

// reduce32 maps the 32-bit value v to [0, b), b <= 2^32, by multiply-shift.
func reduce32(v, b uint64) uint64 { return v * b >> 32 }

// test reports whether the key whose stream seed is s tests present in the
// partitioned stage st, as containsStream tests each stage: slices 2t and
// 2t+1 take the low and the high half of output t, their two words are
// read together and tested once, and the first pair with a clear bit ends
// the test. Slices of more than wideSlice bits take one output each, in
// pairs likewise.
func (st *streamStage) test(s uint64) bool {
	if st.wide {
		return st.testWide(s)
	}
	x, b, step, k, w, off := s+st.x0, st.b, st.step, st.k, st.words, uintptr(0)
	for ; k >= 2; k -= 2 {
		x += wyp0
		v := wyout(x)
		p := unsafe.Add(w, off)
		if bit(hasBit(p, reduce32(v&mask32, b)))&bit(hasBit(unsafe.Add(p, step), reduce32(v>>32, b))) == 0 {
			return false
		}
		off += 2 * step
	}
	return k == 0 || hasBit(unsafe.Add(w, off), reduce32(wyout(x+wyp0)&mask32, b))
}

// mask32 keeps the low half of a 64-bit value.
const mask32 = 1<<32 - 1

// testWide is test for slices of more than wideSlice bits: slice j takes
// all of output j, reduced by the 64-bit multiply-shift, and the slices
// are read and tested in pairs as test does.
func (st *streamStage) testWide(s uint64) bool {
	x, b, step, k, w, off := s+st.x0, st.b, st.step, st.k, st.words, uintptr(0)
	for ; k >= 2; k -= 2 {
		i, j := reduce(wyout(x+wyp0), b), reduce(wyout(x+wyp0x2), b)
		p := unsafe.Add(w, off)
		if bit(hasBit(p, i))&bit(hasBit(unsafe.Add(p, step), j)) == 0 {
			return false
		}
		x, off = x+wyp0x2, off+2*step
	}
	return k == 0 || hasBit(unsafe.Add(w, off), reduce(wyout(x+wyp0), b))
}

// index returns the bit of slice j that the stream with state x (before
// the stage's first output) picks: the definition the loops unroll.
func (st *streamStage) index(x uint64, j int) uint64 {
	if st.wide {
		return reduce(wyout(x+uint64(j+1)*wyp0), st.b)
	}
	v := wyout(x + uint64(j/2+1)*wyp0)
	if j%2 == 0 {
		return reduce32(v&mask32, st.b)
	}
	return reduce32(v>>32, st.b)
}

// set sets the k bits of seed s in the partitioned stage st.
func (st *streamStage) set(s uint64) {
	x, b, step, k, w := s+st.x0, st.b, st.step, st.k, st.words
	if st.wide {
		for j := range k {
			i := st.index(x, j)
			*wordPtr(unsafe.Add(w, uintptr(j)*step), i) |= 1 << (i & 63)
		}
		return
	}
	off := uintptr(0)
	for ; k >= 2; k -= 2 {
		x += wyp0
		v := wyout(x)
		p := unsafe.Add(w, off)
		i := reduce32(v&mask32, b)
		*wordPtr(p, i) |= 1 << (i & 63)
		i = reduce32(v>>32, b)
		*wordPtr(unsafe.Add(p, step), i) |= 1 << (i & 63)
		off += 2 * step
	}
	if k == 1 {
		i := reduce32(wyout(x+wyp0)&mask32, b)
		*wordPtr(unsafe.Add(w, off), i) |= 1 << (i & 63)
	}
}

// blockDigest returns the block value and the in-block value of seed s in
// the blocked stage st: the stage's first two outputs.
func (st *streamStage) blockDigest(s uint64) (h1, h2 uint64) {
	x := s + st.x0
	return wyout(x + wyp0), wyout(x + wyp0x2)
}

// block returns the address of the block that h1 picks in the blocked
// stage st: Blocked.block without reading the Blocked.
func (st *streamStage) block(h1 uint64) unsafe.Pointer {
	return unsafe.Add(st.words, reduce(h1, st.b)<<(st.bshift&63))
}

// containsStream is ContainsDigest for partitioned stages of the stream
// derivation: the stages tested newest first, each as streamStage.test
// does, written out here so that the loop over the stages makes no call.
func (f *Scalable) containsStream(d Digest) bool {
	if f.wide {
		return f.containsStreamWide(d)
	}
	s := streamSeed(d)
	hot := f.hot[:f.live]
stages:
	for i := len(hot) - 1; i >= 0; i-- {
		st := &hot[i]
		// p steps from slice to slice but never past the last one.
		x, b, step, k, p := s+st.x0, st.b, st.step, st.k, st.words
		for k >= 2 {
			x += wyp0
			v := wyout(x)
			if bit(hasBit(p, reduce32(v&mask32, b)))&bit(hasBit(unsafe.Add(p, step), reduce32(v>>32, b))) == 0 {
				continue stages
			}
			if k -= 2; k == 0 {
				return true
			}
			p = unsafe.Add(p, 2*step)
		}
		if hasBit(p, reduce32(wyout(x+wyp0)&mask32, b)) {
			return true
		}
	}
	return false
}

// bit returns 1 for true and 0 for false.
func bit(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// hasBit reports whether bit i of the table at base is set.
func hasBit(base unsafe.Pointer, i uint64) bool { return *wordPtr(base, i)&(1<<(i&63)) != 0 }

// containsStreamWide is containsStream for a filter with a stage of more
// than wideSlice bits per slice.
func (f *Scalable) containsStreamWide(d Digest) bool {
	s := streamSeed(d)
	for i := f.live - 1; i >= 0; i-- {
		if f.hot[i].test(s) {
			return true
		}
	}
	return false
}

// containsStreamBlocked is ContainsDigest for blocked stages of the stream
// derivation. With AVX2 and blocks of 256 or 512 bits (the block size is
// the same in every stage), one call of streamBlockedTest locates and
// tests every stage's block in assembly, prefetching the blocks first
// once the newest stage exceeds prefetchBytes; otherwise
// streamBlockedTestGo does.
func (f *Scalable) containsStreamBlocked(d Digest) bool {
	s := streamSeed(d)
	hot := f.hot[:f.live]
	if b := hot[0].bbits; useAVX2 && (b == 8 || b == 9) {
		top := &hot[len(hot)-1]
		return streamBlockedTest(unsafe.Pointer(unsafe.SliceData(hot)), len(hot), s, top.b<<(top.bshift&63) > prefetchBytes)
	}
	return streamBlockedTestGo(hot, s)
}

// prefetchBytes is the size of the newest blocked stage beyond which
// streamBlockedTest prefetches every stage's block before testing them:
// half a typical L2 cache, where the newest stage, about half the filter
// with s = 2, and the older ones no longer fit it. While the stages are in
// cache the prefetch pass is pure cost; beyond it, it shortens absent
// queries (BenchmarkScalable, variant=scalable-blocked at n=1e4 and
// n=3e7).
const prefetchBytes = 1 << 19

// streamBlockedTestGo reports whether the stream seed s tests present in
// one of the blocked stages of hot. A first pass locates the block of
// every stage and reads one word of each, so that the stages' cache misses
// are in flight together (as touch does for a batch); the second
// recomputes each block (one multiply) and tests it with blockedTest,
// newest stage first. Both passes read only the flat stage records.
func streamBlockedTestGo(hot []streamStage, s uint64) bool {
	var t uint64
	for i := range hot {
		st := &hot[i]
		t |= *(*uint64)(st.block(wyout(s + st.x0 + wyp0)))
	}
	runtime.KeepAlive(t) // the loads must happen
	for i := len(hot) - 1; i >= 0; i-- {
		st := &hot[i]
		h1, h2 := st.blockDigest(s)
		if blockedTest(st.block(h1), h2, st.bk, st.bper, st.bbits) {
			return true
		}
	}
	return false
}

// addStream inserts the key of digest d into stage i of the stream
// derivation.
func (f *Scalable) addStream(i int, d Digest) {
	s, st := streamSeed(d), &f.hot[i]
	if st.bl != nil {
		h1, h2 := st.blockDigest(s)
		st.bl.set(st.block(h1), h2)
		st.bl.items++
		return
	}
	st.set(s)
	f.stages[i].f.items++
}

// freshStream is FreshCells for stage i of the stream derivation: the
// cells of the key's stream in that stage that are still clear.
func (f *Scalable) freshStream(i int, d Digest) int {
	st, s := &f.hot[i], streamSeed(d)
	if st.bl != nil {
		h1, h2 := st.blockDigest(s)
		return st.bl.FreshCells(Digest{H1: h1, H2: h2})
	}
	n, x := 0, s+st.x0
	for j := range st.k {
		b := st.index(x, j)
		if *wordPtr(unsafe.Add(st.words, uintptr(j)*st.step), b)>>(b&63)&1 == 0 {
			n++
		}
	}
	return n
}

// stageCache keeps the geometry of the blocked stages that scalable
// filters have sized, by parameters and stage number, for every filter of
// the program: sizing a blocked stage costs about as much as a few
// thousand adds, and filters made with the same parameters have the same
// stages. The stages it has not seen are sized with one
// analysis.BlockedSizer per block size, shared by every filter, whose
// inner rates serve the stages of any filter with that block size (they
// depend on the block size, the hashes and the load only). The geometry
// is a pure function of its key, so the cache changes no filter, only how
// soon it is built. It holds at most stageCacheSize stages and starts
// afresh, sizers included, when full.
var stageCache struct {
	sync.Mutex
	m      map[stageKey]analysis.Stage
	sizers map[uint64]*analysis.BlockedSizer
}

// stageCacheSize bounds the stages stageCache holds: a few hundred
// kilobytes at most. A sizer's inner rates take about 150 KB after the
// 14 stages of a filter at P = 0.01 with 512-bit blocks (90 KB at
// P = 1e-4).
const stageCacheSize = 4096

// stageKey names a stage: the filter's model (an analysis.Scalable or an
// analysis.Horizon, both comparable values) and the stage's number.
type stageKey struct {
	geom  ScalableModel
	stage int
}

// keepLocked caches st as the geometry of stage i of geom; the caller
// holds stageCache's lock.
func keepLocked(geom ScalableModel, i int, st analysis.Stage) {
	if stageCache.m == nil || len(stageCache.m) >= stageCacheSize {
		stageCache.m = make(map[stageKey]analysis.Stage)
		stageCache.sizers = nil
	}
	stageCache.m[stageKey{geom, i}] = st
}

// blockedStage returns the geometry of stage i of geom, which has blocked
// stages of bb bits (geom's BlockBits): from stageCache, or sized with the shared BlockedSizer of its
// block size and kept. Filters growing at the same time wait for each
// other's sizing.
func blockedStage(geom ScalableModel, bb uint64, i int) (analysis.Stage, error) {
	stageCache.Lock()
	defer stageCache.Unlock()
	if st, ok := stageCache.m[stageKey{geom, i}]; ok {
		return st, nil
	}
	z := stageCache.sizers[bb]
	if z == nil {
		if stageCache.sizers == nil {
			stageCache.sizers = make(map[uint64]*analysis.BlockedSizer)
		}
		z = analysis.NewBlockedSizer(bb)
		stageCache.sizers[bb] = z
	}
	st, err := geom.StageWith(i, z)
	if err != nil {
		return analysis.Stage{}, err
	}
	keepLocked(geom, i, st)
	return st, nil
}

// clearStageCache empties stageCache and drops its sizers (for
// benchmarks of a program's first filter).
func clearStageCache() {
	stageCache.Lock()
	defer stageCache.Unlock()
	stageCache.m = nil
	stageCache.sizers = nil
}
