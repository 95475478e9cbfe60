package variants

import (
	"runtime"
	"unsafe"

	"github.com/zeebo/xxh3"
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

// touch reads the first word of every block of at, one independent load
// each, so that all their cache misses are in flight together. Far beyond
// the cache this brings a blocked filter's batched query close to the cost
// of one random line load per key; BenchmarkBlocked (n=3e7) measures the
// batch against one-at-a-time calls and the random-lines baseline.
func touch(at []unsafe.Pointer) {
	var t uint64
	for _, p := range at {
		t |= *(*uint64)(p)
	}
	runtime.KeepAlive(t) // the loads must happen
}

// group is the state of one group of a batch: each key's block and the
// rest of its hash.
type group struct {
	at   [batchGroup]unsafe.Pointer
	rest [batchGroup]uint64
}

// AddBatch inserts every key of keys (see [Batcher]).
func (f *Blocked) AddBatch(keys [][]byte) {
	var g group
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		for i, key := range keys[:n] {
			d := f.sum(key)
			g.at[i], g.rest[i] = f.block(d.H1), d.H2
		}
		touch(g.at[:n])
		for i := range n {
			f.set(g.at[i], g.rest[i])
		}
		f.items += uint64(n)
		keys = keys[n:]
	}
}

// ContainsBatch sets out[i] to Contains(keys[i]) (see [Batcher]).
func (f *Blocked) ContainsBatch(keys [][]byte, out []bool) {
	checkOut(len(keys), out)
	var g group
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		for i, key := range keys[:n] {
			d := f.sum(key)
			g.at[i], g.rest[i] = f.block(d.H1), d.H2
		}
		touch(g.at[:n])
		for i := range n {
			out[i] = f.test(g.at[i], g.rest[i])
		}
		keys, out = keys[n:], out[n:]
	}
}

// AddDigestBatch inserts the keys whose digests are ds (see [Batcher]).
func (f *Blocked) AddDigestBatch(ds []Digest) {
	var g group
	for len(ds) > 0 {
		n := min(len(ds), batchGroup)
		for i, d := range ds[:n] {
			g.at[i] = f.block(d.H1)
		}
		touch(g.at[:n])
		for i, d := range ds[:n] {
			f.set(g.at[i], d.H2)
		}
		f.items += uint64(n)
		ds = ds[n:]
	}
}

// ContainsDigestBatch sets out[i] to ContainsDigest(ds[i]) (see [Batcher]).
func (f *Blocked) ContainsDigestBatch(ds []Digest, out []bool) {
	checkOut(len(ds), out)
	var g group
	for len(ds) > 0 {
		n := min(len(ds), batchGroup)
		for i, d := range ds[:n] {
			g.at[i] = f.block(d.H1)
		}
		touch(g.at[:n])
		for i, d := range ds[:n] {
			out[i] = f.test(g.at[i], d.H2)
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
	return f.hashing.Digest(key)
}

// The split-block filter's batches hash a group of keys into hs, touch
// the group's blocks, then set or test the bits of the whole group in one
// call of the block probe loop (splitAdd and splitContains). The hash
// forms hand all their digests to the probe loop at once: its fourteen
// instructions per key (AVX2) leave the processor room for the cache
// misses of many keys in flight without a touch pass, which would only
// add loads. BenchmarkBlocked (n=3e7) and BenchmarkParquet in module
// compare measure the batches.

// hashGroup hashes keys (at most batchGroup of them) into hs[:len(keys)].
func (f *SplitBlock) hashGroup(keys [][]byte, hs *[batchGroup]uint64) {
	for i, key := range keys {
		hs[i] = f.hash64(key)
	}
}

// touchHashes reads the first word of the block of every hash of hs, as
// touch does for pointers.
func (f *SplitBlock) touchHashes(hs []uint64) {
	var t uint64
	for _, h := range hs {
		t |= *(*uint64)(f.block(h))
	}
	runtime.KeepAlive(t)
}

// addHashes sets the bits of n hashes stride bytes apart from h.
func (f *SplitBlock) addHashes(h unsafe.Pointer, stride uintptr, n int) {
	splitAdd(f.base(), f.z(), h, stride, n)
	f.items += uint64(n)
}

// containsHashes sets out[:n] to the answers for n hashes stride bytes
// apart from h.
func (f *SplitBlock) containsHashes(h unsafe.Pointer, stride uintptr, n int, out []bool) {
	_ = out[n-1]
	splitContains(f.base(), f.z(), h, stride, n, &out[0])
}

// AddBatch inserts every key of keys (see [Batcher]).
func (f *SplitBlock) AddBatch(keys [][]byte) {
	var hs [batchGroup]uint64
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		f.hashGroup(keys[:n], &hs)
		f.touchHashes(hs[:n])
		f.addHashes(unsafe.Pointer(&hs[0]), 8, n)
		keys = keys[n:]
	}
}

// ContainsBatch sets out[i] to Contains(keys[i]) (see [Batcher]).
func (f *SplitBlock) ContainsBatch(keys [][]byte, out []bool) {
	checkOut(len(keys), out)
	var hs [batchGroup]uint64
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		f.hashGroup(keys[:n], &hs)
		f.touchHashes(hs[:n])
		f.containsHashes(unsafe.Pointer(&hs[0]), 8, n, out)
		keys, out = keys[n:], out[n:]
	}
}

