package variants

import "testing"

// TestGrowingLines: the lines a query of a dynamic or RedisBloom filter
// reads come from the query's own probes: a key that tests present reads
// at least one line and at most one per probe of every stage up to the
// one that holds it; a key that tests absent at least one line per stage
// (the stages are separate tables) and at most one per probe.
func TestGrowingLines(t *testing.T) {
	d, err := NewDynamic(DynamicParams{N: 500, P: 0.01, Hashing: Hashing{Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 500, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	keys := testKeys(63, 1, 3000)
	for _, k := range keys {
		d.Add(k)
		r.Add(k)
	}
	for _, c := range []struct {
		name string
		f    interface {
			LinesHash(Digest) int
			ContainsHash(Digest) bool
		}
		h      Hashing
		stages int
		hashes int // the most probes of one stage
	}{
		{"dynamic", d, d.Hashing(), d.Stages(), d.Stats().Hashes},
		{"redisbloom", r, r.Hashing(), r.Links(), r.Stats().Hashes},
	} {
		var absent float64
		others := testKeys(63, 2, 2000)
		for _, k := range others {
			dg := c.h.Sum(k)
			n := c.f.LinesHash(dg)
			if low := c.stages; c.f.ContainsHash(dg) {
				low = 1
				if n < low || n > c.stages*c.hashes {
					t.Fatalf("%s: false positive reads %d lines", c.name, n)
				}
			} else if n < low || n > c.stages*c.hashes {
				t.Fatalf("%s: absent key reads %d lines, %d stages of up to %d probes", c.name, n, c.stages, c.hashes)
			}
			absent += float64(n)
		}
		for _, k := range keys[:500] {
			if n := c.f.LinesHash(c.h.Sum(k)); n < 1 || n > c.stages*c.hashes {
				t.Fatalf("%s: present key reads %d lines", c.name, n)
			}
		}
		t.Logf("%s: %d stages, absent key %.2f lines", c.name, c.stages, absent/float64(len(others)))
	}
}
