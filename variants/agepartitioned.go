package variants

import (
	"math"
	"time"
	"unsafe"

	"github.com/bloomlab/bloomlab/analysis"
)

// AgePartitionedParams are the parameters of an age-partitioned filter:
// its geometry (K, L, G and SliceBits) and the options that
// [NewAgePartitionedFor] takes beside a window and a rate. The options are
// embedded, so that p.Blocked, p.Refresh, p.Clock and p.Hashing read as
// fields of the parameters.
type AgePartitionedParams struct {
	// K is the number of slices each key sets (its hashes), K >= 1.
	K int
	// L is the number of slices beyond K, L >= 1; K + L <=
	// [analysis.MaxAgeSlices].
	L int
	// G is the number of items per generation, G >= 1: the slices age by
	// one when the newest holds G items and another arrives.
	G uint64
	// SliceBits is the number of bits per slice, a multiple of 64 if
	// [Blocked] is set.
	SliceBits uint64
	// AgePartitionedOptions holds the layout (Blocked), the ageing by
	// time (Refresh, Clock) and the Hashing.
	AgePartitionedOptions
}

// AgePartitionedOptions are the parameters of an age-partitioned filter
// other than its geometry: its layout, its ageing by time and its
// hashing. [NewAgePartitionedFor] takes them beside the window and the rate
// it sizes the geometry for; [AgePartitionedParams] embeds them.
type AgePartitionedOptions struct {
	// Blocked selects the blocked layout (format code 15): a key's bits in
	// all slices lie in one 64-bit word per slice, the words of one index
	// side by side, so that an insert touches at most three 64-byte lines
	// and a query at most four when K <= 16 and K + L <= 32 (see
	// [AgePartitioned]). Without it each slice is a table of its own
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
	// itself and takes only the default derivation ([EnhancedDouble]).
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
// The most recent [AgePartitioned.Window] = L G + 1 keys added always test
// present, at every phase of the generation cycle. Older keys are forgotten
// gradually; the probability that a key of a given age still tests present
// is [analysis.AgePartitioned.Recall]. With Refresh set, a shift also
// happens when the newest slice is Refresh old, and a key tests present as
// long as fewer than L + 1 shifts of either kind have happened since it was
// added: at least L Refresh while generations end by time, the last
// L G + 1 keys while they end by count (argument: paper-notes.md §14a).
//
// The false-positive rate moves through a sawtooth over each generation,
// lowest just after a shift and highest just before one;
// [analysis.AgePartitioned] gives it exactly at every position
// ([analysis.AgePartitioned.FPR]), its worst and mean, and
// [NewAgePartitionedFor] sizes the filter for the worst.
//
// # Indexing
//
// Each key is hashed once; its digest seeds the wyrand stream of
// [Scalable], and every slot of the ring of K + L slices takes its own
// output, so the key's positions in different slices are independent, as
// the exact theory assumes. In the blocked layout a key's bits in all
// slices share one word index, so the words of one index fill whole lines;
// the slices are then correlated, which costs rate at equal memory
// ([analysis.AgePartitioned.BlockedFPR]). The exact bit layout is in
// paper-notes.md §14a.
//
// # Concurrency
//
// Contains and ContainsDigest are safe for concurrent use while nothing
// mutates the filter (with Refresh they read the clock, and treat slices
// older than the clock allows as gone without clearing them); Add,
// TestAndAdd, Reset and their digest forms need exclusive access.
type AgePartitioned struct {
	geom    analysis.AgePartitioned
	blocked bool
	hashing hashConf
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
// geometry. It reports an error wrapping [ErrInvalidParams] if K, L or G is
// 0, K + L exceeds [analysis.MaxAgeSlices], SliceBits is 0 (or not a
// multiple of 64 with [Blocked]), Refresh is negative, the hashing takes
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
	f, words, err := agePartitionedShell(p)
	if err != nil {
		return nil, err
	}
	w, err := alignedWords(words, 0)
	if err != nil {
		return nil, err
	}
	f.words = w
	f.buildTab()
	return f, nil
}

// agePartitionedShell checks p and returns the filter without its table,
// and the number of words of the table: the filter once its words are set
// and buildTab has run. The decoder reads the table into words of its
// own.
func agePartitionedShell(p AgePartitionedParams) (*AgePartitioned, uint64, error) {
	if err := checkOwnIndexing("age-partitioned", p.Hashing); err != nil {
		return nil, 0, err
	}
	geom := analysis.AgePartitioned{K: p.K, L: p.L, G: p.G, SliceBits: p.SliceBits}
	if err := geom.Validate(); err != nil {
		return nil, 0, invalid("age-partitioned filter: %s", trimPrefix(err))
	}
	if p.Blocked && p.SliceBits%64 != 0 {
		return nil, 0, invalid("age-partitioned filter: blocked slices of %d bits, want a multiple of 64", p.SliceBits)
	}
	if p.Refresh < 0 {
		return nil, 0, invalid("age-partitioned filter: refresh %v, want >= 0", p.Refresh)
	}
	f := &AgePartitioned{geom: geom, blocked: p.Blocked, hashing: p.Hashing.conf(), n: p.K + p.L, refresh: p.Refresh, clock: p.Clock}
	if f.refresh != 0 && f.clock == nil {
		f.clock = time.Now
	}
	var words uint64
	if p.Blocked {
		f.blks = p.SliceBits / 64
		stride := uint64(8 * ((f.n + 7) / 8))
		f.step = uintptr(stride) * 8
		if f.blks > math.MaxUint64/stride {
			return nil, 0, invalid("age-partitioned filter: %d words per slice cannot be addressed", f.blks)
		}
		words = f.blks * stride
	} else {
		sw := (p.SliceBits + 63) / 64
		f.step = uintptr(sw) * 8
		words = sw * uint64(f.n)
		f.wide = p.SliceBits > wideSlice
	}
	f.gen = make([]uint64, f.n)
	return f, words, nil
}

// NewAgePartitionedFor returns an empty age-partitioned filter in which
// the most recent window keys always test present and whose false-positive
// rate stays at most fpr at every phase of the generation cycle, with the
// fewest bits the exact theory allows: K, L, G and SliceBits are those of
// [analysis.AgePartitionedSize] (see there for the rule), or of
// [analysis.BlockedAgePartitionedSize] if o.Blocked is set. The criterion is
// the rate at the worst point of the cycle, just before a shift, not its
// mean: a filter sized for the mean would exceed fpr in part of every
// generation. The sizing favours many slices, which flatten the sawtooth:
// for a window of 100,000 at rates 1e-1 to 1e-4 the plain layout's mean
// is within 5% of its worst ([analysis.AgePartitioned.MeanFPR] gives it). The
// options o ([Blocked], Refresh, Clock, [Hashing]) are used as given. It
// reports an error wrapping [ErrInvalidParams] if window is 0, fpr is
// outside (0, 1), or o is invalid.
func NewAgePartitionedFor(window uint64, fpr float64, o AgePartitionedOptions) (*AgePartitioned, error) {
	size := analysis.AgePartitionedSize
	if o.Blocked {
		size = analysis.BlockedAgePartitionedSize
	}
	g, err := size(window, fpr)
	if err != nil {
		return nil, invalid("age-partitioned filter: %s", trimPrefix(err))
	}
	return NewAgePartitioned(AgePartitionedParams{K: g.K, L: g.L, G: g.G, SliceBits: g.SliceBits, AgePartitionedOptions: o})
}

// Params returns the filter's parameters.
func (f *AgePartitioned) Params() AgePartitionedParams {
	return AgePartitionedParams{K: f.geom.K, L: f.geom.L, G: f.geom.G, SliceBits: f.geom.SliceBits,
		AgePartitionedOptions: AgePartitionedOptions{Blocked: f.blocked, Refresh: f.refresh, Clock: f.clock, Hashing: f.hashing.public()}}
}

// Model returns the filter's geometry for the theory of package
// analysis.
func (f *AgePartitioned) Model() analysis.AgePartitioned { return f.geom }

// Window returns L G + 1, the number of most recent keys that always test
// present (see [AgePartitioned]).
func (f *AgePartitioned) Window() uint64 { return f.geom.Window() }

// Position returns the number of items in the newest slice, the position c
// of the generation cycle at which [analysis.AgePartitioned.FPR] gives the
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
// [ErrInvalidParams] if the clock went back. Without Refresh it does
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
func (f *AgePartitioned) TestAndAdd(key []byte) bool { return f.TestAndAddDigest(f.sum(key)) }

// sum returns the digest of key, calling xxh3 directly for the default
// hash.
func (f *AgePartitioned) sum(key []byte) Digest {
	if f.hashing.Kind == XXH3 {
		return xxh3Sum(key, f.hashing.Seed)
	}
	return f.hashing.Digest(key)
}

// TestAndAddDigest is TestAndAdd for a digest.
func (f *AgePartitioned) TestAndAddDigest(d Digest) bool {
	if f.refresh != 0 {
		f.Tick()
	}
	present := f.ContainsDigest(d)
	f.insert(d)
	return present
}

// AddDigest inserts the key whose digest is d.
func (f *AgePartitioned) AddDigest(d Digest) {
	if f.refresh != 0 {
		f.Tick()
	}
	f.insert(d)
}

// ContainsDigest reports whether the key whose digest is d is possibly
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
func (f *AgePartitioned) ContainsDigest(d Digest) bool {
	live := f.n
	if f.refresh != 0 {
		live = f.live()
	}
	return f.containsSeed(streamSeed(d), live)
}

// Hashing returns the filter's hash options.
func (f *AgePartitioned) Hashing() Hashing { return f.hashing.public() }

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
// ([analysis.RunProbability] over the slices a query may use, newest
// first), the filter's rate at its current fill; in the blocked layout it
// is the rate independent slices of these fills would have, and the
// filter's own is higher (see [analysis.AgePartitioned.BlockedFPR]). EstimatedItems is the
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
