package variants

import (
	"encoding/binary"
	"testing"
)

// TestMurmur64AVerification runs SMHasher's verification procedure
// (VerificationTest in SMHasher's KeysetTest.cpp): hash the keys {},
// {0}, {0, 1}, ..., {0, ..., 255} with seeds 256, 255, ..., 1, write the
// 256 hashes one after another (little-endian), hash those 2048 bytes with
// seed 0, and read the first four bytes of the result as a little-endian
// 32-bit value. SMHasher publishes 0x1F0D3804 for MurmurHash64A.
func TestMurmur64AVerification(t *testing.T) {
	key := make([]byte, 256)
	hashes := make([]byte, 0, 256*8)
	for i := range 256 {
		key[i] = byte(i)
		hashes = binary.LittleEndian.AppendUint64(hashes, murmur64a(key[:i], uint64(256-i)))
	}
	got := uint32(murmur64a(hashes, 0))
	if got != 0x1F0D3804 {
		t.Fatalf("verification value %#08x, want 0x1F0D3804 (SMHasher, MurmurHash64A)", got)
	}
}
