package variants

import (
	"slices"

	"github.com/bloomlab/bloomlab/analysis"
)

// FreshCells implements FreshCounter: the clear cells among the k probes
// of the stage that would take AddHash(d), the newest, or k if the add
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

// FreshCells implements FreshCounter: the clear bits among the probes of
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

// Equal reports whether f and g have the same parameters, hashing and
// stages in use, bit for bit, and so answer every query alike and grow
// alike. It ignores item counts, Err and the memory kept by Reset; a nil
// filter equals only a nil filter.
func (f *Dynamic) Equal(g *Dynamic) bool {
	if f == nil || g == nil {
		return f == g
	}
	if f.geom != g.geom || f.stage != g.stage || f.hashing != g.hashing || f.live != g.live {
		return false
	}
	for i := range f.live {
		if !slices.Equal(f.stages[i].words, g.stages[i].words) {
			return false
		}
	}
	return true
}

// Equal reports whether f and g have the same parameters, seed and links
// in use, bit for bit, and so answer every query alike and grow alike. It
// ignores item counts, Err and the memory kept by Reset; a nil filter
// equals only a nil filter.
func (f *RedisBloom) Equal(g *RedisBloom) bool {
	if f == nil || g == nil {
		return f == g
	}
	if f.geom != g.geom || f.hashing != g.hashing || f.live != g.live {
		return false
	}
	for i := range f.live {
		if f.links[i].RedisBloomLink != g.links[i].RedisBloomLink || !slices.Equal(f.links[i].words, g.links[i].words) {
			return false
		}
	}
	return true
}
