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

// The blocked filter's batches run in one call of blockedContains or
// blockedAdd: the digest forms hand the whole batch over, and the key
// forms hash batchKeyGroup keys into an array of digests, then hand the
// group over (xxh3 stays in Go: it is the Go package's code, which the
// assembly cannot call without leaving the loop). On amd64 with AVX2 and
// blocks of 256 or 512 bits the loop is assembly (probe_amd64.s): it
// locates each key's block, prefetches it 16 keys ahead, and tests or
// sets the key's bits, the whole batch in one call; otherwise
// blockedContainsGo and blockedAddGo run it in Go, in groups of
// batchGroup keys whose blocks are read (touch) before any is tested.
// Either way a table under prefetchBytes, in cache, is not prefetched.

// batchKeyGroup is the number of keys the key forms of the blocked
// filter's batches hash before they call the batch loop: a call's cost is
// shared by 32 keys, and the 512 bytes of digests stay in L1.
const batchKeyGroup = 32

// batchArgs returns the table address, the number of blocks z (from the
// table's length, as block computes it) and whether the batch loops
// should prefetch.
func (f *Blocked) batchArgs() (words unsafe.Pointer, z uint64, prefetch bool) {
	s := (f.blockShift - 3) & 63
	n := uint64(len(f.words))
	return unsafe.Pointer(unsafe.SliceData(f.words)), n << 3 >> s, n*8 > prefetchBytes
}

// addDigests sets the bits of every digest of ds (not empty).
func (f *Blocked) addDigests(ds []Digest) {
	words, z, prefetch := f.batchArgs()
	blockedAdd(words, z, f.k, f.perWord, f.blockShift, unsafe.Pointer(&ds[0]), unsafe.Sizeof(Digest{}), len(ds), prefetch)
	f.items += uint64(len(ds))
}

// containsDigests sets out[i] to the answer for ds[i], for the digests of
// ds (not empty); out is at least as long.
func (f *Blocked) containsDigests(ds []Digest, out []bool) {
	_ = out[len(ds)-1]
	words, z, prefetch := f.batchArgs()
	blockedContains(words, z, f.k, f.perWord, f.blockShift, unsafe.Pointer(&ds[0]), unsafe.Sizeof(Digest{}), len(ds), &out[0], prefetch)
}

// AddBatch inserts every key of keys (see [Batcher]): it hashes 32 keys
// at a time in Go and sets their bits in one call of the batch loop
// (assembly on amd64 with AVX2 for blocks of 256 and 512 bits).
func (f *Blocked) AddBatch(keys [][]byte) {
	var ds [batchKeyGroup]Digest
	for len(keys) > 0 {
		n := min(len(keys), batchKeyGroup)
		for i, key := range keys[:n] {
			ds[i] = f.sum(key)
		}
		f.addDigests(ds[:n])
		keys = keys[n:]
	}
}

// ContainsBatch sets out[i] to Contains(keys[i]) (see [Batcher]): it
// hashes 32 keys at a time in Go and tests them in one call of the batch
// loop (assembly on amd64 with AVX2 for blocks of 256 and 512 bits).
func (f *Blocked) ContainsBatch(keys [][]byte, out []bool) {
	checkOut(len(keys), out)
	var ds [batchKeyGroup]Digest
	for len(keys) > 0 {
		n := min(len(keys), batchKeyGroup)
		for i, key := range keys[:n] {
			ds[i] = f.sum(key)
		}
		f.containsDigests(ds[:n], out)
		keys, out = keys[n:], out[n:]
	}
}

// AddDigestBatch inserts the keys whose digests are ds (see [Batcher]), in
// one call of the batch loop: assembly on amd64 with AVX2 for blocks of
// 256 and 512 bits, which prefetches each block 16 keys ahead of setting
// it.
func (f *Blocked) AddDigestBatch(ds []Digest) {
	if len(ds) > 0 {
		f.addDigests(ds)
	}
}

