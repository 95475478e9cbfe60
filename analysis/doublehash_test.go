package analysis

import (
	"errors"
	"math"
	"testing"
)

// bruteDoubleHashing enumerates every query pair and every pair of each of
// n stored keys: the rate by definition, for tiny m and n.
func bruteDoubleHashing(m uint64, n, k int) float64 {
	pairs := m * m
	total := uint64(1)
	for range n + 1 {
		total *= pairs
	}
	var fp uint64
	keys := make([]uint64, n+1)
	for c := range total {
		x := c
		for i := range keys {
			keys[i] = x % pairs
			x /= pairs
		}
		var set uint64 // the bits the stored keys set (m <= 64)
		for _, key := range keys[1:] {
			a, b := key%m, key/m
			for i := range uint64(k) {
				set |= 1 << ((a + i*b) % m)
			}
		}
		a, b := keys[0]%m, keys[0]/m
		all := true
		for i := range uint64(k) {
			if set>>((a+i*b)%m)&1 == 0 {
				all = false
			}
		}
		if all {
			fp++
		}
	}
	return float64(fp) / float64(total)
}

// TestDoubleHashingExhaustive checks the rate against exhaustive
// enumeration of all queries and stored keys for tables of 2 to 16 bits.
func TestDoubleHashingExhaustive(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m    uint64
		n, k int
	}{{2, 1, 2}, {4, 1, 2}, {4, 2, 3}, {4, 3, 3}, {8, 1, 3}, {8, 2, 2}, {8, 2, 4}, {16, 1, 4}, {16, 1, 3}} {
		dh, err := NewDoubleHashing(c.m, c.k)
		if err != nil {
			t.Fatal(err)
		}
		got, want := dh.FPR(uint64(c.n)), bruteDoubleHashing(c.m, c.n, c.k)
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("m = %d, n = %d, k = %d: %v, enumeration %v", c.m, c.n, c.k, got, want)
		}
	}
}

// TestDoubleHashingLimits: one probe is one uniform bit, as for
// independent probes; the rate of double hashing exceeds that of
// independent probes; invalid tables are errors.
func TestDoubleHashingLimits(t *testing.T) {
	t.Parallel()
	dh, _ := NewDoubleHashing(1024, 1)
	if got, want := dh.FPR(100), ExactFPR(1024, 100, 1); math.Abs(got-want) > 1e-14 {
		t.Errorf("k = 1: %v, want %v", got, want)
	}
	dh, _ = NewDoubleHashing(4096, 6)
	for _, n := range []uint64{100, 300, 682} {
		if d, ind := dh.FPR(n), ExactFPR(4096, n, 6); d <= ind {
			t.Errorf("n = %d: double hashing %v, independent probes %v", n, d, ind)
		}
	}
	if dh.FPR(0) != 0 {
		t.Error("rate with no keys")
	}
	for _, c := range []struct {
		m uint64
		k int
	}{{0, 3}, {1, 3}, {1000, 3}, {MaxDoubleHashingBits * 2, 3}, {64, 0}, {64, 25}} {
		if _, err := NewDoubleHashing(c.m, c.k); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("m = %d, k = %d: %v", c.m, c.k, err)
		}
	}
}

// TestRedisBloomDoubleHashingFPR: the chain's rate with the exact rate of
// double hashing for its power-of-two links, against the links' rates
// combined by hand; a NOROUND chain keeps independent probes.
func TestRedisBloomDoubleHashingFPR(t *testing.T) {
	t.Parallel()
	r := RedisBloom{ErrorRate: 0.01, Capacity: 100, Expansion: 2, PowerOfTwo: true}
	l0, _ := r.Link(0)
	l1, _ := r.Link(1)
	d0, _ := NewDoubleHashing(l0.Modulus, l0.Hashes)
	d1, _ := NewDoubleHashing(l1.Modulus, l1.Hashes)
	n := l0.Capacity + l1.Capacity/2
	want := 1 - (1-d0.FPR(l0.Capacity))*(1-d1.FPR(l1.Capacity/2))
	got, err := r.DoubleHashingFPR(n)
	if err != nil || math.Abs(got-want) > 1e-15 {
		t.Fatalf("DoubleHashingFPR(%d) = %v, %v; want %v", n, got, err, want)
	}
	theory, err := r.DoubleHashingTheory(10*n, MaxDoubleHashingBits)
	if err != nil || theory(n) != got || !math.IsNaN(theory(1<<40)) {
		t.Fatalf("DoubleHashingTheory: %v at %d, %v", theory(n), n, err)
	}
	if ind, _ := r.FPR(n); ind >= got {
		t.Errorf("independent probes %v, double hashing %v", ind, got)
	}
	r.PowerOfTwo = false
	ind, _ := r.FPR(n)
	if got, _ := r.DoubleHashingFPR(n); got != ind {
		t.Errorf("NOROUND chain: %v, want the independent-probe rate %v", got, ind)
	}
}
