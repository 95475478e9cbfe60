package variants

import (
	"math"
	"math/bits"

	"github.com/zeebo/xxh3"

	"github.com/bloomlab/bloomlab/analysis"
)

// [MinMultiblockWordBits], [MaxMultiblockWordBits] and
// [MaxMultiblockBlockBits] bound the layouts of a [Multiblock] filter: a
// window is a power of two from 8 bits (Boost's unsigned char) to 4096
// ([analysis.MaxMultiblockWordBits], eight cache lines), and a key's whole
// block, its windows together, spans at most 65536 bits (8 KiB, 128 cache
// lines of 64 bytes). The block bound leaves room for every layout of
// Boost's table (multiblock<uint64_t[8], 15>, 15 windows of 512 bits, spans
// 7680) and for 16 windows of 4096 bits, still bounds the lines one key
// touches, and keeps the stored stride (at most the block) far inside its
// 32-bit field. [Blocked]'s blocks keep [MaxBlockBits] (4096).
const (
	MinMultiblockWordBits  = 8
	MaxMultiblockWordBits  = analysis.MaxMultiblockWordBits
	MaxMultiblockBlockBits = 1 << 16
)

// DefaultMultiblockWordBits is the window of a [Multiblock] filter whose
// parameters leave WordBits 0: one 64-bit word.
const DefaultMultiblockWordBits = 64

// Multiblock is the generalised cache-local Bloom filter: every layout of
// Boost.Bloom's filter (boostorg/bloom, Boost 1.89) in one type, with the
// parameters of [analysis.Multiblock], which is its theory ([Multiblock.Model]).
//
// The table is an array of m bits, read as bytes: bit x is bit x%64 of
// 64-bit word x/64, which is bit x%8 of byte x/8 of the little-endian
// words, as Boost's byte array read as little-endian words. A key picks
// one of P starts; the block at start p begins at bit p*S (S the stride,
// a whole number of bytes) and spans L bits, G consecutive windows of w
// bits. Two kinds of layout:
//
//   - block (Multi false, G = 1): the key sets K bits, drawn with
//     replacement, in one window of w bits: Boost's block<Word, K> for
//     w = 8 to 64, block<Word[N], K> for a line of N words (w = 512 for
//     uint64_t[8]);
//   - multiblock (Multi true, G = K): the key sets one bit in each of K
//     consecutive windows of w bits: Boost's multiblock<Word, K> and, as far
//     as positions go, fast_multiblock32<K> and fast_multiblock64<K>.
//
// At the natural stride (StrideBits 0, S = L) blocks do not overlap and
// m = P L; at a smaller stride (any multiple of 8 bits below L) a block may
// start at any multiple of S bits, consecutive blocks overlap, and
// m = (P - 1) S + L, Boost's Stride and capacity.
//
// # Bit derivation
//
// From the 128-bit digest (H1, H2):
//
//   - the start is p = floor(H1 P / 2^64), Lemire's multiply-shift over the
//     P starts;
//   - the key's K in-window positions are consecutive fields of log2(w)
//     bits taken from H2, lowest bits first, floor(64/log2 w) fields per
//     64-bit value; when they run out the next values are the SplitMix64
//     remixes mix64(H2 + t φ) for t = 1, 2, ... (φ the golden-ratio
//     constant 0x9e3779b97f4a7c15);
//   - field i sets bit p S + f_i (block) or p S + i w + f_i (multiblock).
//
// This is [Blocked]'s derivation with a stride: at the natural stride a
// block layout of w = 64 to 4096 bits sets the same bits as a Blocked
// filter of blocks of B = w bits. It departs from Boost's, which starts
// from one 64-bit hash (whose lowest bit it sets), takes the start from
// the high half of that hash times P, then remultiplies the hash by an odd
// constant for the in-block bits (and, for fast_multiblock, fixed fields of
// each 32- or 64-bit lane): the layouts, the table and the rates are
// Boost's, the bits a given key sets are not. Both make positions as good
// as uniform and independent, which is the model of [analysis.Multiblock],
// so the rate is [analysis.Multiblock.FPR] exactly (at the natural stride)
// or as computed there (overlapping strides).
//
// # Speed
//
// On amd64 processors with AVX2 the multiblock layouts of 32-bit windows
// (K = 1 to 16) and of 64-bit windows (K = 1 to 8), at any stride, test
// and set a key's bits in assembly (multiblock_amd64.s): a 256-bit vector
// holds eight 32-bit or four 64-bit windows, each lane's bit comes from
// its field of H2 by variable shifts, and the block is read and written
// at its byte address, with a masked load and stores of 16, 8 and 4
// bytes when it is narrower than the vector, so that no byte outside it
// is touched; a test is one VPTEST, or two vectors' clear bits ORed for
// K above 8 (w = 32) or 4 (w = 64). Block layouts of w = 256 and 512
// bits test their window with the blocked filter's AVX2 test (B = w) and
// set it in Go. The pure-Go
// probes are the reference, and serve every other layout, other
// architectures, amd64 without AVX2 and the purego build tag: a block
// layout of at most 64 bits builds its K-bit mask and tests it against
// the window, read from the one or two words it straddles, with no branch
// on the data; the other layouts test each bit without an early exit.
// Both set the same bits and give the same answers; [SetAssembly] turns
// the assembly off. Measured with BenchmarkMultiblockVector (the
// package's Speed notes give the numbers), multiblock<uint32_t, 8> in
// assembly runs within about 10% of the split-block filter, which is the
// same layout with its own assembly probe, where in pure Go it took 2.2
// to 2.5 times as long in cache. The batch methods ([Batcher]) read a
// group's blocks ahead in tables of 4 MiB or more and then probe each
// key: about 0.3 to 0.6 times the time of one call per key at 256 MiB.
//
// Contains and ContainsDigest are safe for concurrent use while nothing
// mutates the filter; mutation needs exclusive access.
type Multiblock struct {
	bitCore
	m      uint64 // bits, (starts - 1) stride + L
	starts uint64 // P
	stride uint64 // S, bits
	w      uint64 // window bits
	shift  uint   // log2 w
	per    int    // fields per 64-bit value, 64/shift
	multi  bool
	vec    uint8 // the layout's vector probe (multiblockVecOf), multiVecNone if none
}

