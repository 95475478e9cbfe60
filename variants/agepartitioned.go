package variants

import (
	"encoding/binary"
	"math"
	"time"
	"unsafe"

	"github.com/bloomlab/bloomlab/analysis"
)

// AgePartitionedParams are the parameters of an age-partitioned filter.
type AgePartitionedParams struct {
	// K is the number of slices each key sets (its hashes), K >= 1.
	K int
	// L is the number of slices beyond K, L >= 1; K + L <=
	// analysis.MaxAgeSlices.
	L int
	// G is the number of items per generation, G >= 1: the slices age by
	// one when the newest holds G items and another arrives.
	G uint64
	// SliceBits is the number of bits per slice, a multiple of 64 if
	// Blocked is set.
	SliceBits uint64
	// Blocked selects the blocked layout (format code 15): a key's bits in
	// all slices lie in one 64-bit word per slice, the words of one index
	// side by side, so that an insert touches at most three 64-byte lines
	// and a query at most four when K <= 16 and K + L <= 32 (see
	// AgePartitioned). Without it each slice is a table of its own
	// (format code 14).
	Blocked bool
	// Refresh, when not zero, also ages the slices by time: a generation
	// ends when it holds G items or when it is Refresh old, whichever
	// comes first. Zero ages them by count only.
	Refresh time.Duration
	// Clock returns the current time for Refresh; nil means time.Now. It
	// is not called when Refresh is zero.
	Clock func() time.Time
	// Hashing holds the hash options; the filter derives its positions
	// itself and takes only the default derivation (EnhancedDouble).
	Hashing Hashing
}

// AgePartitioned is an age-partitioned Bloom filter (Shtul, Baquero and
// Almeida, "Age-Partitioned Bloom Filters", 2020): a filter for an unbounded
// stream that answers "was this key among the recent items?". It keeps
// K + L slices ordered by age. Add sets one bit in each of the K newest
// slices; when the newest slice holds G items, the next Add first ages the
// slices: the oldest is cleared and becomes the newest. Contains reports
// true when K consecutive slices all hold the key's bit.
//
// # Promise
//
// The most recent Window() = L G + 1 keys added always test present, at
// every phase of the generation cycle: a key stays present until the slice
// that was its oldest when it was added is dropped, L + 1 shifts later, so
// a key added last in its generation survives L G more adds, and one added
// first, (L + 1) G - 1. Older keys are forgotten gradually; the
// probability that a key of a given age still tests present is
// analysis.AgePartitioned.Recall. With Refresh set, a shift also happens
// when the newest slice is Refresh old. A key then tests present as long
// as fewer than L + 1 shifts have happened since it was added: while every
// generation ends by time (fewer than G keys arrive per Refresh), that is
// at least L Refresh after it was added; while every generation ends by
// count, the last L G + 1 keys as above; when both kinds occur, the key
// leaves at the (L + 1)-th shift of either kind.
//
// The false-positive rate moves through a sawtooth over each generation,
// lowest just after a shift and highest just before one;
// analysis.AgePartitioned gives it exactly at every position (FPR), its
// worst and mean, and NewAgePartitionedFor sizes the filter for the worst.
//
// # Indexing
//
// Each key is hashed once. Its digest gives the seed s of the wyrand
// stream of the scalable filter (see Scalable): s = h1 xor rotl(h2, 32),
// outputs v_t = wyout(s + t wyp0). The slices are a ring of K + L physical
// slots; a slice keeps its slot while it ages, and the key's position in
// slot r is fixed by r alone: the low (r even) or high (r odd) half of
// output r/2 + 1, reduced to the slice by multiply-shift (slices of more
// than 2^24 bits take output r + 1 whole). Every slot thus gets its own
// output, so the key's positions in different slices are independent, as
// the exact theory assumes, whichever slots the key's K slices occupy.
//
// In the blocked layout a slice of b bits is b/64 words; output 1, reduced
// to [0, b/64), picks the key's word x, the same in every slot, and the low
// 6 bits of byte r mod 8 of output 2 + r/8 its bit in slot r. Word x of
// slot r is word x S + r of the table, S = 8 ceil((K+L)/8), so the words of
// one index are contiguous and fill whole lines (the table starts on a
// line). Aging clears one word of every index, a strided pass over the
// table. The slices are then correlated through x, which costs rate at
// equal memory; analysis.AgePartitioned.BlockedFPR gives it.
//
// # Concurrency
//
// Contains and ContainsHash are safe for concurrent use while nothing
// mutates the filter (with Refresh they read the clock, and treat slices
// older than the clock allows as gone without clearing them); Add,
// TestAndAdd, Reset and their digest forms need exclusive access.
type AgePartitioned struct {
	geom    analysis.AgePartitioned
	blocked bool
	hashing Hashing
	words   []uint64
	// step is the bytes per slot (8 ceil(b/64)) in the plain layout, and
	// the bytes per index (8 S) in the blocked one.
	step  uintptr
	n     int    // slots, K + L
	front int    // slot of the newest slice
	blks  uint64 // words per slot (b/64), blocked layout
	wide  bool   // slices of more than wideSlice bits
	items uint64
	// gen[r] is the number of items of the generation that started in
	// slot r (the newest slice's is gen[front]).
	gen []uint64
	// tab[front + j], j < K + L, describes the slice of age j: slot r =
	// (front + j) mod (K + L) appears twice, at r and r + K + L, so that
	// the hot loops walk the slices by age without wrapping.
	tab []slotRec
	// The insert plan of the newest slice at slot planFront (see plan):
	// the newest generation's count, the K newest slots before the wrap,
	// the blocked layout's runs of slots that share an output (with more
	// than 32 slots), the plain layout's pairs of slots that share one
	// and its single slots.
	planFront int
	cur       *uint64 // &gen[planFront]
	span      int     // the K newest slots before the wrap, min(K, K + L - planFront)
	runs      []laneRun
	pairs     []pairRec
	ones      []slotRec

	refresh time.Duration
	clock   func() time.Time
	start   int64 // clock time (ns) at which the newest generation began
	err     error
}

