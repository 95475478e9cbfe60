package variants

import (
	"math"
	"math/bits"
)

// Counting is a counting Bloom filter (Fan, Cao, Almeida and Broder 2000):
// m counters of w bits instead of m bits, so that keys can be removed. A key
// increments the k counters its digest derives and tests present when all
// of them are non-zero.
//
// The counters are packed into 64-bit words, 64/w to a word: a filter of
// width 4 holds 16 counters in a word and uses 4 bits of memory per
// counter. Widths 2, 4 (the default), 8 and 16 are supported, so that no
// counter straddles two words.
//
// Counting derives exactly the indexes that a [Standard] filter with the same
// [Geometry] and [Hashing] derives, and a counter is non-zero where that
// filter's bit is set. Its false-positive rate is therefore that of the
// standard filter, and while no counter saturates, a counting filter that
// added a set A and removed a subset B of it answers every query exactly as
// the standard filter that added only A minus B.
//
// Counters saturate and stick: a counter at its maximum 2^w - 1 is never
// incremented or decremented again. Overflow therefore never causes a false
// negative; a saturated counter only stays set for good, raising the
// false-positive rate slightly. [Stats] reports how many counters are
// saturated.
//
// Removal is safe only for keys that were added. Removing a key that was
// never added but tests present (a false positive) decrements counters that
// belong to members and can make a member test absent: a false negative.
// See Remove.
//
// Contains and ContainsDigest are safe for concurrent use while nothing
// mutates the filter; Add, Remove, TestAndAdd, Reset and their digest forms
// need exclusive access.
type Counting struct {
	words    []uint64
	m        uint64 // counters
	k        int
	width    int    // bits per counter, w
	wshift   uint   // log2(w): counter i occupies bits i<<wshift of the words
	max      uint64 // 2^w - 1, the saturated value and the counter mask
	capacity uint64
	items    uint64
	hashing  hashConf
}

// DefaultCounterWidth is the counter width of a [Counting] filter built with
// Width 0: 4 bits, which Fan et al. (2000) show overflows with negligible
// probability in a filter sized for its load.
const DefaultCounterWidth = 4

// CountingParams are the parameters of a counting filter: its geometry,
// the width of its counters and its hashing. The [Geometry] is embedded, as
// in [BlockedParams], so that the result of a sizing function goes in whole,
// its capacity included.
type CountingParams struct {
	// Geometry gives the counters m (as Bits), the hashes k and the
	// capacity (0 if unknown).
	Geometry
	// Width is the bits per counter, w: 2, 4, 8 or 16; 0 means
	// [DefaultCounterWidth].
	Width int
	// Hashing holds the hash options.
	Hashing Hashing
}

// NewCounting returns an empty counting filter of p.Bits counters of
// p.Width bits each and p.Hashes hashes. Width 0 means
// [DefaultCounterWidth]; other valid widths are 2, 4, 8 and 16.
// [StandardGeometry] and [ExactStandardGeometry] size one for a capacity.
func NewCounting(p CountingParams) (*Counting, error) {
	g, width, h := p.Geometry, p.Width, p.Hashing
	if err := g.validate(); err != nil {
		return nil, err
	}
	if err := h.validate(); err != nil {
		return nil, err
	}
	if width == 0 {
		width = DefaultCounterWidth
	}
	switch width {
	case 2, 4, 8, 16:
	default:
		return nil, invalid("counter width w = %d, want 2, 4, 8 or 16 (or 0 for the default %d)", width, DefaultCounterWidth)
	}
	w, err := allocWords((g.Bits*uint64(width)+63)/64, 0)
	if err != nil {
		return nil, err
	}
	return &Counting{
		words:    w,
		m:        g.Bits,
		k:        g.Hashes,
		width:    width,
		wshift:   uint(bits.TrailingZeros(uint(width))),
		max:      1<<width - 1,
		capacity: g.Capacity,
		hashing:  h.conf(),
	}, nil
}

// NewCountingFor returns an empty counting filter with the geometry
// [StandardGeometry] gives for capacity items at false-positive rate fpr (m
// counters, k hashes), and counters of [DefaultCounterWidth] bits. For
// other widths, build [NewCounting](CountingParams{[Geometry]: g, Width: w,
// [Hashing]: h}) with g from StandardGeometry(capacity, fpr).
func NewCountingFor(capacity uint64, fpr float64, h Hashing) (*Counting, error) {
	g, err := StandardGeometry(capacity, fpr)
	if err != nil {
		return nil, err
	}
	return NewCounting(CountingParams{Geometry: g, Hashing: h})
}