// MultiblockParams are the parameters of a [Multiblock] filter: the
// [analysis.Multiblock] geometry (Bits, Hashes K, WordBits, Multi,
// StrideBits), the capacity, the hashing and the memory limit. The
// [Geometry] is embedded, so that the result of [MultiblockGeometry] goes
// in whole:
//
//	p := variants.MultiblockParams{WordBits: 64, Multi: true, StrideBits: 8}
//	g, err := variants.MultiblockGeometry(capacity, fpr, p)
//	...
//	p.Geometry = g
//	f, err := variants.NewMultiblock(p)
type MultiblockParams struct {
	// Geometry gives the bits m, rounded up to one block plus a whole
	// number of strides, the hashes K and the capacity (0 if unknown).
	Geometry
	// WordBits is the window w, a power of two from 8 to 4096
	// ([MaxMultiblockWordBits]); 0 means
	// [DefaultMultiblockWordBits]. In a block layout K <= w; in a
	// multiblock layout the block, K w bits, is at most
	// [MaxMultiblockBlockBits].
	WordBits uint64
	// Multi selects one bit in each of K consecutive windows (Boost's
	// multiblock); false sets K bits in one window (Boost's block).
	Multi bool
	// StrideBits is the distance between consecutive starts, a multiple of
	// 8 from 8 to the block's L bits; 0 means L, blocks that do not
	// overlap.
	StrideBits uint64
	// Hashing holds the hash options; the filter derives its positions
	// itself and takes only the default derivation ([EnhancedDouble]).
	Hashing Hashing
	// MaxBytes is the most the filter may hold in cells; 0 means the
	// process limit ([MemoryLimit]).
	MaxBytes int64
}

// multiblockShape is a checked layout: window, block and stride in bits.
type multiblockShape struct {
	w, l, stride uint64
	shift        uint
}