// NewAgePartitioned returns an empty age-partitioned filter of the given
// geometry. It reports an error wrapping ErrInvalidParams if K, L or G is
// 0, K + L exceeds analysis.MaxAgeSlices, SliceBits is 0 (or not a
// multiple of 64 with Blocked), Refresh is negative, the hashing takes
// another derivation than the default, or the memory cannot be allocated.
func NewAgePartitioned(p AgePartitionedParams) (*AgePartitioned, error) {
	f, err := newAgePartitioned(p)
	if err != nil {
		return nil, err
	}
	f.start = f.now()
	return f, nil
}

// newAgePartitioned checks p and builds the filter, without reading the
// clock.
func newAgePartitioned(p AgePartitionedParams) (*AgePartitioned, error) {
	if err := checkOwnIndexing("age-partitioned", p.Hashing); err != nil {
		return nil, err
	}
	geom := analysis.AgePartitioned{K: p.K, L: p.L, G: p.G, SliceBits: p.SliceBits}
	if err := geom.Validate(); err != nil {
		return nil, invalid("age-partitioned filter: %s", trimPrefix(err))
	}
	if p.Blocked && p.SliceBits%64 != 0 {
		return nil, invalid("age-partitioned filter: blocked slices of %d bits, want a multiple of 64", p.SliceBits)
	}
	if p.Refresh < 0 {
		return nil, invalid("age-partitioned filter: refresh %v, want >= 0", p.Refresh)
	}
	f := &AgePartitioned{geom: geom, blocked: p.Blocked, hashing: p.Hashing, n: p.K + p.L, refresh: p.Refresh, clock: p.Clock}
	if f.refresh != 0 && f.clock == nil {
		f.clock = time.Now
	}
	var words uint64
	if p.Blocked {
		f.blks = p.SliceBits / 64
		stride := uint64(8 * ((f.n + 7) / 8))
		f.step = uintptr(stride) * 8
		if f.blks > math.MaxUint64/stride {
			return nil, invalid("age-partitioned filter: %d words per slice cannot be addressed", f.blks)
		}
		words = f.blks * stride
	} else {
		sw := (p.SliceBits + 63) / 64
		f.step = uintptr(sw) * 8
		words = sw * uint64(f.n)
		f.wide = p.SliceBits > wideSlice
	}
	w, err := alignedWords(words)
	if err != nil {
		return nil, err
	}
	f.words = w
	f.gen = make([]uint64, f.n)
	f.buildTab()
	return f, nil
}

// slotRec is what the hot loops need of one slot r: the state offset x of
// the wyrand output that holds the key's position in it, the shift that
// selects the position's bits in that output, and the address of the slot
// (plain layout) or its byte offset within an index (blocked layout).
type slotRec struct {
	p   unsafe.Pointer // plain: the slot's first word
	off uintptr        // blocked: 8 r
	x   uint64         // t wyp0 for output t of the slot
	sh  uint64         // plain: 32 (r mod 2), 0 for wide slices; blocked: 8 (r mod 8)
}

// buildTab fills tab from the geometry and the table's address.
func (f *AgePartitioned) buildTab() {
	f.tab = make([]slotRec, 2*f.n)
	base := unsafe.Pointer(unsafe.SliceData(f.words))
	for i := range f.tab {
		r := i % f.n
		rec := &f.tab[i]
		switch {
		case f.blocked:
			rec.off, rec.x, rec.sh = uintptr(r)*8, uint64(2+r>>3)*wyp0, uint64(8*(r&7))
		case f.wide:
			rec.p, rec.x = unsafe.Add(base, uintptr(r)*f.step), uint64(r+1)*wyp0
		default:
			rec.p, rec.x, rec.sh = unsafe.Add(base, uintptr(r)*f.step), uint64(r>>1+1)*wyp0, uint64(32*(r&1))
		}
	}
	f.runs = make([]laneRun, 0, f.geom.K/8+3)
	f.pairs = make([]pairRec, 0, f.geom.K/2+1)
	f.ones = make([]slotRec, 0, 4)
	f.planFront = -1
}

