package variants

import (
	"unsafe"

	"github.com/zeebo/xxh3"
)

// Partitioned is a partitioned Bloom filter: k slices of b bits, each key
// setting one bit in every slice. Its false-positive rate at n items is
// (1 - (1 - 1/b)^n)^k, a little above that of a standard filter of the same
// m = k b, and every key sets exactly k distinct bits.
//
// Each slice starts on a 64-bit word boundary, so a slice whose size is not
// a multiple of 64 leaves fewer than 64 unused bits of padding behind it.
//
// Each derived value passes through a 64-bit mixer (SplitMix64's
// finaliser) before it is reduced to its slice, so that the formula holds
// at every size with the double-hashing derivations, for one extra
// multiply pair per index. [Standard] does not mix, so that the derivations
// can be studied as published (measurement: paper-notes.md §3a).
//
// Contains and ContainsDigest are safe for concurrent use while nothing
// mutates the filter; mutation needs exclusive access.
type Partitioned struct {
	bitCore
	sliceBits  uint64 // b
	sliceWords uint64 // words per slice, ceil(b/64)
}

// NewPartitioned returns an empty partitioned filter of g.Hashes slices of
// ceil(g.Bits/g.Hashes) bits each; [Geometry] reports the bits actually built,
// which exceed g.Bits by less than g.Hashes, and [Stats] the capacity
// g.Capacity. It reports an error if g.Bits < g.Hashes. [StandardGeometry]
// (the classic sizing, the same as a standard filter's) and
// [ExactPartitionedGeometry] size one for a capacity.
func NewPartitioned(g Geometry, h Hashing) (*Partitioned, error) {
	return newPartitioned(g, h.conf(), 0)
}

// newPartitioned is NewPartitioned for a hashing as filters hold it, which
// the stages of growing filters share with their filter, and the memory
// limit maxBytes of allocWords.
func newPartitioned(g Geometry, h hashConf, maxBytes int64) (*Partitioned, error) {
	if err := g.validate(); err != nil {
		return nil, err
	}
	if err := h.public().validate(); err != nil {
		return nil, err
	}
	k := uint64(g.Hashes)
	if g.Bits < k {
		return nil, invalid("bits m = %d is fewer than hashes k = %d: a partitioned filter needs at least one bit per slice", g.Bits, g.Hashes)
	}
	b := (g.Bits + k - 1) / k
	sw := (b + 63) / 64
	w, err := allocWords(sw*k, maxBytes)
	if err != nil {
		return nil, err
	}
	return &Partitioned{bitCore: bitCore{words: w, k: g.Hashes, capacity: g.Capacity, hashing: h}, sliceBits: b, sliceWords: sw}, nil
}

// NewPartitionedFor returns an empty partitioned filter sized by
// [StandardGeometry] for capacity items at false-positive rate fpr. For the
// fewest bits, a multiple of k, whose exact partitioned rate at capacity
// items is at most fpr, build
// [NewPartitioned]([ExactPartitionedGeometry](capacity, fpr)).
func NewPartitionedFor(capacity uint64, fpr float64, h Hashing) (*Partitioned, error) {
	g, err := StandardGeometry(capacity, fpr)
	if err != nil {
		return nil, err
	}
	return NewPartitioned(g, h)
}

// Add inserts key.
func (f *Partitioned) Add(key []byte) {
	if f.hashing.Kind != XXH3 || f.hashing.Derivation != EnhancedDouble {
		f.AddDigest(f.hashing.Digest(key))
		return
	}
	// As in Standard.Add: Sum and the recurrence inlined for the default.
	u := xxh3.Hash128Seed(key, f.hashing.Seed)
	f.set(u.Lo, u.Hi, weyl, weyl)
}

// Contains reports whether key is possibly in the set.
func (f *Partitioned) Contains(key []byte) bool {
	if f.hashing.Kind != XXH3 || f.hashing.Derivation != EnhancedDouble {
		return f.ContainsDigest(f.hashing.Digest(key))
	}
	u := xxh3.Hash128Seed(key, f.hashing.Seed)
	return f.test(u.Lo, u.Hi, weyl, weyl)
}

// TestAndAdd inserts key and reports whether it was possibly present.
func (f *Partitioned) TestAndAdd(key []byte) bool {
	if f.hashing.Kind != XXH3 || f.hashing.Derivation != EnhancedDouble {
		return f.TestAndAddDigest(f.hashing.Digest(key))
	}
	u := xxh3.Hash128Seed(key, f.hashing.Seed)
	return f.testAndSet(u.Lo, u.Hi, weyl, weyl)
}

// AddDigest inserts the key whose digest is d.
func (f *Partitioned) AddDigest(d Digest) {
	x, y, z, c, ok := f.hashing.recurrence(d)
	if !ok {
		f.addProbe(d)
		return
	}
	f.set(x, y, z, c)
}

// ContainsDigest reports whether the key whose digest is d is possibly present.
func (f *Partitioned) ContainsDigest(d Digest) bool {
	x, y, z, c, ok := f.hashing.recurrence(d)
	if !ok {
		return f.containsProbe(d)
	}
	return f.test(x, y, z, c)
}

// TestAndAddDigest inserts d and reports whether it was possibly present.
func (f *Partitioned) TestAndAddDigest(d Digest) bool {
	x, y, z, c, ok := f.hashing.recurrence(d)
	if !ok {
		return f.testAndAddProbe(d)
	}
	return f.testAndSet(x, y, z, c)
}

// The hot loops below work as Standard's do (see Standard.set), on the
// mixed values of the recurrence, one per slice: slice j starts off =
// 8 j ceil(b/64) bytes after the first word, and every index is below b.
// The constructors and the decoder give the words exactly k slices of
// ceil(b/64) words; each loop asserts once that the last word it could
// touch is in the table.

