package variants

import "testing"

// TestXXH64 checks XXH64 against reference values computed once with
// github.com/cespare/xxhash/v2 v2.3.0 (Sum64String, and NewWithSeed for
// seed 7) and kept here, so that a change of library or of the seeded path
// cannot change the hashes unnoticed; the inputs cover every tail length
// and the 32-byte stripes. Hashing{Kind: XXH64}.Digest must give the same.
func TestXXH64(t *testing.T) {
	const long = "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for _, c := range []struct {
		in   string
		seed uint64
		want uint64
	}{
		{"", 0, 0xef46db3751d8e999},
		{"a", 0, 0xd24ec4f1a98c6e5b},
		{"abc", 0, 0x44bc2cf5ad770999},
		{"hello world!", 0, 0x9bb9a01dc10f4709},
		{"12345678901234567890123456789012", 0, 0x40fd1aa52d98274c},
		{long, 0, 0x4d5c1ea57e188ac2},
		{"", 7, 0x95f0626f6f0a4409},
		{"abc", 7, 0x9e755206156676d7},
		{long, 7, 0xfe333d8f9cc2b4a9},
	} {
		if got := xxh64([]byte(c.in), c.seed); got != c.want {
			t.Errorf("xxh64(%q, %d) = %#x, want %#x", c.in, c.seed, got, c.want)
		}
		if got := (Hashing{Kind: XXH64, Seed: c.seed}).Digest([]byte(c.in)); got != (Digest{H1: c.want}) {
			t.Errorf("Hashing{XXH64, %d}.Digest(%q) = %#x, want {%#x 0}", c.seed, c.in, got, c.want)
		}
	}
	if got := ParquetHash([]byte("abc")); got != 0x44bc2cf5ad770999 {
		t.Errorf("ParquetHash(abc) = %#x", got)
	}
}
