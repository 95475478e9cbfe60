package variants

import "unsafe"

// LinesHash reports the distinct 64-byte lines that ContainsHash(d) reads
// (see LineCounter): the stages tested newest first, each as the scalable
// filter's stream stages are, in pairs of slices up to the first pair with
// a clear bit, until a stage holds the key.
func (f *Dynamic) LinesHash(d Digest) int {
	var s lineSet
	seed := streamSeed(d)
	for i := f.live - 1; i >= 0; i-- {
		if f.hot[i].lines(&s, seed) {
			break
		}
	}
	return s.count()
}

// LinesHash reports the distinct 64-byte lines that ContainsHash(d) reads
// (see LineCounter): the links tested newest first, each probe by probe
// up to its first clear bit, until a link holds the key.
func (f *RedisBloom) LinesHash(d Digest) int {
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
