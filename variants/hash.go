package variants

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"unsafe"

	"github.com/dchest/siphash"
	metro "github.com/dgryski/go-metro"
	"github.com/zeebo/xxh3"
)

// Digest is the 128-bit hash of a key, from which a filter derives its k
// cell indexes.
type Digest struct {
	H1, H2 uint64 // the two 64-bit halves: the start and the step of the derivations
}

// HashKind selects the hash function applied to keys: a 128-bit hash,
// whose two halves every filter uses, or one of the 64-bit kinds [XXH64]
// and [XXH3_64], which only the split-block filter takes.
type HashKind uint8

const (
	// XXH3 is the 128-bit XXH3 hash (github.com/zeebo/xxh3), the default.
	XXH3 HashKind = iota
	// Metro is the 128-bit MetroHash (github.com/dgryski/go-metro).
	Metro
	// XXH64 is the 64-bit XXH64 hash, with which the Parquet format's
	// Bloom filters hash values (see [ParquetHash]). Its digest has H1 =
	// XXH64(key, seed) and H2 = 0, so only a [SplitBlock] filter, which uses
	// 64 bits of the digest, takes it; the other constructors reject it.
	XXH64
	// SipHash is SipHash-2-4 with a 128-bit output (Aumasson and Bernstein
	// 2012; github.com/dchest/siphash, assembly on amd64) under the secret
	// 128-bit [Hashing.Key]: a pseudorandom function, so that someone who
	// does not know the key cannot choose keys that fill the filter faster
	// than random keys, nor find keys that test present more often than
	// the filter's false-positive rate. Use it when others choose the keys
	// (see [HashKey]). Its Seed must be zero: the key takes the seed's
	// place. Digests feed every derivation as those of the other kinds
	// do; the [Independent] derivation rehashes the secret digest with
	// seeded 64-bit [XXH3], as for XXH3.
	SipHash
	// Murmur64A is RedisBloom's hashing (bloom_calc_hash64 in its
	// deps/bloom/bloom.c): H1 = a = MurmurHash64A(key, [RedisBloomSeed] xor
	// Seed) and H2 = b = MurmurHash64A(key, a), Austin Appleby's
	// MurmurHash64A. With Seed 0 the digest is RedisBloom's own (a, b).
	// Only a [RedisBloom] filter, which probes (a + i b) mod m as
	// RedisBloom does, takes it; the other constructors reject it.
	Murmur64A
	// XXH3_64 is the 64-bit XXH3 hash (XXH3_64bits_withSeed in the xxHash
	// library; github.com/zeebo/xxh3's HashSeed), a cheaper hash for a
	// filter that uses only 64 bits of the digest. Its digest has H1 =
	// xxh3.HashSeed(key, Seed) and H2 = 0, so only a [SplitBlock] filter
	// takes it, as it takes [XXH64]; the other constructors reject it. It
	// is not the low half of [XXH3]'s 128-bit hash: the two kinds set
	// different bits for the same key and seed. A split-block filter's
	// theory ([analysis.SplitBlockFPR]) is the same for either, since it
	// assumes one uniform 64-bit hash per key in both cases. On 16-byte
	// keys the hash takes 41 instructions against the 128-bit one's 67,
	// and a split-block query by key 124 against 149, in 0.7 to 1.0 times
	// the time (compare/figures/flb-xxh3-64-*.md; BenchmarkSplitBlockHash).
	// Saved filters record it as hash kind 5 (see [FormatVersion]).
	XXH3_64
)

// String returns "xxh3", "metro", "xxh64", "siphash", "murmur64a" or
// "xxh3-64".
func (h HashKind) String() string {
	switch h {
	case XXH3:
		return "xxh3"
	case Metro:
		return "metro"
	case XXH64:
		return "xxh64"
	case SipHash:
		return "siphash"
	case Murmur64A:
		return "murmur64a"
	case XXH3_64:
		return "xxh3-64"
	}
	return fmt.Sprintf("HashKind(%d)", uint8(h))
}