// laneRun is a run of slots of the blocked layout whose bits are the bytes
// of one wyrand output: slots r to r + c - 1 of one group of eight.
type laneRun struct {
	x   uint64  // (2 + r/8) wyp0, the state offset of the group's output
	off uintptr // 8 r, the byte offset of slot r's word within an index
	sh  uint64  // 8 (r mod 8), the shift that brings slot r's byte down
	c   int     // slots, 1 to 8
}

// pairRec is a pair of slots 2t and 2t+1 of the plain layout that share
// output t + 1: the low half picks the bit of slot 2t, whose first word
// is at p, the high half that of slot 2t+1, whose first word is a slot
// further.
type pairRec struct {
	x uint64 // (t + 1) wyp0
	p unsafe.Pointer
}

// plan fills the insert plan for the newest slice at slot f.front: the
// K slots from f.front on (wrapping), grouped by the wyrand output their
// bits come from, so that an insert computes each output once and walks
// no slot arithmetic. The plan depends on f.front (and the gen slice)
// alone; insert rebuilds it when the front has moved (every G adds, or
// after Tick, Reset or decoding), before it reads cur. Queries do not
// use it, so that they mutate nothing.
func (f *AgePartitioned) plan() {
	f.runs, f.pairs, f.ones = f.runs[:0], f.pairs[:0], f.ones[:0]
	f.planFront, f.cur = f.front, &f.gen[f.front]
	f.span = min(f.geom.K, f.n-f.front)
	r, n, k := f.front, f.n, f.geom.K
	switch {
	case f.blocked:
		// With at most 32 slots insert needs only span.
		for k > 0 && n > 32 {
			c := min(k, n-r, 8-r&7)
			f.runs = append(f.runs, laneRun{x: uint64(2+r>>3) * wyp0, off: uintptr(r) * 8, sh: uint64(8 * (r & 7)), c: c})
			if k, r = k-c, r+c; r == n {
				r = 0
			}
		}
	case f.wide:
	default:
		var on [analysis.MaxAgeSlices + 1]bool
		for j := range k {
			on[(r+j)%n] = true
		}
		for t := 0; 2*t < n; t++ {
			lo, hi := &f.tab[2*t], &f.tab[2*t+1]
			switch {
			case on[2*t] && on[2*t+1]:
				f.pairs = append(f.pairs, pairRec{x: lo.x, p: lo.p})
			case on[2*t]:
				f.ones = append(f.ones, *lo)
			case on[2*t+1]:
				f.ones = append(f.ones, *hi)
			}
		}
	}
}

// NewAgePartitionedFor returns an empty age-partitioned filter in which
// the most recent window keys always test present and whose false-positive
// rate stays at most fpr at every phase of the generation cycle, with the
// fewest bits the exact theory allows: K, L, G and SliceBits are those of
// analysis.AgePartitionedFor (see there for the rule), or of
// analysis.AgePartitionedBlockedFor if p.Blocked is set. The criterion is
// the rate at the worst point of the cycle, just before a shift, not its
// mean: a filter sized for the mean would exceed fpr in part of every
// generation. The sizing favours many slices, which flatten the sawtooth:
// for a window of 100,000 at rates 1e-1 to 1e-4 the plain layout's mean
// is within 5% of its worst (analysis.AgePartitioned.MeanFPR gives it). The
// other fields of p (Blocked, Refresh, Clock, Hashing) are used as given;
// K, L, G and SliceBits must be zero. It reports an error wrapping
// ErrInvalidParams if window is 0, fpr is outside (0, 1), or p is invalid.
func NewAgePartitionedFor(window uint64, fpr float64, p AgePartitionedParams) (*AgePartitioned, error) {
	if p.K != 0 || p.L != 0 || p.G != 0 || p.SliceBits != 0 {
		return nil, invalid("age-partitioned filter: NewAgePartitionedFor picks K, L, G and SliceBits; got %d, %d, %d, %d", p.K, p.L, p.G, p.SliceBits)
	}
	size := analysis.AgePartitionedFor
	if p.Blocked {
		size = analysis.AgePartitionedBlockedFor
	}
	g, err := size(window, fpr)
	if err != nil {
		return nil, invalid("age-partitioned filter: %s", trimPrefix(err))
	}
	p.K, p.L, p.G, p.SliceBits = g.K, g.L, g.G, g.SliceBits
	return NewAgePartitioned(p)
}

