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
		// FreshCells counts distinct cells: exactly the bits the add sets.
		if grew := int(set1 - set0 + 0.5); grew != fresh {
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

// setCells returns the number of non-zero cells of f.
func setCells(f Filter) int {
	st := f.Stats()
	return int(st.FillRatio*float64(st.Cells) + 0.5)
}

// TestFreshCellsDistinct: FreshCells is exactly the number of cells the
// add turns from zero to non-zero, also for digests two of whose probes
// land on the same zero cell, which count once. Small filters make such
// digests common; the test finds them by search over random keys and
// checks that it met some, for every variant whose probes can coincide.
func TestFreshCellsDistinct(t *testing.T) {
	h := Hashing{Seed: 11}
	std, _ := NewStandard(Geometry{Bits: 64, Hashes: 7}, h)
	part, _ := NewPartitioned(Geometry{Bits: 70, Hashes: 7}, h)
	blk, _ := NewBlocked(BlockedParams{Geometry: Geometry{Bits: 1024, Hashes: 7}, BlockBits: 64, Hashing: h})
	cnt, _ := NewCounting(CountingParams{Geometry: Geometry{Bits: 64, Hashes: 7}, Hashing: h})
	for _, tc := range []struct {
		name       string
		f          Filter
		coincident bool // whether two probes can share a cell
	}{{"standard", std, true}, {"partitioned", part, false}, {"blocked", blk, true}, {"counting", cnt, true}} {
		fc := tc.f.(FreshCounter)
		collided := 0
		for round := range 200 {
			tc.f.Reset()
			for i, key := range testKeys(uint64(round), 3, 6) {
				d := h.Digest(key)
				fresh := fc.FreshCells(d)
				if i == 0 && fresh < tc.f.Stats().Hashes {
					collided++ // an empty filter: every probe is on a zero cell
				}
				before := setCells(tc.f)
				tc.f.AddDigest(d)
				if got := setCells(tc.f) - before; got != fresh {
					t.Fatalf("%s, round %d, key %d: FreshCells %d, the add set %d cells", tc.name, round, i, fresh, got)
				}
			}
		}
		if tc.coincident && collided == 0 {
			t.Errorf("%s: no digest with coinciding fresh probes in 200 empty filters", tc.name)
		}
		if !tc.coincident && collided != 0 {
			t.Errorf("%s: %d digests with fewer than k fresh cells on an empty filter", tc.name, collided)
		}
	}
}

// TestFreshCellsCollision constructs, by search, a digest two of whose k
// probes land on the same cell of an empty standard filter (checked with
// Hashing.Indexes) and checks that FreshCells counts that cell once.
func TestFreshCellsCollision(t *testing.T) {
	h := Hashing{Seed: 2}
	const m, k = 1000, 7
	f, _ := NewStandard(Geometry{Bits: m, Hashes: k}, h)
	for i, key := range testKeys(9, 1, 100_000) {
		d := h.Digest(key)
		idx := h.Indexes(nil, d, k, m)
		distinct := map[uint64]bool{}
		for _, x := range idx {
			distinct[x] = true
		}
		if len(distinct) == k {
			continue
		}
		if got := f.FreshCells(d); got != len(distinct) {
			t.Fatalf("key %d: probes %v, %d distinct, FreshCells %d", i, idx, len(distinct), got)
		}
		return
	}
	t.Fatal("no digest with coinciding probes among 100,000 keys")
}

// TestFreshCellsAllocs: FreshCells allocates nothing for the usual k.
func TestFreshCellsAllocs(t *testing.T) {
	h := Hashing{Seed: 1}
	s, _ := NewStandardFor(1000, 0.01, h)
	b, _ := NewBlockedFor(1000, 0.01, h)
	c, _ := NewCountingFor(1000, 0.01, h)
	p, _ := NewPartitionedFor(1000, 0.01, h)
	r, _ := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 100, Seed: 8})
	d := h.Digest([]byte("key"))
	for _, f := range []FreshCounter{s, b, c, p, r} {
		if n := testing.AllocsPerRun(100, func() { f.FreshCells(d) }); n != 0 {
			t.Errorf("%T: %v allocations per FreshCells", f, n)
		}
	}
}
