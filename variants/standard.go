package variants

import (
	"math"
	"unsafe"

	"github.com/zeebo/xxh3"
)

// Standard is the classic Bloom filter (Bloom 1970): m bits, k hashes, each
// key setting the k bits that its digest derives.
//
// Contains, ContainsDigest and their batches (ContainsBatch,
// ContainsDigestBatch) are safe for concurrent use while nothing mutates
// the filter; mutation needs exclusive access.
//
// The zero value is not a useful filter but is safe to use: it has no bits
// and no hashes, so it can rule out no key. Contains, TestAndAdd and their
// Digest and batch forms report true (possibly present) for every key,
// Add counts the item and sets nothing, and Stats reports 0 bits, fill 0
// and an estimated rate of 1; MarshalBinary reports an error. Build a
// filter with [NewStandard] or [NewStandardFor].
type Standard struct {
	bitCore
	m uint64
}

// NewStandard returns an empty standard filter with geometry g; its
// [Stats] and binary form report g.Capacity as its capacity.
// [StandardGeometry] and [ExactStandardGeometry] size one for a capacity.
func NewStandard(g Geometry, h Hashing) (*Standard, error) {
	if err := g.validate(); err != nil {
		return nil, err
	}
	if err := h.validate(); err != nil {
		return nil, err
	}
	w, err := allocWords((g.Bits+63)/64, 0)
	if err != nil {
		return nil, err
	}
	return &Standard{bitCore: bitCore{words: w, k: g.Hashes, capacity: g.Capacity, hashing: h.conf()}, m: g.Bits}, nil
}

// NewStandardFor returns an empty standard filter sized by
// [StandardGeometry] for capacity items at false-positive rate fpr. For the
// fewest bits whose exact rate at capacity items is at most fpr, build
// [NewStandard]([ExactStandardGeometry](capacity, fpr)).
func NewStandardFor(capacity uint64, fpr float64, h Hashing) (*Standard, error) {
	g, err := StandardGeometry(capacity, fpr)
	if err != nil {
		return nil, err
	}
	return NewStandard(g, h)
}

// Add inserts key.
func (f *Standard) Add(key []byte) {
	if f.hashing.Kind != XXH3 || f.hashing.Derivation != EnhancedDouble {
		f.AddDigest(f.hashing.Digest(key))
		return
	}
	// The default hashing, with Sum and Hashing.recurrence (whose
	// EnhancedDouble start is x, y, weyl, weyl) inlined by hand in Add,
	// Contains and TestAndAdd. With the loops below, which need no bounds
	// checks and no stack frame, this spares a query the calls and the
	// checks of the general path (BenchmarkFilterInCache, where the
	// filter's instructions dominate).
	u := xxh3.Hash128Seed(key, f.hashing.Seed)
	f.set(u.Lo, u.Hi, weyl, weyl)
}

// Contains reports whether key is possibly in the set.
func (f *Standard) Contains(key []byte) bool {
	if f.hashing.Kind != XXH3 || f.hashing.Derivation != EnhancedDouble {
		return f.ContainsDigest(f.hashing.Digest(key))
	}
	u := xxh3.Hash128Seed(key, f.hashing.Seed)
	return f.test(u.Lo, u.Hi, weyl, weyl)
}

// TestAndAdd inserts key and reports whether it was possibly present.
func (f *Standard) TestAndAdd(key []byte) bool {
	if f.hashing.Kind != XXH3 || f.hashing.Derivation != EnhancedDouble {
		return f.TestAndAddDigest(f.hashing.Digest(key))
	}
	u := xxh3.Hash128Seed(key, f.hashing.Seed)
	return f.testAndSet(u.Lo, u.Hi, weyl, weyl)
}

// AddDigest inserts the key whose digest is d.
func (f *Standard) AddDigest(d Digest) {
	x, y, z, c, ok := f.hashing.recurrence(d)
	if !ok {
		f.addProbe(d)
		return
	}
	f.set(x, y, z, c)
}

// ContainsDigest reports whether the key whose digest is d is possibly present.
func (f *Standard) ContainsDigest(d Digest) bool {
	x, y, z, c, ok := f.hashing.recurrence(d)
	if !ok {
		return f.containsProbe(d)
	}
	return f.test(x, y, z, c)
}

// TestAndAddDigest inserts d and reports whether it was possibly present.
func (f *Standard) TestAndAddDigest(d Digest) bool {
	x, y, z, c, ok := f.hashing.recurrence(d)
	if !ok {
		return f.testAndAddProbe(d)
	}
	return f.testAndSet(x, y, z, c)
}

