package analysis

import (
	"errors"
	"math"
	"testing"
)

// TestRedisBloomLinks checks the links against a table computed from the
// formulas of RedisBloom's source (bloom_init and calc_bpe in
// deps/bloom/bloom.c, SB_NewChain and SBChain_Add in src/sb.c), written
// out in a few lines of Python in double precision, as C evaluates them,
// and checked by hand for the first links. For example, at error rate 0.01 link 0
// has error 0.005, bpe = -ln(0.005)/0.480453013918201 = 11.027753, hashes
// ceil(0.693147180559945 x 11.027753) = ceil(7.6439) = 8, and, with
// NOROUND, trunc(1000 x 11.027753) = 11027 bits rounded up to 173 words,
// 11072 bits. Without NOROUND 11027.75 rounds up to 2^14 = 16384 bits and
// the capacity rises by trunc(trunc(16384 - 11027.75)/11.027753) = 485 to
// 1485, so link 1 has capacity 2970 before its own rounding: 2970 x
// 12.470448 = 37037.2 bits, 2^16 = 65536, capacity 2970 + 2285 = 5255.
func TestRedisBloomLinks(t *testing.T) {
	t.Parallel()
	type row struct {
		capacity uint64
		hashes   int
		bits     uint64
	}
	for _, c := range []struct {
		rate  float64
		pow2  bool
		links []row
	}{
		{0.01, false, []row{{1000, 8, 11072}, {2000, 9, 24960}, {4000, 10, 55680}, {8000, 11, 122880}}},
		{0.01, true, []row{{1485, 8, 16384}, {5255, 9, 65536}, {18841, 10, 262144}, {68285, 11, 1048576}}},
		{0.001, false, []row{{1000, 11, 15872}, {2000, 12, 34560}, {4000, 13, 74880}, {8000, 14, 161216}}},
		{0.001, true, []row{{1035, 11, 16384}, {3796, 12, 65536}, {14014, 13, 262144}, {52042, 14, 1048576}}},
	} {
		r := RedisBloom{ErrorRate: c.rate, Capacity: 1000, Expansion: 2, PowerOfTwo: c.pow2}
		for i, want := range c.links {
			l, err := r.Link(i)
			if err != nil {
				t.Fatal(err)
			}
			if l.Capacity != want.capacity || l.Hashes != want.hashes || l.Bits != want.bits || l.Modulus != want.bits {
				t.Errorf("rate %v power of two %v link %d: capacity %d, hashes %d, bits %d, modulus %d; want %d, %d, %d", c.rate, c.pow2, i, l.Capacity, l.Hashes, l.Bits, l.Modulus, want.capacity, want.hashes, want.bits)
			}
			if e := c.rate * math.Pow(0.5, float64(i+1)); l.Error != e {
				t.Errorf("link %d error %v, want %v", i, l.Error, e)
			}
		}
		links, err := r.Links(1000 + 2000 + 1)
		if err != nil || len(links) != 3 && !c.pow2 {
			t.Errorf("Links(3001) = %d links, %v", len(links), err)
		}
	}
}

// TestRedisBloomSmallPowerOfTwo: a table of fewer than 64 bits takes one
// word in memory, and probes reduce modulo its power of two.
func TestRedisBloomSmallPowerOfTwo(t *testing.T) {
	t.Parallel()
	l, err := RedisBloom{ErrorRate: 0.5, Capacity: 1, Expansion: 1, PowerOfTwo: true}.Link(0)
	if err != nil {
		t.Fatal(err)
	}
	// Error 0.25: bpe = ln 4/0.480453013918201 = 2.8853900817779294,
	// n2 = logb(2.885) + 1 = 2; hashes ceil(0.693147180559945 bpe) =
	// ceil(2.000000000000001) = 3 (Python, in double precision as C): the
	// source's rounded constants put the product just above 2.
	if l.Bits != 64 || l.Modulus != 4 || l.Hashes != 3 {
		t.Fatalf("%+v, want 64 bits, modulus 4, 3 hashes", l)
	}
}

