package variants

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// diffs collects the differences that make two filters incompatible.
type diffs []string

func (d *diffs) add(format string, args ...any) { *d = append(*d, fmt.Sprintf(format, args...)) }

// hashing notes the differences between two hash options.
func (d *diffs) hashing(a, b hashConf) {
	if a.Kind != b.Kind {
		d.add("hash kind %v != %v", a.Kind, b.Kind)
	}
	if a.Derivation != b.Derivation {
		d.add("derivation %v != %v", a.Derivation, b.Derivation)
	}
	if a.Seed != b.Seed {
		d.add("seed %d != %d", a.Seed, b.Seed)
	}
	if !a.sameKey(b) {
		d.add("hash keys differ") // never print a key
	}
}

// err returns nil if there are no differences, or an error wrapping
// ErrIncompatible that names them all.
func (d diffs) err() error {
	if len(d) == 0 {
		return nil
	}
	return incompatible("%s", strings.Join(d, ", "))
}

// addItems adds item counts, saturating at the largest uint64.
func addItems(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

func (f *Standard) compatible(g *Standard) error {
	return f.bitCore.compatible(&g.bitCore, "bits", f.m, g.m)
}

// Union makes f the union of f and g: the bitwise OR of their bits, which
// is exactly the filter that adding the keys of both would have built. The
// filters must have the same bits, hashes and hashing (kind, derivation,
// seed and key); otherwise Union returns an error wrapping [ErrIncompatible] that
// names every difference, and leaves f unchanged. Their capacities may
// differ; f keeps its own.
//
// The item count becomes the sum of the two counts (saturating), an upper
// bound on the number of distinct keys: a key added to both counts twice.
//
// Union reads g and writes f: g must not be mutated during the call, and f
// needs exclusive access. It panics if g is nil.
func (f *Standard) Union(g *Standard) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	f.or(&g.bitCore)
	return nil
}

// Intersect makes f the intersection of f and g: the bitwise AND of their
// bits. It has the compatibility rules, error and concurrency rules of
// Union.
//
// Every key that was added to both filters tests present in the result,
// so there are still no false negatives for the intersection of the two
// sets. But the result is not the filter that adding only the common keys
// would have built: a bit set by one key of f and another key of g
// survives, so the intersection has at least as many set bits as that
// filter, often more, and a false-positive rate at least as high. Its
// [Stats.EstimatedFPR], computed from the actual fill, reflects this; the
// rate computed from the item count does not.
//
// The item count becomes the smaller of the two counts, an upper bound on
// the number of keys in both sets.
func (f *Standard) Intersect(g *Standard) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	f.and(&g.bitCore)
	return nil
}

// Equal reports whether f and g have the same geometry, hashing and bits,
// and so answer every query alike. It ignores the capacity and the item
// count, which do not affect the answers: a filter loaded from a file
// equals the one saved, and so does a filter with the same keys added in
// another order or more than once. A nil filter equals only a nil filter.
//
// Equal only reads the filters: it may run concurrently with Contains.
func (f *Standard) Equal(g *Standard) bool {
	if f == nil || g == nil {
		return f == g
	}
	return f.m == g.m && f.sameBits(&g.bitCore)
}

func (f *Partitioned) compatible(g *Partitioned) error {
	return f.bitCore.compatible(&g.bitCore, "slice bits", f.sliceBits, g.sliceBits)
}

// Union makes f the union of f and g: the bitwise OR of their slices,
// which is exactly the filter that adding the keys of both would have
// built. The filters must have the same slice size, number of slices
// (hashes) and hashing; otherwise Union returns an error wrapping
// [ErrIncompatible] that names every difference, and leaves f unchanged. f
// keeps its capacity; the item count becomes the sum of the two counts
// (saturating), an upper bound on the number of distinct keys.
//
// Union reads g and writes f: g must not be mutated during the call, and f
// needs exclusive access. It panics if g is nil.
func (f *Partitioned) Union(g *Partitioned) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	f.or(&g.bitCore)
	return nil
}

