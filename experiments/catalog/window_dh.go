package catalog

import (
	"fmt"
	"math/bits"

	"github.com/bloomlab/bloomlab/variants"
)

// doubleHashedAP is a model, for the window experiment, of an
// age-partitioned filter indexed as decred's apbf package indexes it
// (github.com/decred/dcrd/container/apbf v1.0.1, filter.go): the K + L
// slices are a ring of slots, and a key's position in slot s is
// h1 + s h2 + (s^3 - s)/6 in wrapping 64-bit arithmetic (enhanced double
// hashing over the slot number) reduced to the slice by multiply-shift,
// from one 128-bit digest (h1, h2) of the key. Generations, shifts and
// queries are those of variants.AgePartitioned (and of decred's filter):
// an add finding the newest slice at G items first drops the oldest slot
// and makes it the newest, then sets the key's bit in the K newest slots;
// a query is positive when K consecutive slices hold the key's bit.
//
// It exists to show what deriving every slice's position from one pair
// costs: two keys whose h2 differ by less than about 2^64/SliceBits (and
// whose h1 are close) collide in slot after slot, so the slices are not
// independent, which the exact theory assumes; variants.AgePartitioned
// derives every slot's position from its own output of a generator and
// keeps them independent. It is not a filter to use: it has no Stats, no
// encoding and no tests beyond the experiment's.
type doubleHashedAP struct {
	k, n      int
	g, b      uint64
	perSlot   uint64 // words per slot
	words     []uint64
	front     int    // slot of the newest slice
	cur       uint64 // items of the newest generation
	hashing   variants.Hashing
	totalBits uint64
}

// newDoubleHashedAP returns an empty model filter of k + l slices of b
// bits, g items per generation.
func newDoubleHashedAP(k, l int, g, b uint64, h variants.Hashing) (*doubleHashedAP, error) {
	if k < 1 || l < 1 || k+l > 256 || g < 1 || b < 1 || b > 1<<40 {
		return nil, paramError("window", "double-hashed model: k = %d, l = %d, g = %d, slice bits %d", k, l, g, b)
	}
	n := k + l
	per := (b + 63) / 64
	return &doubleHashedAP{k: k, n: n, g: g, b: b, perSlot: per, words: make([]uint64, per*uint64(n)),
		hashing: h, totalBits: uint64(n) * b}, nil
}

// pos returns the key's bit in slot s, as an index into the words.
func (f *doubleHashedAP) pos(d variants.Digest, s int) uint64 {
	x := uint64(s)
	v := d.H1 + x*d.H2 + (x*x*x-x)/6
	hi, _ := bits.Mul64(v, f.b)
	return uint64(s)*f.perSlot*64 + hi
}

// Add shifts the slices if the newest generation is full, then sets the
// key's bit in the K newest.
func (f *doubleHashedAP) Add(key []byte) {
	d := f.hashing.Digest(key)
	if f.cur == f.g {
		f.front = (f.front + f.n - 1) % f.n
		clear(f.words[uint64(f.front)*f.perSlot : uint64(f.front+1)*f.perSlot])
		f.cur = 0
	}
	f.cur++
	for i := range f.k {
		p := f.pos(d, (f.front+i)%f.n)
		f.words[p/64] |= 1 << (p % 64)
	}
}

// Contains reports whether K consecutive slices, by age, hold the key's
// bit. It tests the last slice of a candidate run first and jumps past
// an unset one (decred's filter jumps the same way), so an absent key
// costs about (K + L)/K tests.
func (f *doubleHashedAP) Contains(key []byte) bool {
	d := f.hashing.Digest(key)
	set := func(j int) bool {
		p := f.pos(d, (f.front+j)%f.n)
		return f.words[p/64]&(1<<(p%64)) != 0
	}
	start := 0 // the first age a run may start at
	for start+f.k <= f.n {
		end := start + f.k - 1
		if !set(end) {
			start = end + 1
			continue
		}
		run := true
		for i := end - 1; i >= start; i-- {
			if !set(i) {
				start, run = i+1, false
				break
			}
		}
		if run {
			return true
		}
	}
	return false
}

// Bits returns the bits of the slices, (K + L) SliceBits.
func (f *doubleHashedAP) Bits() uint64 { return f.totalBits }

// String names the model and its geometry.
func (f *doubleHashedAP) String() string {
	return fmt.Sprintf("double-hashed age-partitioned k=%d l=%d g=%d b=%d", f.k, f.n-f.k, f.g, f.b)
}