// Params returns the filter's parameters.
func (f *AgePartitioned) Params() AgePartitionedParams {
	return AgePartitionedParams{K: f.geom.K, L: f.geom.L, G: f.geom.G, SliceBits: f.geom.SliceBits, Blocked: f.blocked, Refresh: f.refresh, Clock: f.clock, Hashing: f.hashing}
}

// Geometry returns the filter's geometry for the theory of package
// analysis.
func (f *AgePartitioned) Geometry() analysis.AgePartitioned { return f.geom }

// Window returns L G + 1, the number of most recent keys that always test
// present (see AgePartitioned).
func (f *AgePartitioned) Window() uint64 { return f.geom.Window() }

// Position returns the number of items in the newest slice, the position c
// of the generation cycle at which analysis.AgePartitioned.FPR gives the
// rate.
func (f *AgePartitioned) Position() uint64 { return f.gen[f.front] }

// Err returns the error of the last mutating call that found the clock
// before the start of the newest generation (a clock going backwards), or
// nil. The filter does not age on such a call. Reset clears it.
func (f *AgePartitioned) Err() error { return f.err }

// now returns the clock's time in nanoseconds, or 0 without Refresh.
func (f *AgePartitioned) now() int64 {
	if f.refresh == 0 {
		return 0
	}
	return f.clock().UnixNano()
}

// due returns the number of time-triggered shifts pending at time now, and
// an error if now is before the newest generation began.
func (f *AgePartitioned) due(now int64) (uint64, error) {
	if now < f.start {
		return 0, invalid("age-partitioned filter: the clock went back from %v to %v", time.Unix(0, f.start).UTC(), time.Unix(0, now).UTC())
	}
	return uint64(now-f.start) / uint64(f.refresh), nil
}

// Tick ages the filter by the time elapsed on its clock, as every
// mutating call does first, and reports an error wrapping
// ErrInvalidParams if the clock went back. Without Refresh it does
// nothing.
func (f *AgePartitioned) Tick() error {
	if f.refresh == 0 {
		return nil
	}
	now := f.now()
	d, err := f.due(now)
	if err != nil {
		f.err = err
		return err
	}
	if d > 0 {
		for range min(d, uint64(f.n)) {
			f.shift()
		}
		f.start += int64(d) * int64(f.refresh)
	}
	return nil
}

// live returns the number of slices a query may use: all of them, less
// those a pending time-triggered shift would drop.
func (f *AgePartitioned) live() int {
	if f.refresh == 0 {
		return f.n
	}
	d, err := f.due(f.now())
	if err != nil || d == 0 {
		return f.n
	}
	return f.n - int(min(d, uint64(f.n)))
}

// shift ages the slices by one: the oldest is cleared and becomes the
// newest.
func (f *AgePartitioned) shift() {
	f.front--
	if f.front < 0 {
		f.front = f.n - 1
	}
	r := uintptr(f.front)
	base := unsafe.Pointer(unsafe.SliceData(f.words))
	if f.blocked {
		for x := range uintptr(f.blks) {
			*(*uint64)(unsafe.Add(base, x*f.step+r*8)) = 0
		}
	} else {
		w := int(f.step / 8)
		clear(f.words[f.front*w : (f.front+1)*w])
	}
	f.gen[f.front] = 0
}

// Add inserts key.
func (f *AgePartitioned) Add(key []byte) {
	// Keys of 9 to 16 bytes under the default hash are hashed here rather
	// than through sum, which saves two calls.
	var d Digest
	if uint64(len(key))-9 <= 7 && f.hashing.Kind == XXH3 {
		d = xxh3Short(unsafe.Pointer(unsafe.SliceData(key)), uint64(len(key)), f.hashing.Seed)
	} else {
		d = f.sum(key)
	}
	if f.refresh != 0 {
		f.Tick()
	}
	f.insert(d)
}

// Contains reports whether key is possibly among the recent keys.
func (f *AgePartitioned) Contains(key []byte) bool {
	var d Digest
	if uint64(len(key))-9 <= 7 && f.hashing.Kind == XXH3 {
		d = xxh3Short(unsafe.Pointer(unsafe.SliceData(key)), uint64(len(key)), f.hashing.Seed)
	} else {
		d = f.sum(key)
	}
	live := f.n
	if f.refresh != 0 {
		live = f.live()
	}
	s := streamSeed(d)
	if f.blocked {
		return f.testBlock(f.blockOf(s), s, live)
	}
	return f.containsSeed(s, live)
}

// TestAndAdd inserts key and reports whether it tested present before.
// Unlike the scalable filter, it inserts a key that tests present too,
// which renews it: it is then among the most recent keys again.
func (f *AgePartitioned) TestAndAdd(key []byte) bool { return f.TestAndAddHash(f.sum(key)) }

