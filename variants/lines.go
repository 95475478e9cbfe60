package variants

import (
	"slices"
	"sync/atomic"
	"unsafe"
)

// lineSet collects the distinct 64-byte lines of the addresses loaded.
type lineSet struct {
	buf   [32]uintptr
	lines []uintptr
}

// add records a load of 8 bytes at p.
func (s *lineSet) add(p unsafe.Pointer) { s.addRange(p, 8) }

// addRange records a load of the n bytes from p.
func (s *lineSet) addRange(p unsafe.Pointer, n uintptr) {
	if s.lines == nil {
		s.lines = s.buf[:0]
	}
	for l := uintptr(p) >> 6; l <= (uintptr(p)+n-1)>>6; l++ {
		if !slices.Contains(s.lines, l) {
			s.lines = append(s.lines, l)
		}
	}
}

func (s *lineSet) count() int { return len(s.lines) }

// probes returns the k values g_0 .. g_(k-1) that h derives from d, each
// mixed if mix is set, and the size of the groups in which the word-array
// filters load them: four for the derivations with a recurrence (the hot
// loops test once per group of four, and read the last k mod 4 together),
// one for Independent (the general path stops at the first clear bit).
func (h hashConf) probes(d Digest, k int, mix bool) (vals []uint64, group int) {
	vals = make([]uint64, 0, k)
	h.eachValue(d, k, mix, func(g uint64) bool {
		vals = append(vals, g)
		return true
	})
	if _, _, _, _, ok := h.recurrence(d); ok {
		return vals, 4
	}
	return vals, 1
}

// groupLines records the loads of a query that reads k probes in groups of
// g, all loads of a group before its test, and stops after the first group
// with a clear probe; probe(j) returns the address probe j loads and
// whether its cell passes. It reports whether every probe passed.
func (s *lineSet) groupLines(k, g int, probe func(j int) (unsafe.Pointer, bool)) bool {
	for lo := 0; lo < k; lo += g {
		pass := true
		for j := lo; j < min(lo+g, k); j++ {
			p, ok := probe(j)
			s.add(p)
			pass = pass && ok
		}
		if !pass {
			return false
		}
	}
	return true
}

// wordAt returns the address of word i of words.
func wordAt(words []uint64, i uint64) unsafe.Pointer { return unsafe.Pointer(&words[i]) }

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d) reads
// (see [LineCounter]).
func (f *Standard) QueryLines(d Digest) int {
	var s lineSet
	vals, g := f.hashing.probes(d, f.k, false)
	s.groupLines(f.k, g, func(j int) (unsafe.Pointer, bool) {
		i := reduce(vals[j], f.m)
		return wordAt(f.words, i>>6), f.words[i>>6]>>(i&63)&1 != 0
	})
	return s.count()
}

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d) reads
// (see [LineCounter]).
func (f *ConcurrentStandard) QueryLines(d Digest) int {
	var s lineSet
	vals, g := f.hashing.probes(d, f.k, false)
	s.groupLines(f.k, g, func(j int) (unsafe.Pointer, bool) {
		i := reduce(vals[j], f.m)
		return wordAt(f.words, i>>6), atomic.LoadUint64(&f.words[i>>6])>>(i&63)&1 != 0
	})
	return s.count()
}

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d) reads
// (see [LineCounter]).
func (f *Partitioned) QueryLines(d Digest) int {
	var s lineSet
	f.lines(&s, d)
	return s.count()
}

// lines records the loads of ContainsDigest(d) and reports its answer.
func (f *Partitioned) lines(s *lineSet, d Digest) bool {
	vals, g := f.hashing.probes(d, f.k, true)
	return s.groupLines(f.k, g, func(j int) (unsafe.Pointer, bool) {
		i := reduce(vals[j], f.sliceBits)
		w := uint64(j)*f.sliceWords + i>>6
		return wordAt(f.words, w), f.words[w]>>(i&63)&1 != 0
	})
}

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d) reads
// (see [LineCounter]).
func (f *Counting) QueryLines(d Digest) int {
	var s lineSet
	vals, g := f.hashing.probes(d, f.k, false)
	s.groupLines(f.k, g, func(j int) (unsafe.Pointer, bool) {
		i := reduce(vals[j], f.m) << (f.wshift & 7)
		return wordAt(f.words, i>>6), f.words[i>>6]>>(i&63)&f.max != 0
	})
	return s.count()
}

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d) reads
// (see [LineCounter]): the lines of the words that hold the key's k
// positions in its block, all of which the test reads.
func (f *Blocked) QueryLines(d Digest) int {
	var s lineSet
	f.lines(&s, f.block(d.H1), d.H2)
	return s.count()
}

