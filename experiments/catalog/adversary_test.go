package catalog

import (
	"context"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// TestWithSeed: unkeyed hashing takes the seed; keyed hashing keeps seed 0
// and gets a valid key that depends on the seed.
func TestWithSeed(t *testing.T) {
	if h := experiments.SeedHashing(variants.Hashing{Kind: variants.Metro}, 7); h.Seed != 7 || h.Key != (variants.HashKey{}) {
		t.Errorf("metro: %+v", h)
	}
	a := experiments.SeedHashing(variants.Hashing{Kind: variants.SipHash}, 7)
	b := experiments.SeedHashing(variants.Hashing{Kind: variants.SipHash}, 8)
	if a.Seed != 0 || a.Key == (variants.HashKey{}) || a.Key == b.Key || a != experiments.SeedHashing(variants.Hashing{Kind: variants.SipHash}, 7) {
		t.Errorf("keyed: seed %d, keys differ %v, reproducible %v", a.Seed, a.Key != b.Key, a == experiments.SeedHashing(variants.Hashing{Kind: variants.SipHash}, 7))
	}
	if _, err := variants.NewStandardFor(10, 0.01, a); err != nil {
		t.Error(err)
	}
}

// TestAdversary runs the adversary experiment at a small size and checks
// what it exists to show: chosen keys raise the rate of every attacked
// variant several times over random keys, while against a keyed filter
// the same attacker's rate stays within 4 standard errors of the theory
// (the t interval's half-width over 1.96 estimating one); forged keys all
// test present with known hashing, and at the filter's rate against a
// keyed one; removing forged keys from a counting filter loses many more
// members than removing random or blindly forged ones.
func TestAdversary(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds; TestEveryExperiment runs the experiment at a tiny size")
	}
	r, err := Run(context.Background(), "adversary", "all", experiments.Params{N: 1000, Filters: 8, Queries: 10_000}, experiments.Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	row := func(series string, removals uint64) *experiments.Row {
		t.Helper()
		for i := range r.Rows {
			if r.Rows[i].Series == series && r.Rows[i].Removals == removals {
				return &r.Rows[i]
			}
		}
		t.Fatalf("no row %q", series)
		return nil
	}
	within := func(x *experiments.Row) {
		t.Helper()
		se := (x.Hi - x.Lo) / 2 / 1.96
		if math.Abs(x.Rate-x.Theory) > 4*se {
			t.Errorf("%s: rate %.4g, theory %.4g, %.1f standard errors apart", x.Series, x.Rate, x.Theory, (x.Rate-x.Theory)/se)
		}
	}
	for _, v := range adversaryVariants {
		rnd, ch, ky := row(v+": "+attackRandom, 0), row(v+": "+attackChosen, 0), row(v+": "+attackChosenKeyed, 0)
		within(rnd)
		within(ky)
		if ch.Lo < 2*rnd.Hi {
			t.Errorf("%s: chosen keys give %.4g [%.4g, %.4g], random %.4g [%.4g, %.4g]: want at least twice", v, ch.Rate, ch.Lo, ch.Hi, rnd.Rate, rnd.Lo, rnd.Hi)
		}
		within(row(v+": "+attackForgeOffline, 0))
		within(row(v+": "+attackForgedKeyed, 0))
		if on := row(v+": "+attackForgedOnline, 0); on.Rate != 1 {
			t.Errorf("%s: %.4g of the keys forged with known hashing test present, want all", v, on.Rate)
		}
	}
	n := uint64(1000)
	forged, random, keyed := row("counting: "+attackRemoveForged, n/10), row("counting: "+attackRemoveRandom, n/10), row("counting: "+attackRemoveKeyed, n/10)
	if forged.Removed != float64(n/10) {
		t.Errorf("%v of %d forged keys removed, want all", forged.Removed, n/10)
	}
	if forged.Lo < 10*math.Max(random.Hi, keyed.Hi) {
		t.Errorf("removing forged keys loses %.4g of the members, random %.4g, blindly forged %.4g: want 10 times more", forged.Rate, random.Rate, keyed.Rate)
	}
}