// sum returns the digest of key, calling xxh3 directly for the default
// hash.
func (f *AgePartitioned) sum(key []byte) Digest {
	if f.hashing.Kind == XXH3 {
		return xxh3Sum(key, f.hashing.Seed)
	}
	return f.hashing.Sum(key)
}

// TestAndAddHash is TestAndAdd for a digest.
func (f *AgePartitioned) TestAndAddHash(d Digest) bool {
	if f.refresh != 0 {
		f.Tick()
	}
	present := f.ContainsHash(d)
	f.insert(d)
	return present
}

// AddHash inserts the key whose digest is d.
func (f *AgePartitioned) AddHash(d Digest) {
	if f.refresh != 0 {
		f.Tick()
	}
	f.insert(d)
}

// insert ages the filter if the newest slice is full and sets d's bits in
// the K newest slices.
func (f *AgePartitioned) insert(d Digest) {
	if f.planFront != f.front {
		f.plan()
	}
	if *f.cur >= f.geom.G {
		f.shift()
		f.plan()
		if f.refresh != 0 {
			// The new generation starts now, unless the clock went back
			// (Tick has recorded that), when the start stays.
			f.start = max(f.start, f.now())
		}
	}
	*f.cur++
	f.items++
	s := streamSeed(d)
	if f.blocked {
		blk := f.blockOf(s)
		if f.n <= 32 {
			// Slot r's bit is the low 6 bits of byte r of the outputs
			// 2 to 5 stored little-endian (those the slots use), and its
			// word is word r of the index: the K newest slots are the
			// span from the front to the last slot, and the span from
			// slot 0 on if they wrap.
			var o [32]byte
			binary.LittleEndian.PutUint64(o[:], wyout(s+wyp0x2))
			if n := f.n; n > 8 {
				binary.LittleEndian.PutUint64(o[8:], wyout(s+wyp0x3))
				if n > 16 {
					binary.LittleEndian.PutUint64(o[16:], wyout(s+wyp0x4))
					if n > 24 {
						binary.LittleEndian.PutUint64(o[24:], wyout(s+wyp0x5))
					}
				}
			}
			r := uintptr(f.front)
			setLanes(unsafe.Add(blk, 8*r), unsafe.Add(unsafe.Pointer(&o), r), f.span)
			if c := f.geom.K - f.span; c > 0 {
				setLanes(blk, unsafe.Pointer(&o), c)
			}
			return
		}
		for _, ru := range f.runs {
			// Slot r + i of the run takes byte i of v, its low 6 bits;
			// the cases fall through from the run's last slot to its
			// first.
			v := wyout(s+ru.x) >> (ru.sh & 63)
			p := unsafe.Add(blk, ru.off)
			switch ru.c {
			case 8:
				*(*uint64)(unsafe.Add(p, 56)) |= 1 << (v >> 56 & 63)
				fallthrough
			case 7:
				*(*uint64)(unsafe.Add(p, 48)) |= 1 << (v >> 48 & 63)
				fallthrough
			case 6:
				*(*uint64)(unsafe.Add(p, 40)) |= 1 << (v >> 40 & 63)
				fallthrough
			case 5:
				*(*uint64)(unsafe.Add(p, 32)) |= 1 << (v >> 32 & 63)
				fallthrough
			case 4:
				*(*uint64)(unsafe.Add(p, 24)) |= 1 << (v >> 24 & 63)
				fallthrough
			case 3:
				*(*uint64)(unsafe.Add(p, 16)) |= 1 << (v >> 16 & 63)
				fallthrough
			case 2:
				*(*uint64)(unsafe.Add(p, 8)) |= 1 << (v >> 8 & 63)
				fallthrough
			default:
				*(*uint64)(p) |= 1 << (v & 63)
			}
		}
		return
	}
	b := f.geom.SliceBits
	if f.wide {
		for _, e := range f.tab[f.front : f.front+f.geom.K] {
			j := reduce(wyout(s+e.x), b)
			*wordPtr(e.p, j) |= 1 << (j & 63)
		}
		return
	}
	// Slots 2t and 2t+1 share output t + 1: one output for each pair of
	// the K newest slots, and one for each slot whose partner is not
	// among them.
	step := f.step
	for _, e := range f.pairs {
		v := wyout(s + e.x)
		i, j := reduce32(uint64(uint32(v)), b), reduce32(v>>32, b)
		*wordPtr(e.p, i) |= 1 << (i & 63)
		*wordPtr(unsafe.Add(e.p, step), j) |= 1 << (j & 63)
	}
	for _, e := range f.ones {
		i := reduce32(uint64(uint32(wyout(s+e.x)>>(e.sh&63))), b)
		*wordPtr(e.p, i) |= 1 << (i & 63)
	}
}

