package analysis

import (
	"math"
	"math/bits"
)

// MaxDoubleHashingBits is the largest table, in bits, for which
// [NewDoubleHashing] computes the rate: its work grows as m log2(m) k^3.
const MaxDoubleHashingBits = 1 << 16

// DoubleHashing is the exact false-positive rate of a Bloom filter of m
// bits, m a power of two, in which each key sets the bits (a + i b) mod m
// for i = 0 .. k-1, with (a, b) uniform on the m^2 pairs and independent
// between keys: plain double hashing reduced modulo a power of two, as
// RedisBloom's power-of-two tables probe (see [RedisBloom]), where 2^64 mod
// m = 0 makes the 64-bit sum's wrap vanish. A query (a, b) is a false
// positive when every one of its positions is set.
//
// [NewDoubleHashing] does the work that does not depend on the number of
// keys; FPR then takes the keys. The computation is exact up to rounding.
// Translating a, and multiplying a and b by the inverse of b's odd part,
// map keys to keys one to one, so the rate of a query depends only on v,
// the number of trailing zeros of its b, whose probability is 2^-(v+1)
// (and b = 0's 2^-log2(m)); its positions are then the d = min(k, m/2^v)
// distinct multiples of 2^v below k 2^v. For each v, the m^2 pairs
// (a', b') a stored key may have are counted by the set C of the query's
// positions they cover: only pairs with a' = q - j b' for a query position
// q cover any, so the count visits m d k pairs, k probes each. With w(T)
// the fraction of pairs that cover none of the positions T, n keys leave
// T uncovered with probability w(T)^n, and by inclusion and exclusion the
// query is covered with probability sum over T of (-1)^|T| w(T)^n, over
// the 2^d sets T. [RedisBloom.ProbeTheory] gives the same rate to first
// order in n/m^2 for tables of any size, and for NOROUND tables.
//
// None of this applies to bloomlab's own plain double hashing (variants'
// Double derivation): it reduces a + i b by multiply-shift, which has no
// modular structure, so no step repeats positions by its order. Steps
// near a fraction p/q of 2^64 gather positions i, i + q, i + 2q, ... into
// one cell or crowd them instead, a weaker effect that [DerivationRate]
// models for the Double, EnhancedDouble and Triple derivations (+1.55% over
// independent probes at 1024 bits, 6 hashes, 128 keys, measured +1.69% ±
// 0.18%; +3.76% at 15872 bits, 11 hashes, 1000 keys, measured +3.08% ±
// 0.52%; paper-notes.md §13e1).
type DoubleHashing struct {
	m       uint64
	k       int
	classes []dhClass
}

// dhClass is one value of v: its probability and, for every set U of the
// query's d positions, the fraction of pairs (a', b') that cover only
// positions in U.
type dhClass struct {
	weight float64
	within []float64
}

// NewDoubleHashing returns the rate of double hashing modulo m with k
// probes. It reports an error wrapping [ErrInvalidParams] unless m is a
// power of two from 2 to [MaxDoubleHashingBits] and 1 <= k <= 24.
func NewDoubleHashing(m uint64, k int) (DoubleHashing, error) {
	if m < 2 || m > MaxDoubleHashingBits || m&(m-1) != 0 {
		return DoubleHashing{}, invalid("double hashing over m = %d bits; want a power of two from 2 to %d", m, MaxDoubleHashingBits)
	}
	if k < 1 || k > 24 {
		return DoubleHashing{}, invalid("double hashing with k = %d; want 1 <= k <= 24", k)
	}
	lg := bits.TrailingZeros64(m)
	mask := m - 1
	idx := make([]int8, m)
	stamp := make([]uint32, m)
	mf := float64(m)
	dh := DoubleHashing{m: m, k: k}
	for v := 0; v <= lg; v++ {
		weight := math.Ldexp(1, -(v + 1))
		if v == lg {
			weight = math.Ldexp(1, -lg)
		}
		step := uint64(1) << v & mask
		for i := range idx {
			idx[i] = -1
		}
		var q []uint64
		for i := range uint64(k) {
			p := i * step & mask
			if idx[p] < 0 {
				idx[p] = int8(len(q))
				q = append(q, p)
			}
		}
		within := make([]float64, 1<<len(q))
		clear(stamp)
		var covered float64
		for b := range m {
			tag := uint32(b) + 1
			for _, p := range q {
				for j := range uint64(k) {
					a := (p - j*b) & mask
					if stamp[a] == tag {
						continue
					}
					stamp[a] = tag
					c := 0
					for t := range uint64(k) {
						if x := idx[(a+t*b)&mask]; x >= 0 {
							c |= 1 << x
						}
					}
					within[c]++
					covered++
				}
			}
		}
		within[0] += mf*mf - covered
		// within[U] = the pairs covering a set C inside U (the zeta
		// transform), as a fraction of all pairs.
		for i := range q {
			for u := range within {
				if u>>i&1 != 0 {
					within[u] += within[u^1<<i]
				}
			}
		}
		for u := range within {
			within[u] /= mf * mf
		}
		dh.classes = append(dh.classes, dhClass{weight: weight, within: within})
	}
	return dh, nil
}

// FPR returns the rate with n keys: 0 for n = 0.
func (dh DoubleHashing) FPR(n uint64) float64 {
	if n == 0 {
		return 0
	}
	nf := float64(n)
	var rate float64
	for _, c := range dh.classes {
		full := len(c.within) - 1
		var sum float64
		for t := range c.within {
			term := math.Exp(nf * math.Log(c.within[full^t]))
			if bits.OnesCount(uint(t))%2 == 1 {
				sum -= term
			} else {
				sum += term
			}
		}
		rate += c.weight * max(sum, 0)
	}
	return rate
}