// AddDigestBatch inserts the keys whose digests are ds (see [Batcher]); it
// uses each digest's H1.
func (f *SplitBlock) AddDigestBatch(ds []Digest) {
	if len(ds) == 0 {
		return
	}
	f.addHashes(unsafe.Pointer(&ds[0].H1), unsafe.Sizeof(Digest{}), len(ds))
}

// ContainsDigestBatch sets out[i] to ContainsDigest(ds[i]) (see [Batcher]).
func (f *SplitBlock) ContainsDigestBatch(ds []Digest, out []bool) {
	checkOut(len(ds), out)
	if len(ds) == 0 {
		return
	}
	f.containsHashes(unsafe.Pointer(&ds[0].H1), unsafe.Sizeof(Digest{}), len(ds), out)
}

// The age-partitioned filter's batches. Its blocked layout batches as
// Blocked does (see Batcher): it locates the index of a group of 16 keys,
// reads one word of each so that their cache misses overlap, then sets or
// tests them in order. The plain layout, whose keys touch K separate
// slices each, runs the keys one by one. Either way a batch reads the
// clock once (with Refresh), at its start.

// blockOf returns the first word of the blocked index of seed s.
func (f *AgePartitioned) blockOf(s uint64) unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(unsafe.SliceData(f.words)), uintptr(reduce(wyout(s+wyp0), f.blks))*f.step)
}

// AddBatch inserts every key of keys in order (see [Batcher]).
func (f *AgePartitioned) AddBatch(keys [][]byte) {
	f.Tick()
	if !f.blocked {
		for _, k := range keys {
			f.insert(f.sum(k))
		}
		return
	}
	var g group
	var ds [batchGroup]Digest
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		for i, key := range keys[:n] {
			ds[i] = f.sum(key)
			g.at[i] = f.blockOf(streamSeed(ds[i]))
		}
		touch(g.at[:n])
		for i := range n {
			f.insert(ds[i])
		}
		keys = keys[n:]
	}
}

// AddDigestBatch inserts the keys whose digests are ds, in order (see
// [Batcher]).
func (f *AgePartitioned) AddDigestBatch(ds []Digest) {
	f.Tick()
	if !f.blocked {
		for _, d := range ds {
			f.insert(d)
		}
		return
	}
	var g group
	for len(ds) > 0 {
		n := min(len(ds), batchGroup)
		for i, d := range ds[:n] {
			g.at[i] = f.blockOf(streamSeed(d))
		}
		touch(g.at[:n])
		for _, d := range ds[:n] {
			f.insert(d)
		}
		ds = ds[n:]
	}
}

// ContainsBatch sets out[i] to Contains(keys[i]) (see [Batcher]).
func (f *AgePartitioned) ContainsBatch(keys [][]byte, out []bool) {
	checkOut(len(keys), out)
	live := f.live()
	if !f.blocked {
		for i, k := range keys {
			out[i] = f.containsSeed(streamSeed(f.sum(k)), live)
		}
		return
	}
	var g group
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		for i, key := range keys[:n] {
			g.rest[i] = streamSeed(f.sum(key))
			g.at[i] = f.blockOf(g.rest[i])
		}
		touch(g.at[:n])
		for i := range n {
			out[i] = f.testBlock(g.at[i], g.rest[i], live)
		}
		keys, out = keys[n:], out[n:]
	}
}

// ContainsDigestBatch sets out[i] to ContainsDigest(ds[i]) (see [Batcher]).
func (f *AgePartitioned) ContainsDigestBatch(ds []Digest, out []bool) {
	checkOut(len(ds), out)
	live := f.live()
	if !f.blocked {
		for i, d := range ds {
			out[i] = f.containsSeed(streamSeed(d), live)
		}
		return
	}
	var g group
	for len(ds) > 0 {
		n := min(len(ds), batchGroup)
		for i, d := range ds[:n] {
			g.rest[i] = streamSeed(d)
			g.at[i] = f.blockOf(g.rest[i])
		}
		touch(g.at[:n])
		for i := range n {
			out[i] = f.testBlock(g.at[i], g.rest[i], live)
		}
		ds, out = ds[n:], out[n:]
	}
}
