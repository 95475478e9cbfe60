package variants

import (
	"math"
	"math/bits"
	"sync/atomic"
)

// ConcurrentStandard is a standard Bloom filter that many goroutines may
// fill and query at once. It reads bits with atomic loads, which cost
// nothing over plain loads on amd64 and arm64, and sets them with atomic
// OR operations, only for the bits it found clear (so that a filling
// filter does not keep writing to shared cache lines); no path takes a
// lock. An atomic OR costs more than a plain one, so from one goroutine it
// fills more slowly than a [Standard]; see BenchmarkConcurrentFill.
//
// For the same geometry and hashing it sets the same bits as a Standard
// and answers every query the same way, and it writes the standard format
// (see [FormatVersion]), so a filter filled concurrently can be saved and
// loaded as a Standard, and the other way round.
//
// Add, AddDigest, TestAndAdd, TestAndAddDigest, Contains, ContainsDigest, [Stats],
// MarshalBinary and WriteTo are safe for concurrent use with each other.
// A key is guaranteed to test present once its Add has returned; a
// Contains that overlaps the Add of the same key may report either
// answer. Reset, UnmarshalBinary and ReadFrom need exclusive access.
//
// The zero value is not a filter; build one with [NewConcurrentStandard] or
// [NewConcurrentStandardFor].
type ConcurrentStandard struct {
	words    []uint64 // accessed only through sync/atomic, except by Reset and ReadFrom
	m        uint64
	k        int
	capacity uint64
	hashing  hashConf
	// items is split over stripes on separate cache lines: a single
	// counter that every Add increments would bounce between cores and
	// cost more than the bits themselves.
	items [itemStripes]stripe
}

// itemStripes is the number of item counters; a key's digest picks one.
const itemStripes = 16

// stripe is an item counter alone on its cache line (128 bytes keeps it
// alone whatever the line's alignment and adjacent-line prefetching).
type stripe struct {
	n atomic.Uint64
	_ [120]byte
}

// NewConcurrentStandard returns an empty concurrent standard filter with
// geometry g, capacity g.Capacity. Its parameters are checked as
// [NewStandard] checks them.
func NewConcurrentStandard(g Geometry, h Hashing) (*ConcurrentStandard, error) {
	s, err := NewStandard(g, h)
	if err != nil {
		return nil, err
	}
	f := new(ConcurrentStandard)
	f.take(s)
	return f, nil
}

// NewConcurrentStandardFor returns an empty concurrent standard filter
// sized by [StandardGeometry] for capacity items at false-positive rate fpr.
func NewConcurrentStandardFor(capacity uint64, fpr float64, h Hashing) (*ConcurrentStandard, error) {
	s, err := NewStandardFor(capacity, fpr, h)
	if err != nil {
		return nil, err
	}
	f := new(ConcurrentStandard)
	f.take(s)
	return f, nil
}

// Add inserts key. It is safe for concurrent use.
func (f *ConcurrentStandard) Add(key []byte) { f.AddDigest(f.hashing.Digest(key)) }

// Contains reports whether key is possibly in the set. It is safe for
// concurrent use.
func (f *ConcurrentStandard) Contains(key []byte) bool {
	return f.ContainsDigest(f.hashing.Digest(key))
}

// TestAndAdd inserts key and reports whether it was possibly present. See
// TestAndAddDigest for its meaning under concurrency.
func (f *ConcurrentStandard) TestAndAdd(key []byte) bool {
	return f.TestAndAddDigest(f.hashing.Digest(key))
}

// AddDigest inserts the key whose digest is d. It is safe for concurrent use.
func (f *ConcurrentStandard) AddDigest(d Digest) {
	var p probe
	p.init(d, f.hashing)
	var g [batch]uint64
	for k := f.k; k > 0; k -= batch {
		n := min(k, batch)
		p.fill(g[:n])
		f.setBits(g[:n], f.clearBits(g[:n]))
	}
	f.items[d.H2>>60].n.Add(1)
}

// clearBits reduces the values g to bit indexes in place and returns a
// mask of those whose bits are clear. The loads are independent and
// issued before any locked write, so that their cache misses overlap: a
// locked write is a barrier on amd64, and testing and setting each bit in
// turn would serialise the misses.
func (f *ConcurrentStandard) clearBits(g []uint64) (clear uint) {
	for j, x := range g {
		i := reduce(x, f.m)
		g[j] = i
		clear |= uint(^atomic.LoadUint64(&f.words[i>>6])>>(i&63)&1) << j
	}
	return clear
}

// setBits sets the bits at the indexes g[j] for the j in mask, with
// atomic OR operations, on words just loaded by clearBits.
func (f *ConcurrentStandard) setBits(g []uint64, mask uint) {
	for mask != 0 {
		i := g[bits.TrailingZeros(mask)]
		mask &= mask - 1
		atomic.OrUint64(&f.words[i>>6], 1<<(i&63))
	}
}