func TestRedisBloomInvalid(t *testing.T) {
	t.Parallel()
	for _, r := range []RedisBloom{
		{ErrorRate: 0, Capacity: 1000, Expansion: 2},
		{ErrorRate: 1, Capacity: 1000, Expansion: 2},
		{ErrorRate: math.NaN(), Capacity: 1000, Expansion: 2},
		{ErrorRate: 0.01, Capacity: 0, Expansion: 2},
		{ErrorRate: 0.01, Capacity: 1000, Expansion: 0},
	} {
		if _, err := r.FPR(10); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v: %v", r, err)
		}
	}
}

// TestRedisBloomFPR: the compound rate is 1 - prod(1 - f_i) over the
// links at their loads (LinkFPR, the keys each was offered), a little
// above the rates of the loads all added, below the error rate, and grows
// with the items.
func TestRedisBloomFPR(t *testing.T) {
	t.Parallel()
	r := RedisBloom{ErrorRate: 0.01, Capacity: 1000, Expansion: 2}
	got, err := r.FPR(2500)
	if err != nil {
		t.Fatal(err)
	}
	l0, _ := r.Link(0)
	l1, _ := r.Link(1)
	want := 1 - (1-r.LinkFPR(l0, 1000))*(1-r.LinkFPR(l1, 1500))
	if math.Abs(got-want) > 1e-15 {
		t.Fatalf("FPR(2500) = %v, want %v", got, want)
	}
	all := 1 - (1-ExactFPR(l0.Modulus, 1000, l0.Hashes))*(1-ExactFPR(l1.Modulus, 1500, l1.Hashes))
	if !(got > all && got < all*1.01) {
		t.Fatalf("FPR(2500) = %v, want a little above %v (every key added)", got, all)
	}
	prev := 0.0
	for _, n := range []uint64{1000, 3000, 7000, 15000, 1 << 20} {
		f, err := r.FPR(n)
		if err != nil || f <= prev || f >= 0.01 {
			t.Fatalf("FPR(%d) = %v (%v), previous %v", n, f, err, prev)
		}
		prev = f
	}
	bpe, err := r.BitsPerKey(3000)
	if err != nil || bpe != float64(11072+24960)/3000 {
		t.Fatalf("BitsPerKey(3000) = %v, %v", bpe, err)
	}
}

// TestRedisBloomDocumentedFigures checks the figures of RedisBloom's
// BF.RESERVE documentation (redis.io/commands/bf.reserve: "1% error rate
// requires 7 hash functions and 10.08 bits per item", 0.1% 10 and 14.4,
// 0.01% 14 and 20.16; corrected in redis/docs pull request 962 to 9.585,
// 14.378 and 19.170 bits) against the rules of the source. A filter at
// error rate e without scaling (NONSCALING: SB_NewChain's tightening 1) is
// link 0 of a chain at 2e. The scaling filter BF.RESERVE builds by
// default gives its first link half the error: the figures of 2e/2 = e/2
// are logged beside them. Run R51 of paper-notes.md.
func TestRedisBloomDocumentedFigures(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		rate   float64
		hashes int
		bpe    float64 // bits per entry before rounding, to 3 decimals
	}{{0.01, 7, 9.585}, {0.001, 10, 14.378}, {0.0001, 14, 19.170}} {
		single, err := RedisBloom{ErrorRate: 2 * c.rate, Capacity: 1000, Expansion: 2}.Link(0)
		if err != nil {
			t.Fatal(err)
		}
		if single.Hashes != c.hashes || math.Abs(single.BPE-c.bpe) > 5e-4 {
			t.Errorf("error %v: %d hashes, %.4f bits per entry; documented %d and %.3f", c.rate, single.Hashes, single.BPE, c.hashes, c.bpe)
		}
		first, _ := RedisBloom{ErrorRate: c.rate, Capacity: 1000, Expansion: 2}.Link(0)
		t.Logf("error rate %v: NONSCALING %d hashes, %.3f bits per entry (%d bits for 1000 entries); BF.RESERVE's first link (error %v) %d hashes, %.3f bits per entry (%d bits for 1000)",
			c.rate, single.Hashes, single.BPE, single.Bits, first.Error, first.Hashes, first.BPE, first.Bits)
	}
}
