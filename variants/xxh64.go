package variants

import "github.com/cespare/xxhash/v2"

// ParquetHash returns the hash that the Parquet format's Bloom filters
// use for a value: [XXH64] with seed 0 of the value's plain encoding (for
// example the 8 little-endian bytes of an INT64, or the bytes of a
// BYTE_ARRAY without its length prefix). Give it to SplitBlock's AddHash64
// and ContainsHash64 to query a Parquet column chunk's filter, or build the
// filter with Hashing{Kind: XXH64}, whose Add and Contains hash keys so.
func ParquetHash(value []byte) uint64 { return xxhash.Sum64(value) }

// xxh64 is the 64-bit XXH64 hash of b with seed, computed by
// github.com/cespare/xxhash/v2 (which has amd64 and arm64 assembly). Seed
// 0, Parquet's, takes its one-shot Sum64; any other seed a Digest on the
// stack.
func xxh64(b []byte, seed uint64) uint64 {
	if seed == 0 {
		return xxhash.Sum64(b)
	}
	var d xxhash.Digest
	d.ResetWithSeed(seed)
	d.Write(b)
	return d.Sum64()
}