// shape checks p's layout for k hashes and fills in the defaults.
func (p MultiblockParams) shape(k int) (multiblockShape, error) {
	w := p.WordBits
	if w == 0 {
		w = DefaultMultiblockWordBits
	}
	if w < MinMultiblockWordBits || w > MaxMultiblockWordBits || w&(w-1) != 0 {
		return multiblockShape{}, invalid("word bits w = %d, want a power of two from %d to %d", w, MinMultiblockWordBits, MaxMultiblockWordBits)
	}
	if k < 1 || k > MaxHashes {
		return multiblockShape{}, invalid("hashes k = %d, want 1 <= k <= %d", k, MaxHashes)
	}
	l := w
	if p.Multi {
		if uint64(k)*w > MaxMultiblockBlockBits {
			return multiblockShape{}, invalid("a multiblock layout of k = %d windows of %d bits spans %d bits, more than the block's maximum of %d", k, w, uint64(k)*w, MaxMultiblockBlockBits)
		}
		l = uint64(k) * w
	} else if uint64(k) > w {
		return multiblockShape{}, invalid("hashes k = %d in one window of %d bits: a block layout sets at most w bits, want k <= %d", k, w, w)
	}
	s := p.StrideBits
	if s == 0 {
		s = l
	}
	if s%8 != 0 || s > l {
		return multiblockShape{}, invalid("stride = %d bits, want a whole number of bytes (a multiple of 8 bits) from 8 to the block's %d bits", s, l)
	}
	return multiblockShape{w: w, l: l, stride: s, shift: uint(bits.TrailingZeros64(w))}, nil
}

// bits returns the table's bits for at least m requested: one block and
// the fewest whole strides that reach m, with the number of starts.
func (s multiblockShape) bits(m uint64) (size, starts uint64, err error) {
	if m < s.l {
		return 0, 0, invalid("bits m = %d, less than one block of %d bits", m, s.l)
	}
	if m > MaxBits {
		return 0, 0, invalid("bits m = %d, want at most %d", m, uint64(MaxBits))
	}
	starts = (m-s.l+s.stride-1)/s.stride + 1
	size = (starts-1)*s.stride + s.l
	if size > MaxBits {
		return 0, 0, invalid("bits m = %d rounded up to whole strides of %d is %d, more than the maximum of %d", m, s.stride, size, uint64(MaxBits))
	}
	return size, starts, nil
}

// NewMultiblock returns an empty multiblock filter of the layout p: K =
// p.Hashes bits per key, in windows of p.WordBits bits, at the stride
// p.StrideBits, in p.Bits bits rounded up to one block plus a whole number
// of strides ([Multiblock.Model] reports the bits built). Impossible
// layouts (K above w in a block layout, a multiblock block above
// [MaxMultiblockBlockBits], a stride not a whole number of bytes or above
// the block, a table smaller than one block) and tables beyond the memory
// limit give errors wrapping [ErrInvalidParams]. [MultiblockGeometry]
// sizes one for a capacity.
func NewMultiblock(p MultiblockParams) (*Multiblock, error) {
	if err := checkOwnIndexing("multiblock", p.Hashing); err != nil {
		return nil, err
	}
	sh, err := p.shape(p.Hashes)
	if err != nil {
		return nil, err
	}
	m, starts, err := sh.bits(p.Bits)
	if err != nil {
		return nil, err
	}
	w, err := alignedWords((m+63)/64, p.MaxBytes)
	if err != nil {
		return nil, err
	}
	return newMultiblock(bitCore{words: w, k: p.Hashes, capacity: p.Capacity, hashing: p.Hashing.conf()}, sh, m, starts, p.Multi), nil
}

func newMultiblock(c bitCore, sh multiblockShape, m, starts uint64, multi bool) *Multiblock {
	return &Multiblock{bitCore: c, m: m, starts: starts, stride: sh.stride, w: sh.w, shift: sh.shift, per: 64 / int(sh.shift), multi: multi, vec: multiblockVecOf(multi, sh.w, c.k)}
}