// Intersect makes f the intersection of f and g: the bitwise AND of their
// slices, with the compatibility, error and concurrency rules of Union.
//
// Keys added to both filters still test present, but as for
// [Standard.Intersect] the result can have more set bits than the filter of
// the common keys alone, and so a false-positive rate at least as high as
// that filter's. The item count becomes the smaller of the two counts.
func (f *Partitioned) Intersect(g *Partitioned) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	f.and(&g.bitCore)
	return nil
}

// Equal reports whether f and g have the same slice size, number of
// slices, hashing and bits, and so answer every query alike. Like
// [Standard.Equal] it ignores the capacity and the item count, and a nil
// filter equals only a nil filter.
func (f *Partitioned) Equal(g *Partitioned) bool {
	if f == nil || g == nil {
		return f == g
	}
	return f.sliceBits == g.sliceBits && f.sameBits(&g.bitCore)
}

func (f *Counting) compatible(g *Counting) error {
	var d diffs
	if f.m != g.m {
		d.add("counters %d != %d", f.m, g.m)
	}
	if f.k != g.k {
		d.add("hashes %d != %d", f.k, g.k)
	}
	if f.width != g.width {
		d.add("counter width %d != %d", f.width, g.width)
	}
	d.hashing(f.hashing, g.hashing)
	return d.err()
}

// Union makes f the union of f and g: each counter becomes the sum of the
// two, saturating at its maximum 2^w - 1. Because saturated counters
// stick, that is exactly the filter that adding every key of both would
// have built; with removals too it is so while no counter saturates.
// Removing a key that was added to either filter stays safe. The filters
// must have the same
// number of counters, hashes, counter width and hashing (kind, derivation,
// seed and key); otherwise Union returns an error wrapping [ErrIncompatible]
// that names every difference, and leaves f unchanged. f keeps its
// capacity; the item count becomes the sum of the two counts
// (saturating).
//
// There is no Intersect for counting filters: the counter-wise minimum
// over-counts shared counters and removing keys from it could cause false
// negatives.
//
// Union reads g and writes f: g must not be mutated during the call, and f
// needs exclusive access. It panics if g is nil.
func (f *Counting) Union(g *Counting) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	w := uint(f.width)
	low := ^uint64(0) / f.max // the lowest bit of every counter
	high := low << (w - 1)    // the highest bit of every counter
	for i, b := range g.words {
		a := f.words[i]
		// Add the counters without their top bits, which cannot carry
		// out of a counter, then add the top bits without carry; a
		// counter overflows when at least two of its top bit in a, in b
		// and the carry into it are set, and saturates.
		s := a&^high + b&^high
		sum := s ^ (a^b)&high
		over := (a&b | (a^b)&s) & high
		f.words[i] = sum | (over>>(w-1))*f.max
	}
	f.items = addItems(f.items, g.items)
	return nil
}

// Equal reports whether f and g have the same number of counters, hashes,
// counter width, hashing and counter values, and so answer every query
// and every Remove alike. Like [Standard.Equal] it ignores the capacity and
// the item count, and a nil filter equals only a nil filter.
func (f *Counting) Equal(g *Counting) bool {
	if f == nil || g == nil {
		return f == g
	}
	return f.m == g.m && f.k == g.k && f.width == g.width && f.hashing.same(g.hashing) && slices.Equal(f.words, g.words)
}

// Equal reports whether f and g have the same parameters (P, r, s, n0),
// hashing and stages in use, with equal geometry and bits stage by stage,
// and so answer every query alike and grow alike. It ignores item counts,
// Err and the memory kept by Reset; a nil filter equals only a nil
// filter. [Scalable] filters have no Union or Intersect: their stages depend
// on the order in which keys arrived.
func (f *Scalable) Equal(g *Scalable) bool {
	if f == nil || g == nil {
		return f == g
	}
	if f.geom != g.geom || !f.hashing.same(g.hashing) || f.live != g.live || f.stream != g.stream {
		return false
	}
	for i := range f.live {
		a, b := f.stages[i], g.stages[i]
		if a.capacity != b.capacity || (a.f != nil && !a.f.Equal(b.f)) || (a.b != nil && !a.b.Equal(b.b)) {
			return false
		}
	}
	return true
}

func (f *Blocked) compatible(g *Blocked) error {
	return f.bitCore.compatible(&g.bitCore, "bits", f.m, g.m, "block bits", f.blockBits, g.blockBits)
}

