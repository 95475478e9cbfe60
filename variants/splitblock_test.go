package variants

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// parquetSBBF is the split-block filter of the Parquet format's
// BloomFilter.md, written down as the specification states it: z blocks of
// eight uint32 words, block index ((h >> 32) z) >> 32, and in word i the
// bit (uint32(h) salt_i) >> 27. It is the reference the SplitBlock type is
// checked against, and shares none of its code.
type parquetSBBF struct{ blocks [][8]uint32 }

var parquetSalts = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

func (f *parquetSBBF) mask(x uint32) (m [8]uint32) {
	for i := range m {
		m[i] = 1 << ((x * parquetSalts[i]) >> 27)
	}
	return m
}

func (f *parquetSBBF) index(h uint64) uint64 { return ((h >> 32) * uint64(len(f.blocks))) >> 32 }

func (f *parquetSBBF) insert(h uint64) {
	b, m := &f.blocks[f.index(h)], f.mask(uint32(h))
	for i := range b {
		b[i] |= m[i]
	}
}

func (f *parquetSBBF) check(h uint64) bool {
	b, m := &f.blocks[f.index(h)], f.mask(uint32(h))
	for i := range b {
		if b[i]&m[i] == 0 {
			return false
		}
	}
	return true
}

func (f *parquetSBBF) bitset() []byte {
	var out []byte
	for _, b := range f.blocks {
		for _, w := range b {
			out = binary.LittleEndian.AppendUint32(out, w)
		}
	}
	return out
}

// TestSplitBlockMatchesParquetSpec: for numbers of blocks that are and are
// not powers of two, SplitBlock given the same 64-bit hashes writes the
// same bitset as the specification's filter, answers every query alike,
// and reads the specification's bitset back.
func TestSplitBlockMatchesParquetSpec(t *testing.T) {
	for _, z := range []int{1, 3, 64, 1000} {
		ref := &parquetSBBF{blocks: make([][8]uint32, z)}
		f, err := NewSplitBlock(Geometry{Bits: uint64(z) * 256, Hashes: 8}, Hashing{Kind: XXH64})
		if err != nil {
			t.Fatal(err)
		}
		values := testKeys(31, 1, 40*z)
		for i, v := range values {
			h := ParquetHash(v)
			ref.insert(h)
			if i%2 == 0 {
				f.AddHash64(h)
			} else {
				f.Add(v) // hashes v with XXH64, seed 0, as Parquet does
			}
		}
		if got := f.AppendBitset(nil); !bytes.Equal(got, ref.bitset()) {
			t.Fatalf("z = %d: bitset differs from the specification's", z)
		}
		loaded, err := NewSplitBlockFromBitset(ref.bitset())
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range append(values, testKeys(32, 2, 4000)...) {
			h := ParquetHash(v)
			want := ref.check(h)
			if f.ContainsHash64(h) != want || loaded.ContainsHash64(h) != want || loaded.Contains(v) != want {
				t.Fatalf("z = %d: answers differ from the specification's for %x", z, v)
			}
		}
	}
}

// TestSplitBlockKnownBits checks one insertion by hand: hash
// 0x0000000180000001 in a filter of 4 blocks picks block (1 * 4) >> 32 = 0
// and, with x = 1, sets in word i the bit salt_i >> 27.
func TestSplitBlockKnownBits(t *testing.T) {
	f, err := NewSplitBlock(Geometry{Bits: 4 * 256, Hashes: 8}, Hashing{Kind: XXH64})
	if err != nil {
		t.Fatal(err)
	}
	f.AddHash64(0x0000_0001_0000_0001)
	got := f.AppendBitset(nil)
	want := make([]byte, 4*32)
	// salt >> 27 for the eight salts: 8, 8, 17, 20, 14, 5, 19, 11.
	for i, bit := range []uint{8, 8, 17, 20, 14, 5, 19, 11} {
		binary.LittleEndian.PutUint32(want[4*i:], 1<<bit)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("bitset\n got %x\nwant %x", got, want)
	}
	// The top 32 bits pick the block: 0xc0000000 of 4 blocks is block 3.
	f.Reset()
	f.AddHash64(0xc000_0000_0000_0001)
	if got := f.AppendBitset(nil); !bytes.Equal(got[96:], want[:32]) || !bytes.Equal(got[:96], make([]byte, 96)) {
		t.Fatalf("block 3 bitset\n got %x", got)
	}
}