// Add inserts key.
func (f *Counting) Add(key []byte) { f.AddDigest(f.hashing.Digest(key)) }

// Contains reports whether key is possibly in the set.
func (f *Counting) Contains(key []byte) bool { return f.ContainsDigest(f.hashing.Digest(key)) }

// TestAndAdd inserts key and reports whether it was possibly present before.
func (f *Counting) TestAndAdd(key []byte) bool { return f.TestAndAddDigest(f.hashing.Digest(key)) }

// Remove deletes one occurrence of key: if key tests present, it decrements
// each of its k counters that is not saturated and reports true; if key
// tests absent, it changes nothing and reports false.
//
// Remove only keys that were added. A key that was never added may still
// test present (a false positive); removing it decrements counters that
// members set and can make a member test absent. The filter cannot tell the
// two cases apart.
func (f *Counting) Remove(key []byte) bool { return f.RemoveDigest(f.hashing.Digest(key)) }

// AddDigest inserts the key whose digest is d.
func (f *Counting) AddDigest(d Digest) {
	x, y, z, c, ok := f.hashing.recurrence(d)
	if !ok {
		f.addProbe(d)
		return
	}
	words, m, max, ws := f.words, f.m, f.max, f.wshift&7
	for range f.k {
		// i is the first bit of the counter; a counter of a power-of-two
		// width never straddles two words. The mask on the shift tells
		// the compiler that it is small.
		i := reduce(x, m) << ws
		w := &words[i>>6]
		if *w>>(i&63)&max != max {
			*w += 1 << (i & 63)
		}
		x, y, z = x+y, y+z, z+c
	}
	f.items++
}

// ContainsDigest reports whether the key whose digest is d is possibly present.
func (f *Counting) ContainsDigest(d Digest) bool {
	x, y, z, c, ok := f.hashing.recurrence(d)
	if !ok {
		return f.containsProbe(d)
	}
	// As in Standard.ContainsDigest: groups of four independent loads, one
	// test per group. For a counter c, c - 1 has its top bit set exactly
	// when c is zero.
	words, m, max, ws := f.words, f.m, f.max, f.wshift&7
	k := f.k
	for ; k >= 4; k -= 4 {
		i := reduce(x, m) << ws
		zero := words[i>>6]>>(i&63)&max - 1
		x, y, z = x+y, y+z, z+c
		i = reduce(x, m) << ws
		zero |= words[i>>6]>>(i&63)&max - 1
		x, y, z = x+y, y+z, z+c
		i = reduce(x, m) << ws
		zero |= words[i>>6]>>(i&63)&max - 1
		x, y, z = x+y, y+z, z+c
		i = reduce(x, m) << ws
		zero |= words[i>>6]>>(i&63)&max - 1
		x, y, z = x+y, y+z, z+c
		if zero>>63 != 0 {
			return false
		}
	}
	var zero uint64
	for ; k > 0; k-- {
		i := reduce(x, m) << ws
		zero |= words[i>>6]>>(i&63)&max - 1
		x, y, z = x+y, y+z, z+c
	}
	return zero>>63 == 0
}

// TestAndAddDigest inserts d and reports whether it was possibly present
// before.
func (f *Counting) TestAndAddDigest(d Digest) bool {
	x, y, z, c, ok := f.hashing.recurrence(d)
	if !ok {
		return f.testAndAddProbe(d)
	}
	words, m, max, ws := f.words, f.m, f.max, f.wshift&7
	var zero uint64
	for range f.k {
		i := reduce(x, m) << ws
		w := &words[i>>6]
		// A counter is read before this key increments it, even when
		// the key derives the same index twice.
		v := *w >> (i & 63) & max
		zero |= v - 1
		if v != max {
			*w += 1 << (i & 63)
		}
		x, y, z = x+y, y+z, z+c
	}
	f.items++
	return zero>>63 == 0
}

// RemoveDigest is Remove for the key whose digest is d.
func (f *Counting) RemoveDigest(d Digest) bool {
	if !f.ContainsDigest(d) {
		return false
	}
	x, y, z, c, ok := f.hashing.recurrence(d)
	if ok {
		words, m, max, ws := f.words, f.m, f.max, f.wshift&7
		for range f.k {
			i := reduce(x, m) << ws
			f.decrement(&words[i>>6], i&63, max)
			x, y, z = x+y, y+z, z+c
		}
	} else {
		f.removeProbe(d)
	}
	if f.items > 0 {
		f.items--
	}
	return true
}

