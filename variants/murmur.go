package variants

import (
	"encoding/binary"
	"math/bits"
)

// murmurM and murmurR are MurmurHash64A's multiplier and shift (Austin
// Appleby, MurmurHash2, 2008-2011; public domain).
const (
	murmurM = 0xc6a4a7935bd1e995
	murmurR = 47
)

// RedisBloomSeed is the seed with which [RedisBloom] hashes a key's first
// half, a = MurmurHash64A(key, RedisBloomSeed) (bloom_calc_hash64 in
// RedisBloom's deps/bloom/bloom.c); it is MurmurHash64A's multiplier.
const RedisBloomSeed uint64 = murmurM

// murmur64a returns MurmurHash64A of key under seed, the 64-bit hash for
// 64-bit platforms of Appleby's MurmurHash2 family, as RedisBloom's
// MurmurHash64A_Bloom computes it on a little-endian machine: the state
// starts at seed xor (len m); each 8-byte block, read little-endian, is
// mixed (k *= m; k ^= k >> r; k *= m) into the state (h ^= k; h *= m); the
// last len mod 8 bytes are xored into the state's low bytes, byte j at
// bit 8j, and the state multiplied by m once more; a final
// h ^= h >> r; h *= m; h ^= h >> r mixes it.
func murmur64a(key []byte, seed uint64) uint64 {
	h := seed ^ uint64(len(key))*murmurM
	for ; len(key) >= 8; key = key[8:] {
		k := binary.LittleEndian.Uint64(key)
		k *= murmurM
		k ^= k >> murmurR
		k *= murmurM
		h ^= k
		h *= murmurM
	}
	if len(key) > 0 {
		var t uint64
		for j, c := range key {
			t |= uint64(c) << (8 * j)
		}
		h ^= t
		h *= murmurM
	}
	h ^= h >> murmurR
	h *= murmurM
	h ^= h >> murmurR
	return h
}

// redisDigest returns RedisBloom's two hashes of key (bloom_calc_hash64):
// a = MurmurHash64A(key, RedisBloomSeed xor seed) and b =
// MurmurHash64A(key, a). With seed 0 they are RedisBloom's own.
func redisDigest(key []byte, seed uint64) Digest {
	a := murmur64a(key, RedisBloomSeed^seed)
	return Digest{H1: a, H2: murmur64a(key, a)}
}

// redisProbe returns probe i of digest d into a table reduced modulo mod:
// (a + i b) mod 2^64, then mod mod, as CHECK_ADD_FUNC of RedisBloom's
// bloom.c computes it in 64-bit unsigned arithmetic. For a power-of-two
// modulus the remainder is a mask.
func redisProbe(d Digest, i, mod uint64) uint64 {
	x := d.H1 + i*d.H2
	if mod&(mod-1) == 0 {
		return x & (mod - 1)
	}
	_, r := bits.Div64(0, x, mod)
	return r
}