// The hot loops set and test the bits at g_0 .. g_(k-1) of the recurrence
// x += y; y += z; z += c (see Hashing.recurrence), reduced to [0, m). They
// address the words through base, the address of words[0], without bounds
// checks: every index is reduce(x, m) < m, and a filter of m bits always
// has ceil(m/64) words (the constructors and the decoder make it so; each
// loop asserts it once). Without the checks, and without calls, they are
// leaf functions with no stack frame. The zero value (m = 0, k = 0, no
// words) takes the one branch before the assertion: no bits, every key
// possibly present.

// set sets the k bits of the recurrence.
func (f *Standard) set(x, y, z, c uint64) {
	m := f.m
	if m == 0 { // the zero value
		f.items++
		return
	}
	_ = f.words[(m-1)>>6]
	base := unsafe.Pointer(unsafe.SliceData(f.words))
	for range f.k {
		i := reduce(x, m)
		*wordPtr(base, i) |= 1 << (i & 63)
		x, y, z = x+y, y+z, z+c
	}
	f.items++
}

// test reports whether the k bits of the recurrence are all set.
//
// It loads the bits in groups of four and tests each group once: the loads
// of a group are independent, so the processor overlaps their cache misses,
// and the one test per group is predictable (an absent key is rejected by
// the first group with probability about 1 - 2^-4 at the optimal fill of
// one half). Groups of two test sooner but mispredict more, and are
// slower in BenchmarkFilter; so is testing all k bits at once.
func (f *Standard) test(x, y, z, c uint64) bool {
	m, k := f.m, f.k
	if m == 0 { // the zero value
		return true
	}
	_ = f.words[(m-1)>>6]
	base := unsafe.Pointer(unsafe.SliceData(f.words))
	for ; k >= 4; k -= 4 {
		i := reduce(x, m)
		acc := *wordPtr(base, i) >> (i & 63)
		x, y, z = x+y, y+z, z+c
		i = reduce(x, m)
		acc &= *wordPtr(base, i) >> (i & 63)
		x, y, z = x+y, y+z, z+c
		i = reduce(x, m)
		acc &= *wordPtr(base, i) >> (i & 63)
		x, y, z = x+y, y+z, z+c
		i = reduce(x, m)
		acc &= *wordPtr(base, i) >> (i & 63)
		x, y, z = x+y, y+z, z+c
		if acc&1 == 0 {
			return false
		}
	}
	acc := uint64(1)
	for ; k > 0; k-- {
		i := reduce(x, m)
		acc &= *wordPtr(base, i) >> (i & 63)
		x, y, z = x+y, y+z, z+c
	}
	return acc&1 != 0
}

// testAndSet sets the k bits of the recurrence and reports whether they
// were all set before.
func (f *Standard) testAndSet(x, y, z, c uint64) bool {
	m := f.m
	if m == 0 { // the zero value
		f.items++
		return true
	}
	_ = f.words[(m-1)>>6]
	base := unsafe.Pointer(unsafe.SliceData(f.words))
	acc := uint64(1)
	for range f.k {
		i := reduce(x, m)
		w := wordPtr(base, i)
		acc &= *w >> (i & 63)
		*w |= 1 << (i & 63)
		x, y, z = x+y, y+z, z+c
	}
	f.items++
	return acc&1 != 0
}

// addProbe is AddDigest on the general path, for every derivation.
func (f *Standard) addProbe(d Digest) {
	f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m)
		f.words[i>>6] |= 1 << (i & 63)
		return true
	})
	f.items++
}

// containsProbe is ContainsDigest on the general path, for every derivation.
func (f *Standard) containsProbe(d Digest) bool {
	return f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m)
		return f.words[i>>6]&(1<<(i&63)) != 0
	})
}

// testAndAddProbe is TestAndAddDigest on the general path, for every
// derivation.
func (f *Standard) testAndAddProbe(d Digest) bool {
	present := true
	f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m)
		w, b := &f.words[i>>6], uint64(1)<<(i&63)
		if *w&b == 0 {
			present = false
			*w |= b
		}
		return true
	})
	f.items++
	return present
}

// Hashing returns the filter's hash options.
func (f *Standard) Hashing() Hashing { return f.hashing.public() }

// Geometry returns the filter's bits, hashes and capacity (0 if unknown).
func (f *Standard) Geometry() Geometry { return Geometry{Bits: f.m, Hashes: f.k, Capacity: f.capacity} }

// Stats reports the filter's geometry and load.
func (f *Standard) Stats() Stats {
	set := f.setBits()
	var fill float64 // 0 for the zero value, which has no bits
	if f.m != 0 {
		fill = float64(set) / float64(f.m)
	}
	return Stats{
		Variant:      "standard",
		Cells:        f.m,
		CellBits:     1,
		Bits:         f.m,
		Hashes:       f.k,
		Capacity:     f.capacity,
		Items:        f.items,
		FillRatio:    fill,
		EstimatedFPR: math.Pow(fill, float64(f.k)),

		EstimatedItems: f.estimatedItems(set),
	}
}

// Reset empties the filter.
func (f *Standard) Reset() { f.reset() }