// slotIndex returns the bit of slot r (of b bits) that seed s picks in
// the plain layout.
func (f *AgePartitioned) slotIndex(s uint64, r int, b uint64) uint64 {
	if f.wide {
		return reduce(wyout(s+uint64(r+1)*wyp0), b)
	}
	v := wyout(s + uint64(r>>1+1)*wyp0)
	return reduce32(v>>(32*(r&1))&mask32, b)
}

// blockedBit returns the bit (0 to 63) of slot r's word that seed s picks
// in the blocked layout.
func blockedBit(s uint64, r int) uint64 {
	return wyout(s+uint64(2+r>>3)*wyp0) >> (8 * (r & 7)) & 63
}

// ContainsHash reports whether the key whose digest is d is possibly
// among the recent keys.
//
// It looks for K consecutive slices holding the key's bit without testing
// every slice. When L < K every run of K slices covers the ages L to K-1,
// so it first tests those K - L slices together, with one branch for all
// of them, and answers false if one bit is clear: most absent keys end
// there. Then it tests from age K-1 (below the slices already tested)
// down to the first clear bit; a clear bit at age j means a run must start
// after j, so the next test is at age j + K, and the slices already seen
// set are not read again. A recent key costs its K tests.
func (f *AgePartitioned) ContainsHash(d Digest) bool {
	live := f.n
	if f.refresh != 0 {
		live = f.live()
	}
	return f.containsSeed(streamSeed(d), live)
}

// containsSeed is ContainsHash for the stream seed s over the live newest
// slices.
func (f *AgePartitioned) containsSeed(s uint64, live int) bool {
	if f.blocked {
		return f.testBlock(f.blockOf(s), s, live)
	}
	k, b := f.geom.K, f.geom.SliceBits
	if f.wide {
		tab := f.tab[f.front : f.front+live]
		return runOf(live, k, func(j int) bool {
			e := &tab[j]
			return hasBit(e.p, reduce(wyout(s+e.x), b))
		})
	}
	if k > live {
		return false
	}
	// The record of the slice of age j, j < live <= K + L, is tab[front
	// + j], within tab's 2 (K + L) records.
	tab := unsafe.Pointer(&f.tab[f.front])
	// The loop of runOf, written out, with set(j) = plainHit(...) != 0.
	start, end, known := 0, k-1, -1
	j := end
	if lo := live - k; lo < k {
		all := uint64(1)
		for c := lo; c < k; c++ {
			all &= plainHit(tab, c, s, b)
		}
		if all == 0 {
			return false
		}
		j = lo - 1
	}
	for {
		for j > known && plainHit(tab, j, s, b) != 0 {
			j--
		}
		if j <= known {
			return true
		}
		start, known = j+1, end
		if end = start + k - 1; end >= live {
			return false
		}
		j = end
	}
}

// plainHit returns 1 if the slice whose record is at tab + j records
// holds the bit of seed s (plain layout, slices of b <= wideSlice bits),
// and 0 if not.
func plainHit(tab unsafe.Pointer, j int, s, b uint64) uint64 {
	e := (*slotRec)(unsafe.Add(tab, uintptr(j)*unsafe.Sizeof(slotRec{})))
	i := reduce32(uint64(uint32(wyout(s+e.x)>>(e.sh&63))), b)
	return *wordPtr(e.p, i) >> (i & 63) & 1
}

// wyp0x5 is 5 wyp0 modulo 2^64, the state of output 5.
const wyp0x5 = 5 * wyp0 & (1<<64 - 1)