// Derivation selects how the k cell indexes are derived from a digest
// (h1, h2). Every derivation computes 64-bit values g_0 .. g_(k-1) in
// wrapping arithmetic and maps each to a cell of a table of size m by the
// multiply-shift reduction floor(g m / 2^64) (Lemire 2019), which uses the
// high bits of g and needs no division.
type Derivation uint8

const (
	// EnhancedDouble is enhanced double hashing (Dillinger and Manolios
	// 2004): g_i = h1 + i h2 + w (i^3 - i)/6, computed by the recurrence
	// x += y; y += i w. The default. The cubic term keeps the k indexes
	// apart even when h2 is degenerate. Dillinger and Manolios use w = 1
	// with reduction modulo m; because multiply-shift reduction keeps the
	// high bits, bloomlab scales the term by the odd constant
	// w = 0x9e3779b97f4a7c15 (2^64 over the golden ratio) so that it moves
	// the high bits as the original moves the low ones.
	EnhancedDouble Derivation = iota
	// Double is plain double hashing (Kirsch and Mitzenmacher 2006):
	// g_i = h1 + i h2. When h2 is close to a multiple of 2^64/m the indexes
	// nearly coincide, which raises the false-positive rate of small
	// filters.
	Double
	// Triple is triple hashing (Dillinger and Manolios 2004):
	// g_i = h1 + i h2 + (i^2 - i)/2 h3, with h3 a bijective mix of
	// h1 xor h2 (the digest has only 128 bits).
	Triple
	// Independent hashes the digest once per index, with k different seeds
	// (the 64-bit variant of the filter's [HashKind] over the 16 digest
	// bytes), emulating k independent hash functions of the key at the
	// cost of k extra short hashes.
	Independent
)

// String returns the derivation's name as used on command lines.
func (d Derivation) String() string {
	switch d {
	case EnhancedDouble:
		return "enhanced-double"
	case Double:
		return "double"
	case Triple:
		return "triple"
	case Independent:
		return "independent"
	}
	return fmt.Sprintf("Derivation(%d)", uint8(d))
}

// Hashing holds a filter's hash options. The zero value is the default:
// [XXH3], enhanced double hashing, seed 0.
//
// A seed makes runs reproducible and lets experiments draw independent
// filters; it is no secret. Every saved filter records it, and with a
// known seed anyone can compute which bits a key sets, choose keys that
// fill the filter fast (pollution) or search offline for keys that test
// present (forged false positives). When others choose the keys, use the
// [SipHash] kind with a key from [NewKey].
//
// The key never prints: fmt, log/slog, JSON, XML and gob show it as
// "[redacted]" (see [HashKey] for the one fmt exception, %p of a
// non-pointer). A saved keyed filter holds its key, so keep the saved
// bytes as secret as the key: write them with mode 0600 (see [NewKey]'s
// example).
type Hashing struct {
	Kind       HashKind   // the hash of keys: 128-bit, or 64-bit (XXH64, XXH3_64) for a split-block filter
	Derivation Derivation // how the k indexes come from the digest
	Seed       uint64     // the hash seed; filters to be combined must share it. Zero for SipHash.
	// Key is the secret key of the [SipHash] kind, and must be zero for the
	// other kinds (a key given to an unkeyed hash would be ignored, which
	// is rejected rather than done silently). Filters to be combined must
	// share it.
	Key HashKey
}

// HashKey is the 128-bit secret key of the [SipHash] hash kind: SipHash's k0
// and k1 are its bytes 0-7 and 8-15 read as little-endian integers.
//
// A filter with a keyed hash is as secret as its key: whoever holds the
// key can attack it as if it were unkeyed. Keep one key per filter or per
// family of filters to be combined, and draw it with [NewKey].
//
// The key never prints. fmt (%v, %+v, %#v, %s, %q, %x, %X, %d, %o, %b,
// %c, %U and every other verb and flag), log/slog's text and JSON
// handlers, encoding/json, encoding/xml, encoding/gob and text
// marshalling render a non-zero key as "[redacted]" and the zero key as
// "[zero]", whether the key stands alone or inside a [Hashing], a
// parameters struct or a filter, printed as a value or as a pointer. A
// filter holds its key where fmt's reflection, which prints unexported
// fields without calling their methods, sees only an address. Decoding
// "[redacted]" (from JSON, gob or text) fails rather than yield a
// [Hashing] without its key. To store the key elsewhere, read its bytes.
//
// fmt calls no method in two cases, and there a key held by value prints:
// %p of a value that is not a pointer (a HashKey, a Hashing or a
// parameters struct, not a filter), which go vet reports and fmt renders
// as %v without methods; and a struct of your own that holds a HashKey or
// a Hashing in an unexported field. Print pointers with %p, and keep keys
// in exported fields or in a filter.
//
// A saved keyed filter holds its key: MarshalBinary, WriteTo and the
// filters' gob encodings (which go through MarshalBinary) write it in clear
// (see [FormatVersion]), so that the filter answers the same after
// loading. Keep such files as secret as the key itself, for example
// written with os.WriteFile(path, data, 0o600).
type HashKey [16]byte

