package analysis

import (
	"math"
	"testing"
)

// guavaGeometry is the geometry Guava's BloomFilter.create(funnel,
// expectedInsertions, fpp) gives (BloomFilter.optimalNumOfBits and
// optimalNumOfHashFunctions): m = (long)(-n ln p / (ln 2)^2) and
// k = max(1, round(m/n ln 2)).
func guavaGeometry(n uint64, p float64) (m uint64, k int) {
	m = uint64(-float64(n) * math.Log(p) / (math.Ln2 * math.Ln2))
	k = max(1, int(math.Round(float64(m)/float64(n)*math.Ln2)))
	return m, k
}

// TestGuavaOverfill computes paper-notes §13m: a Guava filter created for
// 10^5 expected insertions at 1%, its exact rate (ExactFPR, positions as
// independent: Guava derives them by double hashing of a 128-bit
// Murmur3 value, §13e) as it fills past its size, beside the growing
// designs at 10^6 keys. Run it with -v for the table.
func TestGuavaOverfill(t *testing.T) {
	t.Parallel()
	m, k := guavaGeometry(1e5, 0.01)
	if m != 958505 || k != 7 {
		t.Fatalf("Guava's geometry for 1e5 at 1%%: m = %d, k = %d, want 958505 and 7 (hand-evaluated)", m, k)
	}
	for _, c := range []struct {
		n    uint64
		rate float64 // to the digits paper-notes prints
	}{{1e5, 0.0100}, {2e5, 0.1575}, {5e5, 0.8319}, {1e6, 0.9953}} {
		r := ExactFPR(m, c.n, k)
		t.Logf("n = %d: %.4f, %.2f bits per key", c.n, r, float64(m)/float64(c.n))
		if math.Abs(r-c.rate) > 5e-5 {
			t.Errorf("n = %d: rate %.5f, paper-notes §13m says %.4f", c.n, r, c.rate)
		}
	}
}
