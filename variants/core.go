package variants

import (
	"math"
	"math/bits"
	"slices"
	"unsafe"
)

// bitCore is what the word-array filters (Standard, Partitioned, Blocked,
// SplitBlock) share: the table of 64-bit words, the number of bits a key
// touches, the capacity and item count, and the hashing. A variant embeds
// it and adds only its geometry, its indexing and its theory; reset, fill
// counting, the set operations on the words and the encoding of the
// payload are written once, here and in encoding_bits.go.
type bitCore struct {
	words    []uint64
	k        int
	capacity uint64
	items    uint64
	hashing  hashConf
}

// setBits returns the number of set bits of the table.
func (c *bitCore) setBits() uint64 { return popcount(c.words) }

// reset clears every bit and the item count.
func (c *bitCore) reset() {
	clear(c.words)
	c.items = 0
}

// or makes c's words the OR of c's and g's, and adds the item counts.
func (c *bitCore) or(g *bitCore) {
	for i, w := range g.words {
		c.words[i] |= w
	}
	c.items = addItems(c.items, g.items)
}

// and makes c's words the AND of c's and g's, and keeps the smaller item
// count.
func (c *bitCore) and(g *bitCore) {
	for i, w := range g.words {
		c.words[i] &= w
	}
	c.items = min(c.items, g.items)
}

// sameBits reports whether c and g have the same k, hashing and words.
func (c *bitCore) sameBits(g *bitCore) bool {
	return c.k == g.k && c.hashing.same(g.hashing) && slices.Equal(c.words, g.words)
}

// compatible collects the differences between c and g that forbid
// combining them: the geometry values given as name, c's value, g's value
// triples, then k and the hashing.
func (c *bitCore) compatible(g *bitCore, geometry ...any) error {
	var d diffs
	for i := 0; i+2 < len(geometry); i += 3 {
		if geometry[i+1] != geometry[i+2] {
			d.add("%s %v != %v", geometry[i], geometry[i+1], geometry[i+2])
		}
	}
	if c.k != g.k {
		d.add("hashes %d != %d", c.k, g.k)
	}
	d.hashing(c.hashing, g.hashing)
	return d.err()
}

// allocWords returns a zeroed slice of n words, or an error if the memory
// cannot be had: more than the limit maxBytes allows (0: the process
// limit, see MemoryLimit; noLimit for a caller that has checked its
// total itself), or more than the runtime can allocate. The errors wrap
// ErrInvalidParams, and ErrMemoryLimit for the limit. Tables of 4 MiB
// and more are backed by transparent huge pages where the system offers
// them (see adviseHugePages).
func allocWords(n uint64, maxBytes int64) (w []uint64, err error) {
	if n > math.MaxInt/8 {
		return nil, invalid("%d words of memory cannot be addressed", n)
	}
	if err := checkGrowth("the filter", -1, 0, n*8, maxBytes, true); err != nil {
		return nil, err
	}
	defer func() {
		if recover() != nil {
			w, err = nil, invalid("cannot allocate %d bytes", n*8)
		}
	}()
	w = make([]uint64, n)
	adviseHugePages(w)
	return w, nil
}

// noLimit is the maxBytes of allocWords for a caller that has checked the
// filter's total against its limit itself (a growing filter's stage).
const noLimit = math.MaxInt64

// alignedWords returns a zeroed table of n words whose first word starts
// on a 64-byte boundary, so that every 64-byte block of a blocked filter
// is one cache line. It over-allocates by at most seven words. maxBytes is
// allocWords'.
func alignedWords(n uint64, maxBytes int64) ([]uint64, error) {
	if n > math.MaxInt/8-7 {
		return nil, invalid("%d words of memory cannot be addressed", n)
	}
	w, err := allocWords(n+7, maxBytes)
	if err != nil {
		return nil, err
	}
	off := (64 - uintptr(unsafe.Pointer(unsafe.SliceData(w)))&63) & 63 / 8
	return w[off : off+uintptr(n) : off+uintptr(n)], nil
}

// wordPtr returns the address of the word that holds bit i of the table
// at base.
func wordPtr(base unsafe.Pointer, i uint64) *uint64 {
	return (*uint64)(unsafe.Add(base, i>>6<<3))
}

func popcount(w []uint64) uint64 {
	var n int
	for _, x := range w {
		n += bits.OnesCount64(x)
	}
	return uint64(n)
}
