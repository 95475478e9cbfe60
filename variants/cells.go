package variants

import "github.com/bloomlab/bloomlab/analysis"

// FreshCells of every filter counts distinct cells: two probes of one
// digest that land on the same zero cell count once, since the add sets
// that cell once. The count is then exactly the number of cells the add
// turns from zero to non-zero, what a pollution attacker gains by the key
// (for a scalable, dynamic or RedisBloom filter, in the stage or link that
// takes the add). Filters whose probes cannot coincide (one probe per
// slice: partitioned filters and the stages of scalable and dynamic ones)
// need no check; the others remember the zero cells they have counted in a
// small array on the stack, so FreshCells allocates nothing for k up to
// freshStack (and makes one small allocation for larger k), and costs at
// most k(k-1)/2 comparisons more than a test.

// freshStack is the number of hashes up to which FreshCells of a filter
// whose probes may coincide keeps the zero cells it has seen on the stack.
const freshStack = 64

// freshSeen returns an empty slice to hold up to k cell indexes, backed by
// buf when k fits in it.
func freshSeen(buf *[freshStack]uint64, k int) []uint64 {
	if k > len(buf) {
		return make([]uint64, 0, k)
	}
	return buf[:0]
}

// isNew reports whether i is not among seen.
func isNew(seen []uint64, i uint64) bool {
	for _, j := range seen {
		if j == i {
			return false
		}
	}
	return true
}

// FreshCells implements [FreshCounter]: the distinct zero bits among the k
// probes.
func (f *Standard) FreshCells(d Digest) int {
	var buf [freshStack]uint64
	seen := freshSeen(&buf, f.k)
	f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m)
		if f.words[i>>6]>>(i&63)&1 == 0 && isNew(seen, i) {
			seen = append(seen, i)
		}
		return true
	})
	return len(seen)
}

// FreshCells implements [FreshCounter]: the slices whose probe finds a zero
// bit (one probe per slice, so no two coincide).
func (f *Partitioned) FreshCells(d Digest) int {
	n, base := 0, uint64(0)
	f.hashing.eachValue(d, f.k, true, func(g uint64) bool {
		i := reduce(g, f.sliceBits)
		if f.words[base+i>>6]>>(i&63)&1 == 0 {
			n++
		}
		base += f.sliceWords
		return true
	})
	return n
}

// FreshCells implements [FreshCounter], with the positions [Blocked].set takes
// in the block d.H1 picks: the distinct zero bits among them.
func (f *Blocked) FreshCells(d Digest) int {
	block := f.words[reduce(d.H1, f.blocks)*(f.blockBits/64):][:f.blockBits/64]
	s, mask, per := f.blockShift&63, f.blockBits-1, f.perWord
	var buf [freshStack]uint64
	seen := freshSeen(&buf, f.k)
	x, k := d.H2, f.k
	for t := uint64(1); ; t++ {
		c := min(k, per)
		for range c {
			i := x & mask
			if block[i>>6]>>(i&63)&1 == 0 && isNew(seen, i) {
				seen = append(seen, i)
			}
			x >>= s
		}
		if k -= c; k == 0 {
			return len(seen)
		}
		x = mix64(d.H2 + t*weyl)
	}
}

// FreshCells implements [FreshCounter]: the distinct zero counters among
// the k probes.
func (f *Counting) FreshCells(d Digest) int {
	var buf [freshStack]uint64
	seen := freshSeen(&buf, f.k)
	f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m) << (f.wshift & 7)
		if f.words[i>>6]>>(i&63)&f.max == 0 && isNew(seen, i) {
			seen = append(seen, i)
		}
		return true
	})
	return len(seen)
}

// FreshCells implements [FreshCounter], in the stage that would take the
// add.
func (f *Scalable) FreshCells(d Digest) int {
	i := f.live - 1
	st := &f.stages[i]
	if st.core().items >= st.capacity && f.err == nil {
		// The add would grow a new, empty stage.
		if i+1 < len(f.stages) { // kept by Reset
			return f.stages[i+1].core().k
		}
		if next, err := f.stage(i + 1); err == nil {
			return next.Hashes
		}
	}
	if f.stream {
		return f.freshStream(i, d)
	}
	if st.b != nil {
		return st.b.FreshCells(d.remix(i))
	}
	return st.f.FreshCells(d.remix(i))
}

// FreshCells implements [FreshCounter]: the clear cells among the k probes
// (one per slice) of the stage that would take AddDigest(d), the newest, or k if the add
// would open a new, empty stage.
func (f *Dynamic) FreshCells(d Digest) int {
	i := f.live - 1
	if f.stages[i].items >= f.geom.N && f.err == nil && i+1 < analysis.MaxDynamicStages {
		return f.stage.Hashes
	}
	st, s := &f.hot[i], streamSeed(d)
	n, x := 0, s+st.x0
	for j := range st.k {
		b := st.index(x, j)
		p := f.stages[i].words[uint64(j)*f.stages[i].sliceWords:]
		if p[b>>6]>>(b&63)&1 == 0 {
			n++
		}
	}
	return n
}

// FreshCells implements [FreshCounter]: the distinct clear bits among the
// probes of the link that would take the add, the newest, or its hashes if the add
// would open a new link. Like FreshCells of the other filters it does not
// test the chain first, which RedisBloom's add does.
func (f *RedisBloom) FreshCells(d Digest) int {
	i := f.live - 1
	l := &f.links[i]
	if l.items >= l.Capacity && f.err == nil {
		if next, err := f.geom.Link(i + 1); err == nil {
			return next.Hashes
		}
	}
	var buf [freshStack]uint64
	seen := freshSeen(&buf, l.Hashes)
	for j := range uint64(l.Hashes) {
		x := redisProbe(d, j, l.Modulus)
		if l.words[x>>6]>>(x&63)&1 == 0 && isNew(seen, x) {
			seen = append(seen, x)
		}
	}
	return len(seen)
}
