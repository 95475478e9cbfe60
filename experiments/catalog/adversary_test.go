package catalog

import (
	"context"
	"errors"
	"math"
	"slices"
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
// what it exists to show: chosen keys (the best of T = 1000 candidates)
// raise the rate of every attacked variant several times over random
// keys, while with T = 1 (random candidates) and against a keyed filter
// the rate stays within 4 standard errors of the theory for random keys
// (the t interval's half-width over 1.96 estimating one); for a standard
// filter every T's rate lies within 4 standard errors of the greedy
// attacker's theory; forged keys all test present with known hashing,
// and at the filter's rate against a keyed one; removing forged keys from
// a counting filter loses many more members than removing random or
// blindly forged ones.
func TestAdversary(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds; TestEveryExperiment runs the experiment at a tiny size")
	}
	r, err := Run(context.Background(), "adversary", "all", experiments.Params{N: 1000, Filters: 8, Queries: 10_000}, experiments.Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	row := func(series string, removals, candidates uint64) *experiments.Row {
		t.Helper()
		for i := range r.Rows {
			if x := &r.Rows[i]; x.Series == series && x.Removals == removals && x.Candidates == candidates {
				return x
			}
		}
		t.Fatalf("no row %q with T = %d", series, candidates)
		return nil
	}
	within := func(x *experiments.Row) {
		t.Helper()
		se := (x.Hi - x.Lo) / 2 / 1.96
		if x.Model == "" {
			t.Errorf("%s, T = %d: no theory", x.Series, x.Candidates)
		}
		if math.Abs(x.Rate-x.Theory) > 4*se {
			t.Errorf("%s, T = %d: rate %.4g, theory %.4g, %.1f standard errors apart", x.Series, x.Candidates, x.Rate, x.Theory, (x.Rate-x.Theory)/se)
		}
	}
	for _, v := range adversaryVariants {
		rnd, ch, ky := row(v+": "+attackRandom, 0, 0), row(v+": "+attackChosen, 0, 1000), row(v+": "+attackChosenKeyed, 0, 1000)
		within(rnd)
		within(ky)
		within(row(v+": "+attackChosen, 0, 1))
		if v == "standard" {
			for _, tt := range adversaryCandidates {
				x := row(v+": "+attackChosen, 0, tt)
				within(x)
				if tt > 1 && x.Model != pollutionModel {
					t.Errorf("T = %d: model %q", tt, x.Model)
				}
			}
		}
		if ch.Lo < 2*rnd.Hi {
			t.Errorf("%s: chosen keys give %.4g [%.4g, %.4g], random %.4g [%.4g, %.4g]: want at least twice", v, ch.Rate, ch.Lo, ch.Hi, rnd.Rate, rnd.Lo, rnd.Hi)
		}
		within(row(v+": "+attackForgeOffline, 0, 0))
		within(row(v+": "+attackForgedKeyed, 0, 0))
		if on := row(v+": "+attackForgedOnline, 0, 0); on.Rate != 1 {
			t.Errorf("%s: %.4g of the keys forged with known hashing test present, want all", v, on.Rate)
		}
	}
	n := uint64(1000)
	forged, random, keyed := row("counting: "+attackRemoveForged, n/10, 0), row("counting: "+attackRemoveRandom, n/10, 0), row("counting: "+attackRemoveKeyed, n/10, 0)
	if forged.Removed != float64(n/10) {
		t.Errorf("%v of %d forged keys removed, want all", forged.Removed, n/10)
	}
	if forged.Lo < 10*math.Max(random.Hi, keyed.Hi) {
		t.Errorf("removing forged keys loses %.4g of the members, random %.4g, blindly forged %.4g: want 10 times more", forged.Rate, random.Rate, keyed.Rate)
	}
}

// TestAdversaryCandidates: T is a parameter; a run with other T has one
// chosen row per T, bad T are refused, and the quick defaults are smaller.
func TestAdversaryCandidates(t *testing.T) {
	r, err := Run(context.Background(), "adversary", "standard", experiments.Params{N: 200, Filters: 2, Queries: 1000, Candidates: []uint64{3, 30}}, experiments.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var ts []uint64
	for _, x := range r.Rows {
		if x.Series == "standard: "+attackChosen {
			ts = append(ts, x.Candidates)
		}
		if x.Series == "standard: "+attackChosenKeyed && x.Candidates != 30 {
			t.Errorf("keyed row with T = %d, want the largest, 30", x.Candidates)
		}
	}
	if len(ts) != 2 || ts[0] != 3 || ts[1] != 30 {
		t.Errorf("chosen rows with T = %v, want [3 30]", ts)
	}
	for _, bad := range [][]uint64{{0}, {5, 5}, {maxCandidates + 1}} {
		if _, err := Run(context.Background(), "adversary", "standard", experiments.Params{N: 200, Filters: 2, Queries: 1000, Candidates: bad}, experiments.Options{Seed: 1}); !errors.Is(err, experiments.ErrInvalidParams) {
			t.Errorf("T = %v: error %v, want ErrInvalidParams", bad, err)
		}
	}
	e, _ := Lookup("adversary")
	q, d := e.Defaults("all", true), e.Defaults("all", false)
	if q.N >= d.N || q.Filters >= d.Filters || slices.Max(q.Candidates) >= slices.Max(d.Candidates) {
		t.Errorf("quick defaults %+v are not smaller than %+v", q, d)
	}
}