// ContainsDigestBatch sets out[i] to ContainsDigest(ds[i]) (see
// [Batcher]), in one call of the batch loop: assembly on amd64 with AVX2
// for blocks of 256 and 512 bits, which prefetches each block 16 keys
// ahead of testing it.
func (f *Blocked) ContainsDigestBatch(ds []Digest, out []bool) {
	checkOut(len(ds), out)
	if len(ds) > 0 {
		f.containsDigests(ds, out)
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

// blockedDigest returns the block of the i-th digest at d (stride bytes
// apart) in the table at words of z blocks of 1 << bsh bytes, and its h2.
func blockedDigest(words unsafe.Pointer, z uint64, bsh uint, d unsafe.Pointer, stride uintptr, i int) (unsafe.Pointer, uint64) {
	p := unsafe.Add(d, uintptr(i)*stride)
	return unsafe.Add(words, reduce(*(*uint64)(p), z)<<(bsh&63)), *(*uint64)(unsafe.Add(p, 8))
}

// blockedContainsGo is the pure-Go form of blockedContains: in groups of
// batchGroup keys, it locates every block of the group, reads one word of
// each if prefetch is set (touch), then tests the keys with
// blockedTestGo.
func blockedContainsGo(words unsafe.Pointer, z uint64, k, per int, shift uint, d unsafe.Pointer, stride uintptr, n int, out *bool, prefetch bool) {
	if n <= 0 {
		return
	}
	o, bsh := unsafe.Slice(out, n), shift-3
	var at [batchGroup]unsafe.Pointer
	for lo := 0; lo < n; lo += batchGroup {
		g := at[:min(n-lo, batchGroup)]
		if prefetch {
			for i := range g {
				g[i], _ = blockedDigest(words, z, bsh, d, stride, lo+i)
			}
			touch(g)
		}
		for i := range g {
			b, h2 := blockedDigest(words, z, bsh, d, stride, lo+i)
			o[lo+i] = blockedTestGo(b, h2, k, per, shift)
		}
	}
}

// blockedAddGo is the pure-Go form of blockedAdd: blockedContainsGo's
// groups, with the bits set by blockedSetGo.
func blockedAddGo(words unsafe.Pointer, z uint64, k, per int, shift uint, d unsafe.Pointer, stride uintptr, n int, prefetch bool) {
	bsh := shift - 3
	var at [batchGroup]unsafe.Pointer
	for lo := 0; lo < n; lo += batchGroup {
		g := at[:min(n-lo, batchGroup)]
		if prefetch {
			for i := range g {
				g[i], _ = blockedDigest(words, z, bsh, d, stride, lo+i)
			}
			touch(g)
		}
		for i := range g {
			b, h2 := blockedDigest(words, z, bsh, d, stride, lo+i)
			blockedSetGo(b, h2, k, per, shift)
		}
	}
}

// blockedSetGo sets the k bits of h2 in the block at b, as Blocked.set
// does (shift bits per position, per = 64/shift positions per value).
func blockedSetGo(b unsafe.Pointer, h2 uint64, k, per int, shift uint) {
	s, mask := shift&63, uint64(1)<<(shift&63)-1
	x := h2
	for t := uint64(1); ; t++ {
		n := min(k, per)
		for range n {
			i := x & mask
			*wordPtr(b, i) |= 1 << (i & 63)
			x >>= s
		}
		if k -= n; k <= 0 {
			return
		}
		x = mix64(h2 + t*weyl)
	}
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

// The standard filter's batches are plain loops over the one-key forms.
// Reading ahead does not pay here: a query already issues its first four
// loads at once (see Standard.test), and the processor overlaps the
// loads of consecutive keys of a loop by itself. Reading the word of each
// key's first probe for a group of 16 before testing them made batches of
// 32 absent queries with digests given 1.25 to 1.56 times slower than the
// loop at n = 1e6 and 1.12 to 1.14 times slower at 3e7 (p = 0.01; medians
// of 40 interleaved rounds on a loaded 2-core AMD EPYC); reading the first
// two or four probes was no better. The methods exist so that the
// standard filter serves callers written for [Batcher].

var (
	_ Batcher = (*Standard)(nil)
	_ Batcher = (*Scalable)(nil)
)

// AddBatch inserts every key of keys (see [Batcher]).
func (f *Standard) AddBatch(keys [][]byte) {
	for _, k := range keys {
		f.Add(k)
	}
}

// ContainsBatch sets out[i] to Contains(keys[i]) (see [Batcher]).
func (f *Standard) ContainsBatch(keys [][]byte, out []bool) {
	checkOut(len(keys), out)
	for i, k := range keys {
		out[i] = f.Contains(k)
	}
}

// AddDigestBatch inserts the keys whose digests are ds (see [Batcher]).
func (f *Standard) AddDigestBatch(ds []Digest) {
	for _, d := range ds {
		f.AddDigest(d)
	}
}

// ContainsDigestBatch sets out[i] to ContainsDigest(ds[i]) (see [Batcher]).
func (f *Standard) ContainsDigestBatch(ds []Digest, out []bool) {
	checkOut(len(ds), out)
	for i, d := range ds {
		out[i] = f.ContainsDigest(d)
	}
}

// The scalable filter's batches. With blocked stages of the stream
// derivation and a newest stage larger than prefetchBytes, a batch takes
// a group of keys at a time (about 64 blocks: 16 keys for up to four
// stages, fewer as the stages grow in number): it prefetches the block of
// every stage for every key of the group in one call
// (streamBlockedPrefetch), so that the misses of the whole group are in
// flight together, then handles each key as one key at a time does, its
// blocks now arriving or in cache: a query with the stage query's own
// prefetch pass off, an add with TestAndAddDigest, which tests the key,
// skips it if present and adds it (growing the filter) otherwise, in
// order, so that the filter ends bit for bit as after Add on each key in
// turn. Smaller filters, partitioned stages and the remixed derivation
// run the keys one by one.

// batchGroupOf returns the number of keys per group of the scalable
// filter's batches, or 0 if its batches run the keys one by one.
func (f *Scalable) batchGroupOf() int {
	if !f.stream || f.blockBits == 0 {
		return 0
	}
	top := &f.hot[f.live-1]
	if top.b<<(top.bshift&63) <= prefetchBytes {
		return 0
	}
	return min(batchGroup, max(1, 64/f.live))
}

// prefetchGroup prefetches every stage's block for the seeds of ds (at
// most batchGroup digests) and stores the seeds in seeds.
func (f *Scalable) prefetchGroup(ds []Digest, seeds *[batchGroup]uint64) {
	for i, d := range ds {
		seeds[i] = streamSeed(d)
	}
	streamBlockedPrefetch(unsafe.Pointer(unsafe.SliceData(f.hot)), f.live, &seeds[0], len(ds))
}

// streamBlockedPrefetchGo is the pure-Go form of streamBlockedPrefetch: it
// reads one word of every block (as touch does).
func streamBlockedPrefetchGo(hot unsafe.Pointer, n int, seeds *uint64, m int) {
	stages := unsafe.Slice((*streamStage)(hot), n)
	var t uint64
	for _, s := range unsafe.Slice(seeds, m) {
		for j := range stages {
			st := &stages[j]
			t |= *(*uint64)(st.block(wyout(s + st.x0 + wyp0)))
		}
	}
	runtime.KeepAlive(t) // the loads must happen
}

// sum returns the digest of key, calling xxh3 directly for the default
// hash.
func (f *Scalable) sum(key []byte) Digest {
	if f.hashing.Kind == XXH3 {
		u := xxh3.Hash128Seed(key, f.hashing.Seed)
		return Digest{u.Lo, u.Hi}
	}
	return f.hashing.Digest(key)
}

// ContainsDigestBatch sets out[i] to ContainsDigest(ds[i]) (see
// [Batcher]). Like ContainsDigest it is safe for concurrent use while
// nothing mutates the filter.
func (f *Scalable) ContainsDigestBatch(ds []Digest, out []bool) {
	checkOut(len(ds), out)
	g := f.batchGroupOf()
	if g == 0 {
		for i, d := range ds {
			out[i] = f.ContainsDigest(d)
		}
		return
	}
	hot := f.hot[:f.live]
	asm := useAVX2 && (hot[0].bbits == 8 || hot[0].bbits == 9)
	var seeds [batchGroup]uint64
	for len(ds) > 0 {
		n := min(len(ds), g)
		f.prefetchGroup(ds[:n], &seeds)
		for i, s := range seeds[:n] {
			if asm {
				out[i] = streamBlockedTest(unsafe.Pointer(unsafe.SliceData(hot)), len(hot), s, false)
			} else {
				out[i] = streamBlockedTestGo(hot, s)
			}
		}
		ds, out = ds[n:], out[n:]
	}
}

// ContainsBatch sets out[i] to Contains(keys[i]) (see [Batcher]). Like
// Contains it is safe for concurrent use while nothing mutates the filter.
func (f *Scalable) ContainsBatch(keys [][]byte, out []bool) {
	checkOut(len(keys), out)
	var ds [batchGroup]Digest
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		for i, key := range keys[:n] {
			ds[i] = f.sum(key)
		}
		f.ContainsDigestBatch(ds[:n], out)
		keys, out = keys[n:], out[n:]
	}
}

// AddDigestBatch inserts, in order, each key whose digest is in ds unless
// it tests present, as AddDigest on each in turn would (see [Batcher]).
func (f *Scalable) AddDigestBatch(ds []Digest) {
	var seeds [batchGroup]uint64
	for len(ds) > 0 {
		// The filter may grow during a group: decide per group.
		n := len(ds)
		if g := f.batchGroupOf(); g > 0 {
			n = min(n, g)
			f.prefetchGroup(ds[:n], &seeds)
		}
		for _, d := range ds[:n] {
			f.TestAndAddDigest(d)
		}
		ds = ds[n:]
	}
}

// AddBatch inserts, in order, each key of keys unless it tests present, as
// Add on each in turn would (see [Batcher]).
func (f *Scalable) AddBatch(keys [][]byte) {
	var ds [batchGroup]Digest
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		for i, key := range keys[:n] {
			ds[i] = f.sum(key)
		}
		f.AddDigestBatch(ds[:n])
		keys = keys[n:]
	}
}