// ContainsDigest reports whether the key whose digest is d is possibly
// present. It is safe for concurrent use.
func (f *ConcurrentStandard) ContainsDigest(d Digest) bool {
	x, y, z, c, ok := f.hashing.recurrence(d)
	if !ok {
		return f.containsProbe(d)
	}
	// As Standard.ContainsDigest: groups of four independent loads, one test
	// per group. Atomic loads compile to plain loads on amd64 and arm64.
	words, m := f.words, f.m
	k := f.k
	for ; k >= 4; k -= 4 {
		i := reduce(x, m)
		acc := atomic.LoadUint64(&words[i>>6]) >> (i & 63)
		x, y, z = x+y, y+z, z+c
		i = reduce(x, m)
		acc &= atomic.LoadUint64(&words[i>>6]) >> (i & 63)
		x, y, z = x+y, y+z, z+c
		i = reduce(x, m)
		acc &= atomic.LoadUint64(&words[i>>6]) >> (i & 63)
		x, y, z = x+y, y+z, z+c
		i = reduce(x, m)
		acc &= atomic.LoadUint64(&words[i>>6]) >> (i & 63)
		x, y, z = x+y, y+z, z+c
		if acc&1 == 0 {
			return false
		}
	}
	acc := uint64(1)
	for ; k > 0; k-- {
		i := reduce(x, m)
		acc &= atomic.LoadUint64(&words[i>>6]) >> (i & 63)
		x, y, z = x+y, y+z, z+c
	}
	return acc&1 != 0
}

// containsProbe is ContainsDigest on the general path, for every derivation.
func (f *ConcurrentStandard) containsProbe(d Digest) bool {
	return f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m)
		return atomic.LoadUint64(&f.words[i>>6])&(1<<(i&63)) != 0
	})
}

// TestAndAddDigest inserts d and reports whether it was possibly present,
// that is whether all of its k bits were set when it looked at them,
// before it set the clear ones. It is safe for concurrent use, but the
// k bits are neither tested nor set together: two concurrent TestAndAdds
// of the same new key may both report it absent, and a TestAndAdd that
// overlaps the Add of the same key may report either answer. Without
// concurrent calls on the same key it answers as
// [Standard.TestAndAddDigest].
func (f *ConcurrentStandard) TestAndAddDigest(d Digest) bool {
	var p probe
	p.init(d, f.hashing)
	var g [batch]uint64
	var absent uint
	for k := f.k; k > 0; k -= batch {
		n := min(k, batch)
		p.fill(g[:n])
		clear := f.clearBits(g[:n])
		f.setBits(g[:n], clear)
		absent |= clear
	}
	f.items[d.H2>>60].n.Add(1)
	return absent == 0
}

// Hashing returns the filter's hash options.
func (f *ConcurrentStandard) Hashing() Hashing { return f.hashing.public() }

// Geometry returns the filter's bits, hashes and capacity (0 if unknown).
func (f *ConcurrentStandard) Geometry() Geometry {
	return Geometry{Bits: f.m, Hashes: f.k, Capacity: f.capacity}
}

// itemCount returns the sum of the item counters.
func (f *ConcurrentStandard) itemCount() uint64 {
	var n uint64
	for i := range f.items {
		n += f.items[i].n.Load()
	}
	return n
}

// Stats reports the filter's geometry and load, with Variant "standard".
// It is safe for concurrent use; while other goroutines add keys, its
// figures are a blend of moments of the filling.
func (f *ConcurrentStandard) Stats() Stats {
	var set int
	for i := range f.words {
		set += bits.OnesCount64(atomic.LoadUint64(&f.words[i]))
	}
	fill := float64(set) / float64(f.m)
	return Stats{
		Variant:      "standard",
		Cells:        f.m,
		CellBits:     1,
		Bits:         f.m,
		Hashes:       f.k,
		Capacity:     f.capacity,
		Items:        f.itemCount(),
		FillRatio:    fill,
		EstimatedFPR: math.Pow(fill, float64(f.k)),

		EstimatedItems: fillEstimate(uint64(set), f.m, standardScale(f.m, f.k)),
	}
}

// Reset empties the filter. It needs exclusive access.
func (f *ConcurrentStandard) Reset() {
	clear(f.words)
	for i := range f.items {
		f.items[i].n.Store(0)
	}
}

// take makes f the filter s, taking over its bits.
func (f *ConcurrentStandard) take(s *Standard) {
	f.words, f.m, f.k, f.capacity, f.hashing = s.words, s.m, s.k, s.capacity, s.hashing
	for i := range f.items {
		f.items[i].n.Store(0)
	}
	f.items[0].n.Store(s.items)
}
