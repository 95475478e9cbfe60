package variants

import "testing"

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
		dg := h.Sum(keys[349])
		fresh := f.FreshCells(dg)
		before := f.Stats()
		f.AddHash(dg)
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
