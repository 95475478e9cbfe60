package analysis

import (
	"math"
	"testing"
)

// pybloomStage is a stage of pybloom's ScalableBloomFilter as its source
// (pybloom_live/pybloom.py, BloomFilter.__init__) sizes it for capacity c
// and error e: k = ceil(log2(1/e)) slices of ceil(c |ln e| / (k ln^2 2))
// bits.
func pybloomStage(c uint64, e float64) (bits uint64, k int) {
	k = int(math.Ceil(math.Log2(1 / e)))
	slice := uint64(math.Ceil(float64(c) * math.Abs(math.Log(e)) / (float64(k) * math.Ln2 * math.Ln2)))
	return slice * uint64(k), k
}

// TestPybloomScalable computes paper-notes §13i's theory: the compound
// rate of pybloom's scalable filter (first capacity 100, growth 2,
// tightening 0.9, target 0.01) after 5000 keys, with its first stage at
// P r (pybloom_live) and at P (1 - r) (Almeida et al., jaybaird's
// pybloom), from the exact partitioned rate of each stage at its fill.
// Run it with -v for the table.
func TestPybloomScalable(t *testing.T) {
	t.Parallel()
	const (
		p, r  = 0.01, 0.9
		items = 5000
	)
	for _, c := range []struct {
		name      string
		first     float64
		bits      uint64
		rate      float64 // to the digits paper-notes prints
		converges float64
	}{
		{"pybloom_live, first stage P r", p * r, 67460, 0.0367, p * r / (1 - r)},
		{"Almeida et al., first stage P (1 - r)", p * (1 - r), 96260, 0.0041, p},
	} {
		capacity, e, left := uint64(100), c.first, uint64(items)
		var bits uint64
		pass, stages := 1.0, 0
		for left > 0 {
			m, k := pybloomStage(capacity, e)
			n := min(left, capacity)
			pass *= 1 - PartitionedFPR(m, n, k)
			bits += m
			left -= n
			capacity *= 2
			e *= r
			stages++
		}
		rate := 1 - pass
		t.Logf("%s: %d stages, %d bits, compound rate %.4f at %d keys (it converges to %g)", c.name, stages, bits, rate, items, c.converges)
		if bits != c.bits || math.Abs(rate-c.rate) > 5e-5 {
			t.Errorf("%s: %d bits, rate %.5f; paper-notes §13i says %d and %.4f", c.name, bits, rate, c.bits, c.rate)
		}
	}
}