// NewKey returns a key drawn from crypto/rand, the operating system's
// secure random source.
func NewKey() HashKey {
	var k HashKey
	rand.Read(k[:]) // never returns an error (crypto/rand, Go 1.24 on)
	return k
}

// The renderings of a key: it never prints.
const (
	redactedKey = "[redacted]"
	zeroKey     = "[zero]"
)

// String returns "[zero]" for the zero key and "[redacted]" otherwise: it
// never prints the key.
func (k HashKey) String() string {
	if k == (HashKey{}) {
		return zeroKey
	}
	return redactedKey
}

// GoString is String, so that %#v does not print the key either.
func (k HashKey) GoString() string { return k.String() }

// Format writes String for every verb and flag, so that no fmt verb prints
// the key: not %d, %x or %o, which would otherwise format the bytes, nor
// the verbs applied to a [Hashing] or a parameters struct that holds it.
func (k HashKey) Format(f fmt.State, verb rune) { io.WriteString(f, k.String()) }

// MarshalText returns String, "[zero]" or "[redacted]", never the key.
// encoding/json, encoding/xml and log/slog's handlers use it, so a
// [Hashing] or parameters struct marshals with its key redacted.
func (k HashKey) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// GobEncode is MarshalText: encoding/gob, which does not use MarshalText,
// sends "[zero]" or "[redacted]", never the key.
func (k HashKey) GobEncode() ([]byte, error) { return k.MarshalText() }

// GobDecode is UnmarshalText: it fails for a redacted key.
func (k *HashKey) GobDecode(data []byte) error { return k.UnmarshalText(data) }

// UnmarshalText sets k to the zero key from "[zero]" or the empty text, and
// fails for "[redacted]" and anything else: a redacted key cannot be
// restored, and a keyed [Hashing] read back from JSON or gob must have its
// key set from where the key is kept.
func (k *HashKey) UnmarshalText(text []byte) error {
	switch string(text) {
	case zeroKey, "":
		*k = HashKey{}
		return nil
	case redactedKey:
		return invalid("the hash key was redacted when it was marshalled; set Hashing.Key from where the key is kept")
	}
	return invalid("a hash key does not unmarshal from text (only %q does); set Hashing.Key from its bytes", zeroKey)
}

// hashConf is a filter's [Hashing] as the filter holds it: the kind,
// derivation and seed inline for the hot paths, and the SipHash key, if
// any, captured by a func. fmt prints the fields of a filter by reflection,
// which calls no method (HashKey's Format is not reached through an
// unexported field), so the key must not sit in a field that reflection
// can read: an array or integer field prints its bytes, and so does a
// pointer, which fmt follows when it reports a bad verb (%s, %q, %t, %c,
// ... of a pointer field print "%!s(*T=&{...})"). A func prints as an
// address under every verb, and reflection cannot see what it captures.
// The func field also makes hashConf incomparable, so that == on two of
// them, which would compare nothing useful, does not compile: use same.
type hashConf struct {
	Kind       HashKind
	Derivation Derivation
	Seed       uint64
	key        func() (k0, k1 uint64) // nil unless keyed
}

