package variants

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/zeebo/xxh3"
)

// TestXXH3_64 checks the XXH3_64 kind against reference values of
// XXH3_64bits_withSeed computed once with the xxHash library's C code
// (xxhash.h 0.8.1, as RocksDB ships it) and kept here, on the bytes
// i*7+1 for i below the length: every length class of XXH3 (0, 1-3,
// 4-8, 9-16, 17-128, 129-240, above 240 with the seed's derived secret)
// and three seeds. Hashing{Kind: XXH3_64}.Digest must give {H1: the
// hash, H2: 0}, as zeebo/xxh3's HashSeed does.
func TestXXH3_64(t *testing.T) {
	var buf [300]byte
	for i := range buf {
		buf[i] = byte(i*7 + 1)
	}
	for _, c := range []struct {
		l          int
		seed, want uint64
	}{
		{0, 0, 0x2d06800538d394c2},
		{1, 0, 0xe12ef9d2eb86ceeb},
		{3, 0, 0x5c83885a0fb5d516},
		{4, 0, 0x244f36de481e7522},
		{8, 0, 0x96cc97a6768fd7a9},
		{9, 0, 0x4781d83b8e99d495},
		{16, 0, 0x913bd4a8038027a7},
		{17, 0, 0x2bf6f66973a6179d},
		{128, 0, 0xc4399c7829d0628f},
		{129, 0, 0x8433489056750b32},
		{240, 0, 0x3c0bb96864e543a1},
		{241, 0, 0xbff7215089202d8f},
		{300, 0, 0x935960848d04785c},
		{0, 5, 0x388ec5bd0562e095},
		{1, 5, 0xaf3d6ede47b9ca91},
		{3, 5, 0x644cb174c0e9bd4},
		{4, 5, 0x97e655e4c51eae23},
		{8, 5, 0x7fa1885aba604a8a},
		{9, 5, 0x4bc83b3612ab550b},
		{16, 5, 0xe9f372694b884999},
		{17, 5, 0x2033179d3aa85df8},
		{128, 5, 0x94a768b8c593bf97},
		{129, 5, 0x7beb8794df472f68},
		{240, 5, 0x54fb6d781b244373},
		{241, 5, 0x94d5bc75569e23f6},
		{300, 5, 0xb0f6ba20f34b6e92},
		{0, weyl, 0x602b0e2cd6662c8b},
		{1, weyl, 0x439a256d3da4e7e3},
		{3, weyl, 0x8840137a8295d79b},
		{4, weyl, 0x89af97f4a1e8d1fc},
		{8, weyl, 0x7f7986a4ac5342b6},
		{9, weyl, 0xa9fd0dd2db7e1fc7},
		{16, weyl, 0xcdf0cbaa77afe281},
		{17, weyl, 0x51290e3ab460cf3f},
		{128, weyl, 0xb4852aec21eb5644},
		{129, weyl, 0xeea48e728c6ca28a},
		{240, weyl, 0xfdbbfb1fa843fe64},
		{241, weyl, 0xdbbc9f7c061b0878},
		{300, weyl, 0xbb3392d9a3c2375},
	} {
		key := buf[:c.l]
		if got := (Hashing{Kind: XXH3_64, Seed: c.seed}).Digest(key); got != (Digest{H1: c.want}) {
			t.Errorf("Hashing{XXH3_64, %#x}.Digest(%d bytes) = %#x, want {%#x 0}", c.seed, c.l, got, c.want)
		}
		if got := xxh3.HashSeed(key, c.seed); got != c.want {
			t.Errorf("xxh3.HashSeed(%d bytes, %#x) = %#x, want %#x", c.l, c.seed, got, c.want)
		}
	}
	if got := XXH3_64.String(); got != "xxh3-64" {
		t.Errorf("XXH3_64.String() = %q, want xxh3-64", got)
	}
	// Not the low half of the 128-bit kind: a different hash, hence
	// different bits, for the same key and seed.
	if d64, d128 := (Hashing{Kind: XXH3_64}).Digest(buf[:16]), (Hashing{}).Digest(buf[:16]); d64.H1 == d128.H1 {
		t.Errorf("xxh3-64 and the low half of xxh3 agree on a 16-byte key: %#x", d64.H1)
	}
}