// decrement decrements the counter at bit s of *w unless it is zero or
// saturated. A key that derives one index twice decrements it twice; the
// zero test keeps a non-member's second decrement from borrowing from the
// neighbouring counter.
func (f *Counting) decrement(w *uint64, s, max uint64) {
	if v := *w >> s & max; v != 0 && v != max {
		*w -= 1 << s
	}
}

// addProbe is AddDigest on the general path, for every derivation.
func (f *Counting) addProbe(d Digest) {
	f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m) << (f.wshift & 7)
		if w := &f.words[i>>6]; *w>>(i&63)&f.max != f.max {
			*w += 1 << (i & 63)
		}
		return true
	})
	f.items++
}

// containsProbe is ContainsDigest on the general path, for every derivation.
func (f *Counting) containsProbe(d Digest) bool {
	return f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m) << (f.wshift & 7)
		return f.words[i>>6]>>(i&63)&f.max != 0
	})
}

// testAndAddProbe is TestAndAddDigest on the general path, for every
// derivation.
func (f *Counting) testAndAddProbe(d Digest) bool {
	present := true
	f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m) << (f.wshift & 7)
		w := &f.words[i>>6]
		v := *w >> (i & 63) & f.max
		if v == 0 {
			present = false
		}
		if v != f.max {
			*w += 1 << (i & 63)
		}
		return true
	})
	f.items++
	return present
}

// removeProbe is the decrementing pass of RemoveDigest on the general path.
func (f *Counting) removeProbe(d Digest) {
	f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m) << (f.wshift & 7)
		f.decrement(&f.words[i>>6], i&63, f.max)
		return true
	})
}

// Hashing returns the filter's hash options.
func (f *Counting) Hashing() Hashing { return f.hashing.public() }

// Geometry returns the filter's counters (as Bits), hashes and capacity
// (0 if unknown).
func (f *Counting) Geometry() Geometry {
	return Geometry{Bits: f.m, Hashes: f.k, Capacity: f.capacity}
}

// Width returns the counter width in bits.
func (f *Counting) Width() int { return f.width }

// counts returns the numbers of non-zero and of saturated counters.
func (f *Counting) counts() (nonzero, saturated uint64) {
	// low has the lowest bit of every counter set. Folding a word onto
	// itself by shifts of 1, 2, ..., w/2 leaves in each counter's lowest
	// bit the OR (for nonzero) or the AND (for saturated) of its w bits.
	low := ^uint64(0) / f.max
	var nz, sat int
	for _, x := range f.words {
		or, and := x, x
		for s := 1; s < f.width; s <<= 1 {
			or |= or >> s
			and &= and >> s
		}
		nz += bits.OnesCount64(or & low)
		sat += bits.OnesCount64(and & low)
	}
	return uint64(nz), uint64(sat)
}

// Histogram returns the number of counters holding each value: h[v] counts
// the counters equal to v, for v from 0 to the saturated value 2^w - 1, so
// len(h) = 2^w and the h[v] add up to the number of counters m. It reads
// every counter; it is for analysis, not for a hot path.
func (f *Counting) Histogram() []uint64 {
	h := make([]uint64, f.max+1)
	per := uint64(64 >> f.wshift) // counters per word
	for i := range f.m {
		h[f.words[i/per]>>((i%per)<<f.wshift)&f.max]++
	}
	return h
}

// Stats reports the filter's geometry and load: Cells is the number of
// counters m, CellBits the width, FillRatio the fraction of non-zero
// counters, EstimatedFPR FillRatio^k, Saturated the number of counters at
// their maximum, Items the adds minus the successful removes, and
// EstimatedItems the counter sum over k (exact while Saturated is 0) or,
// once a counter has saturated, the estimate from the non-zero counters.
func (f *Counting) Stats() Stats {
	nz, sat := f.counts()
	fill := float64(nz) / float64(f.m)
	return Stats{
		Variant:      "counting",
		Cells:        f.m,
		CellBits:     f.width,
		Bits:         f.m * uint64(f.width),
		Hashes:       f.k,
		Capacity:     f.capacity,
		Items:        f.items,
		FillRatio:    fill,
		EstimatedFPR: math.Pow(fill, float64(f.k)),
		Saturated:    sat,

		EstimatedItems: f.estimatedItems(nz, sat),
	}
}

// Reset sets every counter to zero.
func (f *Counting) Reset() {
	clear(f.words)
	f.items = 0
}