// MultiblockGeometry returns the geometry of a multiblock filter of the
// layout p (its WordBits, Multi and StrideBits; its Bits and Capacity are
// ignored) for capacity n at false-positive rate fpr: the fewest bits, one
// block plus whole strides, whose rate [analysis.Multiblock.FPR] is at most
// fpr, with Hashes p.Hashes if it is set, else the integer K that needs the
// fewest bits (K from 1 up, stopping two K past the best, at most w in a
// block layout and 65536/w in a multiblock one), and Capacity n. Build the
// filter with [NewMultiblock] and the same layout.
//
// Each size tried is one evaluation of the rate: cheap at the natural
// stride; at an overlapping stride, the sums of analysis, which take
// from microseconds (block<uint64_t, K> at a byte stride) to about a second
// at their budgets, and are refused beyond them (an overlapping multiblock
// of more than 14 windows): the error is returned.
func MultiblockGeometry(capacity uint64, fpr float64, p MultiblockParams) (Geometry, error) {
	if err := checkSizing(capacity, fpr); err != nil {
		return Geometry{}, err
	}
	if _, err := p.shape(max(p.Hashes, 1)); err != nil {
		return Geometry{}, err
	}
	// No filter holds n keys at rate p in fewer than n log2(1/p) bits (the
	// information-theoretic bound): beyond MaxBits, refuse before the
	// search, whose rates lose their precision at such loads.
	if float64(capacity)*-math.Log2(fpr) > MaxBits {
		return Geometry{}, invalid("a multiblock filter of %d items at rate %v needs more than %d bits", capacity, fpr, uint64(MaxBits))
	}
	if p.Hashes != 0 {
		m, err := multiblockSize(capacity, fpr, p, p.Hashes)
		if err != nil {
			return Geometry{}, err
		}
		return Geometry{Bits: m, Hashes: p.Hashes, Capacity: capacity}, nil
	}
	bestK, best := 0, uint64(math.MaxUint64)
	for k := 1; k <= MaxHashes; k++ {
		if _, err := p.shape(k); err != nil {
			break // k beyond w, or the block beyond its maximum
		}
		m, err := multiblockSize(capacity, fpr, p, k)
		if err != nil {
			if bestK == 0 {
				return Geometry{}, err
			}
			break
		}
		if m < best {
			bestK, best = k, m
		} else if k >= bestK+2 {
			break
		}
	}
	return Geometry{Bits: best, Hashes: bestK, Capacity: capacity}, nil
}