// setLanes sets, for i < c, bit (byte i at po) mod 64 of word i at pw.
// The cases fall through from the last of at most sixteen lanes to the
// first, so that a lane costs a byte load and a read-modify-write (the
// lanes beyond sixteen, for K > 16, go first, one by one).
func setLanes(pw, po unsafe.Pointer, c int) {
	for ; c > 16; c-- {
		*(*uint64)(pw) |= 1 << (*(*uint8)(po) & 63)
		pw, po = unsafe.Add(pw, 8), unsafe.Add(po, 1)
	}
	switch c {
	case 16:
		*(*uint64)(unsafe.Add(pw, 120)) |= 1 << (*(*uint8)(unsafe.Add(po, 15)) & 63)
		fallthrough
	case 15:
		*(*uint64)(unsafe.Add(pw, 112)) |= 1 << (*(*uint8)(unsafe.Add(po, 14)) & 63)
		fallthrough
	case 14:
		*(*uint64)(unsafe.Add(pw, 104)) |= 1 << (*(*uint8)(unsafe.Add(po, 13)) & 63)
		fallthrough
	case 13:
		*(*uint64)(unsafe.Add(pw, 96)) |= 1 << (*(*uint8)(unsafe.Add(po, 12)) & 63)
		fallthrough
	case 12:
		*(*uint64)(unsafe.Add(pw, 88)) |= 1 << (*(*uint8)(unsafe.Add(po, 11)) & 63)
		fallthrough
	case 11:
		*(*uint64)(unsafe.Add(pw, 80)) |= 1 << (*(*uint8)(unsafe.Add(po, 10)) & 63)
		fallthrough
	case 10:
		*(*uint64)(unsafe.Add(pw, 72)) |= 1 << (*(*uint8)(unsafe.Add(po, 9)) & 63)
		fallthrough
	case 9:
		*(*uint64)(unsafe.Add(pw, 64)) |= 1 << (*(*uint8)(unsafe.Add(po, 8)) & 63)
		fallthrough
	case 8:
		*(*uint64)(unsafe.Add(pw, 56)) |= 1 << (*(*uint8)(unsafe.Add(po, 7)) & 63)
		fallthrough
	case 7:
		*(*uint64)(unsafe.Add(pw, 48)) |= 1 << (*(*uint8)(unsafe.Add(po, 6)) & 63)
		fallthrough
	case 6:
		*(*uint64)(unsafe.Add(pw, 40)) |= 1 << (*(*uint8)(unsafe.Add(po, 5)) & 63)
		fallthrough
	case 5:
		*(*uint64)(unsafe.Add(pw, 32)) |= 1 << (*(*uint8)(unsafe.Add(po, 4)) & 63)
		fallthrough
	case 4:
		*(*uint64)(unsafe.Add(pw, 24)) |= 1 << (*(*uint8)(unsafe.Add(po, 3)) & 63)
		fallthrough
	case 3:
		*(*uint64)(unsafe.Add(pw, 16)) |= 1 << (*(*uint8)(unsafe.Add(po, 2)) & 63)
		fallthrough
	case 2:
		*(*uint64)(unsafe.Add(pw, 8)) |= 1 << (*(*uint8)(unsafe.Add(po, 1)) & 63)
		fallthrough
	case 1:
		*(*uint64)(pw) |= 1 << (*(*uint8)(po) & 63)
	}
}

// testBlock is containsSeed in the blocked layout, for the index at blk.
// With at most 32 slots the bits of all slots are bytes of outputs 2 to
// 5, computed (those the slots use) once before the loop and stored
// little-endian, as insert has them: slot r's bit is then the low 6 bits
// of byte r of o, and a test costs two loads and a shift.
func (f *AgePartitioned) testBlock(blk unsafe.Pointer, s uint64, live int) bool {
	n, k := f.n, f.geom.K
	if n > 32 {
		return f.testBlockWide(blk, s, live)
	}
	if k > live {
		return false
	}
	var o [32]byte
	binary.LittleEndian.PutUint64(o[:], wyout(s+wyp0x2))
	if n > 8 {
		binary.LittleEndian.PutUint64(o[8:], wyout(s+wyp0x3))
		if n > 16 {
			binary.LittleEndian.PutUint64(o[16:], wyout(s+wyp0x4))
			if n > 24 {
				binary.LittleEndian.PutUint64(o[24:], wyout(s+wyp0x5))
			}
		}
	}
	ob, front := unsafe.Pointer(&o), f.front
	start, end, known := 0, k-1, -1
	j := end
	if lo := live - k; lo < k {
		all := uint64(1)
		for c := lo; c < k; c++ {
			all &= blockHit(blk, ob, front, c, n)
		}
		if all == 0 {
			return false
		}
		j = lo - 1
	}
	for {
		for j > known && blockHit(blk, ob, front, j, n) != 0 {
			j--
		}
		if j <= known {
			return true
		}
		start, known = j+1, end
		if end = start + k - 1; end >= live {
			return false
		}
		j = end
	}
}

// blockHit returns 1 if the slice of age j holds its bit in the index at
// blk, the slice being in slot front + j mod n and its bit in the low 6
// bits of byte r of the outputs at ob, and 0 if not.
func blockHit(blk, ob unsafe.Pointer, front, j, n int) uint64 {
	r := front + j
	if r >= n {
		r -= n
	}
	return *(*uint64)(unsafe.Add(blk, r*8)) >> (*(*uint8)(unsafe.Add(ob, r)) & 63) & 1
}

// testBlockWide is testBlock for more than 32 slots, computing each
// slot's output as it tests the slot.
func (f *AgePartitioned) testBlockWide(blk unsafe.Pointer, s uint64, live int) bool {
	tab, k := f.tab[f.front:f.front+live], f.geom.K
	start, end, known := 0, k-1, -1
	if end >= live {
		return false
	}
	j := end
	if lo := live - k; lo < k {
		all := uint64(1)
		for _, e := range tab[lo:k] {
			all &= *(*uint64)(unsafe.Add(blk, e.off)) >> (wyout(s+e.x) >> (e.sh & 63) & 63)
		}
		if all&1 == 0 {
			return false
		}
		j = lo - 1
	}
	for {
		for j > known {
			e := &tab[j]
			if *(*uint64)(unsafe.Add(blk, e.off))>>(wyout(s+e.x)>>(e.sh&63)&63)&1 == 0 {
				break
			}
			j--
		}
		if j <= known {
			return true
		}
		start, known = j+1, end
		if end = start + k - 1; end >= live {
			return false
		}
		j = end
	}
}