// conf returns h as a filter holds it.
func (h Hashing) conf() hashConf {
	c := hashConf{Kind: h.Kind, Derivation: h.Derivation, Seed: h.Seed}
	if h.Key != (HashKey{}) {
		k0, k1 := binary.LittleEndian.Uint64(h.Key[:8]), binary.LittleEndian.Uint64(h.Key[8:])
		c.key = func() (uint64, uint64) { return k0, k1 }
	}
	return c
}

// keyWords returns the SipHash key words, zero if h has no key.
func (h hashConf) keyWords() (k0, k1 uint64) {
	if h.key == nil {
		return 0, 0
	}
	return h.key()
}

// public returns the Hashing that h holds, key included.
func (h hashConf) public() Hashing {
	p := Hashing{Kind: h.Kind, Derivation: h.Derivation, Seed: h.Seed}
	if h.key != nil {
		k0, k1 := h.key()
		binary.LittleEndian.PutUint64(p.Key[:8], k0)
		binary.LittleEndian.PutUint64(p.Key[8:], k1)
	}
	return p
}

// same reports whether h and g are the same hashing, keys compared by value.
func (h hashConf) same(g hashConf) bool {
	return h.Kind == g.Kind && h.Derivation == g.Derivation && h.Seed == g.Seed && h.sameKey(g)
}

// sameKey reports whether h and g have the same key (or none).
func (h hashConf) sameKey(g hashConf) bool {
	if (h.key == nil) != (g.key == nil) {
		return false
	}
	a0, a1 := h.keyWords()
	b0, b1 := g.keyWords()
	return a0 == b0 && a1 == b1
}

// Digest is [Hashing.Digest].
func (h hashConf) Digest(key []byte) Digest {
	if h.Kind == SipHash {
		k0, k1 := h.keyWords()
		a, b := siphash.Hash128(k0, k1, key)
		return Digest{a, b}
	}
	return unkeyedDigest(h.Kind, h.Seed, key)
}

func (h Hashing) validate() error {
	if h.Kind.only64() {
		return invalid("hash kind %v gives 64 bits, and only a split-block filter takes it; want xxh3 (%d), metro (%d) or siphash (%d)", h.Kind, uint8(XXH3), uint8(Metro), uint8(SipHash))
	}
	if h.Kind == Murmur64A {
		return invalid("hash kind murmur64a is RedisBloom's hashing, and only a RedisBloom filter takes it; want xxh3 (%d), metro (%d) or siphash (%d)", uint8(XXH3), uint8(Metro), uint8(SipHash))
	}
	if h.Kind > SipHash {
		return invalid("hash kind %d, want xxh3 (%d), metro (%d) or siphash (%d), or xxh64 (%d) or xxh3-64 (%d) for a split-block filter", uint8(h.Kind), uint8(XXH3), uint8(Metro), uint8(SipHash), uint8(XXH64), uint8(XXH3_64))
	}
	if err := h.validateKey(); err != nil {
		return err
	}
	if h.Derivation > Independent {
		return invalid("derivation %d, want 0 to %d", uint8(h.Derivation), uint8(Independent))
	}
	return nil
}

// only64 reports whether h is a 64-bit hash kind, whose digest has H2 = 0:
// [XXH64] and [XXH3_64], which only the split-block filter takes.
func (h HashKind) only64() bool { return h == XXH64 || h == XXH3_64 }

// validateKey checks the key and seed rules of the SipHash kind: a non-zero
// key and seed zero for SipHash, no key for the other kinds.
func (h Hashing) validateKey() error {
	switch {
	case h.Kind != SipHash && h.Key != (HashKey{}):
		return invalid("a hash key is set, but hash kind %v takes no key; use siphash (%d) for keyed hashing", h.Kind, uint8(SipHash))
	case h.Kind == SipHash && h.Key == (HashKey{}):
		return invalid("hash kind siphash with the zero key; draw a key with NewKey")
	case h.Kind == SipHash && h.Seed != 0:
		return invalid("hash kind siphash with seed %d; its seed must be 0 (the secret key takes the seed's place)", h.Seed)
	}
	return nil
}