// multiblockSize returns the fewest bits, one block plus whole strides, at
// which the layout p with k hashes holds n keys at rate at most fpr.
func multiblockSize(n uint64, fpr float64, p MultiblockParams, k int) (uint64, error) {
	sh, err := p.shape(k)
	if err != nil {
		return 0, err
	}
	model := func(starts uint64) analysis.Multiblock {
		return analysis.Multiblock{Bits: (starts-1)*sh.stride + sh.l, Hashes: k, WordBits: sh.w, Multi: p.Multi, StrideBits: strideOrZero(sh)}
	}
	maxStarts := (MaxBits-sh.l)/sh.stride + 1
	fits := func(starts uint64) (bool, error) {
		r, err := model(starts).FPR(n)
		if err != nil {
			return false, invalid("a multiblock filter of %d items at rate %v: %s", n, fpr, trimPrefix(err))
		}
		return r <= fpr, nil
	}
	// A bracket from the standard filter's size, then bisection.
	guess := -float64(n) * math.Log(fpr) / (math.Ln2 * math.Ln2) / float64(sh.stride)
	lo, hi := uint64(0), uint64(min(max(guess, 1), float64(maxStarts))) // fits(lo) false (lo 0: none), fits(hi) true
	for {
		ok, err := fits(hi)
		if err != nil {
			return 0, err
		}
		if ok {
			break
		}
		if hi == maxStarts {
			return 0, invalid("a multiblock filter of %d items at rate %v needs more than %d bits", n, fpr, uint64(MaxBits))
		}
		lo, hi = hi, min(2*hi, maxStarts)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := fits(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	return model(hi).Bits, nil
}

// strideOrZero returns the stride for analysis.Multiblock: 0 at the
// natural stride.
func strideOrZero(sh multiblockShape) uint64 {
	if sh.stride == sh.l {
		return 0
	}
	return sh.stride
}

// Add inserts key.
func (f *Multiblock) Add(key []byte) {
	if f.hashing.Kind != XXH3 {
		f.AddDigest(f.hashing.Digest(key))
		return
	}
	u := xxh3.Hash128Seed(key, f.hashing.Seed)
	if f.vectorSet() {
		f.setVec(f.start(u.Lo), u.Hi)
	} else {
		f.set(f.start(u.Lo), u.Hi)
	}
	f.items++
}

// Contains reports whether key is possibly in the set.
func (f *Multiblock) Contains(key []byte) bool {
	if f.hashing.Kind != XXH3 {
		return f.ContainsDigest(f.hashing.Digest(key))
	}
	u := xxh3.Hash128Seed(key, f.hashing.Seed)
	if f.vectorTest() {
		return f.testVec(f.start(u.Lo), u.Hi)
	}
	return f.test(f.start(u.Lo), u.Hi)
}

// TestAndAdd inserts key and reports whether it was possibly present.
func (f *Multiblock) TestAndAdd(key []byte) bool {
	return f.TestAndAddDigest(f.hashing.Digest(key))
}

// AddDigest inserts the key whose digest is d.
func (f *Multiblock) AddDigest(d Digest) {
	if f.vectorSet() {
		f.setVec(f.start(d.H1), d.H2)
	} else {
		f.set(f.start(d.H1), d.H2)
	}
	f.items++
}

// ContainsDigest reports whether the key whose digest is d is possibly present.
func (f *Multiblock) ContainsDigest(d Digest) bool {
	if f.vectorTest() {
		return f.testVec(f.start(d.H1), d.H2)
	}
	return f.test(f.start(d.H1), d.H2)
}

// TestAndAddDigest inserts d and reports whether it was possibly present.
func (f *Multiblock) TestAndAddDigest(d Digest) bool {
	s := f.start(d.H1)
	if f.vectorSet() {
		present := f.testVec(s, d.H2)
		f.setVec(s, d.H2)
		f.items++
		return present
	}
	present := f.test(s, d.H2)
	f.set(s, d.H2)
	f.items++
	return present
}

// start returns the first bit of the block that h1 picks.
func (f *Multiblock) start(h1 uint64) uint64 { return reduce(h1, f.starts) * f.stride }

// narrow reports whether the filter takes the mask path: a block layout
// of at most 64 bits.
func (f *Multiblock) narrow() bool { return !f.multi && f.w <= 64 }

// mask returns the K bits of h2 in a window of w <= 64 bits.
func (f *Multiblock) mask(h2 uint64) uint64 {
	s, fm, per := f.shift&63, f.w-1, f.per
	x, k := h2, f.k
	var mask uint64
	for t := uint64(1); ; t++ {
		n := min(k, per)
		for range n {
			mask |= 1 << (x & fm & 63)
			x >>= s
		}
		if k -= n; k <= 0 {
			return mask
		}
		x = mix64(h2 + t*weyl)
	}
}

// pair returns the words that hold the window at bit b: word b/64 and the
// next one, or the same word again at the end of the table, where the
// window lies within it.
func (f *Multiblock) pair(b uint64) (i, j uint64) {
	i = b >> 6
	j = min(i+1, uint64(len(f.words))-1)
	return i, j
}

// set sets the key's bits in the block at bit b.
func (f *Multiblock) set(b, h2 uint64) {
	if f.narrow() {
		m, sh := f.mask(h2), b&63
		i, j := f.pair(b)
		// When the window lies in word i, m>>(64-sh) is 0 (and so is any
		// shift by 64).
		f.words[i] |= m << sh
		f.words[j] |= m >> (64 - sh)
		return
	}
	s, fm, per := f.shift&63, f.w-1, f.per
	step := uint64(0)
	if f.multi {
		step = f.w
	}
	x, k := h2, f.k
	for t := uint64(1); ; t++ {
		n := min(k, per)
		for range n {
			i := b + x&fm
			f.words[i>>6] |= 1 << (i & 63)
			x >>= s
			b += step
		}
		if k -= n; k <= 0 {
			return
		}
		x = mix64(h2 + t*weyl)
	}
}

// test reports whether the key's bits are all set in the block at bit b.
// It tests every bit, with no early exit.
func (f *Multiblock) test(b, h2 uint64) bool {
	if f.narrow() {
		m, sh := f.mask(h2), b&63
		i, j := f.pair(b)
		v := f.words[i]>>sh | f.words[j]<<(64-sh)
		return v&m == m
	}
	s, fm, per := f.shift&63, f.w-1, f.per
	step := uint64(0)
	if f.multi {
		step = f.w
	}
	x, k := h2, f.k
	acc := uint64(1)
	for t := uint64(1); ; t++ {
		n := min(k, per)
		for range n {
			i := b + x&fm
			acc &= f.words[i>>6] >> (i & 63)
			x >>= s
			b += step
		}
		if k -= n; k <= 0 {
			return acc&1 != 0
		}
		x = mix64(h2 + t*weyl)
	}
}

// positions appends to dst the table bits the key of digest d sets, in
// the order of the derivation (repeats included).
func (f *Multiblock) positions(dst []uint64, d Digest) []uint64 {
	b := f.start(d.H1)
	s, fm, per := f.shift&63, f.w-1, f.per
	step := uint64(0)
	if f.multi {
		step = f.w
	}
	x, k := d.H2, f.k
	for t := uint64(1); ; t++ {
		n := min(k, per)
		for range n {
			dst = append(dst, b+x&fm)
			x >>= s
			b += step
		}
		if k -= n; k <= 0 {
			return dst
		}
		x = mix64(d.H2 + t*weyl)
	}
}

// Hashing returns the filter's hash options.
func (f *Multiblock) Hashing() Hashing { return f.hashing.public() }

// Params returns the filter's parameters as [NewMultiblock] takes them,
// with the bits built and the defaults filled in (StrideBits 0 at the
// natural stride), its hashing and no memory limit of its own.
func (f *Multiblock) Params() MultiblockParams {
	return MultiblockParams{
		Geometry:   Geometry{Bits: f.m, Hashes: f.k, Capacity: f.capacity},
		WordBits:   f.w,
		Multi:      f.multi,
		StrideBits: f.strideOrZero(),
		Hashing:    f.Hashing(),
	}
}

func (f *Multiblock) blockBits() uint64 {
	if f.multi {
		return uint64(f.k) * f.w
	}
	return f.w
}

func (f *Multiblock) strideOrZero() uint64 {
	if f.stride == f.blockBits() {
		return 0
	}
	return f.stride
}

// popRange returns the number of set bits in [a, a+n) of the table.
func (f *Multiblock) popRange(a, n uint64) int {
	var c int
	for n > 0 {
		i, sh := a>>6, a&63
		take := min(64-sh, n)
		v := f.words[i] >> sh
		if take < 64 {
			v &= 1<<take - 1
		}
		c += bits.OnesCount64(v)
		a += take
		n -= take
	}
	return c
}

// Stats reports the filter's geometry and load. Its EstimatedFPR is the
// rate conditional on the bits: the mean over the P starts of the product
// over the start's windows of (set bits / w)^t (t = K in a block layout, 1
// in a multiblock one), since a query picks a start uniformly and its
// positions uniformly in each window. Blocks describes the fill of the P
// blocks (overlapping ones at a byte stride). EstimatedItems inverts the
// expected number of clear bits: [analysis.Multiblock.EstimateItems] at the
// natural stride, and at an overlapping stride the n, interpolated between
// integers, at which [analysis.Multiblock.ExpectedClearBits] equals the
// clear bits; +Inf for a full table. Stats visits all P starts, sliding
// each window by one stride (a read of one or two words per window at a
// byte stride): its cost grows as m G / S.
func (f *Multiblock) Stats() Stats {
	l, g := f.blockBits(), uint64(1)
	t := float64(f.k)
	if f.multi {
		g, t = uint64(f.k), 1
	}
	bs := BlockStats{Count: f.starts, Bits: int(l), FillMin: 1}
	var sum, sumSq, est float64
	counts := make([]int, g)
	for p := range f.starts {
		b := p * f.stride
		if p == 0 || f.stride >= f.w {
			for i := range counts {
				counts[i] = f.popRange(b+uint64(i)*f.w, f.w)
			}
		} else {
			// Slide each window by one stride.
			for i := range counts {
				at := b + uint64(i)*f.w
				counts[i] += f.popRange(at+f.w-f.stride, f.stride) - f.popRange(at-f.stride, f.stride)
			}
		}
		r, tot := 1.0, 0
		for _, c := range counts {
			r *= math.Pow(float64(c)/float64(f.w), t)
			tot += c
		}
		est += r
		fill := float64(tot) / float64(l)
		sum += fill
		sumSq += fill * fill
		bs.FillMin = min(bs.FillMin, fill)
		bs.FillMax = max(bs.FillMax, fill)
	}
	n := float64(f.starts)
	bs.FillMean = sum / n
	bs.FillStdDev = math.Sqrt(max(0, sumSq/n-bs.FillMean*bs.FillMean))
	set := f.setBits()
	return Stats{
		Variant:        "multiblock",
		Cells:          f.m,
		CellBits:       1,
		Bits:           f.m,
		Hashes:         f.k,
		Capacity:       f.capacity,
		Items:          f.items,
		FillRatio:      float64(set) / float64(f.m),
		EstimatedFPR:   est / n,
		Blocks:         bs,
		EstimatedItems: f.estimateItems(set),
	}
}

// estimateItems returns the estimate of the keys from set bits (see Stats).
func (f *Multiblock) estimateItems(set uint64) float64 {
	b := f.Model()
	if set == 0 {
		return 0
	}
	if set >= f.m {
		return math.Inf(1)
	}
	if !b.Overlapping() {
		return b.EstimateItems(set)
	}
	clearBits := float64(f.m - set)
	// The expected clear bits fall with n: bracket, then bisect.
	lo, hi := uint64(0), uint64(1)
	for b.ExpectedClearBits(hi) > clearBits {
		if hi > MaxBits {
			return math.Inf(1)
		}
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if b.ExpectedClearBits(mid) > clearBits {
			lo = mid
		} else {
			hi = mid
		}
	}
	el, eh := b.ExpectedClearBits(lo), b.ExpectedClearBits(hi)
	return float64(lo) + (el-clearBits)/(el-eh)
}

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d)
// reads (see [LineCounter]): for a block layout of at most 64 bits the one
// or two words the window straddles (the word after it read too, unless the
// window ends the table), otherwise the words of the key's K bits.
func (f *Multiblock) QueryLines(d Digest) int {
	var s lineSet
	if f.narrow() {
		i, j := f.pair(f.start(d.H1))
		s.add(wordAt(f.words, i))
		s.add(wordAt(f.words, j))
		return s.count()
	}
	var buf [freshStack]uint64
	for _, b := range f.positions(buf[:0], d) {
		s.add(wordAt(f.words, b>>6))
	}
	return s.count()
}

// FreshCells implements [FreshCounter]: the distinct zero bits among the
// positions AddDigest(d) sets.
func (f *Multiblock) FreshCells(d Digest) int {
	var buf, seenBuf [freshStack]uint64
	seen := freshSeen(&seenBuf, f.k)
	for _, b := range f.positions(buf[:0], d) {
		if f.words[b>>6]>>(b&63)&1 == 0 && isNew(seen, b) {
			seen = append(seen, b)
		}
	}
	return len(seen)
}

// Reset empties the filter.
func (f *Multiblock) Reset() { f.reset() }