// Union makes f the union of f and g: the bitwise OR of their blocks,
// which is exactly the filter that adding the keys of both would have
// built. The filters must have the same bits, block bits, hashes and
// hashing; otherwise Union returns an error wrapping [ErrIncompatible] that
// names every difference, and leaves f unchanged. f keeps its capacity;
// the item count becomes the sum of the two counts (saturating).
//
// Union reads g and writes f: g must not be mutated during the call, and f
// needs exclusive access. It panics if g is nil.
func (f *Blocked) Union(g *Blocked) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	f.or(&g.bitCore)
	return nil
}

// Intersect makes f the intersection of f and g: the bitwise AND of their
// blocks, with the compatibility, error and concurrency rules of Union.
// As for [Standard.Intersect], keys added to both still test present, but
// the result can have more set bits than the filter of the common keys
// alone. The item count becomes the smaller of the two counts.
func (f *Blocked) Intersect(g *Blocked) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	f.and(&g.bitCore)
	return nil
}

// Equal reports whether f and g have the same geometry, block size,
// hashing and bits, and so answer every query alike. Like [Standard.Equal]
// it ignores the capacity and the item count, and a nil filter equals only
// a nil filter.
func (f *Blocked) Equal(g *Blocked) bool {
	if f == nil || g == nil {
		return f == g
	}
	return f.m == g.m && f.blockBits == g.blockBits && f.sameBits(&g.bitCore)
}

func (f *SplitBlock) compatible(g *SplitBlock) error {
	return f.bitCore.compatible(&g.bitCore, "blocks", f.blocks, g.blocks)
}

// Union makes f the union of f and g: the bitwise OR of their blocks,
// which is exactly the filter that adding the keys of both would have
// built. The filters must have the same number of blocks and hashing;
// otherwise Union returns an error wrapping [ErrIncompatible] that names
// every difference, and leaves f unchanged. f keeps its capacity; the item
// count becomes the sum of the two counts (saturating).
//
// Union reads g and writes f: g must not be mutated during the call, and f
// needs exclusive access. It panics if g is nil.
func (f *SplitBlock) Union(g *SplitBlock) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	f.or(&g.bitCore)
	return nil
}

// Intersect makes f the intersection of f and g: the bitwise AND of their
// blocks, with the compatibility, error and concurrency rules of Union and
// the caveat of [Standard.Intersect]. The item count becomes the smaller of
// the two counts.
func (f *SplitBlock) Intersect(g *SplitBlock) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	f.and(&g.bitCore)
	return nil
}

// Equal reports whether f and g have the same number of blocks, hashing
// and bits, and so answer every query alike. Like [Standard.Equal] it
// ignores the capacity and the item count, and a nil filter equals only a
// nil filter.
func (f *SplitBlock) Equal(g *SplitBlock) bool {
	if f == nil || g == nil {
		return f == g
	}
	return f.blocks == g.blocks && f.sameBits(&g.bitCore)
}

// Equal reports whether f and g have the same parameters, hashing and
// stages in use, bit for bit, and so answer every query alike and grow
// alike. It ignores item counts, Err and the memory kept by Reset; a nil
// filter equals only a nil filter.
func (f *Dynamic) Equal(g *Dynamic) bool {
	if f == nil || g == nil {
		return f == g
	}
	if f.geom != g.geom || f.stage != g.stage || !f.hashing.same(g.hashing) || f.live != g.live {
		return false
	}
	for i := range f.live {
		if !slices.Equal(f.stages[i].words, g.stages[i].words) {
			return false
		}
	}
	return true
}

// Equal reports whether f and g have the same parameters, seed and links
// in use, bit for bit, and so answer every query alike and grow alike. It
// ignores item counts, Err and the memory kept by Reset; a nil filter
// equals only a nil filter.
func (f *RedisBloom) Equal(g *RedisBloom) bool {
	if f == nil || g == nil {
		return f == g
	}
	if f.geom != g.geom || !f.hashing.same(g.hashing) || f.live != g.live {
		return false
	}
	for i := range f.live {
		if f.links[i].RedisBloomLink != g.links[i].RedisBloomLink || !slices.Equal(f.links[i].words, g.links[i].words) {
			return false
		}
	}
	return true
}