// Digest returns the 128-bit digest of key under h (for [XXH64] and
// [XXH3_64], the 64-bit hash in H1 and zero in H2; for [Murmur64A],
// RedisBloom's two 64-bit hashes a and b).
func (h Hashing) Digest(key []byte) Digest {
	if h.Kind == SipHash {
		a, b := siphash.Hash128(binary.LittleEndian.Uint64(h.Key[:8]), binary.LittleEndian.Uint64(h.Key[8:]), key)
		return Digest{a, b}
	}
	return unkeyedDigest(h.Kind, h.Seed, key)
}

// unkeyedDigest is the digest of key under the unkeyed kinds.
func unkeyedDigest(kind HashKind, seed uint64, key []byte) Digest {
	switch kind {
	case Metro:
		a, b := metro.Hash128(key, seed)
		return Digest{a, b}
	case XXH64:
		return Digest{H1: xxh64(key, seed)}
	case XXH3_64:
		return Digest{H1: xxh3.HashSeed(key, seed)}
	case Murmur64A:
		return redisDigest(key, seed)
	}
	u := xxh3.Hash128Seed(key, seed)
	return Digest{u.Lo, u.Hi}
}

// weyl is 2^64 divided by the golden ratio, rounded to odd.
const weyl = 0x9e3779b97f4a7c15

// mix64 is the bijective finaliser of SplitMix64 (Steele, Lea and Flood
// 2014), a strong 64-bit mixer.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// remix returns a digest for stage i of a multi-stage filter: stage 0 gets
// d itself and every other stage a bijective remix of it, so that the
// stages' index patterns are unrelated while the key is hashed only once.
func (d Digest) remix(i int) Digest {
	if i == 0 {
		return d
	}
	s := uint64(i) * weyl
	return Digest{mix64(d.H1 ^ s), mix64(d.H2 + s)}
}

// reduce maps x to [0, m) by multiply-shift.
func reduce(x, m uint64) uint64 {
	hi, _ := bits.Mul64(x, m)
	return hi
}

// probe generates the values g_i of a derivation; reduce them to a table
// size with reduce. It is small, holds no allocation and lives on the stack.
type probe struct {
	// The recurrence x += y; y += z; z += c. For Independent, x and y hold
	// the digest, z counts the values produced and c is the seed.
	x, y, z, c uint64
	indep      bool
	metro      bool
	// mix passes each value of the recurrence through mix64, which makes
	// the k values of a key as good as independent (see Partitioned).
	mix bool
}

// init starts p at g_0 for digest d. Filters declare a probe and call init
// rather than copy one from a constructor: the copy of a freshly written
// struct stalls store-to-load forwarding on amd64.
func (p *probe) init(d Digest, h hashConf) {
	var ok bool
	p.x, p.y, p.z, p.c, ok = h.recurrence(d)
	if !ok {
		p.x, p.y, p.z, p.c = d.H1, d.H2, 0, h.Seed
		p.indep, p.metro = true, h.Kind == Metro
	}
}

// recurrence returns the starting state of the recurrence x += y; y += z;
// z += c whose successive x are g_0, g_1, ... for d, or ok = false for the
// Independent derivation, which has no such recurrence. Filters run the
// recurrence inline in their hot loops and fall back to a probe otherwise.
func (h hashConf) recurrence(d Digest) (x, y, z, c uint64, ok bool) {
	switch h.Derivation {
	case EnhancedDouble:
		return d.H1, d.H2, weyl, weyl, true
	case Double:
		return d.H1, d.H2, 0, 0, true
	case Triple:
		return d.H1, d.H2, mix64(d.H1 ^ d.H2 ^ weyl), 0, true
	}
	return 0, 0, 0, 0, false
}

// batch is the number of values a probe produces per fill: enough for the
// usual k in one call, and small enough to live in registers and cache.
const batch = 8

// fill sets g to the next len(g) values. Filters whose hot loops run the
// recurrence inline (see Hashing.recurrence) use a probe only on their
// general path, where taking values in batches of up to batch keeps the
// per-value cost low for every derivation.
func (p *probe) fill(g []uint64) {
	if p.indep {
		p.fillIndependent(g)
		return
	}
	p.fillRecurrence(g)
}

