package variants

import (
	"errors"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// TestRedisBloomBits checks the bits a key sets against positions
// computed outside Go: a Python implementation of MurmurHash64A written
// from Appleby's algorithm (python3, arbitrary-precision integers masked
// to 64 bits) and of CHECK_ADD_FUNC's probe (a + i b) mod 2^64 mod M, for
// link 0 of BF.RESERVE at error rate 0.01 and capacity 1000: M = 11072
// with NOROUND, 16384 without. "hello world" shows the 64-bit wrap: its
// probes step by 54 until a + i b passes 2^64, then jump back by
// 2^64 mod 11072.
func TestRedisBloomBits(t *testing.T) {
	for _, c := range []struct {
		key          string
		a, b         uint64
		noround, pow []uint64
	}{
		{"apple", 0xf9869f5521a1847d, 0xd80233f9b955e80f,
			[]uint64{253, 6668, 2011, 8426, 3769, 10184, 5527, 10086},
			[]uint64{1149, 11404, 5275, 15530, 9401, 3272, 13527, 7398}},
		{"hello world", 0xbae8fb35317acde1, 0xa5c3078260d44436,
			[]uint64{10849, 10903, 10957, 9155, 9209, 7407, 7461, 7515},
			[]uint64{3553, 4631, 5709, 6787, 7865, 8943, 10021, 11099}},
		{"", 0x1ab11ea5a7b2c56e, 0xbbddcb5ab56dd547,
			[]uint64{9582, 4213, 700, 8259, 4746, 10449, 6936, 3423},
			[]uint64{1390, 6837, 12284, 1347, 6794, 12241, 1304, 6751}},
	} {
		d := Hashing{Kind: Murmur64A}.Digest([]byte(c.key))
		if d.H1 != c.a || d.H2 != c.b {
			t.Fatalf("%q: digest %#x, %#x; want %#x, %#x", c.key, d.H1, d.H2, c.a, c.b)
		}
		for _, pow2 := range []bool{false, true} {
			f, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 1000, PowerOfTwo: pow2})
			if err != nil {
				t.Fatal(err)
			}
			f.Add([]byte(c.key))
			want := c.noround
			if pow2 {
				want = c.pow
			}
			var set []uint64
			for i, w := range f.links[0].words {
				for j := range uint64(64) {
					if w>>j&1 != 0 {
						set = append(set, uint64(i)*64+j)
					}
				}
			}
			for _, x := range want {
				if f.links[0].words[x/64]>>(x%64)&1 == 0 {
					t.Errorf("%q (power of two %v): bit %d clear", c.key, pow2, x)
				}
			}
			if len(set) != len(want) {
				t.Errorf("%q (power of two %v): bits %v set, want %v", c.key, pow2, set, want)
			}
		}
	}
}

// TestRedisBloomChain: links open as the newest fills, with the geometry
// of analysis.RedisBloom, and hold their capacity exactly.
func TestRedisBloomChain(t *testing.T) {
	for _, pow2 := range []bool{false, true} {
		f, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 100, Expansion: 3, PowerOfTwo: pow2, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		keys := testKeys(21, 1, 5000)
		for _, k := range keys {
			f.Add(k)
		}
		for _, k := range keys {
			if !f.Contains(k) {
				t.Fatalf("false negative %x", k)
			}
		}
		st := f.Stats()
		geom := analysis.RedisBloom{ErrorRate: 0.01, Capacity: 100, Expansion: 3, PowerOfTwo: pow2}
		links, err := geom.Links(st.Items)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Stages) != len(links) || f.Links() != len(links) {
			t.Fatalf("%d links, want %d", len(st.Stages), len(links))
		}
		var items uint64
		for i, s := range st.Stages {
			l := links[i]
			if s.Capacity != l.Capacity || s.Bits != l.Bits || s.Hashes != l.Hashes || s.Error != l.Error {
				t.Errorf("link %d: %+v, want %+v", i, s, l)
			}
			if i < len(st.Stages)-1 && s.Items != s.Capacity {
				t.Errorf("link %d holds %d items, capacity %d", i, s.Items, s.Capacity)
			}
			items += s.Items
		}
		if items != st.Items || st.Items > 5000 || st.Items < 4900 {
			t.Errorf("items %d, links hold %d, offered 5000", st.Items, items)
		}
		f.Reset()
		if f.Links() != 1 || f.Stats().Items != 0 || f.Contains(keys[0]) {
			t.Error("Reset did not empty the filter")
		}
	}
}

func TestRedisBloomInvalid(t *testing.T) {
	for _, p := range []RedisBloomParams{
		{ErrorRate: 0, Capacity: 1000},
		{ErrorRate: 1, Capacity: 1000},
		{ErrorRate: -0.1, Capacity: 1000},
		{ErrorRate: math.NaN(), Capacity: 1000},
		{ErrorRate: 0.01, Capacity: 0},
		{ErrorRate: 0.01, Capacity: 1000, Expansion: -1},
		{ErrorRate: 0.01, Capacity: 1 << 62},
	} {
		f, err := NewRedisBloom(p)
		if f != nil || !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v: %v", p, err)
		}
	}
}
