package compare

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/bloomlab/bloomlab/variants"
	"github.com/parquet-go/parquet-go/bloom"
)

// TestParquetInterop checks that bloomlab's split-block filter is the
// filter of the Parquet format as parquet-go implements it (with its x86
// assembly where the machine has it): given the same 64-bit hashes, the
// two build identical bitsets; each reads the other's bitset and answers
// every query as its author does; and both hash values as Parquet does
// (XXH64, seed 0). Sizes run from one block to many, so block selection
// by the hash's high bits is covered at several table sizes.
func TestParquetInterop(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	for _, blocks := range []int{1, 2, 7, 64, 1000, 1 << 14} {
		ours, err := variants.NewSplitBlock(variants.Geometry{Bits: uint64(blocks) * 256, Hashes: 8}, variants.Hashing{Kind: variants.XXH64})
		if err != nil {
			t.Fatal(err)
		}
		theirs := bloom.MakeSplitBlockFilter(make([]byte, blocks*bloom.BlockSize))
		n := blocks * 20 // about 12.8 bits per value
		inserted := make([]uint64, n)
		for i := range inserted {
			h := r.Uint64()
			inserted[i] = h
			ours.AddHash64(h)
			theirs.Insert(h)
		}
		got := ours.AppendBitset(nil)
		if !bytes.Equal(got, theirs.Bytes()) {
			t.Fatalf("%d blocks: the bitsets differ after %d inserts", blocks, n)
		}

		// Each reads the other's bitset.
		fromTheirs, err := variants.NewSplitBlockFromBitset(append([]byte(nil), theirs.Bytes()...))
		if err != nil {
			t.Fatalf("%d blocks: reading parquet-go's bitset: %v", blocks, err)
		}
		readByThem := bloom.MakeSplitBlockFilter(append([]byte(nil), got...))
		positives := 0
		for i := range 20000 {
			var h uint64
			if i%4 == 0 {
				h = inserted[r.IntN(n)]
			} else {
				h = r.Uint64()
			}
			want := theirs.Check(h)
			if ours.ContainsHash64(h) != want || fromTheirs.ContainsHash64(h) != want || readByThem.Check(h) != want {
				t.Fatalf("%d blocks: hash %#x: parquet-go says %v, bloomlab %v, bloomlab on parquet-go's bitset %v, parquet-go on bloomlab's %v",
					blocks, h, want, ours.ContainsHash64(h), fromTheirs.ContainsHash64(h), readByThem.Check(h))
			}
			if want && i%4 != 0 {
				positives++
			}
		}
		if blocks <= 64 && positives == 0 {
			t.Errorf("%d blocks: no false positive in 15000 absent queries, so the comparison of positive answers to absent keys was not exercised", blocks)
		}
	}
}

// TestParquetHashInterop checks that bloomlab hashes a value as Parquet
// does: variants.ParquetHash agrees with parquet-go's XXH64 on byte
// strings of every length up to 100 and on the 8-byte encoding of 64-bit
// integers, and a filter fed keys through bloomlab's Add matches one fed
// the same values through parquet-go's hash and Insert.
func TestParquetHashInterop(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	var h bloom.XXH64
	for n := range 101 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if got, want := variants.ParquetHash(b), h.Sum64(b); got != want {
			t.Fatalf("%d bytes: ParquetHash %#x, parquet-go %#x", n, got, want)
		}
	}
	ours, err := variants.NewSplitBlock(variants.Geometry{Bits: 512 * 256, Hashes: 8}, variants.Hashing{Kind: variants.XXH64})
	if err != nil {
		t.Fatal(err)
	}
	theirs := bloom.MakeSplitBlockFilter(make([]byte, 512*bloom.BlockSize))
	var b [8]byte
	for range 5000 {
		v := r.Uint64()
		binary.LittleEndian.PutUint64(b[:], v)
		if variants.ParquetHash(b[:]) != h.Sum64Uint64(v) {
			t.Fatalf("value %d: the hash of its 8 little-endian bytes differs from parquet-go's Sum64Uint64", v)
		}
		ours.Add(b[:])
		theirs.Insert(h.Sum64(b[:]))
	}
	if !bytes.Equal(ours.AppendBitset(nil), theirs.Bytes()) {
		t.Fatal("filters fed the same values differ")
	}
}
