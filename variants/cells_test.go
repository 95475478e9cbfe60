package variants

import "testing"

// TestFreshCells: on an empty filter every probe is fresh; after adding a
// key, that key has no fresh cell left; and FreshCells agrees with what an
// add does: a key with no fresh cell tests present, and one with fresh
// cells tests absent.
func TestFreshCells(t *testing.T) {
	for _, h := range []Hashing{{Seed: 3}, {Derivation: Independent, Seed: 4}, {Kind: Keyed, Key: refKey}} {
		filters := map[string]Filter{}
		s, _ := NewStandardFor(500, 0.01, h)
		p, _ := NewPartitionedFor(500, 0.01, h)
		c, _ := NewCountingFor(500, 0.01, 4, h)
		sc, _ := NewScalable(ScalableParams{P: 0.01, N0: 100, Hashing: h})
		filters["standard"], filters["partitioned"], filters["counting"], filters["scalable"] = s, p, c, sc
		if h.Derivation == EnhancedDouble {
			b, _ := NewBlockedFor(500, 0.01, 0, h)
			sb, _ := NewScalable(ScalableParams{P: 0.01, N0: 100, BlockBits: 512, Hashing: h})
			filters["blocked"], filters["scalable-blocked"] = b, sb
		}
		for name, f := range filters {
			fc := f.(FreshCounter)
			keys := testKeys(7, 1, 1000)
			if n, k := fc.FreshCells(h.Sum(keys[0])), f.Stats().Hashes; n != k {
				t.Errorf("%s/%v: empty filter, %d fresh cells of %d", name, h.Kind, n, k)
			}
			for _, key := range keys {
				d := h.Sum(key)
				fresh := fc.FreshCells(d)
				present := f.TestAndAdd(key)
				_, scalable := f.(*Scalable)
				// A scalable filter also reports keys its older stages hold.
				if fresh == 0 && !present || fresh > 0 && present && !scalable {
					t.Fatalf("%s/%v: %d fresh cells, but TestAndAdd says present = %v", name, h.Kind, fresh, present)
				}
				// (A scalable filter whose newest stage just filled counts
				// in the next, empty stage.)
				if !scalable {
					if n := fc.FreshCells(d); n != 0 {
						t.Fatalf("%s/%v: %d fresh cells right after the add", name, h.Kind, n)
					}
				}
			}
		}
	}
}
