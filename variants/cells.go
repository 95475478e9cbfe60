package variants

import "github.com/bloomlab/bloomlab/analysis"

// FreshCells implements [FreshCounter].
func (f *Standard) FreshCells(d Digest) int {
	n := 0
	f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m)
		if f.words[i>>6]>>(i&63)&1 == 0 {
			n++
		}
		return true
	})
	return n
}

// FreshCells implements [FreshCounter].
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
// in the block d.H1 picks.
func (f *Blocked) FreshCells(d Digest) int {
	block := f.words[reduce(d.H1, f.blocks)*(f.blockBits/64):][:f.blockBits/64]
	s, mask, per := f.blockShift&63, f.blockBits-1, f.perWord
	x, k, n := d.H2, f.k, 0
	for t := uint64(1); ; t++ {
		c := min(k, per)
		for range c {
			i := x & mask
			if block[i>>6]>>(i&63)&1 == 0 {
				n++
			}
			x >>= s
		}
		if k -= c; k == 0 {
			return n
		}
		x = mix64(d.H2 + t*weyl)
	}
}

// FreshCells implements [FreshCounter]: the probes that find a zero counter.
func (f *Counting) FreshCells(d Digest) int {
	n := 0
	f.hashing.eachValue(d, f.k, false, func(g uint64) bool {
		i := reduce(g, f.m) << (f.wshift & 7)
		if f.words[i>>6]>>(i&63)&f.max == 0 {
			n++
		}
		return true
	})
	return n
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
// of the stage that would take AddDigest(d), the newest, or k if the add
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

// FreshCells implements [FreshCounter]: the clear bits among the probes of
// the link that would take the add, the newest, or its hashes if the add
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
	n := 0
	for j := range uint64(l.Hashes) {
		x := redisProbe(d, j, l.Modulus)
		if l.words[x>>6]>>(x&63)&1 == 0 {
			n++
		}
	}
	return n
}
