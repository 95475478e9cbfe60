package variants

import "unsafe"

var _ Batcher = (*Multiblock)(nil)

// The multiblock filter's batches work a group of batchGroup keys at a
// time: in a table of at least multiTouchBytes they locate every key's
// block and read its first and last words (touch), so that the group's
// cache misses are in flight together, then test or set each key with the
// one-key probe, which finds its block in cache. BenchmarkMultiblockBatch
// measures them against one call per key.

// multiGroup is a group of digests of a batch and their blocks' first
// words.
type multiGroup struct {
	ds      [batchGroup]Digest
	at, end [batchGroup]unsafe.Pointer
}

// multiTouchBytes is the smallest table whose batches read ahead: in a
// table that fits a core's L2 the reads cost more than the misses they
// overlap (BenchmarkMultiblockBatch, 256 KiB: 1.2 to 1.3 times the time of
// one call per key when they read ahead there too); far beyond it they pay
// (256 MiB, 2 vCPU AMD EPYC Zen 4 at a load average near 2: absent
// queries 0.3 to 0.6 times the time of one call per key for
// multiblock<uint32_t, 8>, 0.5 to 0.9 for multiblock<uint64_t, 5> at a
// byte stride; adds 0.3 to 0.4 and 0.9 to 1.0).
const multiTouchBytes = 4 << 20

// locate fills g.at and g.end for the n digests of g.ds, the first and
// last words of their blocks, and reads them; in a table under
// multiTouchBytes it does nothing.
func (f *Multiblock) locate(g *multiGroup, n int) {
	if len(f.words) < multiTouchBytes/8 {
		return
	}
	l := f.w
	if f.multi {
		l *= uint64(f.k)
	}
	for i := range n {
		s := f.start(g.ds[i].H1)
		g.at[i] = unsafe.Pointer(&f.words[s>>6])
		g.end[i] = unsafe.Pointer(&f.words[(s+l-1)>>6])
	}
	touch(g.at[:n])
	touch(g.end[:n])
}

// AddBatch inserts every key of keys (see [Batcher]).
func (f *Multiblock) AddBatch(keys [][]byte) {
	var g multiGroup
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		for i, k := range keys[:n] {
			g.ds[i] = f.hashing.Digest(k)
		}
		f.locate(&g, n)
		for _, d := range g.ds[:n] {
			f.AddDigest(d)
		}
		keys = keys[n:]
	}
}

// ContainsBatch sets out[i] to Contains(keys[i]) (see [Batcher]).
func (f *Multiblock) ContainsBatch(keys [][]byte, out []bool) {
	checkOut(len(keys), out)
	var g multiGroup
	for len(keys) > 0 {
		n := min(len(keys), batchGroup)
		for i, k := range keys[:n] {
			g.ds[i] = f.hashing.Digest(k)
		}
		f.locate(&g, n)
		for i, d := range g.ds[:n] {
			out[i] = f.ContainsDigest(d)
		}
		keys, out = keys[n:], out[n:]
	}
}

// AddDigestBatch inserts the keys whose digests are ds (see [Batcher]).
func (f *Multiblock) AddDigestBatch(ds []Digest) {
	var g multiGroup
	for len(ds) > 0 {
		n := copy(g.ds[:], ds)
		f.locate(&g, n)
		for _, d := range ds[:n] {
			f.AddDigest(d)
		}
		ds = ds[n:]
	}
}

// ContainsDigestBatch sets out[i] to ContainsDigest(ds[i]) (see [Batcher]).
func (f *Multiblock) ContainsDigestBatch(ds []Digest, out []bool) {
	checkOut(len(ds), out)
	var g multiGroup
	for len(ds) > 0 {
		n := copy(g.ds[:], ds)
		f.locate(&g, n)
		for i, d := range ds[:n] {
			out[i] = f.ContainsDigest(d)
		}
		ds, out = ds[n:], out[n:]
	}
}
