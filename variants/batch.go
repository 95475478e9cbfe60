package variants

import (
	"unsafe"

	"github.com/zeebo/xxh3"
)

// Batcher is implemented by filters with batched operations, which take
// many keys at once so that the memory accesses of different keys overlap
// instead of waiting one for another: the filter hashes a group of keys,
// computes where each one's bits lie, and only then reads or writes them.
// Where a key's bits lie in one block (Blocked, SplitBlock) the processor
// then has a whole group's cache misses in flight at once.
//
// AddBatch(keys) has the effect of Add on each key in turn, and
// ContainsBatch(keys, out) sets out[i] = Contains(keys[i]); ContainsBatch
// panics if out is shorter than keys. Neither allocates.
type Batcher interface {
	// AddBatch inserts every key of keys.
	AddBatch(keys [][]byte)
	// ContainsBatch sets out[i] to whether keys[i] is possibly in the
	// set, for every i < len(keys).
	ContainsBatch(keys [][]byte, out []bool)
	// AddHashBatch inserts the keys whose digests are ds.
	AddHashBatch(ds []Digest)
	// ContainsHashBatch sets out[i] to ContainsHash(ds[i]).
	ContainsHashBatch(ds []Digest, out []bool)
}

var (
	_ Batcher = (*Blocked)(nil)
	_ Batcher = (*SplitBlock)(nil)
)

// batchGroup is the number of keys whose blocks are located before any is
// read: enough to cover the ten to twenty cache misses a core keeps in
// flight, small enough for the group's state to stay in L1.
const batchGroup = 16

// checkOut panics if out cannot hold n answers.
func checkOut(n int, out []bool) {
	if len(out) < n {
		panic("variants: ContainsBatch with an output slice shorter than its input")
	}
}

// AddBatch inserts every key of keys (see Batcher).
func (f *Blocked) AddBatch(keys [][]byte) {
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		var at [batchGroup]unsafe.Pointer
		var h2 [batchGroup]uint64
		for i, key := range keys[:n] {
			d := f.sum(key)
			at[i], h2[i] = f.block(d.H1), d.H2
		}
		for i := range n {
			f.set(at[i], h2[i])
		}
		f.items += uint64(n)
		keys = keys[n:]
	}
}

// ContainsBatch sets out[i] to Contains(keys[i]) (see Batcher).
func (f *Blocked) ContainsBatch(keys [][]byte, out []bool) {
	checkOut(len(keys), out)
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		var at [batchGroup]unsafe.Pointer
		var h2 [batchGroup]uint64
		var touch uint64
		for i, key := range keys[:n] {
			d := f.sum(key)
			at[i], h2[i] = f.block(d.H1), d.H2
			touch |= *(*uint64)(at[i])
		}
		for i := range n {
			out[i] = f.testFrom(at[i], h2[i], touch)
		}
		keys, out = keys[n:], out[n:]
	}
}

// AddHashBatch inserts the keys whose digests are ds (see Batcher).
func (f *Blocked) AddHashBatch(ds []Digest) {
	for len(ds) > 0 {
		n := min(len(ds), batchGroup)
		var at [batchGroup]unsafe.Pointer
		for i, d := range ds[:n] {
			at[i] = f.block(d.H1)
		}
		for i, d := range ds[:n] {
			f.set(at[i], d.H2)
		}
		f.items += uint64(n)
		ds = ds[n:]
	}
}

// ContainsHashBatch sets out[i] to ContainsHash(ds[i]) (see Batcher).
func (f *Blocked) ContainsHashBatch(ds []Digest, out []bool) {
	checkOut(len(ds), out)
	for len(ds) > 0 {
		n := min(len(ds), batchGroup)
		var at [batchGroup]unsafe.Pointer
		for i, d := range ds[:n] {
			at[i] = f.block(d.H1)
		}
		for i, d := range ds[:n] {
			out[i] = f.test(at[i], d.H2)
		}
		ds, out = ds[n:], out[n:]
	}
}

// sum returns the digest of key, calling xxh3 directly for the default
// hash.
func (f *Blocked) sum(key []byte) Digest {
	if f.hashing.Kind == XXH3 {
		u := xxh3.Hash128Seed(key, f.hashing.Seed)
		return Digest{u.Lo, u.Hi}
	}
	return f.hashing.Sum(key)
}

// AddBatch inserts every key of keys (see Batcher).
func (f *SplitBlock) AddBatch(keys [][]byte) {
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		var at [batchGroup]unsafe.Pointer
		var x [batchGroup]uint32
		for i, key := range keys[:n] {
			h := f.hash64(key)
			at[i], x[i] = f.block(h), uint32(h)
		}
		for i := range n {
			f.set(at[i], x[i])
		}
		f.items += uint64(n)
		keys = keys[n:]
	}
}

// ContainsBatch sets out[i] to Contains(keys[i]) (see Batcher).
func (f *SplitBlock) ContainsBatch(keys [][]byte, out []bool) {
	checkOut(len(keys), out)
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		var at [batchGroup]unsafe.Pointer
		var x [batchGroup]uint32
		for i, key := range keys[:n] {
			h := f.hash64(key)
			at[i], x[i] = f.block(h), uint32(h)
		}
		for i := range n {
			out[i] = f.test(at[i], x[i])
		}
		keys, out = keys[n:], out[n:]
	}
}

// AddHashBatch inserts the keys whose digests are ds (see Batcher).
func (f *SplitBlock) AddHashBatch(ds []Digest) {
	for len(ds) > 0 {
		n := min(len(ds), batchGroup)
		var at [batchGroup]unsafe.Pointer
		for i, d := range ds[:n] {
			at[i] = f.block(d.H1)
		}
		for i, d := range ds[:n] {
			f.set(at[i], uint32(d.H1))
		}
		f.items += uint64(n)
		ds = ds[n:]
	}
}

// ContainsHashBatch sets out[i] to ContainsHash(ds[i]) (see Batcher).
func (f *SplitBlock) ContainsHashBatch(ds []Digest, out []bool) {
	checkOut(len(ds), out)
	for len(ds) > 0 {
		n := min(len(ds), batchGroup)
		var at [batchGroup]unsafe.Pointer
		for i, d := range ds[:n] {
			at[i] = f.block(d.H1)
		}
		for i, d := range ds[:n] {
			out[i] = f.test(at[i], uint32(d.H1))
		}
		ds, out = ds[n:], out[n:]
	}
}