// slices returns the address of the first slice and the size of a slice
// in bytes.
func (f *Partitioned) slices() (unsafe.Pointer, uintptr) {
	sw := f.sliceWords
	_ = f.words[uint64(f.k-1)*sw+(f.sliceBits-1)>>6]
	return unsafe.Pointer(unsafe.SliceData(f.words)), uintptr(sw) * 8
}

// set sets the k bits of the recurrence.
func (f *Partitioned) set(x, y, z, c uint64) {
	base, step := f.slices()
	b, end := f.sliceBits, uintptr(f.k)*step
	for off := uintptr(0); off < end; off += step {
		i := reduce(mix64(x), b)
		*wordPtr(unsafe.Add(base, off), i) |= 1 << (i & 63)
		x, y, z = x+y, y+z, z+c
	}
	f.items++
}

// test reports whether the k bits of the recurrence are all set, in groups
// of four as Standard.test does.
func (f *Partitioned) test(x, y, z, c uint64) bool {
	base, step := f.slices()
	b, k, off := f.sliceBits, f.k, uintptr(0)
	for ; k >= 4; k -= 4 {
		i := reduce(mix64(x), b)
		acc := *wordPtr(unsafe.Add(base, off), i) >> (i & 63)
		x, y, z, off = x+y, y+z, z+c, off+step
		i = reduce(mix64(x), b)
		acc &= *wordPtr(unsafe.Add(base, off), i) >> (i & 63)
		x, y, z, off = x+y, y+z, z+c, off+step
		i = reduce(mix64(x), b)
		acc &= *wordPtr(unsafe.Add(base, off), i) >> (i & 63)
		x, y, z, off = x+y, y+z, z+c, off+step
		i = reduce(mix64(x), b)
		acc &= *wordPtr(unsafe.Add(base, off), i) >> (i & 63)
		x, y, z, off = x+y, y+z, z+c, off+step
		if acc&1 == 0 {
			return false
		}
	}
	acc := uint64(1)
	for ; k > 0; k-- {
		i := reduce(mix64(x), b)
		acc &= *wordPtr(unsafe.Add(base, off), i) >> (i & 63)
		x, y, z, off = x+y, y+z, z+c, off+step
	}
	return acc&1 != 0
}

// testAndSet sets the k bits of the recurrence and reports whether they
// were all set before.
func (f *Partitioned) testAndSet(x, y, z, c uint64) bool {
	base, step := f.slices()
	b, end := f.sliceBits, uintptr(f.k)*step
	acc := uint64(1)
	for off := uintptr(0); off < end; off += step {
		i := reduce(mix64(x), b)
		w := wordPtr(unsafe.Add(base, off), i)
		acc &= *w >> (i & 63)
		*w |= 1 << (i & 63)
		x, y, z = x+y, y+z, z+c
	}
	f.items++
	return acc&1 != 0
}

// addProbe is AddDigest on the general path, for every derivation.
func (f *Partitioned) addProbe(d Digest) {
	base := uint64(0)
	f.hashing.eachValue(d, f.k, true, func(g uint64) bool {
		i := reduce(g, f.sliceBits)
		f.words[base+i>>6] |= 1 << (i & 63)
		base += f.sliceWords
		return true
	})
	f.items++
}

// containsProbe is ContainsDigest on the general path, for every derivation.
func (f *Partitioned) containsProbe(d Digest) bool {
	base := uint64(0)
	return f.hashing.eachValue(d, f.k, true, func(g uint64) bool {
		i := reduce(g, f.sliceBits)
		set := f.words[base+i>>6]&(1<<(i&63)) != 0
		base += f.sliceWords
		return set
	})
}

// testAndAddProbe is TestAndAddDigest on the general path, for every
// derivation.
func (f *Partitioned) testAndAddProbe(d Digest) bool {
	base := uint64(0)
	present := true
	f.hashing.eachValue(d, f.k, true, func(g uint64) bool {
		i := reduce(g, f.sliceBits)
		w, b := &f.words[base+i>>6], uint64(1)<<(i&63)
		if *w&b == 0 {
			present = false
			*w |= b
		}
		base += f.sliceWords
		return true
	})
	f.items++
	return present
}

// Hashing returns the filter's hash options.
func (f *Partitioned) Hashing() Hashing { return f.hashing.public() }

// Geometry returns the bits actually built (k slices of b bits), the
// hashes and the capacity (0 if unknown).
func (f *Partitioned) Geometry() Geometry {
	return Geometry{Bits: f.sliceBits * uint64(f.k), Hashes: f.k, Capacity: f.capacity}
}

// SliceBits returns the number of bits in each slice.
func (f *Partitioned) SliceBits() uint64 { return f.sliceBits }

// fill returns the fraction of set bits and the product of the slices' fill
// ratios.
func (f *Partitioned) fill() (fill, product float64) {
	var set uint64
	product = 1
	for j := range uint64(f.k) {
		n := popcount(f.words[j*f.sliceWords : (j+1)*f.sliceWords])
		set += n
		product *= float64(n) / float64(f.sliceBits)
	}
	return float64(set) / float64(f.sliceBits*uint64(f.k)), product
}

// Stats reports the filter's geometry and load.
func (f *Partitioned) Stats() Stats {
	fill, est := f.fill()
	m := f.sliceBits * uint64(f.k)
	return Stats{
		Variant:      "partitioned",
		Cells:        m,
		CellBits:     1,
		Bits:         m,
		Hashes:       f.k,
		Capacity:     f.capacity,
		Items:        f.items,
		FillRatio:    fill,
		EstimatedFPR: est,

		EstimatedItems: f.estimatedItems(fill),
	}
}

// Reset empties the filter.
func (f *Partitioned) Reset() { f.reset() }
