package compare

import (
	"fmt"
	"sync"

	"github.com/FastFilter/xorfilter"
	"github.com/zeebo/xxh3"
)

// The static filters of github.com/FastFilter/xorfilter (xor and binary
// fuse filters) are built once from a whole set of 64-bit keys and take no
// insertion afterwards. Wrapped for the harness, a filter keeps the 64-bit
// XXH3 hash (seeded with the harness's seed) of every key Add is given,
// and is built from all the hashes kept so far by Build, or by the first
// Contains or Bits after an Add. A filter measured at several item counts
// is therefore rebuilt from scratch at each, as a user of a static filter
// would rebuild it.

// failures keeps the first error met building any filter of one config:
// Contains cannot return an error, so a filter whose build failed answers
// every query with true (a wrong answer, but never a false negative) and
// the config reports the error (Config.Err).
type failures struct {
	mu  sync.Mutex
	err error
}

func (f *failures) record(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

func (f *failures) first() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// hashBuffer holds the 64-bit hashes of the keys added to a static filter
// and whether the filter is missing some of them.
type hashBuffer struct {
	name   string
	seed   uint64
	hashes []uint64
	stale  bool // keys were added since the last build
	failed bool // the last build failed
	fail   *failures
}

func newHashBuffer(name string, seed, capacity uint64, fail *failures) hashBuffer {
	return hashBuffer{name: name, seed: seed, hashes: make([]uint64, 0, capacity), fail: fail}
}

// Add keeps the key's hash for the next build.
func (b *hashBuffer) Add(key []byte) {
	b.hashes = append(b.hashes, xxh3.HashSeed(key, b.seed))
	b.stale = true
}

// built records the outcome of a build.
func (b *hashBuffer) built(err error) error {
	b.stale = false
	b.failed = err != nil
	if err != nil {
		err = fmt.Errorf("compare: %s: building from %d keys: %w", b.name, len(b.hashes), err)
		b.fail.record(err)
	}
	return err
}

// fingerprints is what a static filter of package xorfilter offers.
type fingerprints interface {
	Contains(key uint64) bool
}

// static is a static filter of type F built by build from the hashes of
// the keys added, with cells of width bits each.
type static[F fingerprints] struct {
	hashBuffer
	f     F
	ok    bool // f holds a built filter
	width uint64
	build func(keys []uint64) (F, error)
	cells func(F) int
}

// Build builds the filter from every key added so far. The library may
// reorder the hashes it is given, or move duplicates to the end of the
// slice; the set they hold stays the same.
func (s *static[F]) Build() error {
	if len(s.hashes) == 0 {
		s.ok = false // the empty set, which the libraries do not build
		return s.built(nil)
	}
	f, err := s.build(s.hashes)
	if err == nil {
		s.f, s.ok = f, true
	}
	return s.built(err)
}

// Contains reports whether key is possibly in the set, building first if
// keys were added since the last build. A filter that could not be built
// answers true; an empty one, false.
func (s *static[F]) Contains(key []byte) bool {
	if s.stale {
		s.Build()
	}
	if s.failed {
		return true
	}
	if !s.ok {
		return false // empty
	}
	return s.f.Contains(xxh3.HashSeed(key, s.seed))
}

// Bits returns the bits of the cells, building first if keys were added
// since the last build.
func (s *static[F]) Bits() uint64 {
	if s.stale {
		s.Build()
	}
	if !s.ok {
		return 0
	}
	return s.width * uint64(s.cells(s.f))
}

// The static filters: xorfilter's Xor8 (8-bit fingerprints in 1.23 n + 32
// cells, Graf and Lemire 2020), BinaryFuse8 and BinaryFuse[uint16] (8- and
// 16-bit fingerprints in about 1.125 n cells for large n, Graf and Lemire
// 2022).
func newXor8(b hashBuffer) *static[*xorfilter.Xor8] {
	return &static[*xorfilter.Xor8]{hashBuffer: b, width: 8, build: xorfilter.Populate,
		cells: func(f *xorfilter.Xor8) int { return len(f.Fingerprints) }}
}

func newFuse8(b hashBuffer) *static[*xorfilter.BinaryFuse8] {
	return &static[*xorfilter.BinaryFuse8]{hashBuffer: b, width: 8, build: xorfilter.PopulateBinaryFuse8,
		cells: func(f *xorfilter.BinaryFuse8) int { return len(f.Fingerprints) }}
}

func newFuse16(b hashBuffer) *static[*xorfilter.BinaryFuse[uint16]] {
	return &static[*xorfilter.BinaryFuse[uint16]]{hashBuffer: b, width: 16, build: xorfilter.NewBinaryFuse[uint16],
		cells: func(f *xorfilter.BinaryFuse[uint16]) int { return len(f.Fingerprints) }}
}
