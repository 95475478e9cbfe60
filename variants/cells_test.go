package variants

import "testing"

// TestFreshCells: on an empty filter every probe is fresh; after adding a
// key, that key has no fresh cell left; and FreshCells agrees with what an
// add does: a key with no fresh cell tests present, and one with fresh
// cells tests absent.
func TestFreshCells(t *testing.T) {
	for _, h := range []Hashing{{Seed: 3}, {Derivation: Independent, Seed: 4}, {Kind: SipHash, Key: refKey}} {
		filters := map[string]Filter{}
		s, _ := NewStandardFor(500, 0.01, h)
		p, _ := NewPartitionedFor(500, 0.01, h)
		c, _ := NewCountingFor(500, 0.01, h)
		sc, _ := NewScalable(ScalableParams{P: 0.01, N0: 100, Hashing: h})
		filters["standard"], filters["partitioned"], filters["counting"], filters["scalable"] = s, p, c, sc
		if h.Derivation == EnhancedDouble {
			b, _ := NewBlockedFor(500, 0.01, h)
			sb, _ := NewScalable(ScalableParams{P: 0.01, N0: 100, BlockBits: 512, Hashing: h})
			filters["blocked"], filters["scalable-blocked"] = b, sb
		}
		for name, f := range filters {
			fc := f.(FreshCounter)
			keys := testKeys(7, 1, 1000)
			if n, k := fc.FreshCells(h.Digest(keys[0])), f.Stats().Hashes; n != k {
				t.Errorf("%s/%v: empty filter, %d fresh cells of %d", name, h.Kind, n, k)
			}
			for _, key := range keys {
				d := h.Digest(key)
				fresh := fc.FreshCells(d)
				sf, scalable := f.(*Scalable)
				stages := 0
				if scalable {
					stages = sf.Stages()
				}
				present := f.TestAndAdd(key)
				// A scalable filter also reports keys its older stages hold.
				if fresh == 0 && !present || fresh > 0 && present && !scalable {
					t.Fatalf("%s/%v: %d fresh cells, but TestAndAdd says present = %v", name, h.Kind, fresh, present)
				}
				// (A scalable filter whose newest stage just filled counts
				// in the next, empty stage; one that holds the key in an
				// older stage did not add it.)
				if !scalable || !present && sf.Stages() == stages && !newestFull(sf) {
					if n := fc.FreshCells(d); n != 0 {
						t.Fatalf("%s/%v: %d fresh cells right after the add", name, h.Kind, n)
					}
				}
			}
		}
	}
}

// newestFull reports whether the newest stage of f holds its capacity, so
// that FreshCells counts the cells of the next, empty stage.
func newestFull(f *Scalable) bool {
	st := &f.stages[f.live-1]
	return st.core().items >= st.capacity
}

// TestGrowingFreshCellsAndEqual: FreshCells counts the bits an add would
// set, and Equal tells a loaded filter from one that took one key more.
func TestGrowingFreshCellsAndEqual(t *testing.T) {
	d, _ := NewDynamic(DynamicParams{N: 100, P: 0.01, Hashing: Hashing{Seed: 8}})
	r, _ := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 100, Seed: 8})
	for _, f := range []interface {
		persistent
		FreshCounter
	}{d, r} {
		keys := testKeys(64, 1, 350)
		for _, k := range keys[:349] {
			f.Add(k)
		}
		h := f.Hashing()
		dg := h.Digest(keys[349])
		fresh := f.FreshCells(dg)
		before := f.Stats()
		f.AddDigest(dg)
		after := f.Stats()
		var set0, set1 float64
		for i, s := range before.Stages {
			set0 += s.FillRatio * float64(s.Bits)
			set1 += after.Stages[i].FillRatio * float64(after.Stages[i].Bits)
		}
		if len(after.Stages) > len(before.Stages) {
			last := after.Stages[len(after.Stages)-1]
			set1 += last.FillRatio * float64(last.Bits)
		}
		// Two probes may share a fresh bit: the bits set are at most fresh.
		if grew := int(set1 - set0 + 0.5); grew > fresh || grew == 0 && fresh > 0 {
			t.Errorf("%T: FreshCells %d, the add set %d bits", f, fresh, grew)
		}
		g := fresh2(t, f)
		switch f := f.(type) {
		case *Dynamic:
			if !f.Equal(g.(*Dynamic)) || f.Equal(nil) {
				t.Error("a loaded dynamic filter differs")
			}
			g.Add([]byte("one more"))
			if f.Equal(g.(*Dynamic)) {
				t.Error("dynamic filters with different bits are Equal")
			}
		case *RedisBloom:
			if !f.Equal(g.(*RedisBloom)) || f.Equal(nil) {
				t.Error("a loaded RedisBloom filter differs")
			}
			g.Add([]byte("one more"))
			if f.Equal(g.(*RedisBloom)) {
				t.Error("RedisBloom filters with different bits are Equal")
			}
		}
	}
}

// fresh2 returns a copy of f through its encoding.
func fresh2(t *testing.T, f persistent) persistent {
	g := fresh(f)
	if err := g.UnmarshalBinary(encoded(t, f)); err != nil {
		t.Fatal(err)
	}
	return g
}
