package variants_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/variants"
)

// A filter sized for a capacity and a target false-positive rate.
func ExampleNewStandardFor() {
	f, err := variants.NewStandardFor(1_000_000, 0.01, variants.Hashing{})
	if err != nil {
		fmt.Println(err)
		return
	}
	f.Add([]byte("https://example.com/"))
	fmt.Println(f.Contains([]byte("https://example.com/")))
	g := f.Geometry()
	fmt.Printf("m = %d bits, k = %d\n", g.Bits, g.Hashes)
	rate, _ := f.Model().FPR(f.Stats().Items)
	fmt.Printf("theory now: %.2g\n", rate)
	// Output:
	// true
	// m = 9585059 bits, k = 7
	// theory now: 1.1e-43
}

// Hash a key once and query several filters that share the hashing with
// the digest.
func ExampleHashing_Digest() {
	h := variants.Hashing{Seed: 42}
	a, _ := variants.NewStandard(variants.Geometry{Bits: 1 << 16, Hashes: 5}, h)
	b, _ := variants.NewPartitioned(variants.Geometry{Bits: 1 << 16, Hashes: 5}, h)
	d := h.Digest([]byte("key"))
	a.AddDigest(d)
	b.AddDigest(d)
	fmt.Println(a.Contains([]byte("key")), b.Contains([]byte("key")))
	// Output: true true
}

// Parameters from users are checked: an impossible rate is an error, not
// a panic or a silently different filter.
func ExampleNewStandardFor_invalid() {
	_, err := variants.NewStandardFor(1000, 1.5, variants.Hashing{})
	fmt.Println(err)
	// Output: variants: invalid parameters: false-positive rate p = 1.5, want 0 < p < 1
}

// Stats reports geometry and load as plain data.
func ExampleStandard_Stats() {
	f, _ := variants.NewStandardFor(1000, 0.01, variants.Hashing{})
	for i := range 1000 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	st := f.Stats()
	fmt.Printf("%s: m=%d k=%d items=%d fill=%.2f\n", st.Variant, st.Bits, st.Hashes, st.Items, st.FillRatio)
	// Output: standard: m=9586 k=7 items=1000 fill=0.52
}
