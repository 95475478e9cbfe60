package catalog_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// The rate of variants.Standard under each derivation, fed uniform
// digests from a seeded generator, against analysis.DerivationFPR
// (paper-notes.md §13e1), within 4 standard errors from the between-filter
// spread. At 1024 bits, 8 hashes and 50 keys plain double hashing has
// twice the rate of independent probes; analysis's own tests check the
// model against the derivations written out, this one that the filters
// derive as written.
func TestDerivationRateOfStandard(t *testing.T) {
	for i, c := range []struct {
		m, n       uint64
		k          int
		derivation variants.Derivation
		filters    int
	}{
		{1024, 50, 8, variants.Double, 200},
		{256, 32, 6, variants.Double, 200},
		{256, 32, 6, variants.Triple, 200},
		{1024, 50, 8, variants.EnhancedDouble, 200},
	} {
		t.Run(fmt.Sprintf("%v/m=%d/n=%d/k=%d", c.derivation, c.m, c.n, c.k), func(t *testing.T) {
			f, err := variants.NewStandard(variants.Geometry{Bits: c.m, Hashes: c.k}, variants.Hashing{Derivation: c.derivation})
			if err != nil {
				t.Fatal(err)
			}
			const queries = 10_000
			var sum, sum2 float64
			for j := range c.filters {
				r := rand.New(rand.NewPCG(uint64(i)+1, uint64(j)))
				f.Reset()
				for range c.n {
					f.AddDigest(variants.Digest{H1: r.Uint64(), H2: r.Uint64()})
				}
				hits := 0
				for range queries {
					if f.ContainsDigest(variants.Digest{H1: r.Uint64(), H2: r.Uint64()}) {
						hits++
					}
				}
				rate := float64(hits) / queries
				sum += rate
				sum2 += rate * rate
			}
			F := float64(c.filters)
			mean := sum / F
			se := math.Sqrt(math.Max(sum2/F-mean*mean, 0) / (F - 1))
			want, err := analysis.DerivationFPR(c.m, c.n, c.k, c.derivation.String())
			if err != nil {
				t.Fatal(err)
			}
			exact := analysis.ExactFPR(c.m, c.n, c.k)
			if z := (mean - want) / se; math.Abs(z) > 4 {
				t.Errorf("measured %.5g ± %.2g, model %.5g (z %+.2f), ExactFPR %.5g", mean, se, want, z, exact)
			}
			t.Logf("measured %.5g ± %.2g, model %.5g (z %+.2f), ExactFPR %.5g (z %+.2f)", mean, se, want, (mean-want)/se, exact, (mean-exact)/se)
		})
	}
}