func (p *probe) fillRecurrence(g []uint64) {
	x, y, z, c := p.x, p.y, p.z, p.c
	for j := range g {
		g[j] = x
		x += y
		y += z
		z += c
	}
	p.x, p.y, p.z = x, y, z
	if p.mix {
		for j := range g {
			g[j] = mix64(g[j])
		}
	}
}

func (p *probe) fillIndependent(g []uint64) {
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], p.x)
	binary.LittleEndian.PutUint64(buf[8:], p.y)
	for j := range g {
		p.z++
		seed := p.c + p.z*weyl
		if p.metro {
			g[j] = metro.Hash64(buf[:], seed)
		} else {
			g[j] = xxh3.HashSeed(buf[:], seed)
		}
	}
}

// eachValue calls fn with the k values g_0 .. g_(k-1) that h derives from
// d, each passed through mix64 if mix is set (as Partitioned does), until
// fn returns false, and reports whether fn never did. It is every filter's
// general path, the only one for the Independent derivation; for the
// derivations with a recurrence the filters' hot loops compute the same
// values inline.
func (h hashConf) eachValue(d Digest, k int, mix bool, fn func(g uint64) bool) bool {
	var p probe
	p.init(d, h)
	p.mix = mix
	var g [batch]uint64
	for k > 0 {
		n := min(k, batch)
		p.fill(g[:n])
		for _, x := range g[:n] {
			if !fn(x) {
				return false
			}
		}
		k -= n
	}
	return true
}

// Indexes appends to dst the k cell indexes in [0, m) that h derives from d
// and returns the extended slice. Filters compute the same indexes without
// allocating; Indexes is for tests and research code that studies the
// derivations. It panics if m is zero.
func (h Hashing) Indexes(dst []uint64, d Digest, k int, m uint64) []uint64 {
	if m == 0 {
		panic("variants: Indexes with m = 0")
	}
	hashConf{Kind: h.Kind, Derivation: h.Derivation, Seed: h.Seed}.eachValue(d, k, false, func(g uint64) bool {
		dst = append(dst, reduce(g, m))
		return true
	})
	return dst
}

// xxh3Sum returns the digest of the default hash, xxh3.Hash128Seed(key,
// seed) as Hashing.Digest gives it: by xxh3Short for keys of 9 to 16 bytes,
// by the package for the others.
func xxh3Sum(key []byte, seed uint64) Digest {
	if uint64(len(key))-9 <= 7 {
		return xxh3Short(unsafe.Pointer(unsafe.SliceData(key)), uint64(len(key)), seed)
	}
	u := xxh3.Hash128Seed(key, seed)
	return Digest{u.Lo, u.Hi}
}

// xxh3Short is xxh3.Hash128Seed for the l bytes at p, 9 <= l <= 16: the
// package's formula for these lengths written out, without its calls and
// its dispatch on the length, and without a call of its own, so that the
// query and insert paths call it directly (TestXXH3Sum checks it against
// the package for every length).
func xxh3Short(p unsafe.Pointer, l, seed uint64) Digest {
	const (
		prime64x1 = 11400714785074694791
		prime64x2 = 14029467366897019727
		prime32x2 = 2246822519
		// Words 4 to 7 of xxh3's default secret.
		secret32 = 0x78e5c0cc4ee679cb
		secret40 = 0x2172ffcc7dd05a82
		secret48 = 0x8e2443f7744608b8
		secret56 = 0x4c263a81e69035e0
	)
	lo := binary.LittleEndian.Uint64((*[8]byte)(p)[:])
	hi := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, l-8))[:])
	mh, ml := bits.Mul64(lo^hi^(secret32^secret40-seed), prime64x1)
	ml += (l - 1) << 54
	hi ^= secret48 ^ secret56 + seed
	mh += hi + uint64(uint32(hi))*(prime32x2-1)
	ml ^= bits.ReverseBytes64(mh)
	h, g := bits.Mul64(ml, prime64x2)
	h += mh * prime64x2
	return Digest{xxh3Avalanche(g), xxh3Avalanche(h)}
}

// xxh3Avalanche is xxh3's final mix of a 64-bit value.
func xxh3Avalanche(x uint64) uint64 {
	x ^= x >> 37
	x *= 0x165667919e3779f9
	return x ^ x>>32
}
