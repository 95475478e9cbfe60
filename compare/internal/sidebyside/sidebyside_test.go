package sidebyside

import (
	"testing"

	"github.com/bloomlab/bloomlab/variants"
)

// TestLoops: the split-block loops visit the keys in cyclic order and
// count hits as the filter answers them, and the helpers do as their docs
// say.
func TestLoops(t *testing.T) {
	if got := Median([]float64{3, 1, 2, 10}); got != 2.5 {
		t.Errorf("Median = %v, want 2.5", got)
	}
	if Next(2, 3) != 0 || Next(0, 3) != 1 || NextGroup(0, 10, 4) != 4 || NextGroup(4, 10, 4) != 0 {
		t.Error("Next or NextGroup")
	}
	g, err := variants.SplitBlockGeometry(1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	f, err := variants.NewSplitBlock(g, variants.Hashing{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 64
	keys := make([]byte, 16*n)
	for i := range keys {
		keys[i] = byte(i * 7)
	}
	SplitAddKeys(f, keys, n/2, n/2)
	if hits := SplitKeys(f, keys, n/2, 3*n/2); hits != 3*n/2 {
		t.Errorf("present keys: %d hits of %d", hits, 3*n/2)
	}
	h := variants.Hashing{}
	ds := make([]variants.Digest, n)
	for i := range ds {
		ds[i] = h.Digest(Key(keys, i))
	}
	out := make([]bool, 8)
	if hits := QueriesBatch(f, ds, out, n/2, n/2); hits != n/2 {
		t.Errorf("present digests in batches: %d hits of %d", hits, n/2)
	}
	if HashXXH3128(keys, n, n) == 0 || RandomLines(make([]uint64, 64), 10) != 0 {
		t.Error("HashXXH3128 or RandomLines")
	}
	if s, r := Time(10, func(count int) uint64 { return uint64(count) }); r != 10 || s.Wall < 0 {
		t.Errorf("Time: %+v, %d", s, r)
	}
}