// lines records the loads of test(b, h2) and reports its answer. The
// positions are those of Blocked.test.
func (f *Blocked) lines(s *lineSet, b unsafe.Pointer, h2 uint64) bool {
	sh, mask, per := f.blockShift&63, f.blockBits-1, f.perWord
	x, k := h2, f.k
	pass := true
	for t := uint64(1); ; t++ {
		n := min(k, per)
		for range n {
			i := x & mask
			p := wordPtr(b, i)
			s.add(unsafe.Pointer(p))
			pass = pass && *p>>(i&63)&1 != 0
			x >>= sh
		}
		if k -= n; k == 0 {
			return pass
		}
		x = mix64(h2 + t*weyl)
	}
}

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d) reads
// (see [LineCounter]): those of the key's 32-byte block.
func (f *SplitBlock) QueryLines(d Digest) int {
	var s lineSet
	s.addRange(f.block(d.H1), splitBlockBits/8)
	return s.count()
}

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d) reads
// (see [LineCounter]): the stages' lines, newest stage first, up to the
// first stage that answers present. With blocked stages the query reads
// the first word of the blocks of up to 16 stages before it tests any, and
// those lines count even when an earlier-tested stage answers present.
func (f *Scalable) QueryLines(d Digest) int {
	var s lineSet
	if f.blockBits != 0 {
		f.blockedLines(&s, d)
		return s.count()
	}
	for i := f.live - 1; i >= 0; i-- {
		var present bool
		if f.stream {
			present = f.hot[i].lines(&s, streamSeed(d))
		} else {
			present = f.stages[i].f.lines(&s, d.remix(i))
		}
		if present {
			break
		}
	}
	return s.count()
}

// blockedLines records the loads of containsBlocked and
// containsStreamBlocked.
func (f *Scalable) blockedLines(s *lineSet, d Digest) {
	n := f.live
	at := make([]unsafe.Pointer, n)
	rest := make([]uint64, n)
	for i := range n {
		var h1, h2 uint64
		if f.stream {
			h1, h2 = f.hot[i].blockDigest(streamSeed(d))
		} else {
			r := d.remix(i)
			h1, h2 = r.H1, r.H2
		}
		at[i], rest[i] = f.stages[i].b.block(h1), h2
	}
	for hi := n; hi > 0; hi -= batchGroup {
		lo := max(hi-batchGroup, 0)
		for i := lo; i < hi; i++ {
			s.add(at[i])
		}
		for i := hi - 1; i >= lo; i-- {
			if f.stages[i].b.lines(s, at[i], rest[i]) {
				return
			}
		}
	}
}

// lines records the loads of the stage test of the stream derivation
// (streamStage.test) and reports its answer.
func (st *streamStage) lines(s *lineSet, seed uint64) bool {
	x := seed + st.x0
	return s.groupLines(st.k, 2, func(j int) (unsafe.Pointer, bool) {
		i := st.index(x, j)
		p := wordPtr(unsafe.Add(st.words, uintptr(j)*st.step), i)
		return unsafe.Pointer(p), *p>>(i&63)&1 != 0
	})
}

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d) reads
// (see [LineCounter]): the stages tested newest first, each as the scalable
// filter's stream stages are, in pairs of slices up to the first pair with
// a clear bit, until a stage holds the key.
func (f *Dynamic) QueryLines(d Digest) int {
	var s lineSet
	seed := streamSeed(d)
	for i := f.live - 1; i >= 0; i-- {
		if f.hot[i].lines(&s, seed) {
			break
		}
	}
	return s.count()
}

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d) reads
// (see [LineCounter]): the links tested newest first, each probe by probe
// up to its first clear bit, until a link holds the key.
func (f *RedisBloom) QueryLines(d Digest) int {
	var s lineSet
	for i := f.live - 1; i >= 0; i-- {
		l := &f.links[i]
		if s.groupLines(l.Hashes, 1, func(j int) (unsafe.Pointer, bool) {
			x := redisProbe(d, uint64(j), l.Modulus)
			return wordAt(l.words, x>>6), l.words[x>>6]>>(x&63)&1 != 0
		}) {
			break
		}
	}
	return s.count()
}

// The age-partitioned filter's lines. QueryLines counts the 64-byte lines
// a query reads (see LineCounter), InsertLines those an insert writes,
// with the same exact counter as the other filters.

// QueryLines reports the distinct 64-byte lines that ContainsDigest(d) reads:
// the words of the slices it tests, in the order and with the early exits
// of ContainsDigest.
func (f *AgePartitioned) QueryLines(d Digest) int {
	var ls lineSet
	s := streamSeed(d)
	runOf(f.live(), f.geom.K, func(j int) bool {
		p, ok := f.probe(s, (f.front+j)%f.n)
		ls.add(p)
		return ok
	})
	return ls.count()
}

// InsertLines reports the distinct 64-byte lines that AddDigest(d) would
// write if it did not age the filter first: the word of the key's bit in
// each of the K newest slices.
func (f *AgePartitioned) InsertLines(d Digest) int {
	var ls lineSet
	s := streamSeed(d)
	for j := range f.geom.K {
		p, _ := f.probe(s, (f.front+j)%f.n)
		ls.add(p)
	}
	return ls.count()
}

// probe returns the address of the word that holds seed s's bit in slot r
// and whether the bit is set.
func (f *AgePartitioned) probe(s uint64, r int) (unsafe.Pointer, bool) {
	if f.blocked {
		p := unsafe.Add(f.blockOf(s), r*8)
		return p, *(*uint64)(p)>>blockedBit(s, r)&1 != 0
	}
	i := f.slotIndex(s, r, f.geom.SliceBits)
	p := unsafe.Pointer(wordPtr(unsafe.Add(unsafe.Pointer(unsafe.SliceData(f.words)), uintptr(r)*f.step), i))
	return p, *(*uint64)(p)>>(i&63)&1 != 0
}