// TestSplitBlockXXH3_64: a split-block filter with the XXH3_64 kind sets,
// through every key path (Add, TestAndAdd, AddBatch; Contains,
// ContainsBatch), the bits that AddHash64 of xxh3.HashSeed(key, seed) sets.
func TestSplitBlockXXH3_64(t *testing.T) {
	const seed = 11
	h := Hashing{Kind: XXH3_64, Seed: seed}
	keys := testKeys(64, 1, 3000)
	absent := testKeys(64, 2, 3000)
	// Keys of every length class, beside the 16-byte ones.
	for l := range 300 {
		k := make([]byte, l)
		for i := range k {
			k[i] = byte(i*13 + l)
		}
		keys = append(keys, k)
	}
	mk := func() *SplitBlock {
		f, err := NewSplitBlock(Geometry{Bits: 40 * 256, Hashes: 8}, h)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	ref, add, tadd, batch := mk(), mk(), mk(), mk()
	for _, k := range keys {
		ref.AddHash64(xxh3.HashSeed(k, seed))
		add.Add(k)
		tadd.TestAndAdd(k)
	}
	batch.AddBatch(keys)
	for name, f := range map[string]*SplitBlock{"Add": add, "TestAndAdd": tadd, "AddBatch": batch} {
		if !slices.Equal(f.words, ref.words) {
			t.Errorf("%s set other bits than AddHash64(xxh3.HashSeed(key, seed))", name)
		}
		if f.items != ref.items {
			t.Errorf("%s: %d items, want %d", name, f.items, ref.items)
		}
	}
	out := make([]bool, len(absent))
	ref.ContainsBatch(absent, out)
	for i, k := range absent {
		want := ref.ContainsHash64(xxh3.HashSeed(k, seed))
		if got := ref.Contains(k); got != want {
			t.Fatalf("Contains(absent key %d) = %v, ContainsHash64 = %v", i, got, want)
		}
		if out[i] != want {
			t.Fatalf("ContainsBatch(absent key %d) = %v, ContainsHash64 = %v", i, out[i], want)
		}
		if got := ref.ContainsDigest(h.Digest(k)); got != want {
			t.Fatalf("ContainsDigest(absent key %d) = %v, ContainsHash64 = %v", i, got, want)
		}
	}
	for i, k := range keys {
		if !ref.Contains(k) {
			t.Fatalf("false negative for key %d", i)
		}
	}
	if got := ref.Hashing(); got != h {
		t.Errorf("Hashing() = %+v, want %+v", got, h)
	}
	// Filters of the two kinds do not combine.
	other, err := NewSplitBlock(Geometry{Bits: 40 * 256, Hashes: 8}, Hashing{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.Union(other); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "xxh3-64 != xxh3") {
		t.Errorf("Union with xxh3: %v, want ErrIncompatible naming the kinds", err)
	}
	// The conformance suite's checks, with this kind (TestBlockedRateMatchesTheory
	// checks its rate against the theory).
	testFilter(t, func(capacity uint64, p float64) Filter {
		f, err := NewSplitBlockFor(capacity, p, Hashing{Kind: XXH3_64, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		return f
	})
}

// TestXXH3_64Format: a split-block filter with the XXH3_64 kind saves hash
// kind 5 and loads with it (the golden file split-block-xxh3-64-v1 freezes
// the bytes); the other variants' decoders refuse kind 5 as their
// constructors refuse the kind, and the earlier kinds load as before (the
// other golden files).
func TestXXH3_64Format(t *testing.T) {
	f, err := NewSplitBlock(Geometry{Bits: 512, Hashes: 8, Capacity: 5}, Hashing{Kind: XXH3_64, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range goldenKeys {
		f.Add([]byte(k))
	}
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if data[6] != byte(codeSplitBlock) || data[7] != 5 || uint8(XXH3_64) != 5 {
		t.Fatalf("variant %d, hash kind %d (XXH3_64 = %d), want 6 and 5", data[6], data[7], uint8(XXH3_64))
	}
	if len(data) != 45+8*8+4 {
		t.Errorf("%d bytes, want %d", len(data), 45+8*8+4)
	}
	g, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	var r SplitBlock
	if err := r.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	var s SplitBlock
	if _, err := s.ReadFrom(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]*SplitBlock{"Unmarshal": g.(*SplitBlock), "UnmarshalBinary": &r, "ReadFrom": &s} {
		if got.Hashing() != f.Hashing() || got.path != splitPathXXH3x64 {
			t.Errorf("%s: hashing %+v, path %d; want %+v, %d", name, got.Hashing(), got.path, f.Hashing(), splitPathXXH3x64)
		}
		if again, _ := got.MarshalBinary(); !bytes.Equal(again, data) {
			t.Errorf("%s: encodes to other bytes", name)
		}
		for _, k := range goldenKeys {
			if !got.Contains([]byte(k)) {
				t.Errorf("%s: false negative for %q", name, k)
			}
		}
	}

	// Kind 5 in the header of every other variant's encoding is refused,
	// with the constructors' reason.
	others := map[string][]byte{
		"standard":         encoded(t, noErr(NewStandard(Geometry{Bits: 200, Hashes: 3}, Hashing{}))),
		"partitioned":      encoded(t, noErr(NewPartitioned(Geometry{Bits: 300, Hashes: 3}, Hashing{}))),
		"counting":         encoded(t, noErr(NewCounting(CountingParams{Geometry: Geometry{Bits: 100, Hashes: 3}, Width: 4}))),
		"blocked":          encoded(t, noErr(NewBlocked(BlockedParams{Geometry: Geometry{Bits: 512, Hashes: 4}, BlockBits: 256}))),
		"scalable":         encoded(t, noErr(NewScalable(ScalableParams{P: 0.01, N0: 10}))),
		"scalable blocked": encoded(t, noErr(NewScalable(ScalableParams{P: 0.01, N0: 10, BlockBits: 256}))),
		"dynamic":          encoded(t, noErr(NewDynamic(DynamicParams{N: 10, P: 0.01}))),
		"redisbloom":       encoded(t, noErr(NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 10}))),
		"age-partitioned":  encoded(t, noErr(NewAgePartitioned(AgePartitionedParams{K: 3, L: 2, G: 2, SliceBits: 70}))),
	}
	for name, enc := range others {
		b := bytes.Clone(enc)
		b[7] = byte(XXH3_64)
		fixChecksum(b)
		_, err := Unmarshal(b)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "xxh3-64") {
			t.Errorf("%s with hash kind 5: %v, want ErrCorrupt naming xxh3-64", name, err)
		}
	}
}

// TestXXH3_64Refused: every constructor but the split-block filter's
// refuses the 64-bit kind with the reason, as it refuses XXH64, and the
// split-block filter refuses a key with it.
func TestXXH3_64Refused(t *testing.T) {
	h := Hashing{Kind: XXH3_64}
	for name, err := range map[string]error{
		"standard":         second(NewStandard(Geometry{Bits: 100, Hashes: 3}, h)),
		"concurrent":       second(NewConcurrentStandard(Geometry{Bits: 100, Hashes: 3}, h)),
		"partitioned":      second(NewPartitionedFor(100, 0.01, h)),
		"counting":         second(NewCountingFor(100, 0.01, h)),
		"blocked":          second(NewBlocked(BlockedParams{Geometry: Geometry{Bits: 512, Hashes: 3}, Hashing: h})),
		"scalable":         second(NewScalable(ScalableParams{P: 0.01, N0: 100, Hashing: h})),
		"scalable blocked": second(NewScalable(ScalableParams{P: 0.01, N0: 100, BlockBits: 512, Hashing: h})),
		"dynamic":          second(NewDynamic(DynamicParams{N: 100, P: 0.01, Hashing: h})),
		"age-partitioned":  second(NewAgePartitioned(AgePartitionedParams{K: 3, L: 2, G: 2, SliceBits: 70, AgePartitionedOptions: AgePartitionedOptions{Hashing: h}})),
	} {
		if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "hash kind xxh3-64 gives 64 bits, and only a split-block filter takes it") {
			t.Errorf("%s: %v, want ErrInvalidParams: hash kind xxh3-64 gives 64 bits ...", name, err)
		}
	}
	if _, err := NewSplitBlock(Geometry{Bits: 512, Hashes: 8}, Hashing{Kind: XXH3_64, Key: refKey}); !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "xxh3-64 takes no key") {
		t.Errorf("split-block, key on xxh3-64: %v", err)
	}
	if _, err := NewSplitBlock(Geometry{Bits: 512, Hashes: 8}, Hashing{Kind: XXH3_64, Derivation: Double}); !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "derivation double") {
		t.Errorf("split-block, xxh3-64 with derivation double: %v", err)
	}
	if err := (Hashing{Kind: XXH3_64 + 1}).validate(); err == nil || !strings.Contains(err.Error(), "hash kind 6") || !strings.Contains(err.Error(), "xxh3-64 (5)") {
		t.Errorf("hash kind 6: %v", err)
	}
}