// runOf reports whether set(j) holds for k consecutive j in [0, n), testing
// each j at most once. Every run of k in [0, n) covers the core [n-k,
// k-1] when n - k < k, so it first tests the whole core, all of it before
// looking at the answers (the hot loops combine them without a branch),
// and answers false if one fails. Then, from the end of the first
// candidate run (below the core, if it passed) down, it tests until a
// failure at j, after which the next candidate starts at j + 1 and is
// tested from its end down to the positions already known to be set.
func runOf(n, k int, set func(j int) bool) bool {
	start, end, known := 0, k-1, -1 // start..known are known to be set
	if end >= n {
		return false
	}
	j := end
	if lo := n - k; lo < k {
		ok := true
		for c := lo; c < k; c++ {
			ok = set(c) && ok
		}
		if !ok {
			return false
		}
		j = lo - 1
	}
	for {
		for j > known && set(j) {
			j--
		}
		if j <= known {
			return true
		}
		start, known = j+1, end
		if end = start + k - 1; end >= n {
			return false
		}
		j = end
	}
}

// Hashing returns the filter's hash options.
func (f *AgePartitioned) Hashing() Hashing { return f.hashing }

// Reset removes every item, keeping the geometry, hashing and clock; the
// next generation starts now.
func (f *AgePartitioned) Reset() {
	clear(f.words)
	clear(f.gen)
	f.front, f.items, f.err = 0, 0, nil
	f.start = f.now()
}

// sliceLoad returns the items of the slice of age j: those of the
// generations it received, the K newest of its lifetime.
func (f *AgePartitioned) sliceLoad(j int) uint64 {
	var n uint64
	for t := max(0, j-f.geom.K+1); t <= j; t++ {
		n += f.gen[(f.front+t)%f.n]
	}
	return n
}

// sliceSetBits returns the set bits of slot r.
func (f *AgePartitioned) sliceSetBits(r int) uint64 {
	if f.blocked {
		var c uint64
		stride := int(f.step / 8)
		for x := 0; x < int(f.blks); x++ {
			c += popcount(f.words[x*stride+r : x*stride+r+1])
		}
		return c
	}
	w := int(f.step / 8)
	return popcount(f.words[r*w : (r+1)*w])
}

// Stats reports the filter's geometry and load. Cells and Bits count the
// bits of the slices, (K + L) SliceBits (in the blocked layout the table
// also holds the zero words that pad each index to whole lines when K + L
// is not a multiple of 8, which they do not count), Hashes is K, Capacity the window L G + 1, Items the keys added since
// the filter was built or reset, FillRatio the fraction of set bits.
// EstimatedFPR is the probability of K consecutive set bits when slice j
// is set with probability equal to its fill ratio
// (analysis.RunProbability over the slices a query may use, newest
// first), the filter's rate at its current fill; in the blocked layout it
// is the rate independent slices of these fills would have, and the
// filter's own is higher (see analysis.AgePartitioned.BlockedFPR). EstimatedItems is the
// number of distinct keys that the fill of the slice of age K-1 implies:
// that slice received every key of the K newest generations, so it
// estimates the distinct keys among the last (K-1) G + Position() adds (all
// of them while fewer generations have passed). Slices describes every
// slice, newest first.
func (f *AgePartitioned) Stats() Stats {
	b := f.geom.SliceBits
	s := Stats{
		Variant:  "age-partitioned",
		CellBits: 1,
		Cells:    uint64(f.n) * b,
		Hashes:   f.geom.K,
		Capacity: f.geom.Window(),
		Items:    f.items,
		Slices:   make([]SliceStats, f.n),
	}
	if f.blocked {
		s.Variant = "age-partitioned-blocked"
	}
	s.Bits = s.Cells
	live := f.live()
	fills := make([]float64, live)
	var set uint64
	for j := range f.n {
		r := (f.front + j) % f.n
		c := f.sliceSetBits(r)
		set += c
		fr := float64(c) / float64(b)
		s.Slices[j] = SliceStats{Age: j, Items: f.sliceLoad(j), Bits: b, FillRatio: fr}
		if j < live {
			fills[j] = fr
		}
	}
	s.FillRatio = float64(set) / float64(s.Cells)
	s.EstimatedFPR = analysis.RunProbability(fills, f.geom.K)
	x := float64(f.sliceSetBits((f.front + f.geom.K - 1) % f.n))
	switch {
	case x == 0:
	case x >= float64(b):
		s.EstimatedItems = math.Inf(1)
	default:
		s.EstimatedItems = math.Log1p(-x/float64(b)) / math.Log1p(-1/float64(b))
	}
	return s
}
